/**
 * JUnit XML for CI test-report views (GitLab, Jenkins, Azure DevOps...).
 *
 * One `<testsuite>` per module (named by its path relative to the working
 * directory) and one `<testcase>` per rule that applies to the module's
 * role: a rule is a check the module passes or fails, which is how these
 * views present tests. A rule with findings at or above the run's `failOn`
 * severity has a `<failure>` listing them (one `path:line:col: severity:
 * message` line each); findings below the threshold and suppressed ones are
 * listed in `<system-out>` of a passing test case. A module with no
 * applicable rule still gets one passing test case, so an empty report is
 * never mistaken for a missing one. A file or directory that cannot be read
 * is a `read-error` test case in error (`errors` counts them), in its
 * module's suite or in a suite of its own. A rule that failed (threw, or
 * reported something that is no finding) fails its own test case, with a
 * `rule-error` failure (and its findings, if it made any), so a view never
 * shows it as passed; more warnings than
 * `--max-warnings` is a failing `max-warnings` case, and findings `--quiet`
 * hid that fail the run a failing `hidden-by-quiet` case of the module. No timestamps or durations: the output
 * is deterministic (`time="0"`).
 */
import { problemId, type FormatOptions, type ModuleReport, type ReadProblem, type RunReport } from "../lint/result.js";
import type { Finding, Severity } from "../lint/types.js";
import { displayPath, failsRun, hasPosition, oneLine, plural, problemPath, quietFailureText, warningLimitText } from "./util.js";
import { SEVERITY_RANK } from "../lint/types.js";
import { escapeXml, escapeXmlText, XML_DECLARATION } from "./xml.js";

interface Case {
  xml: string[];
  failed: boolean;
}

function findingLine(run: RunReport, mod: ModuleReport, f: Finding): string {
  const where = displayPath(run.cwd, mod, f.file);
  const pos = hasPosition(f) ? `${f.range.start.line}:${f.range.start.column}` : "0:0";
  const sup = f.suppressed ? ` (suppressed${f.suppressed.justification ? `: ${oneLine(f.suppressed.justification)}` : ""})` : "";
  return `${where}:${pos}: ${f.severity}: ${oneLine(f.message)}${sup}`;
}

/** Rule ids to report for a module: applicable rules in registry order, then any other id found. */
function caseIds(run: RunReport, mod: ModuleReport): string[] {
  const ids = run.rules.filter((r) => r.roles.includes(mod.role)).map((r) => r.id);
  const seen = new Set(ids);
  for (const f of mod.findings) {
    if (!seen.has(f.ruleId)) {
      seen.add(f.ruleId);
      ids.push(f.ruleId);
    }
  }
  return ids;
}

function testCase(run: RunReport, mod: ModuleReport, suiteName: string, id: string, ruleErrors: readonly ReadProblem[]): Case {
  const findings = mod.findings.filter((f) => f.ruleId === id);
  const failing = findings.filter((f) => !f.suppressed && failsRun(f.severity, run.failOn));
  const other = findings.filter((f) => !failing.includes(f));
  const open = `    <testcase name="${escapeXml(id)}" classname="${escapeXml(suiteName)}" time="0"`;
  if (findings.length === 0 && ruleErrors.length === 0) return { xml: [`${open}/>`], failed: false };
  const xml = [`${open}>`];
  if (ruleErrors.length > 0) {
    // The rule failed: its test case fails, whatever it reported before.
    const message = ruleErrors.length === 1 ? oneLine(ruleErrors[0]!.message) : plural(ruleErrors.length, "rule failure");
    const body = [...ruleErrors.map((e) => oneLine(e.message)), ...failing.map((f) => findingLine(run, mod, f))].join("\n");
    xml.push(`      <failure message="${escapeXml(message)}" type="rule-error">${escapeXmlText(body)}</failure>`);
  } else if (failing.length > 0) {
    const worst = failing.reduce<Severity>(
      (acc, f) => (SEVERITY_RANK[f.severity] > SEVERITY_RANK[acc] ? f.severity : acc),
      "info",
    );
    const message = failing.length === 1 ? oneLine(failing[0].message) : plural(failing.length, "problem");
    const body = failing.map((f) => findingLine(run, mod, f)).join("\n");
    xml.push(`      <failure message="${escapeXml(message)}" type="${worst}">${escapeXmlText(body)}</failure>`);
  }
  if (other.length > 0) {
    const body = other.map((f) => findingLine(run, mod, f)).join("\n");
    xml.push(`      <system-out>${escapeXmlText(body)}</system-out>`);
  }
  xml.push("    </testcase>");
  return { xml, failed: failing.length > 0 || ruleErrors.length > 0 };
}

/** A test case in error for each path that could not be read. */
function readErrorCases(run: RunReport, suiteName: string, errors: readonly ReadProblem[]): string[] {
  return errors.map(
    (e) =>
      `    <testcase name="${problemId(e)}" classname="${escapeXml(suiteName)}" time="0">\n` +
      `      <error message="${escapeXml(oneLine(e.message))}" type="${problemId(e)}">${escapeXmlText(problemPath(run.cwd, e))}</error>\n` +
      "    </testcase>",
  );
}

export function formatJunit(run: RunReport, _opts: FormatOptions): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const allErrors = run.readErrors ?? [];
  for (const mod of run.modules) {
    const name = displayPath(run.cwd, mod, "");
    const ids = caseIds(run, mod);
    const own = allErrors.filter((e) => e.moduleDir === mod.dir);
    // A failed rule with a test case of its own fails that case; other problems are cases in error.
    const failedRule = (e: ReadProblem): boolean => e.ruleFailure === true && e.ruleId !== undefined && ids.includes(e.ruleId);
    const cases =
      ids.length > 0
        ? ids.map((id) => testCase(run, mod, name, id, own.filter((e) => failedRule(e) && e.ruleId === id)))
        : [{ xml: [`    <testcase name="tfcapi-lint" classname="${escapeXml(name)}" time="0"/>`], failed: false }];
    // Findings --quiet hid that fail the run: a failing case, so a clean-looking suite does not hide the failure.
    const why = quietFailureText(run, [mod]);
    if (why !== null) {
      cases.push({
        xml: [
          `    <testcase name="hidden-by-quiet" classname="${escapeXml(name)}" time="0">`,
          `      <failure message="${escapeXml(why)}" type="${mod.quietHidden!.failing.warning > 0 || mod.quietHidden!.failing.info === 0 ? "warning" : "info"}">${escapeXmlText(why)}</failure>`,
          "    </testcase>",
        ],
        failed: true,
      });
    }
    const unread = readErrorCases(run, name, own.filter((e) => !failedRule(e)));
    const failed = cases.filter((c) => c.failed).length;
    tests += cases.length + unread.length;
    failures += failed;
    errors += unread.length;
    suites.push(
      `  <testsuite name="${escapeXml(name)}" tests="${cases.length + unread.length}" failures="${failed}" errors="${unread.length}" skipped="0" time="0">`,
      "    <properties>",
      `      <property name="role" value="${escapeXml(mod.role)}"/>`,
      `      <property name="roleSource" value="${escapeXml(mod.roleSource)}"/>`,
      `      <property name="fileSet" value="${escapeXml(mod.fileSet)}"/>`,
      "    </properties>",
      ...cases.flatMap((c) => c.xml),
      ...unread,
      "  </testsuite>",
    );
  }
  // Paths that gave no module: a suite each, named by the path.
  const moduleDirs = new Set(run.modules.map((m) => m.dir));
  for (const e of allErrors) {
    if (e.moduleDir !== undefined && moduleDirs.has(e.moduleDir)) continue;
    const name = problemPath(run.cwd, e);
    tests += 1;
    errors += 1;
    suites.push(`  <testsuite name="${escapeXml(name)}" tests="1" failures="0" errors="1" skipped="0" time="0">`, ...readErrorCases(run, name, [e]), "  </testsuite>");
  }
  if (run.warningLimit) {
    const message = warningLimitText(run.warningLimit);
    tests += 1;
    failures += 1;
    suites.push(
      `  <testsuite name="tfcapi-lint" tests="1" failures="1" errors="0" skipped="0" time="0">`,
      `    <testcase name="max-warnings" classname="tfcapi-lint" time="0">`,
      `      <failure message="${escapeXml(message)}" type="warning">${escapeXmlText(message)}</failure>`,
      "    </testcase>",
      "  </testsuite>",
    );
  }
  return [
    XML_DECLARATION,
    `<testsuites name="tfcapi-lint" tests="${tests}" failures="${failures}" errors="${errors}" time="0">`,
    ...suites,
    "</testsuites>",
  ].join("\n") + "\n";
}

/**
 * GitHub Actions workflow commands: each unsuppressed finding becomes an
 * `::error`, `::warning` or `::notice` (for info) annotation.
 *
 *   ::error file=modules/pool/outputs.tf,line=12,col=11,endLine=12,endColumn=20,title=output/health::message
 *
 * Paths are relative to `GITHUB_WORKSPACE` (from `opts.env`), else to the
 * working directory. A finding about the module as a whole has no file
 * position; its annotation carries no `file` and its message starts with the
 * module path; one about a whole file (line 0) names the file without a
 * line.
 *
 * A file or directory that cannot be read is an `::error` (with `file=` for
 * a file), before the findings.
 *
 * GitHub keeps only 10 annotations of each type per step, so errors are
 * printed first, then warnings, then notices, 10 of each at most; for each
 * type with more, one plain line says how many were left out. A plain summary
 * line per module follows.
 *
 * The full list goes to the job summary: `writeStepSummary(run, env)`
 * (step-summary.ts) appends a Markdown table of every finding to the file
 * named by `GITHUB_STEP_SUMMARY`. That is the one side effect of this format
 * and it is a separate function (the CLI calls it after printing the
 * annotations); `formatGithub` itself is pure.
 */
import { problemId, type FormatOptions, type ModuleReport, type RunReport } from "../lint/result.js";
import type { Finding, Severity } from "../lint/types.js";
import {
  displayPath,
  countsText,
  githubBaseDir,
  hasPosition,
  isModuleLevel,
  quietFailureText,
  baselinedText,
  relativePath,
  roleSourceText,
  suppressedFindings,
  visibleFindings,
} from "./util.js";

/** GitHub shows at most this many annotations of one type per step. */
export const ANNOTATIONS_PER_TYPE = 10;

const COMMAND: Record<Severity, "error" | "warning" | "notice"> = {
  error: "error",
  warning: "warning",
  info: "notice",
};
const ORDER: Severity[] = ["error", "warning", "info"];
const TYPE_NAME: Record<Severity, [string, string]> = {
  error: ["error", "errors"],
  warning: ["warning", "warnings"],
  info: ["notice", "notices"],
};

/** Escapes a command's message (actions/toolkit `escapeData`). */
export function escapeData(value: string): string {
  return value.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a command property value (actions/toolkit `escapeProperty`). */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, "%3A").replace(/,/g, "%2C");
}


function annotation(base: string, mod: ModuleReport, f: Finding): string {
  const command = COMMAND[f.severity];
  if (isModuleLevel(f)) {
    const where = displayPath(base, mod, "");
    return `::${command} title=${escapeProperty(f.ruleId)}::${escapeData(`${where}: ${f.message}`)}`;
  }
  const file = `file=${escapeProperty(displayPath(base, mod, f.file))}`;
  if (!hasPosition(f)) return `::${command} ${file},title=${escapeProperty(f.ruleId)}::${escapeData(f.message)}`;
  const props = [
    file,
    `line=${f.range.start.line}`,
    `col=${f.range.start.column}`,
    `endLine=${Math.max(f.range.end.line, f.range.start.line)}`,
    `endColumn=${f.range.end.column}`,
    `title=${escapeProperty(f.ruleId)}`,
  ];
  return `::${command} ${props.join(",")}::${escapeData(f.message)}`;
}

/** A plain log line must not be read as a workflow command. */
function plain(line: string): string {
  const safe = line.replace(/\r\n|\r|\n/g, " ");
  return safe.startsWith("::") ? ` ${safe}` : safe;
}

export function formatGithub(run: RunReport, opts: FormatOptions): string {
  const env = opts.env ?? process.env;
  const base = githubBaseDir(run, env);
  const bySeverity: Record<Severity, string[]> = { error: [], warning: [], info: [] };
  for (const mod of run.modules) {
    for (const f of visibleFindings(mod)) bySeverity[f.severity].push(annotation(base, mod, f));
  }
  // What could not be read comes first: it is why the run is incomplete.
  const unread = (run.readErrors ?? []).map((e) => {
    const title = `tfcapi-lint ${problemId(e).replace("-", " ")}`;
    return e.directory
      ? `::error title=${title}::${escapeData(e.message)}`
      : `::error file=${escapeProperty(relativePath(base, e.path))},title=${title}::${escapeData(e.message)}`;
  });
  // Findings --quiet hid that fail the run: the step fails, so the log says why.
  const hiddenFailures = run.modules.flatMap((mod) => {
    const why = quietFailureText(run, [mod]);
    return why === null ? [] : [`::error title=tfcapi-lint::${escapeData(`${displayPath(base, mod, "")}: ${why}`)}`];
  });
  bySeverity.error.unshift(...unread, ...hiddenFailures);
  const lines: string[] = [];
  for (const sev of ORDER) lines.push(...bySeverity[sev].slice(0, ANNOTATIONS_PER_TYPE));
  for (const sev of ORDER) {
    const left = bySeverity[sev].length - ANNOTATIONS_PER_TYPE;
    if (left > 0) {
      const noun = TYPE_NAME[sev][left === 1 ? 0 : 1];
      lines.push(
        plain(
          `tfcapi-lint: ${left} more ${noun} not annotated (GitHub shows ${ANNOTATIONS_PER_TYPE} per step); see the job summary or another format for the full list`,
        ),
      );
    }
  }
  for (const mod of run.modules) {
    const suppressed = suppressedFindings(mod).length;
    const known = run.baseline && (mod.baselined?.length ?? 0) > 0 ? `, ${baselinedText(mod.baselined!.length)}` : "";
    const sup = (suppressed > 0 ? `, ${suppressed} suppressed` : "") + known;
    const why = quietFailureText(run, [mod]);
    const hidden = why !== null ? `; ${why}` : "";
    lines.push(plain(`tfcapi-lint: ${displayPath(base, mod, "")} (role ${mod.role}, ${roleSourceText(mod)}): ${countsText(mod.summary)}${sup}${hidden}`));
  }
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}

export { markdownCell, stepSummaryMarkdown, writeStepSummary } from "./step-summary.js";

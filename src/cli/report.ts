/**
 * The end of a lint run: the modules' outcomes become one run report
 * (what --recursive skipped said on stderr, what could not be read listed,
 * --quiet and the warning limit applied), which is written in the format
 * asked for, to stdout or files; then the exit code.
 */
import * as path from "node:path";
import { recount, severityAtLeast, type ReadError } from "../lint/engine.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { failSettingText, quietFilter, roleSourceText, type ModuleReport, type RunReport, type WarningLimit } from "../lint/result.js";
import type { Severity } from "../lint/types.js";
import { baselineNotes, quietFailureText } from "../report/util.js";
import { useColor } from "../report/color.js";
import { repositoryRootOf } from "../config/repository.js";
import { type CliArgs, UsageError } from "./args.js";
import { toolVersion } from "./commands.js";
import { FixTally } from "./fix-run.js";
import { loadFormatter, writeReports, writeStepSummary } from "./formats.js";
import { EXIT_FINDINGS, EXIT_OK, EXIT_READ, EXIT_USAGE, type Io } from "./io.js";
import type { LintedTarget, ModuleOutcome } from "./lint-module.js";
import type { ModulePlan } from "./module-plans.js";
import { joinDisplay, realOf } from "./paths.js";
import { sayEmptyWalks, type Targets } from "./targets.js";
import { applyBaseline } from "./baseline.js";

/** The modules' reports as shown, and what decides the exit code. */
interface Collected {
  modules: ModuleReport[];
  /** What --quiet hides still goes to the --full-report files. */
  fullModules: ModuleReport[];
  failed: boolean;
  /** --fix-dry-run's diffs. */
  diffs: string;
  warnings: number;
  hiddenWarnings: number;
  /** The lowest warning limit of the modules' settings. */
  maxWarnings: { value: number; origin: string } | null;
  /** A module found, not named, matched two roles equally (exit 3). */
  roleUnknown: boolean;
}

/**
 * Reports the run's modules (in plan order) and returns the exit code; the
 * reports' rule metadata comes from `catalogue`, the run's (every module's
 * config's rules). Throws UsageError for a named module whose role cannot be told.
 */
export async function reportRun(args: CliArgs, io: Io, format: string, found: Targets, plans: readonly ModulePlan[], linted: readonly LintedTarget[], catalogue: RuleCatalogue): Promise<number> {
  const fixes = new FixTally(args.fixUnsafe ? "all" : "safe");
  const { results, reported } = shownResults(found, plans, linted, fixes);
  // The unsafe fixes --fix left, counted once per module shown (a local child is part of its parent's report).
  if (args.fix) for (const r of results) if (r.outcome.kind === "report") fixes.countLeft(r.outcome.report);
  // The baseline stage: baselined findings leave `findings` before anything is counted.
  const baseline = applyBaseline(args, io.cwd, results.flatMap((r) => (r.outcome.kind === "report" ? [{ plan: r.plan, report: r.outcome.report, complete: r.outcome.readErrors.length === 0 }] : [])));
  const c = collect(args, io, found, results, fixes);
  sayEmptyWalks(found, reported, io);
  const problems = found.problems;
  const warningLimit = warningLimitOf(c);
  const failOn: Severity = plans[0]?.lint.effective.failOn.value ?? (args.strict ? "warning" : "error");
  const run: RunReport = {
    modules: c.modules,
    ...(problems.length > 0 ? { readErrors: problems } : {}),
    ...(warningLimit ? { warningLimit } : {}),
    ...(baseline ? { baseline } : {}),
    rules: catalogue.lint,
    cwd: path.resolve(io.cwd),
    repoRoot: repoRootOf(io.cwd, io.env),
    // Read from package.json only by a formatter that shows it (SARIF).
    get toolVersion() {
      return toolVersion();
    },
    failOn,
  };
  const full: RunReport = args.quiet && args.fullReport.length > 0 ? { ...run, modules: c.fullModules } : run;
  if (!(await writeRun(run, format, args, io, { full, diffs: c.diffs, roleNotes: !args.quiet }))) return EXIT_READ;
  for (const w of baseline?.written ?? []) {
    io.stderr(`tfcapi-lint: ${w.changed ? "wrote" : "unchanged:"} baseline ${w.file} (${w.entries} ${w.entries === 1 ? "entry" : "entries"})\n`);
  }
  const fixWriteFailed = fixes.print(io.stderr, args.fix, args.fixDryRun);
  if (problems.length > 0) {
    for (const e of problems) io.stderr(`tfcapi-lint: ${e.message}\n`);
    return c.roleUnknown ? EXIT_USAGE : EXIT_READ;
  }
  return fixWriteFailed ? EXIT_READ : c.failed || warningLimit ? EXIT_FINDINGS : EXIT_OK;
}

/**
 * The outcomes to report, with --fix's tally recorded. With --recursive (or
 * module files named one by one), a directory another linted module loads
 * as a local child is reported as part of that module, not on its own.
 */
function shownResults(found: Targets, plans: readonly ModulePlan[], linted: readonly LintedTarget[], fixes: FixTally): { results: { plan: ModulePlan; outcome: ModuleOutcome }[]; reported: Set<string> } {
  const nested = new Set<string>();
  const all: { plan: ModulePlan; outcome: ModuleOutcome }[] = [];
  // Real directories of the modules reported, on their own or as a local child of one.
  const reported = new Set<string>();
  for (const [i, plan] of plans.entries()) {
    const one = linted[i]!;
    if (one.skipped) continue;
    if (one.fixed) fixes.record(plan.target.display, one.fixed);
    if (found.nesting) for (const dir of one.nested) nested.add(realOf(dir));
    if (one.outcome.kind === "report") {
      reported.add(realOf(plan.target.dir));
      for (const dir of one.nested) reported.add(realOf(dir));
    }
    all.push({ plan, outcome: one.outcome });
  }
  return { results: all.filter((r) => !nested.has(realOf(r.plan.target.dir))), reported };
}

/** Each module's report as shown (and what --quiet hid), the run's problems added to `found.problems`. */
function collect(args: CliArgs, io: Io, found: Targets, results: readonly { plan: ModulePlan; outcome: ModuleOutcome }[], fixes: FixTally): Collected {
  const problems = found.problems;
  const c: Collected = { modules: [], fullModules: [], failed: false, diffs: "", warnings: 0, hiddenWarnings: 0, maxWarnings: null, roleUnknown: false };
  for (const { plan, outcome } of results) {
    if (outcome.kind === "usage-error") {
      // --recursive walks whole repositories, which also hold modules that
      // are not CAPTF role modules (shared helpers, modules of other
      // tools, test wrappers, a root with only versions.tf): one that
      // shows no role, or too little evidence of one, is skipped with a
      // note rather than stopping the run; so is the directory of a module
      // file named on its own (pre-commit). One that matches two roles
      // equally is reported (exit 3) while every other module's results
      // are still written.
      if (plan.target.found === true) {
        if (outcome.noRole === true) {
          io.stderr(`tfcapi-lint: skipped ${plan.target.display}: ${outcome.skip ?? "no CAPTF role detected"} (set role in .tfcapi-lint.hcl or pass --role to lint it)\n`);
          continue;
        }
        c.roleUnknown = true;
        problems.push({ path: plan.target.dir, directory: true, message: `${plan.target.display}: not linted: ${outcome.message} (or set role in .tfcapi-lint.hcl)`, roleUnknown: true });
        continue;
      }
      throw new UsageError(`${plan.target.display}: ${outcome.message}`);
    }
    if (outcome.kind === "no-module") {
      problems.push({ path: plan.target.dir, directory: true, message: noModuleText(outcome.message, plan.target.display) });
      continue;
    }
    const report = outcome.report;
    for (const e of outcome.readErrors) {
      const file = e.file === "" ? report.dir : path.join(report.dir, ...e.file.split("/"));
      const shown = joinDisplay(plan.target.display, e.file);
      problems.push({ path: file, directory: e.kind === "rule-failed" || isDirectoryProblem(e), message: readErrorText(e, shown), moduleDir: report.dir, ...(e.kind === "rule-failed" ? { ruleFailure: true, ...(e.ruleId !== undefined ? { ruleId: e.ruleId } : {}) } : {}) });
    }
    // The dry run shows every fix --fix would make, baselined findings' too.
    if (args.fixDryRun) c.diffs += fixes.dryRun(report.baselined ? { ...report, findings: [...report.findings, ...report.baselined] } : report, plan.target.dir, plan.lint.options, io.cwd, plan.target.display);
    // --quiet only hides: what fails the run is decided on every finding.
    c.warnings += report.summary.warning;
    const effective = plan.lint.effective;
    const mw = effective.maxWarnings;
    if (mw.value !== null && (c.maxWarnings === null || mw.value < c.maxWarnings.value)) c.maxWarnings = { value: mw.value, origin: mw.origin };
    const failOn = effective.failOn.value;
    if (report.findings.some((f) => !f.suppressed && severityAtLeast(f.severity, failOn))) c.failed = true;
    if (args.quiet) {
      if (args.fullReport.length > 0) c.fullModules.push({ ...report });
      // The report says what the hidden findings do to the exit code.
      const q = quietFilter(report.findings, failOn, failSettingText(failOn, effective.failOn.origin));
      report.findings = q.shown;
      report.summary = recount(report.findings);
      if (q.hidden) {
        report.quietHidden = q.hidden;
        c.hiddenWarnings += q.hidden.hidden.warning;
      }
    }
    c.modules.push(report);
  }
  return c;
}

/** More warnings than the lowest limit allows fails the run; undefined when within it. */
function warningLimitOf(c: Collected): WarningLimit | undefined {
  if (c.maxWarnings === null || c.warnings <= c.maxWarnings.value) return undefined;
  return {
    warnings: c.warnings,
    max: c.maxWarnings.value,
    setting: c.maxWarnings.origin === "--max-warnings" ? "--max-warnings" : "max_warnings",
    ...(c.hiddenWarnings > 0 ? { hidden: c.hiddenWarnings } : {}),
  };
}

/**
 * Writes a run's report (module lint and image command alike): stdout or
 * `-o`, the `--also-write` and `--full-report` files, what a format has no
 * place for on stderr, the job summary. `diffs` (--fix-dry-run) go before a
 * text report on stdout, else to stderr; `roleNotes` say each module's role
 * on stderr under the compact format. Returns false when a report file could
 * not be written (said on stderr): exit 2.
 */
export async function writeRun(run: RunReport, format: string, args: CliArgs, io: Io, opts: { full?: RunReport; diffs?: string; roleNotes?: boolean } = {}): Promise<boolean> {
  const formatter = (await loadFormatter(format))!;
  const text = formatter(run, { color: useColor(args, io), env: io.env });
  // The diff goes before a text report; machine-readable stdout stays clean.
  if (opts.diffs !== undefined && opts.diffs !== "") {
    if (format === "text" && args.outputFile === undefined) io.stdout(opts.diffs);
    else io.stderr(opts.diffs);
  }
  if (!(await writeReports(run, text, args, io, opts.full ?? run))) return false;
  if (format === "compact" && opts.roleNotes === true) {
    // Compact stdout holds findings only (problem matchers read it); the
    // role used and how it was chosen go to stderr.
    for (const m of run.modules) io.stderr(`tfcapi-lint: ${m.module}: role ${m.role} (${roleSourceText(m)})\n`);
  }
  if (format === "compact" || format === "sarif" || format === "checkstyle") {
    // These formats have no place for it: findings --quiet hid that fail the run are said on stderr.
    const why = quietFailureText(run, run.modules);
    if (why !== null) io.stderr(`tfcapi-lint: ${why}\n`);
  }
  if (run.baseline && format !== "text" && format !== "json" && format !== "sarif") {
    // These formats list findings only: the baseline's expired and unmatched entries are said on stderr.
    for (const line of baselineNotes(run.baseline)) io.stderr(`tfcapi-lint: ${line}\n`);
  }
  if (format === "github") {
    const r = await writeStepSummary(run, io.env);
    if (r?.error) io.stderr(`tfcapi-lint: cannot write the job summary to ${r.path}: ${r.error}\n`);
  }
  return true;
}

/** The root report paths are relative to: the repository, else the Action's workspace, else the working directory. */
function repoRootOf(cwd: string, env: Record<string, string | undefined>): string {
  return repositoryRootOf(cwd) ?? (env.GITHUB_WORKSPACE ? path.resolve(env.GITHUB_WORKSPACE) : path.resolve(cwd));
}

/** A module directory that gave nothing to lint, in plain words. */
function noModuleText(message: string, shown: string): string {
  if (/: permission denied$/.test(message)) return `permission denied: ${shown}`;
  if (message.startsWith("cannot ")) return `cannot read directory ${shown}: ${message.slice(message.lastIndexOf(": ") + 2)}`;
  return `${shown}: ${message}`;
}

function isDirectoryProblem(e: ReadError): boolean {
  if (e.kind === "rule-failed") return false;
  return e.file === "" || e.message.startsWith("cannot list module directory");
}

/** A module file (or directory) the engine could not read, named by the path as shown. */
function readErrorText(e: ReadError, shown: string): string {
  if (e.kind === "rule-failed") return `${shown}: ${e.message}`;
  if (/: permission denied$/.test(e.message)) return `permission denied: ${shown}`;
  if (isDirectoryProblem(e)) return `cannot read directory ${shown}: ${e.message.slice(e.message.lastIndexOf(": ") + 2)}`;
  const name = e.file.slice(e.file.lastIndexOf("/") + 1);
  const at = e.message.indexOf(name);
  return at >= 0 ? e.message.slice(0, at) + shown + e.message.slice(at + name.length) : `${shown}: ${e.message}`;
}

/**
 * The lint command: resolve paths and configs, lint each module once, fix,
 * format, and compute the exit code.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { Role } from "../contract/roles-api.js";
import { describeDetection, lintModule, recount, severityAtLeast, type LintOptions, type LintOutcome, type ReadError } from "../lint/engine.js";
import { BUILTIN_RULES, LINT_REGISTRY } from "../lint/meta-rules.js";
import { failSettingText, quietFilter, roleSourceText, type ModuleReport, type ReadProblem, type RunReport, type WarningLimit } from "../lint/result.js";
import { decodeModuleText } from "../terraform/files.js";
import type { RuleDefinition, Severity } from "../lint/types.js";
import { ConfigError, ConfigResolver, type FileConfig } from "../config/load.js";
import { repositoryRootOf } from "../config/repository.js";
import { pluginRulesOf } from "../config/plugins.js";
import { effectiveConfig, printEffective, severityMap, type CliOverrides, type EffectiveConfig } from "../config/effective.js";
import { loadFormatter, writeReports, writeStepSummary } from "./formats.js";
import { quietFailureText } from "../report/util.js";
import { useColor } from "../report/color.js";
import { checkLintOptions, checkRuleFlags } from "./options.js";
import { type CliArgs, UsageError } from "./args.js";
import { fixOnDisk, FixTally, type FixSummary } from "./fix-run.js";
import { toolVersion } from "./commands.js";
import { findModuleDirs, isModuleFileName, joinDisplay, moduleDirOf, PathError, type Target } from "./paths.js";
import { DEEP_NESTING_LIMIT, lintOnDeepStack, lintOnWorkers, workersAvailable, type DeepRequest, WorkerError, type WorkerReply } from "./deep.js";
import { nestingLimitHits, setNestingLimit } from "../hcl/parser-core.js";

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The --stdin text; bytes are checked like a module file's (binary, not UTF-8). */
  readStdin(): Promise<string | Uint8Array>;
  env: Record<string, string | undefined>;
  cwd: string;
  isTTY: boolean;
  /** Whether stderr is a terminal (image pull progress); looked up when absent. */
  stderrIsTTY?: boolean;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_READ = 2;
export const EXIT_USAGE = 3;

function repoRootOf(cwd: string, env: Record<string, string | undefined>): string {
  return repositoryRootOf(cwd) ?? (env.GITHUB_WORKSPACE ? path.resolve(env.GITHUB_WORKSPACE) : path.resolve(cwd));
}

/** node:os, loaded only when needed (it costs start-up time): HOME unset, or several modules for --jobs. */
function nodeOs(): typeof import("node:os") {
  return createRequire(import.meta.url)("node:os") as typeof import("node:os");
}

/** os.homedir(), for when HOME is unset. */
function homeDir(): string {
  return nodeOs().homedir();
}

/** Validate options that do not depend on the module. Throws UsageError. */
function checkOptions(args: CliArgs, cwd: string): { role?: Role; format: string } {
  const { role, format } = checkLintOptions(args);
  if (args.stdin && args.stdinFilename === undefined) throw new UsageError("--stdin needs --stdin-filename PATH (the file the text stands for)");
  if (!args.stdin && args.stdinFilename !== undefined) throw new UsageError("--stdin-filename is only meaningful with --stdin");
  if (args.stdin && args.fix) throw new UsageError("--fix cannot write text read from --stdin; use --fix-dry-run");
  if (args.stdin && args.positionals.length > 0) throw new UsageError("--stdin takes no paths; the module is the directory of --stdin-filename");
  if (args.stdin && args.recursive) throw new UsageError("--stdin cannot be combined with --recursive");
  if (args.fix && args.fixDryRun) throw new UsageError("use either --fix or --fix-dry-run, not both");
  if (args.platform !== undefined || args.allPlatforms || args.insecure) {
    throw new UsageError(`${args.platform !== undefined ? "--platform" : args.allPlatforms ? "--all-platforms" : "--insecure"} is an option of the image command (tfcapi-lint image REF)`);
  }
  if (args.command === "module") {
    if (args.positionals.length !== 1) throw new UsageError(`module takes exactly one directory (got ${args.positionals.length})`);
    if (args.recursive) throw new UsageError("module takes one module directory; use tfcapi-lint --recursive PATH to lint a tree");
    const dir = path.resolve(cwd, args.positionals[0]!);
    let isFile = false;
    try {
      isFile = !statSync(dir).isDirectory();
    } catch {
      // a missing path is reported as a read error (exit 2) by the lint run
    }
    if (isFile) {
      throw new UsageError(`module takes a module directory, and ${args.positionals[0]} is not one (to lint the module of a file: tfcapi-lint ${args.positionals[0]})`);
    }
  }
  return { ...(role ? { role } : {}), format };
}

/** A lint outcome without the loaded syntax trees (kept per module once its report is made). */
export type TreelessOutcome = Exclude<LintOutcome, { kind: "report" }> | { kind: "report"; report: ModuleReport; readErrors: ReadError[] };

interface Planned {
  target: Target;
  config: FileConfig | null;
  effective: EffectiveConfig;
  /** The rules of the plugins its config lists. */
  pluginRules: readonly RuleDefinition[];
  /** The run's working and home directories (config lookup stops there outside git). */
  cwd: string;
  home: string;
}

function overrides(args: CliArgs, role: Role | undefined): CliOverrides {
  return {
    ...(role ? { role } : {}),
    rules: args.ruleSettings,
    strict: args.strict,
    ...(args.maxWarnings !== undefined ? { maxWarnings: args.maxWarnings } : {}),
  };
}

function excludedBy(config: FileConfig | null, abs: string): boolean {
  if (!config || config.excludeSet.empty) return false;
  const rel = path.relative(config.dir, abs).split(path.sep).join("/");
  return config.excludeSet.matches(rel);
}

function lintOptions(args: CliArgs, plan: Planned, stdin: LintOptions["stdin"]): LintOptions {
  const e = plan.effective;
  const opts: LintOptions = {
    severities: severityMap(e),
    allowWarnings: args.allowWarnings,
    inlineConfig: !args.noInlineConfig,
    reportUnusedIgnores: args.reportUnusedIgnores,
    displayPath: plan.target.display,
  };
  // A directory nobody named is linted only on enough evidence of a role.
  if (plan.target.found === true) opts.requireRoleEvidence = true;
  // A module runs the plugins its own config lists, besides the built-in rules.
  if (plan.pluginRules.length > 0) opts.ruleSet = [...BUILTIN_RULES, ...plan.pluginRules];
  if (e.role) {
    if (e.role.origin === "--role") opts.role = e.role.value;
    else opts.configRole = { role: e.role.value, origin: e.role.origin };
  }
  if (stdin) opts.stdin = stdin;
  const config = plan.config;
  if (config && !config.excludeSet.empty) {
    opts.excludeFile = (rel) => excludedBy(config, path.join(plan.target.dir, ...rel.split("/")));
  }
  return opts;
}

/**
 * Load the plugins that the config applying to the working directory lists
 * (for `rules` and `explain`). Throws ConfigError.
 */
export async function loadPluginsForCwd(args: CliArgs, io: Io): Promise<void> {
  if (args.noConfig) return;
  const resolver = new ConfigResolver(args.config !== undefined ? { explicit: args.config } : {});
  await pluginRulesOf(resolver.forDir(io.cwd));
}

function configResolver(args: CliArgs, cwd: string, home: string): ConfigResolver {
  if (args.config !== undefined) {
    if (args.noConfig) throw new UsageError("use either --config or --no-config, not both");
    return new ConfigResolver({ explicit: args.config });
  }
  return new ConfigResolver({ disabled: args.noConfig, cwd, home });
}

/** A module's config, effective settings and the rules of the plugins its config lists. Throws ConfigError. */
async function planFor(target: Target, resolver: ConfigResolver, cli: CliOverrides): Promise<Omit<Planned, "cwd" | "home">> {
  const config = resolver.forDir(target.dir);
  return { target, config, effective: effectiveConfig(config, cli), pluginRules: await pluginRulesOf(config) };
}

/** One module linted (and fixed): the report without syntax trees, and the local children it loaded. */
export interface LintedTarget {
  outcome: TreelessOutcome;
  nested: string[];
  /** What --fix did (the main thread adds it to the run's tally). */
  fixed?: FixSummary;
  /** Set when the module was linted only for the files named below it, and loads none of them. */
  skipped?: true;
}

function slim(outcome: LintOutcome): LintedTarget {
  if (outcome.kind !== "report") return { outcome, nested: [] };
  return {
    // Keep the report, not the syntax trees (memory on large trees).
    outcome: { kind: "report", report: outcome.report, readErrors: outcome.readErrors },
    nested: outcome.load.units.slice(1).map((u) => path.resolve(u.dir)),
  };
}

/**
 * Lints one planned module and applies --fix; `deep` is asked first when the
 * module is nested too deep for this thread. With `onlyIfLoads` (a directory
 * above module files named one by one), the module is of interest (and only
 * fixed) when it loads one of those directories.
 */
async function lintTarget(args: CliArgs, plan: Planned, stdin: LintOptions["stdin"], deep: boolean, onlyIfLoads?: readonly string[]): Promise<LintedTarget> {
  const opts = lintOptions(args, plan, stdin);
  const hits = nestingLimitHits();
  const outcome = lintModule(plan.target.dir, opts);
  if (deep && nestingLimitHits() > hits) {
    // Deeper than this thread's stack allows: lint (and fix) it again on a
    // thread with a large stack. Nothing was written yet.
    const again = await lintOnDeepStack({ args, target: plan.target, cwd: plan.cwd, home: plan.home, ...(stdin ? { stdin } : {}), ...(onlyIfLoads ? { onlyIfLoads: [...onlyIfLoads] } : {}) }).catch((err: unknown) => {
      throw err instanceof WorkerError ? asCliError(err) : err;
    });
    if (again !== null) return again;
  }
  if (onlyIfLoads) {
    const wanted = new Set(onlyIfLoads);
    if (outcome.kind !== "report" || !outcome.load.units.slice(1).some((u) => wanted.has(realOf(u.dir)))) return { outcome: slim(outcome).outcome, nested: [], skipped: true };
  }
  if (args.fix && outcome.kind === "report" && outcome.readErrors.length === 0) {
    const run = fixOnDisk(plan.target.dir, opts, outcome);
    return { ...slim(run.outcome), fixed: { written: run.written, applied: run.applied, notes: run.notes, writeErrors: run.writeErrors } };
  }
  return slim(outcome);
}

/**
 * The worker side of lintOnDeepStack: lints one module as runLint would, on
 * this thread (which has a large stack) with the raised nesting limit.
 */
export async function lintDeepRequest(req: DeepRequest): Promise<LintedTarget> {
  try {
    return await lintOnThisWorker(req);
  } catch (err) {
    // The class does not cross the thread boundary: say which one it was.
    if (err instanceof ConfigError) throw Object.assign(err, { tfcapiKind: "config" });
    if (err instanceof UsageError) throw Object.assign(err, { tfcapiKind: "usage" });
    throw err;
  }
}

async function lintOnThisWorker(req: DeepRequest): Promise<LintedTarget> {
  setNestingLimit(DEEP_NESTING_LIMIT);
  const args = req.args;
  // A pool worker lints many modules of one run: configs (and the plugins
  // they list) are read once per worker, as on the main thread.
  const key = JSON.stringify([args, req.cwd, req.home]);
  if (workerRun?.key !== key) {
    const checked = checkOptions(args, req.cwd);
    workerRun = { key, resolver: configResolver(args, req.cwd, req.home), cli: overrides(args, checked.role) };
  }
  const plan = await planFor(req.target, workerRun.resolver, workerRun.cli);
  return lintTarget(args, { ...plan, cwd: req.cwd, home: req.home }, req.stdin, false, req.onlyIfLoads);
}
let workerRun: { key: string; resolver: ConfigResolver; cli: CliOverrides } | undefined;

/** How many worker threads lint the plans: --jobs, else one per core when there are several modules; 1 = this thread. */
function jobsFor(args: CliArgs, plans: number): number {
  const jobs = args.jobs ?? (plans >= 2 ? nodeOs().availableParallelism() : 1);
  return Math.min(jobs, plans);
}

/**
 * Lints (and fixes) every plan, in the order of the plans, with results as
 * lintTarget gives them one after another on this thread. With several jobs
 * the modules are linted on worker threads first, without --fix; with --fix
 * a module is then linted and fixed here again, in order, when its report
 * holds a fix or an earlier module wrote a file in a directory it loads
 * (a module's fixes may write its local children's files, which other
 * targets also read). A worker that died leaves its module to this thread;
 * an error a worker met is thrown here when that module's turn comes.
 */
async function lintPlans(args: CliArgs, plans: readonly Planned[], stdin: LintOptions["stdin"], onlyIfLoads: (plan: Planned) => string[] | undefined): Promise<LintedTarget[]> {
  const jobs = jobsFor(args, plans.length);
  let replies: WorkerReply[] | null = null;
  if (jobs >= 2 && stdin === undefined && workersAvailable()) {
    const readOnly: CliArgs = { ...args, fix: false };
    replies = await lintOnWorkers(
      plans.map((plan) => {
        const only = onlyIfLoads(plan);
        return { args: readOnly, target: plan.target, cwd: plan.cwd, home: plan.home, ...(only ? { onlyIfLoads: only } : {}) };
      }),
      jobs,
    );
  }
  const out: LintedTarget[] = [];
  const writtenDirs = new Set<string>();
  for (const [i, plan] of plans.entries()) {
    const reply = replies?.[i] ?? null;
    if (reply !== null && !reply.ok) throw asCliError(new WorkerError(reply.error, reply.kind));
    let linted: LintedTarget;
    if (reply !== null && !(args.fix && fixAgain(reply.result, plan, writtenDirs))) {
      linted = reply.result;
      // What fixOnDisk says of a module it has nothing to fix in.
      if (args.fix && !linted.skipped && linted.outcome.kind === "report" && linted.outcome.readErrors.length === 0) {
        linted = { ...linted, fixed: { written: [], applied: 0, notes: [], writeErrors: [] } };
      }
    } else {
      linted = await lintTarget(args, plan, stdin, true, onlyIfLoads(plan));
    }
    for (const file of linted.fixed?.written ?? []) {
      // A module file may be a symbolic link: the directory of the file it points to changed too.
      const abs = path.join(plan.target.dir, ...file.split("/"));
      writtenDirs.add(realOf(path.dirname(abs)));
      writtenDirs.add(path.dirname(realOf(abs)));
    }
    out.push(linted);
  }
  return out;
}

/** A worker's error as the CLI's own error class, so that it is printed as on this thread. */
function asCliError(err: WorkerError): Error {
  if (err.kind === "config") return new ConfigError(err.message);
  if (err.kind === "usage") return new UsageError(err.message);
  return new Error(err.message);
}

/** Whether --fix must lint a module again on this thread (see lintPlans). */
function fixAgain(linted: LintedTarget, plan: Planned, writtenDirs: ReadonlySet<string>): boolean {
  if (linted.skipped) return writtenDirs.size > 0;
  if (linted.outcome.kind === "report" && linted.outcome.report.findings.some((f) => f.fix !== undefined)) return true;
  return [plan.target.dir, ...linted.nested].some((d) => writtenDirs.has(realOf(d)));
}

export async function runLint(args: CliArgs, io: Io): Promise<number> {
  const checked = checkOptions(args, io.cwd);
  const cli = overrides(args, checked.role);
  const home = io.env.HOME ?? homeDir();
  const resolver = configResolver(args, io.cwd, home);

  try {
    if (args.printConfig !== undefined) {
      const target = moduleDirOf(args.printConfig, io.cwd);
      const config = resolver.forDir(target.dir);
      await pluginRulesOf(config);
      checkRuleFlags(args);
      const effective = effectiveConfig(config, cli);
      // Without a role set, say what detection makes of the module there.
      const detection = effective.role ? null : describeDetection(target.dir);
      io.stdout(printEffective(effective, args.printConfig, checked.format === "json", detection));
      return EXIT_OK;
    }

    // Which modules, each once. What cannot be read is collected, not
    // thrown: the run goes on with the rest and every format shows it.
    const problems: ReadProblem[] = [];
    const problem = (e: PathError): void => {
      problems.push({ path: e.abs, directory: e.directory, message: e.message });
    };
    let stdin: LintOptions["stdin"];
    let roots: Target[] = [];
    if (args.stdin) {
      const r = await stdinTarget(args.stdinFilename!, io);
      if (r instanceof PathError) problem(r);
      else {
        stdin = r.stdin;
        roots = [r.target];
      }
    } else {
      const given = args.positionals.length > 0 ? args.positionals : ["."];
      for (const p of given) {
        try {
          roots.push(moduleDirOf(p, io.cwd));
        } catch (err) {
          if (!(err instanceof PathError)) throw err;
          problem(err);
        }
      }
    }
    // A path named directly that the config excludes is not linted, and
    // the run says so (a clean pass would claim it was checked).
    roots = roots.filter((root) => {
      const named = root.file ?? root.dir;
      const config = resolver.forDir(root.dir);
      const pattern = excludingPattern(config, named);
      if (pattern === null) return true;
      const shown = root.file !== undefined ? joinDisplay(root.display, path.basename(root.file)) : root.display;
      io.stderr(`tfcapi-lint: ${shown}: not linted: excluded by the pattern "${pattern}" in ${config!.path}\n`);
      return false;
    });

    const targets: Target[] = [];
    const seen = new Set<string>();
    const add = (t: Target): void => {
      const real = realOf(t.dir);
      if (seen.has(real)) return;
      seen.add(real);
      targets.push(t);
    };
    const walked = new Set<string>();
    // --recursive: what each path given yielded (to say so when it holds no module at all).
    const walks: { root: Target; problems: number; excluded: number }[] = [];
    const walkedDirs: string[] = [];
    for (const root of roots) {
      if (args.recursive) {
        const walk = findModuleDirs(root, (abs) => excludedBy(resolver.forDir(path.dirname(abs)), abs), walked);
        for (const t of walk.targets) add(t);
        for (const e of walk.problems) problem(e);
        walks.push({ root, problems: walk.problems.length, excluded: walk.excluded });
        for (const t of walk.targets) walkedDirs.push(realOf(t.dir));
      } else {
        add(root);
      }
    }
    // Module files named one by one (pre-commit): a file of a local child
    // module is linted through the module that calls its directory, when
    // that module is among the paths or in a directory above them, as
    // --recursive would report it.
    const byFiles = !args.recursive && !args.stdin && args.command !== "module" && targets.some((t) => t.file !== undefined);
    const fileDirs = new Set(targets.filter((t) => t.file !== undefined).map((t) => realOf(t.dir)));
    const ancestors = new Set<string>();
    if (byFiles) {
      // The directory of a file named on its own was found, not named.
      for (const t of targets) if (t.file !== undefined) t.found = true;
      const boundary = searchBoundary(io.cwd);
      for (const t of targets.filter((x) => x.file !== undefined)) {
        for (const dir of ancestorModuleDirs(t.dir, boundary)) {
          if (seen.has(realOf(dir))) continue;
          const rel = path.relative(io.cwd, dir);
          add({ dir, display: path.isAbsolute(t.display) ? dir : rel === "" ? "." : rel.split(path.sep).join("/"), found: true });
          ancestors.add(realOf(dir));
        }
      }
    }
    const plans: Planned[] = [];
    for (const target of targets) plans.push({ ...(await planFor(target, resolver, cli)), cwd: io.cwd, home });
    checkRuleFlags(args);

    // Lint (and fix) every target first.
    // With --recursive (or module files named one by one), a directory
    // another linted module loads as a local child is reported as part of
    // that module, not on its own.
    const nesting = args.recursive || byFiles;
    const nested = new Set<string>();
    const results: { plan: Planned; outcome: TreelessOutcome }[] = [];
    // Real directories of the modules reported, on their own or as a local child of one.
    const reported = new Set<string>();
    const fixes = new FixTally();
    const all = await lintPlans(args, plans, stdin, (plan) => (ancestors.has(realOf(plan.target.dir)) ? [...fileDirs] : undefined));
    for (const [i, plan] of plans.entries()) {
      const linted = all[i]!;
      if (linted.skipped) continue;
      if (linted.fixed) fixes.record(plan.target.display, linted.fixed);
      if (nesting) for (const dir of linted.nested) nested.add(realOf(dir));
      if (linted.outcome.kind === "report") {
        reported.add(realOf(plan.target.dir));
        for (const dir of linted.nested) reported.add(realOf(dir));
      }
      results.push({ plan, outcome: linted.outcome });
    }

    const modules: ModuleReport[] = [];
    // What --quiet hides still goes to the --full-report files.
    const fullModules: ModuleReport[] = [];
    let failed = false;
    let diffs = "";
    let warnings = 0;
    let hiddenWarnings = 0;
    let maxWarnings: { value: number; origin: string } | null = null;
    let roleUnknown = false;
    for (const { plan, outcome } of results) {
      if (nested.has(realOf(plan.target.dir))) continue;
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
          roleUnknown = true;
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
      if (args.fixDryRun) diffs += fixes.dryRun(report, io.cwd, plan.target.display);
      // --quiet only hides: what fails the run is decided on every finding.
      warnings += report.summary.warning;
      const mw = plan.effective.maxWarnings;
      if (mw.value !== null && (maxWarnings === null || mw.value < maxWarnings.value)) maxWarnings = { value: mw.value, origin: mw.origin };
      const failOn = plan.effective.failOn.value;
      if (report.findings.some((f) => !f.suppressed && severityAtLeast(f.severity, failOn))) failed = true;
      if (args.quiet) {
        if (args.fullReport.length > 0) fullModules.push({ ...report });
        // The report says what the hidden findings do to the exit code.
        const q = quietFilter(report.findings, failOn, failSettingText(failOn, plan.effective.failOn.origin));
        report.findings = q.shown;
        report.summary = recount(report.findings);
        if (q.hidden) {
          report.quietHidden = q.hidden;
          hiddenWarnings += q.hidden.hidden.warning;
        }
      }
      modules.push(report);
    }
    // A path given to --recursive under which no module was linted (none
    // held module files, or every one was skipped) is said to be so, as a
    // directory without module files named directly is.
    for (const w of walks) {
      // Something under it was reported, could not be read, or could not be
      // told: that says enough.
      const rootReal = realOf(w.root.dir);
      if ([...reported].some((d) => isAtOrUnder(d, rootReal))) continue;
      if (w.problems > 0 || problems.some((p) => isAtOrUnder(realOf(p.path), rootReal))) continue;
      const dirs = walkedDirs.filter((d) => isAtOrUnder(d, rootReal)).length;
      if (dirs === 0 && w.excluded > 0) {
        // The config left nothing: said, not an error (as for a path named directly that it excludes).
        io.stderr(`tfcapi-lint: ${w.root.display}: not linted: every module file in this directory or below is excluded by the config\n`);
        continue;
      }
      const what =
        dirs === 0
          ? "no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory or below"
          : `no CAPTF role module in this directory or below (${dirs === 1 ? "1 directory" : `${dirs} directories`} with module files, none showing enough evidence of a role); set role in .tfcapi-lint.hcl or pass --role to lint them`;
      problems.push({ path: w.root.dir, directory: true, message: `${w.root.display}: ${what}` });
    }
    let warningLimit: WarningLimit | undefined;
    if (maxWarnings !== null && warnings > maxWarnings.value) {
      failed = true;
      warningLimit = {
        warnings,
        max: maxWarnings.value,
        setting: maxWarnings.origin === "--max-warnings" ? "--max-warnings" : "max_warnings",
        ...(hiddenWarnings > 0 ? { hidden: hiddenWarnings } : {}),
      };
    }

    const failOn: Severity = plans[0]?.effective.failOn.value ?? (args.strict ? "warning" : "error");
    const run: RunReport = {
      modules,
      ...(problems.length > 0 ? { readErrors: problems } : {}),
      ...(warningLimit ? { warningLimit } : {}),
      rules: LINT_REGISTRY,
      cwd: path.resolve(io.cwd),
      repoRoot: repoRootOf(io.cwd, io.env),
      // Read from package.json only by a formatter that shows it (SARIF).
      get toolVersion() {
        return toolVersion();
      },
      failOn,
    };
    const formatter = (await loadFormatter(checked.format))!;
    const text = formatter(run, { color: useColor(args, io), env: io.env });
    // The diff goes before a text report; machine-readable stdout stays clean.
    if (args.fixDryRun && diffs !== "") {
      if (checked.format === "text" && args.outputFile === undefined) io.stdout(diffs);
      else io.stderr(diffs);
    }
    const full: RunReport = args.quiet && args.fullReport.length > 0 ? { ...run, modules: fullModules } : run;
    if (!(await writeReports(run, text, args, io, full))) return EXIT_READ;
    if (checked.format === "compact" && !args.quiet) {
      // Compact stdout holds findings only (problem matchers read it); the
      // role used and how it was chosen go to stderr.
      for (const m of modules) {
        io.stderr(`tfcapi-lint: ${m.module}: role ${m.role} (${roleSourceText(m)})\n`);
      }
    }
    if (checked.format === "compact" || checked.format === "sarif" || checked.format === "checkstyle") {
      // These formats have no place for it: findings --quiet hid that fail the run are said on stderr.
      const why = quietFailureText(run, modules);
      if (why !== null) io.stderr(`tfcapi-lint: ${why}\n`);
    }
    if (checked.format === "github") {
      const r = await writeStepSummary(run, io.env);
      if (r?.error) io.stderr(`tfcapi-lint: cannot write the job summary to ${r.path}: ${r.error}\n`);
    }
    const fixWriteFailed = fixes.print(io.stderr, args.fix);
    if (problems.length > 0) {
      for (const e of problems) io.stderr(`tfcapi-lint: ${e.message}\n`);
      return roleUnknown ? EXIT_USAGE : EXIT_READ;
    }
    return fixWriteFailed ? EXIT_READ : failed ? EXIT_FINDINGS : EXIT_OK;
  } catch (err) {
    if (err instanceof PathError) {
      io.stderr(`tfcapi-lint: ${err.message}\n`);
      return EXIT_READ;
    }
    if (err instanceof ConfigError) {
      io.stderr(`tfcapi-lint: config error:\n${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

/** Real path of a directory (itself when it cannot be resolved), cached. */
const realPaths = new Map<string, string>();
function realOf(dir: string): string {
  let r = realPaths.get(dir);
  if (r === undefined) {
    try {
      r = realpathSync(dir);
    } catch {
      r = path.resolve(dir);
    }
    realPaths.set(dir, r);
  }
  return r;
}

/** Is `p` equal to `dir` or below it (both absolute)? */
function isAtOrUnder(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The exclude pattern of `config` that matches `abs`, or null. */
function excludingPattern(config: FileConfig | null, abs: string): string | null {
  if (!config || config.excludeSet.empty) return null;
  const rel = path.relative(config.dir, abs).split(path.sep).join("/");
  return config.excludeSet.matching(rel);
}

/** How far up to look for a module calling a named file's directory: the repository root, else the working directory. */
function searchBoundary(cwd: string): string {
  return repositoryRootOf(cwd) ?? path.resolve(cwd);
}

/** Directories strictly above `dir`, up to `boundary` (when `dir` is inside it), that hold module files; nearest first. */
function ancestorModuleDirs(dir: string, boundary: string): string[] {
  const out: string[] = [];
  const rel = path.relative(boundary, dir);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return out;
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      names = [];
    }
    if (names.some(isModuleFileName)) out.push(d);
    if (d === boundary || path.dirname(d) === d) break;
  }
  return out;
}

/** The target and text of `--stdin`, or what is wrong with them. */
async function stdinTarget(filename: string, io: Io): Promise<{ target: Target; stdin: { path: string; text: string } } | PathError> {
  const abs = path.resolve(io.cwd, filename);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    // the file need not exist (an editor's new buffer)
  }
  if (isDir) return new PathError(`--stdin-filename ${filename} is a directory, not a module file; nothing was linted`, abs, true);
  if (!isModuleFileName(path.basename(abs))) {
    return new PathError(`--stdin-filename ${filename} is not a module file name (.tf, .tf.json, .tofu, .tofu.json); nothing was linted`, abs, false);
  }
  const shownDir = path.dirname(filename);
  try {
    moduleDirOf(shownDir, io.cwd);
  } catch (err) {
    if (err instanceof PathError) return err;
    throw err;
  }
  const raw = await io.readStdin();
  let text: string;
  if (typeof raw === "string") text = raw;
  else {
    const decoded = decodeModuleText(raw, filename);
    if (!decoded.ok) return new PathError(`${decoded.message} (the text read from --stdin)`, abs, false);
    text = decoded.text;
  }
  return { target: { dir: path.dirname(abs), display: shownDir }, stdin: { path: abs, text } };
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

/** Read a whole stream (stdin) as bytes (decoded like a module file). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}


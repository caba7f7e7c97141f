/**
 * The lint command: resolve paths and configs, lint each module once, fix,
 * format, and compute the exit code.
 */
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { CONTRACT_VERSIONS, isRole } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import { lintModule, recount, severityAtLeast, type LintOptions, type LintOutcome, type ReadError } from "../lint/engine.js";
import { applyFixes, fixesByFile, MAX_FIX_PASSES, readForFix, unifiedDiff, writeFileAtomic } from "../lint/fix.js";
import { isKnownRule, REGISTRY } from "../lint/meta-rules.js";
import { roleSourceText, type ModuleReport, type RunReport } from "../lint/result.js";
import type { Severity } from "../lint/types.js";
import { ConfigError, ConfigResolver, type FileConfig } from "../config/load.js";
import { effectiveConfig, printEffective, severityMap, type CliOverrides, type EffectiveConfig } from "../config/effective.js";
import { FORMAT_NAMES, isFormatName, loadFormatter, writeStepSummary } from "./formats.js";
import { type CliArgs, UsageError } from "./args.js";
import { toolVersion } from "./commands.js";
import { findModuleDirs, isModuleFileName, moduleDirOf, PathError, type Target } from "./paths.js";
import { DEEP_NESTING_LIMIT, lintOnDeepStack, type DeepRequest } from "./deep.js";
import { nestingLimitHits, setNestingLimit } from "../hcl/parser-core.js";

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
  isTTY: boolean;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_READ = 2;
export const EXIT_USAGE = 3;

function repoRootOf(cwd: string, env: Record<string, string | undefined>): string {
  let d = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(d, ".git"))) return d;
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return env.GITHUB_WORKSPACE ? path.resolve(env.GITHUB_WORKSPACE) : path.resolve(cwd);
}

function useColor(args: CliArgs, io: Io): boolean {
  if (args.color !== undefined) return args.color;
  if (args.outputFile) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== "0") return true;
  return io.isTTY;
}

/** Validate options that do not depend on the module. Throws UsageError. */
function checkOptions(args: CliArgs): { role?: Role; format: string } {
  if (args.contract !== undefined && !CONTRACT_VERSIONS.includes(args.contract)) {
    throw new UsageError(`unknown contract version "${args.contract}" (known: ${CONTRACT_VERSIONS.join(", ")})`);
  }
  let role: Role | undefined;
  if (args.role !== undefined) {
    if (!isRole(args.role)) throw new UsageError(`unknown role "${args.role}" (use cluster, machine or machinepool)`);
    role = args.role;
  }
  if (args.json && args.format !== undefined && args.format !== "json") {
    throw new UsageError(`--json conflicts with --format ${args.format}`);
  }
  const format = args.json ? "json" : (args.format ?? "text");
  if (!isFormatName(format)) throw new UsageError(`unknown format "${format}" (known: ${FORMAT_NAMES.join(", ")})`);
  for (const r of args.ruleSettings) {
    if (!isKnownRule(r.id)) throw new UsageError(`--rule: unknown rule "${r.id}" (run "tfcapi-lint rules" for the list)`);
  }
  if (args.stdin && args.stdinFilename === undefined) throw new UsageError("--stdin needs --stdin-filename PATH (the file the text stands for)");
  if (!args.stdin && args.stdinFilename !== undefined) throw new UsageError("--stdin-filename is only meaningful with --stdin");
  if (args.stdin && args.fix) throw new UsageError("--fix cannot write text read from --stdin; use --fix-dry-run");
  if (args.stdin && args.positionals.length > 0) throw new UsageError("--stdin takes no paths; the module is the directory of --stdin-filename");
  if (args.stdin && args.recursive) throw new UsageError("--stdin cannot be combined with --recursive");
  if (args.fix && args.fixDryRun) throw new UsageError("use either --fix or --fix-dry-run, not both");
  if (args.outputFile !== undefined && isModuleFileName(path.basename(args.outputFile))) {
    throw new UsageError(`--output-file ${args.outputFile}: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)`);
  }
  if (args.command === "module" && args.positionals.length !== 1) {
    throw new UsageError(`module takes exactly one directory (got ${args.positionals.length})`);
  }
  return { ...(role ? { role } : {}), format };
}

/** A lint outcome without the loaded syntax trees. */
export type Slim = Exclude<LintOutcome, { kind: "report" }> | { kind: "report"; report: ModuleReport; readErrors: ReadError[] };

interface Planned {
  target: Target;
  config: FileConfig | null;
  effective: EffectiveConfig;
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

/** Apply fixes in passes until stable; returns the final outcome and the files written. */
function fixOnDisk(dir: string, opts: LintOptions, first: LintOutcome & { kind: "report" }): { outcome: LintOutcome; written: string[] } {
  let outcome: LintOutcome = first;
  const written = new Set<string>();
  for (let pass = 0; pass < MAX_FIX_PASSES && outcome.kind === "report"; pass++) {
    const byFile = fixesByFile(outcome.report.findings);
    let changed = false;
    for (const [file, fixes] of byFile) {
      const abs = path.join(dir, ...file.split("/"));
      const { text, bom } = readForFix(abs);
      if (text !== outcome.report.sources.get(file)) continue; // changed under us: leave it alone
      const result = applyFixes(text, file, fixes);
      if (result.applied === 0 || result.text === text) continue;
      // A module file may be a symbolic link (to a file inside the module):
      // write the file it points to, never replace the link by a copy.
      let target: string;
      try {
        target = realpathSync(abs);
      } catch {
        continue;
      }
      writeFileAtomic(target, bom + result.text);
      written.add(file);
      changed = true;
    }
    if (!changed) break;
    outcome = lintModule(dir, opts);
  }
  return { outcome, written: [...written].sort() };
}

function dryRunDiff(report: ModuleReport, cwd: string): string {
  let out = "";
  for (const [file, fixes] of [...fixesByFile(report.findings)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = report.sources.get(file);
    if (before === undefined) continue;
    const after = applyFixes(before, file, fixes).text;
    const rel = path.relative(cwd, path.join(report.dir, ...file.split("/")));
    const shown = (rel.startsWith("..") || path.isAbsolute(rel) ? path.join(report.dir, file) : rel).split(path.sep).join("/");
    out += unifiedDiff(shown, before, after);
  }
  return out;
}

function configResolver(args: CliArgs): ConfigResolver {
  if (args.config !== undefined) {
    if (args.noConfig) throw new UsageError("use either --config or --no-config, not both");
    return new ConfigResolver({ explicit: args.config });
  }
  return new ConfigResolver({ disabled: args.noConfig });
}

function planFor(target: Target, resolver: ConfigResolver, cli: CliOverrides): Planned {
  const config = resolver.forDir(target.dir);
  return { target, config, effective: effectiveConfig(config, cli) };
}

/** One module linted (and fixed): the report without syntax trees, and the local children it loaded. */
export interface LintedTarget {
  outcome: Slim;
  nested: string[];
}

function slim(outcome: LintOutcome): LintedTarget {
  if (outcome.kind !== "report") return { outcome, nested: [] };
  return {
    // Keep the report, not the syntax trees (memory on large trees).
    outcome: { kind: "report", report: outcome.report, readErrors: outcome.readErrors },
    nested: outcome.load.units.slice(1).map((u) => path.resolve(u.dir)),
  };
}

/** Lints one planned module and applies --fix; `deep` is asked first when the module is nested too deep for this thread. */
async function lintTarget(args: CliArgs, plan: Planned, stdin: LintOptions["stdin"], deep: boolean): Promise<LintedTarget> {
  const opts = lintOptions(args, plan, stdin);
  const hits = nestingLimitHits();
  const outcome = lintModule(plan.target.dir, opts);
  if (deep && nestingLimitHits() > hits) {
    // Deeper than this thread's stack allows: lint (and fix) it again on a
    // thread with a large stack. Nothing was written yet.
    const again = await lintOnDeepStack({ args, target: plan.target, ...(stdin ? { stdin } : {}) });
    if (again !== null) return again;
  }
  if (args.fix && outcome.kind === "report" && outcome.readErrors.length === 0) return slim(fixOnDisk(plan.target.dir, opts, outcome).outcome);
  return slim(outcome);
}

/**
 * The worker side of lintOnDeepStack: lints one module as runLint would, on
 * this thread (which has a large stack) with the raised nesting limit.
 */
export async function lintDeepRequest(req: DeepRequest): Promise<LintedTarget> {
  setNestingLimit(DEEP_NESTING_LIMIT);
  const args = req.args;
  const checked = checkOptions(args);
  const plan = planFor(req.target, configResolver(args), overrides(args, checked.role));
  return lintTarget(args, plan, req.stdin, false);
}

export async function runLint(args: CliArgs, io: Io): Promise<number> {
  const checked = checkOptions(args);
  const cli = overrides(args, checked.role);
  const resolver = configResolver(args);

  try {
    if (args.printConfig !== undefined) {
      const target = moduleDirOf(args.printConfig, io.cwd);
      const config = resolver.forDir(target.dir);
      io.stdout(printEffective(effectiveConfig(config, cli), args.printConfig, checked.format === "json"));
      return EXIT_OK;
    }

    // Which modules, each once.
    let stdin: LintOptions["stdin"];
    let roots: Target[];
    if (args.stdin) {
      const filename = args.stdinFilename!;
      const abs = path.resolve(io.cwd, filename);
      const dir = path.dirname(abs);
      const shownDir = path.dirname(filename);
      moduleDirOf(shownDir === "" ? "." : shownDir, io.cwd);
      stdin = { path: abs, text: await io.readStdin() };
      roots = [{ dir, display: shownDir }];
    } else {
      const given = args.positionals.length > 0 ? args.positionals : ["."];
      roots = given.map((p) => moduleDirOf(p, io.cwd));
    }
    const targets: Target[] = [];
    const seen = new Set<string>();
    const add = (t: Target): void => {
      if (seen.has(t.dir)) return;
      seen.add(t.dir);
      targets.push(t);
    };
    for (const root of roots) {
      if (args.recursive) {
        for (const t of findModuleDirs(root, (abs) => excludedBy(resolver.forDir(path.dirname(abs)), abs))) add(t);
      } else {
        add(root);
      }
    }
    const plans: Planned[] = targets.map((target) => planFor(target, resolver, cli));

    // Lint (and fix) every target first.
    // With --recursive, a directory another linted module loads as a local
    // child is reported as part of that module, not on its own.
    const nested = new Set<string>();
    const results: { plan: Planned; outcome: Slim }[] = [];
    for (const plan of plans) {
      const linted = await lintTarget(args, plan, stdin, true);
      if (args.recursive) for (const dir of linted.nested) nested.add(dir);
      results.push({ plan, outcome: linted.outcome });
    }

    const modules: ModuleReport[] = [];
    const readErrors: string[] = [];
    let failed = false;
    let diffs = "";
    let warnings = 0;
    let maxWarnings: number | null = null;
    for (const { plan, outcome } of results) {
      if (nested.has(plan.target.dir)) continue;
      if (outcome.kind === "usage-error") {
        // --recursive walks whole repositories, which also hold modules that
        // are not CAPTF role modules (shared helpers, examples of other
        // tools): one that shows no sign of any role is skipped with a note
        // rather than stopping the run. An ambiguous one still stops it.
        if (args.recursive && outcome.noRole === true && plan.target.fromRecursion === true) {
          io.stderr(`tfcapi-lint: skipped ${plan.target.display}: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n`);
          continue;
        }
        throw new UsageError(`${plan.target.display}: ${outcome.message}`);
      }
      if (outcome.kind === "no-module") {
        readErrors.push(`${plan.target.display}: ${outcome.message}`);
        continue;
      }
      for (const e of outcome.readErrors) {
        readErrors.push(`${plan.target.display}${e.file ? `/${e.file}` : ""}: ${e.message}`);
      }
      const report = outcome.report;
      if (args.fixDryRun) diffs += dryRunDiff(report, io.cwd);
      // --max-warnings counts warnings even under --quiet (which only hides them).
      warnings += report.summary.warning;
      const mw = plan.effective.maxWarnings.value;
      if (mw !== null) maxWarnings = maxWarnings === null ? mw : Math.min(maxWarnings, mw);
      if (args.quiet) {
        report.findings = report.findings.filter((f) => f.severity === "error");
        report.summary = recount(report.findings);
      }
      const failOn = plan.effective.failOn.value;
      if (report.findings.some((f) => !f.suppressed && severityAtLeast(f.severity, failOn))) failed = true;
      modules.push(report);
    }
    if (maxWarnings !== null && warnings > maxWarnings) failed = true;

    const failOn: Severity = plans[0]?.effective.failOn.value ?? (args.strict ? "warning" : "error");
    const run: RunReport = {
      modules,
      rules: REGISTRY,
      cwd: path.resolve(io.cwd),
      repoRoot: repoRootOf(io.cwd, io.env),
      toolVersion: toolVersion(),
      failOn,
    };
    const formatter = (await loadFormatter(checked.format))!;
    const text = formatter(run, { color: useColor(args, io), env: io.env });
    // The diff goes before a text report; machine-readable stdout stays clean.
    if (args.fixDryRun && diffs !== "") {
      if (checked.format === "text" && args.outputFile === undefined) io.stdout(diffs);
      else io.stderr(diffs);
    }
    if (args.outputFile !== undefined) {
      try {
        writeFileSync(args.outputFile, text);
      } catch (err) {
        io.stderr(`tfcapi-lint: cannot write the report to ${args.outputFile}: ${outputErrorText(err, args.outputFile)}\n`);
        return EXIT_READ;
      }
    } else {
      io.stdout(text);
    }
    if (checked.format === "compact" && !args.quiet) {
      // Compact stdout holds findings only (problem matchers read it); the
      // role used and how it was chosen go to stderr.
      for (const m of modules) {
        io.stderr(`tfcapi-lint: ${m.module}: role ${m.role} (${roleSourceText(m)})\n`);
      }
    }
    if (checked.format === "github") {
      const r = await writeStepSummary(run, io.env);
      if (r?.error) io.stderr(`tfcapi-lint: cannot write the job summary to ${r.path}: ${r.error}\n`);
    }
    if (readErrors.length > 0) {
      for (const e of readErrors) io.stderr(`tfcapi-lint: ${e}\n`);
      return EXIT_READ;
    }
    return failed ? EXIT_FINDINGS : EXIT_OK;
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

/** Why the report file could not be written, in words. */
function outputErrorText(err: unknown, file: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `directory ${path.dirname(file)} does not exist`;
  if (code === "ENOTDIR") return `a component of ${path.dirname(file)} is not a directory`;
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code ?? (err instanceof Error ? err.message : String(err));
}

/** Read a whole stream (stdin) as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}


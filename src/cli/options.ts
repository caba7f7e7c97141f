/**
 * Option checks of the commands that lint: those shared by the module lint
 * (run.ts) and `image` (image-command.ts), so both judge `--role`, `--contract`,
 * `--format`, `--rule` and `--allow-warning` with the same code and words.
 */
import { CONTRACT_VERSIONS, isRole } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import { ruleIdProblem } from "../config/values.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { type CliArgs, UsageError } from "./args.js";
import { FORMAT_NAMES, isFormatName } from "./formats.js";
import { isModuleFileName } from "./paths.js";
import { statSync } from "node:fs";
import * as path from "node:path";

/** `--contract`, `--role`, the output format (`--json` or `--format`) and the report files (`-o`, `--also-write`, `--full-report`). Throws UsageError. */
export function checkLintOptions(args: CliArgs): { role?: Role; format: string } {
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
  if (args.outputFile !== undefined && isModuleFileName(path.basename(args.outputFile))) {
    throw new UsageError(`--output-file ${args.outputFile}: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)`);
  }
  for (const [option, list] of [["--also-write", args.alsoWrite], ["--full-report", args.fullReport]] as const) {
    for (const a of list) {
      if (!isFormatName(a.format)) throw new UsageError(`${option}: unknown format "${a.format}" (known: ${FORMAT_NAMES.join(", ")})`);
      if (isModuleFileName(path.basename(a.path))) {
        throw new UsageError(`${option} ${a.format}=${a.path}: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)`);
      }
    }
  }
  return { ...(role ? { role } : {}), format };
}

/**
 * `--rule` and `--allow-warning` ids are judged as in the config file (`rule
 * "x" { ... }`), by the run's catalogue: the module lint calls this once the
 * plugins of the run are loaded (they may define them). Throws UsageError.
 */
export function checkRuleFlags(args: CliArgs, catalogue: RuleCatalogue): void {
  for (const r of args.ruleSettings) {
    const bad = ruleIdProblem(r.id, catalogue);
    if (bad !== null) throw new UsageError(`--rule: ${bad}`);
  }
  for (const id of args.allowWarnings) {
    const bad = ruleIdProblem(id, catalogue);
    if (bad !== null) throw new UsageError(`--allow-warning: ${bad}`);
  }
}

/** The module lint's options that do not depend on the module. Throws UsageError. */
export function checkOptions(args: CliArgs, cwd: string): { role?: Role; format: string } {
  const { role, format } = checkLintOptions(args);
  if (args.stdin && args.stdinFilename === undefined) throw new UsageError("--stdin needs --stdin-filename PATH (the file the text stands for)");
  if (!args.stdin && args.stdinFilename !== undefined) throw new UsageError("--stdin-filename is only meaningful with --stdin");
  if (args.stdin && args.fix) {
    throw new UsageError(args.fixUnsafe ? "--fix-unsafe cannot write text read from --stdin; use --fix-dry-run --fix-unsafe" : "--fix cannot write text read from --stdin; use --fix-dry-run");
  }
  if (args.stdin && args.positionals.length > 0) throw new UsageError("--stdin takes no paths; the module is the directory of --stdin-filename");
  if (args.stdin && args.recursive) throw new UsageError("--stdin cannot be combined with --recursive");
  if (args.fix && args.fixDryRun) throw new UsageError("use either --fix or --fix-dry-run, not both");
  if (args.noBaseline && (args.baseline !== undefined || args.updateBaseline || args.pruneBaseline)) {
    throw new UsageError(`--no-baseline conflicts with ${args.baseline !== undefined ? "--baseline" : args.updateBaseline ? "--update-baseline" : "--prune-baseline"}`);
  }
  if (args.updateBaseline && args.pruneBaseline) throw new UsageError("use either --update-baseline or --prune-baseline, not both (--update-baseline also drops what matches nothing)");
  if (args.baseline !== undefined && args.baseline.trim() === "") throw new UsageError("--baseline needs a file name");
  if (args.cacheLocation !== undefined && !args.cache) throw new UsageError("--cache-location is only meaningful with --cache");
  if (args.cacheLocation !== undefined && isModuleFileName(path.basename(args.cacheLocation))) {
    throw new UsageError(`--cache-location ${args.cacheLocation}: refusing to write the cache over a module file name (.tf, .tf.json, .tofu, .tofu.json)`);
  }
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

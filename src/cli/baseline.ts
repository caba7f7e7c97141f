/**
 * The baseline stage of the lint command, between linting and the report:
 * finds each module's baseline file, splits its findings into new and
 * baselined (src/lint/baseline.ts), and with --update-baseline or
 * --prune-baseline writes the file (atomically, only when it changes).
 *
 * Which file: `--baseline FILE` (relative to the working directory), else
 * the `baseline` setting of the module's config file, else
 * `.tfcapi-lint-baseline.json` beside that config file (in the working
 * directory when none applies), used only when it exists. A file named by
 * the flag or the config must exist, unless --update-baseline creates it.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import type { FileConfig } from "../config/load.js";
import * as path from "node:path";
import { relativePath } from "../report/util.js";
import {
  BASELINE_FILE_NAME,
  BaselineError,
  expiredEntries,
  matchModule,
  parseBaseline,
  prunedEntries,
  serializeBaseline,
  unmatchedEntries,
  updatedEntries,
  entryKey,
  type BaselineEntry,
  type EntryUse,
  entryNotes,
} from "../lint/baseline.js";
import { recount } from "../lint/engine.js";
import { writeFileAtomic } from "../lint/apply-fixes.js";
import type { BaselineEntryState, BaselineReport, ModuleReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";
import type { CliArgs } from "./args.js";
import type { ModulePlan } from "./module-plans.js";

/** Where a module's baseline is, and whether it was named (then it must exist). */
interface BaselineFile {
  abs: string;
  shown: string;
  named: boolean;
}

/** One baseline file of the run with the modules that use it. */
interface Group {
  file: BaselineFile;
  entries: BaselineEntry[];
  modules: { key: string; report: ModuleReport; complete: boolean; failOnInfo: boolean }[];
}

function shownPath(abs: string, cwd: string): string {
  const rel = path.relative(path.resolve(cwd), abs);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : abs;
}

/** The baseline file a module uses (see the file comment); null with --no-baseline. */
function baselineFileOf(args: CliArgs, cwd: string, plan: ModulePlan): BaselineFile | null {
  return baselineFileFor(args, cwd, plan.lint.config)?.file ?? null;
}

/** The baseline file under a config, with where that choice comes from (`--print-config`); null with --no-baseline. */
function baselineFileFor(args: CliArgs, cwd: string, config: FileConfig | null | undefined): { file: BaselineFile; origin: string } | null {
  if (args.noBaseline) return null;
  if (args.baseline !== undefined) {
    const abs = path.resolve(cwd, args.baseline);
    return { file: { abs, shown: shownPath(abs, cwd), named: true }, origin: "--baseline" };
  }
  if (config?.baseline) return { file: { abs: config.baseline.value, shown: shownPath(config.baseline.value, cwd), named: true }, origin: config.baseline.origin };
  const abs = path.join(config ? config.dir : path.resolve(cwd), BASELINE_FILE_NAME);
  return { file: { abs, shown: shownPath(abs, cwd), named: false }, origin: "default" };
}

/**
 * The baseline setting `--print-config` shows: the file, as the run shows
 * it, with its origin; a value of null with --no-baseline; undefined when
 * no file is named and the default one does not exist (no baseline).
 */
export function baselineSetting(args: CliArgs, cwd: string, config: FileConfig | null | undefined): { value: string | null; origin: string } | undefined {
  if (args.noBaseline) return { value: null, origin: "--no-baseline" };
  const found = baselineFileFor(args, cwd, config);
  if (found === null || (!found.file.named && !existsSync(found.file.abs))) return undefined;
  return { value: found.file.shown, origin: found.origin };
}

/** A baseline file's entries; null when an unnamed file does not exist. Throws BaselineError. */
function readEntries(file: BaselineFile, creating: boolean): BaselineEntry[] | null {
  let text: string;
  try {
    text = readFileSync(file.abs, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      if (creating) return [];
      if (!file.named) return null;
      throw new BaselineError(`baseline ${file.shown}: no such file (create it with --update-baseline, or pass --no-baseline)`);
    }
    if (code === "EISDIR") throw new BaselineError(`baseline ${file.shown} is a directory; name a JSON file`);
    if (code === "EACCES" || code === "EPERM") throw new BaselineError(`permission denied: baseline ${file.shown}`);
    throw new BaselineError(`cannot read baseline ${file.shown}: ${code ?? (err as Error).message}`);
  }
  return parseBaseline(text, file.shown);
}

/** The module's key in its baseline file: its directory relative to the file's, `/`-separated, `.` for the same. */
function moduleKey(file: BaselineFile, dir: string): string {
  return relativePath(path.dirname(file.abs), path.resolve(dir));
}

/** The command that drops unmatched entries: this run's paths and the flags that choose the files. */
function pruneCommand(args: CliArgs): string {
  const quote = (s: string): string => (/^[\w./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const words = ["tfcapi-lint", "--prune-baseline"];
  if (args.recursive) words.push("--recursive");
  if (args.config !== undefined) words.push("--config", args.config);
  if (args.baseline !== undefined) words.push("--baseline", args.baseline);
  if (args.command === "module") words.push("module");
  words.push(...args.positionals);
  return words.map(quote).join(" ");
}

function stateOf(group: Group, use: EntryUse): BaselineEntryState {
  const e = use.entry;
  return {
    file: group.file.shown,
    module: e.module,
    moduleDir: group.modules.find((m) => m.key === e.module)?.report.dir ?? "",
    rule: e.rule,
    subject: e.subject,
    count: e.count,
    matched: use.matched,
    ...entryNotes(e),
  };
}

/** Writes a group's new entries when they differ from the file's text. Throws BaselineError. */
function writeGroup(group: Group, entries: readonly BaselineEntry[]): { file: string; entries: number; changed: boolean } {
  const text = serializeBaseline(entries);
  let before: string | null = null;
  try {
    before = readFileSync(group.file.abs, "utf8");
  } catch {
    // A new file.
  }
  const changed = before !== text;
  if (changed) {
    try {
      mkdirSync(path.dirname(group.file.abs), { recursive: true });
      writeFileAtomic(group.file.abs, text);
    } catch (err) {
      throw new BaselineError(`cannot write baseline ${group.file.shown}: ${(err as Error).message}`);
    }
  }
  return { file: group.file.shown, entries: entries.length, changed };
}

/**
 * The baseline stage: each report's findings split into new ones (left in
 * `findings`, counted in `summary`) and `baselined` ones; the files written
 * with --update-baseline / --prune-baseline. Returns what a report says of
 * it, or undefined when no baseline is in use (outputs stay as without
 * one). Throws BaselineError (exit 2).
 */
export function applyBaseline(args: CliArgs, cwd: string, modules: readonly { plan: ModulePlan; report: ModuleReport; complete: boolean }[], now: Date = new Date()): BaselineReport | undefined {
  const groups = new Map<string, Group>();
  // Default files found absent: asked once a run, not once a module.
  const absent = new Set<string>();
  for (const { plan, report, complete } of modules) {
    const file = baselineFileOf(args, cwd, plan);
    if (file === null || (!file.named && absent.has(file.abs))) continue;
    let group = groups.get(file.abs);
    if (group === undefined) {
      const entries = readEntries(file, args.updateBaseline);
      if (entries === null) {
        absent.add(file.abs);
        continue;
      }
      group = { file, entries, modules: [] };
      groups.set(file.abs, group);
    }
    group.modules.push({ key: moduleKey(file, report.dir), report, complete, failOnInfo: plan.lint.effective.failOn.value === "info" });
  }
  if (groups.size === 0) return undefined;
  const out: BaselineReport = { files: [], baselined: 0, unmatched: [], expired: [], pruneCommand: pruneCommand(args) };
  const written: NonNullable<BaselineReport["written"]> = [];
  for (const group of groups.values()) {
    out.files.push(group.file.shown);
    if (args.updateBaseline) {
      // A module with a file that could not be read keeps its entries: its findings are not all known.
      const current = new Map<string, Finding[]>();
      // Errors and warnings; info findings too where they fail the run (fail_on = "info").
      for (const m of group.modules) {
        if (!m.complete) continue;
        const recorded = m.failOnInfo ? m.report.findings : m.report.findings.filter((f) => f.severity !== "info");
        current.set(m.key, [...(current.get(m.key) ?? []), ...recorded]);
      }
      group.entries = updatedEntries(group.entries, current);
      written.push(writeGroup(group, group.entries));
    }
    const byKey = new Map(group.entries.map((e) => [entryKey(e), e]));
    const uses = new Map<string, EntryUse>();
    for (const m of group.modules) {
      const split = matchModule(m.key, m.report.findings, byKey, uses, now);
      m.report.findings = split.fresh;
      m.report.baselined = split.baselined;
      m.report.baselineReasons = split.reasons;
      m.report.baselineFile = group.file.shown;
      m.report.summary = recount(split.fresh);
      out.baselined += split.baselined.length;
    }
    const linted = new Set(group.modules.filter((m) => m.complete).map((m) => m.key));
    if (args.pruneBaseline) {
      written.push(writeGroup(group, prunedEntries(group.entries, linted, uses)));
    } else {
      out.unmatched.push(...unmatchedEntries(group.entries, linted, uses).map((u) => stateOf(group, u)));
    }
    out.expired.push(...expiredEntries(uses).map((u) => stateOf(group, u)));
  }
  if (written.length > 0) out.written = written;
  return out;
}

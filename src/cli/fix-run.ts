/**
 * The fix part of the lint command: `--fix` in passes until nothing is left
 * (fixOnDisk), `--fix-dry-run` as a diff, and what is said about them on
 * stderr: files not fixed and why, files that could not be written, and the
 * closing "fixed N problems in M files".
 */
import * as path from "node:path";
import { lintModule, type EngineOptions, type LintOutcome } from "../lint/engine.js";
import { fixesByFile, fixFileText, FixWriteError, inScope, MAX_FIX_PASSES, readForFix, unifiedDiff, writeFileAtomic, type FixScope } from "../lint/apply-fixes.js";
import type { ModuleReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";

/** What --fix did on one module, without the outcome (it crosses threads: see worker-pool.ts). */
export interface FixSummary {
  written: string[];
  applied: number;
  notes: string[];
  writeErrors: string[];
}

export interface FixRun {
  outcome: LintOutcome;
  written: string[];
  /** Fixes applied, over every pass. */
  applied: number;
  /** "file: not fixed: why" notes, and files that could not be written. */
  notes: string[];
  writeErrors: string[];
}

function refusedNote(f: Finding): string {
  return `${f.file}: not fixed: the fix of ${f.ruleId} edits text outside the block it was computed for`;
}

/**
 * The note for a pass whose fixes of `file` were refused. When earlier
 * passes fixed the file (`earlier` fixes), those are still written (shown,
 * on a dry run): the note says so rather than that the file is left as it was.
 */
function refusedPassNote(file: string, result: { reason: string; syntaxError?: string }, earlier: number | undefined, dry: boolean): string {
  if (!earlier || result.syntaxError === undefined) return `${file}: not fixed: ${result.reason}`;
  const n = earlier === 1 ? "the fix" : `the ${earlier} fixes`;
  const verb = earlier === 1 ? "is" : "are";
  if (dry) {
    return (
      `${file}: partly fixable: the fixes of a later pass would introduce a syntax error (${result.syntaxError}) and are left out; ` +
      `${n} of the earlier passes ${verb} shown`
    );
  }
  return (
    `${file}: partly fixed: the fixes of a later pass would have introduced a syntax error (${result.syntaxError}) and were left out; ` +
    `${n} of the earlier passes ${verb} written (run the linter again to see what is left)`
  );
}

/** A module's findings and the texts they were found in: a first lint, or a report (--fix-dry-run). */
interface FixBase {
  kind: "report";
  report: Pick<ModuleReport, "findings" | "sources">;
}

/** What one sequence of passes left, in memory (nothing written yet). */
interface Passes<First extends FixBase> {
  outcome: First | LintOutcome;
  /** Fixed texts (without BOM) by module-relative path, of files the passes changed. */
  texts: Map<string, string>;
  /** Fixes applied per file, over every pass. */
  applied: Map<string, number>;
  /** Rules whose fixes still change a file after the last pass (the passes did not settle), with those files. */
  unsettled: Map<string, string[]>;
}

/** Rules (not in `skip`) whose own fixes would change a file of `outcome` once more, with those files. */
function rulesStillFixing(outcome: FixBase | LintOutcome, textOf: (file: string) => string | undefined, skip: ReadonlySet<string>, scope: FixScope): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (outcome.kind !== "report") return out;
  const ids = new Set(outcome.report.findings.filter((f) => f.fix && !f.suppressed && !skip.has(f.ruleId) && inScope(f.fix, scope)).map((f) => f.ruleId));
  for (const id of ids) {
    const files: string[] = [];
    for (const [file, fixes] of fixesByFile(outcome.report.findings.filter((f) => f.ruleId === id), undefined, scope)) {
      const text = textOf(file);
      if (text !== undefined && fixFileText(file, text, fixes).kind === "fixed") files.push(file);
    }
    if (files.length > 0) out.set(id, files.sort());
  }
  return out;
}

/**
 * The options to lint `dir` again with the fixed `texts` in place of the
 * files'. The text read from --stdin (--fix-dry-run) becomes an overlay
 * entry too, so that its fixed text replaces it.
 */
function withTexts(dir: string, opts: EngineOptions, texts: ReadonlyMap<string, string>): EngineOptions {
  const overlay = new Map<string, string>();
  const { stdin, ...rest } = opts;
  if (stdin) for (const abs of [path.resolve(stdin.path), path.resolve(dir, stdin.path)]) overlay.set(abs, stdin.text);
  for (const [file, text] of opts.overlay ?? []) overlay.set(path.resolve(file), text);
  for (const [file, text] of texts) overlay.set(path.resolve(dir, ...file.split("/")), text);
  return { ...rest, overlay };
}

/** How a sequence of passes runs: where it reads a file before any fix, what it may fix, what it says. */
interface PassSettings {
  /** A file's text before any fix (undefined: leave the file alone). */
  baseText: (file: string) => string | undefined;
  scope: FixScope;
  /** --fix-dry-run: the notes speak of fixes shown, not written. */
  dry: boolean;
}

/**
 * Fix passes in memory, the module linted again with the fixed texts as an
 * overlay after each, until a pass changes nothing or MAX_FIX_PASSES is
 * reached; the fixes of the rules in `skip` are left out, and so are the
 * unsafe ones unless the scope is "all".
 */
function runPasses<First extends FixBase>(dir: string, opts: EngineOptions, first: First, skip: ReadonlySet<string>, notes: Set<string>, how: PassSettings): Passes<First> {
  let outcome: First | LintOutcome = first;
  const texts = new Map<string, string>();
  const applied = new Map<string, number>();
  const textOf = (file: string): string | undefined => texts.get(file) ?? how.baseText(file);
  let settled = false;
  for (let pass = 0; pass < MAX_FIX_PASSES && outcome.kind === "report"; pass++) {
    const refused: Finding[] = [];
    const byFile = fixesByFile(outcome.report.findings.filter((f) => !skip.has(f.ruleId)), refused, how.scope);
    for (const f of refused) notes.add(refusedNote(f));
    let changed = false;
    for (const [file, fixes] of byFile) {
      const text = textOf(file);
      if (text === undefined || text !== outcome.report.sources.get(file)) continue;
      const result = fixFileText(file, text, fixes);
      if (result.kind === "refused") notes.add(refusedPassNote(file, result, applied.get(file), how.dry));
      if (result.kind !== "fixed") continue;
      texts.set(file, result.text);
      applied.set(file, (applied.get(file) ?? 0) + result.applied);
      changed = true;
    }
    if (!changed) {
      settled = true;
      break;
    }
    outcome = lintModule(dir, withTexts(dir, opts, texts));
  }
  const unsettled = settled ? new Map<string, string[]>() : rulesStillFixing(outcome, textOf, skip, how.scope);
  return { outcome, texts, applied, unsettled };
}

/**
 * Passes until stable (runPasses). A rule whose fixes still change a file
 * after MAX_FIX_PASSES passes (a fix that undoes itself, or grows the text
 * each time) does not settle: the passes run again without that rule's
 * fixes, and a note names the rule. Nothing is applied ten times.
 */
function settledPasses<First extends FixBase>(dir: string, opts: EngineOptions, first: First, notes: Set<string>, how: PassSettings): Passes<First> {
  const skip = new Set<string>();
  let passes = runPasses(dir, opts, first, skip, notes, how);
  // Each round leaves out at least one more rule, so this ends.
  while (passes.unsettled.size > 0) {
    for (const [id, files] of [...passes.unsettled].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const plugin = (opts.ruleSet ?? []).find((r) => r.id === id)?.plugin ?? opts.catalogue.rule(id)?.plugin;
      const who = plugin ? `rule ${id} of plugin ${plugin}` : `rule ${id}`;
      const hint = plugin ? "report it to the plugin's authors" : "this is a bug in tfcapi-lint, please report it";
      const rest = how.dry ? "none of them is shown, the other rules' fixes are" : "none of them was applied, the other rules' fixes were";
      notes.add(`${files.join(", ")}: not fixed: the fixes of ${who} did not settle in ${MAX_FIX_PASSES} passes (each pass changed the file again); ${rest} (${hint})`);
      skip.add(id);
    }
    passes = runPasses(dir, opts, first, skip, notes, how);
  }
  return passes;
}

const byName = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Apply fixes in passes until stable (settledPasses); returns the final
 * outcome and the files written. The passes run in memory and files are
 * written once, at the end. `scope`: the safe fixes only (--fix) or every
 * fix (--fix-unsafe).
 */
export function fixOnDisk(dir: string, opts: EngineOptions, first: LintOutcome & { kind: "report" }, scope: FixScope): FixRun {
  const notes = new Set<string>();
  /** Disk texts (without BOM) read so far; null when the file changed under us or cannot be read. */
  const disk = new Map<string, string | null>();
  const baseText = (file: string): string | undefined => {
    if (!disk.has(file)) {
      let text: string | null;
      try {
        text = readForFix(path.join(dir, ...file.split("/"))).text;
      } catch {
        text = null;
      }
      // Changed under us since the first lint: leave it alone.
      disk.set(file, text !== null && text === first.report.sources.get(file) ? text : null);
    }
    return disk.get(file) ?? undefined;
  };
  const passes = settledPasses(dir, opts, first, notes, { baseText, scope, dry: false });
  const written: string[] = [];
  const writeErrors: string[] = [];
  let applied = 0;
  for (const [file, text] of [...passes.texts].sort(byName)) {
    const abs = path.join(dir, ...file.split("/"));
    try {
      // A module file may be a symbolic link: the file it points to is written.
      writeFileAtomic(abs, readForFix(abs).bom + text);
    } catch (err) {
      if (!(err instanceof FixWriteError)) throw err;
      writeErrors.push(`${file}: not fixed: ${err.message}`);
      continue;
    }
    applied += passes.applied.get(file) ?? 0;
    written.push(file);
  }
  // What is on disk when a file could not be written: lint it again from there.
  const outcome = writeErrors.length > 0 ? lintModule(dir, opts) : passes.outcome;
  return { outcome, written, applied, notes: [...notes], writeErrors };
}

/**
 * --fix-dry-run on one module: the diff of what --fix would write, every
 * pass of it (the module is linted again after each pass, as --fix does),
 * from the texts the report was made of. `dir` and `opts`: how the module was
 * linted (the report may come from the cache).
 */
export function dryRunDiff(report: ModuleReport, dir: string, opts: EngineOptions, cwd: string, notes: Set<string>, scope: FixScope): string {
  const first = { kind: "report" as const, report };
  const passes = settledPasses(dir, opts, first, notes, { baseText: (file) => report.sources.get(file), scope, dry: true });
  let out = "";
  for (const [file, after] of [...passes.texts].sort(byName)) {
    const before = report.sources.get(file)!;
    const rel = path.relative(cwd, path.join(report.dir, ...file.split("/")));
    const shown = (rel.startsWith("..") || path.isAbsolute(rel) ? path.join(report.dir, file) : rel).split(path.sep).join("/");
    out += unifiedDiff(shown, before, after);
  }
  return out;
}

/** What --fix and --fix-dry-run did over every module of a run. */
export class FixTally {
  private problems = 0;
  private files = 0;
  /** Modules --fix ran on (none: no summary line, e.g. every named file was skipped). */
  private modules = 0;
  /** Unsafe fixes the run's scope left out (--fix, --fix-dry-run without --fix-unsafe), in the final reports. */
  private unsafeLeft = 0;
  private readonly notes: string[] = [];
  private readonly writeErrors: string[] = [];

  /** `scope`: "all" with --fix-unsafe, else "safe". */
  constructor(private readonly scope: FixScope = "safe") {}

  private static prefix(display: string): string {
    return display === "." ? "" : `${display}/`;
  }

  /** Count the unsuppressed findings of a module's final report whose fix is unsafe, when the scope leaves them out. */
  countLeft(report: ModuleReport): void {
    if (this.scope === "all") return;
    this.unsafeLeft += report.findings.filter((f) => f.fix !== undefined && !f.suppressed && !inScope(f.fix, "safe")).length;
  }

  /** Count what --fix did on one module (shown as `display`). */
  record(display: string, r: FixSummary): void {
    this.modules++;
    this.problems += r.applied;
    this.files += r.written.length;
    for (const n of r.notes) this.notes.push(FixTally.prefix(display) + n);
    for (const n of r.writeErrors) this.writeErrors.push(FixTally.prefix(display) + n);
  }

  /** --fix-dry-run on one module (linted in `dir` with `opts`): the diff to show. */
  dryRun(report: ModuleReport, dir: string, opts: EngineOptions, cwd: string, display: string): string {
    const notes = new Set<string>();
    const diff = dryRunDiff(report, dir, opts, cwd, notes, this.scope);
    this.countLeft(report);
    for (const n of notes) this.notes.push(FixTally.prefix(display) + n);
    return diff;
  }

  /**
   * Say it on stderr, ending with the --fix summary line and, when unsafe
   * fixes were left out, how many and how to apply (or show) them; true when
   * a file could not be written. `fixed`: --fix ran; `dryRun`: --fix-dry-run.
   */
  print(stderr: (text: string) => void, fixed: boolean, dryRun = false): boolean {
    for (const n of [...this.notes, ...this.writeErrors]) stderr(`tfcapi-lint: ${n}\n`);
    if (fixed && this.modules > 0) {
      const p = this.problems;
      const f = this.files;
      stderr(`tfcapi-lint: fixed ${p} problem${p === 1 ? "" : "s"} in ${f} file${f === 1 ? "" : "s"}\n`);
    }
    const left = this.unsafeLeft;
    if (left > 0 && (fixed || dryRun)) {
      const one = left === 1;
      const what = one ? "1 unsafe fix" : `${left} unsafe fixes`;
      const why = one ? "it changes the plan" : "they change the plan";
      const it = one ? "it" : "them";
      stderr(
        fixed
          ? `tfcapi-lint: ${what} left (${why}): review ${it} with --fix-dry-run --fix-unsafe, then apply ${it} with --fix-unsafe\n`
          : `tfcapi-lint: ${what} not shown (${why}): add --fix-unsafe to show ${it}\n`,
      );
    }
    return this.writeErrors.length > 0;
  }
}

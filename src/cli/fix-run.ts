/**
 * The fix part of the lint command: `--fix` in passes until nothing is left
 * (fixOnDisk), `--fix-dry-run` as a diff, and what is said about them on
 * stderr: files not fixed and why, files that could not be written, and the
 * closing "fixed N problems in M files".
 */
import * as path from "node:path";
import { lintModule, type EngineOptions, type LintOutcome } from "../lint/engine.js";
import { FixWriteError, inScope, MAX_FIX_PASSES, readForFix, unifiedDiff, writeFileAtomic, type FixScope } from "../lint/apply-fixes.js";
import { settledPasses, type PassEvent } from "../lint/fix-passes.js";
import type { ModuleReport } from "../lint/result.js";

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

/**
 * What the passes' events say on stderr, in order and once each. A refused
 * pass after earlier passes fixed the file: those fixes are still written
 * (shown, on a dry run), and the note says so rather than that the file is
 * left as it was.
 */
function eventNotes(events: readonly PassEvent[], opts: EngineOptions, dry: boolean): string[] {
  const notes = new Set<string>();
  for (const e of events) {
    if (e.kind === "edit-outside") {
      notes.add(`${e.finding.file}: not fixed: the fix of ${e.finding.ruleId} edits text outside the block it was computed for`);
    } else if (e.kind === "refused") {
      notes.add(refusedPassNote(e, dry));
    } else {
      const plugin = (opts.ruleSet ?? []).find((r) => r.id === e.ruleId)?.plugin ?? opts.catalogue.rule(e.ruleId)?.plugin;
      const who = plugin ? `rule ${e.ruleId} of plugin ${plugin}` : `rule ${e.ruleId}`;
      const hint = plugin ? "report it to the plugin's authors" : "this is a bug in tfcapi-lint, please report it";
      const rest = dry ? "none of them is shown, the other rules' fixes are" : "none of them was applied, the other rules' fixes were";
      notes.add(`${e.files.join(", ")}: not fixed: the fixes of ${who} did not settle in ${MAX_FIX_PASSES} passes (each pass changed the file again); ${rest} (${hint})`);
    }
  }
  return [...notes];
}

function refusedPassNote(e: Extract<PassEvent, { kind: "refused" }>, dry: boolean): string {
  const { file, earlier, syntaxError } = e;
  if (!earlier || syntaxError === undefined) return `${file}: not fixed: ${e.reason}`;
  const n = earlier === 1 ? "the fix" : `the ${earlier} fixes`;
  const verb = earlier === 1 ? "is" : "are";
  if (dry) {
    return `${file}: partly fixable: the fixes of a later pass would introduce a syntax error (${syntaxError}) and are left out; ${n} of the earlier passes ${verb} shown`;
  }
  return (
    `${file}: partly fixed: the fixes of a later pass would have introduced a syntax error (${syntaxError}) and were left out; ` +
    `${n} of the earlier passes ${verb} written (run the linter again to see what is left)`
  );
}

const byName = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Apply fixes in passes until stable (settledPasses); returns the final
 * outcome and the files written. The passes run in memory and files are
 * written once, at the end. `scope`: the safe fixes only (--fix) or every
 * fix (--fix-unsafe).
 */
export function fixOnDisk(dir: string, opts: EngineOptions, first: LintOutcome & { kind: "report" }, scope: FixScope): FixRun {
  /** Disk texts (without BOM, which is kept to be written back) read so far; null when the file changed under us or cannot be read. */
  const disk = new Map<string, { text: string; bom: string } | null>();
  const baseText = (file: string): string | undefined => {
    if (!disk.has(file)) {
      let read: { text: string; bom: string } | null;
      try {
        read = readForFix(path.join(dir, ...file.split("/")));
      } catch {
        read = null;
      }
      // Changed under us since the first lint: leave it alone.
      disk.set(file, read !== null && read.text === first.report.sources.get(file) ? read : null);
    }
    return disk.get(file)?.text;
  };
  const passes = settledPasses(dir, opts, first, { baseText, scope });
  const written: string[] = [];
  const writeErrors: string[] = [];
  let applied = 0;
  for (const [file, text] of [...passes.texts].sort(byName)) {
    const abs = path.join(dir, ...file.split("/"));
    try {
      // A module file may be a symbolic link: the file it points to is written.
      writeFileAtomic(abs, disk.get(file)!.bom + text);
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
  return { outcome, written, applied, notes: eventNotes(passes.events, opts, false), writeErrors };
}

/**
 * --fix-dry-run on one module: the diff of what --fix would write, every
 * pass of it (the module is linted again after each pass, as --fix does),
 * from the texts the report was made of. `dir` and `opts`: how the module was
 * linted (the report may come from the cache).
 */
export function dryRunDiff(report: ModuleReport, dir: string, opts: EngineOptions, cwd: string, notes: string[], scope: FixScope): string {
  const passes = settledPasses(dir, opts, { kind: "report", report }, { baseText: (file) => report.sources.get(file), scope });
  notes.push(...eventNotes(passes.events, opts, true));
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
    const notes: string[] = [];
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

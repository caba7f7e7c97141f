/**
 * The fix part of the lint command: `--fix` in passes until nothing is left
 * (fixOnDisk), `--fix-dry-run` as a diff, and what is said about them on
 * stderr: files not fixed and why, files that could not be written, and the
 * closing "fixed N problems in M files".
 */
import * as path from "node:path";
import { lintModule, type LintOptions, type LintOutcome } from "../lint/engine.js";
import { fixesByFile, fixFileText, FixWriteError, MAX_FIX_PASSES, readForFix, unifiedDiff, writeFileAtomic } from "../lint/fix.js";
import type { ModuleReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";

/** What --fix did on one module, without the outcome (it crosses threads: see deep.ts). */
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

/** Apply fixes in passes until stable; returns the final outcome and the files written. */
export function fixOnDisk(dir: string, opts: LintOptions, first: LintOutcome & { kind: "report" }): FixRun {
  let outcome: LintOutcome = first;
  const written = new Set<string>();
  const notes = new Set<string>();
  const writeErrors: string[] = [];
  const failed = new Set<string>();
  let applied = 0;
  for (let pass = 0; pass < MAX_FIX_PASSES && outcome.kind === "report"; pass++) {
    const refused: Finding[] = [];
    const byFile = fixesByFile(outcome.report.findings, refused);
    for (const f of refused) notes.add(refusedNote(f));
    let changed = false;
    for (const [file, fixes] of byFile) {
      if (failed.has(file)) continue;
      const abs = path.join(dir, ...file.split("/"));
      const { text, bom } = readForFix(abs);
      if (text !== outcome.report.sources.get(file)) continue; // changed under us: leave it alone
      const result = fixFileText(file, text, fixes);
      if (result.kind === "refused") notes.add(`${file}: not fixed: ${result.reason}`);
      if (result.kind !== "fixed") continue;
      try {
        // A module file may be a symbolic link: the file it points to is written.
        writeFileAtomic(abs, bom + result.text);
      } catch (err) {
        if (!(err instanceof FixWriteError)) throw err;
        writeErrors.push(`${file}: not fixed: ${err.message}`);
        failed.add(file);
        continue;
      }
      applied += result.applied;
      written.add(file);
      changed = true;
    }
    if (!changed) break;
    outcome = lintModule(dir, opts);
  }
  return { outcome, written: [...written].sort(), applied, notes: [...notes], writeErrors };
}

export function dryRunDiff(report: ModuleReport, cwd: string, notes?: string[]): string {
  let out = "";
  const refused: Finding[] = [];
  const byFile = fixesByFile(report.findings, refused);
  for (const f of refused) notes?.push(refusedNote(f));
  for (const [file, fixes] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = report.sources.get(file);
    if (before === undefined) continue;
    const result = fixFileText(file, before, fixes);
    if (result.kind === "refused") notes?.push(`${file}: not fixed: ${result.reason}`);
    if (result.kind !== "fixed") continue;
    const after = result.text;
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
  private readonly notes: string[] = [];
  private readonly writeErrors: string[] = [];

  private static prefix(display: string): string {
    return display === "." ? "" : `${display}/`;
  }

  /** Count what --fix did on one module (shown as `display`). */
  record(display: string, r: FixSummary): void {
    this.modules++;
    this.problems += r.applied;
    this.files += r.written.length;
    for (const n of r.notes) this.notes.push(FixTally.prefix(display) + n);
    for (const n of r.writeErrors) this.writeErrors.push(FixTally.prefix(display) + n);
  }

  /** --fix-dry-run on one module: the diff to show. */
  dryRun(report: ModuleReport, cwd: string, display: string): string {
    const notes: string[] = [];
    const diff = dryRunDiff(report, cwd, notes);
    for (const n of notes) this.notes.push(FixTally.prefix(display) + n);
    return diff;
  }

  /** Say it on stderr, ending with the --fix summary line; true when a file could not be written. */
  print(stderr: (text: string) => void, fixed: boolean): boolean {
    for (const n of [...this.notes, ...this.writeErrors]) stderr(`tfcapi-lint: ${n}\n`);
    if (fixed && this.modules > 0) {
      const p = this.problems;
      const f = this.files;
      stderr(`tfcapi-lint: fixed ${p} problem${p === 1 ? "" : "s"} in ${f} file${f === 1 ? "" : "s"}\n`);
    }
    return this.writeErrors.length > 0;
  }
}

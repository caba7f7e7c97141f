/**
 * Applying fixes: the text edits of fixable findings, per file, without
 * overlaps, highest offset first. A fix whose edits leave the node it was
 * computed for is refused; a file with syntax errors is not fixed; a result
 * that does not parse as well as the original is not written. Files are
 * written atomically (temp file in the same directory, fsync, rename) keeping
 * mode, owner and group, or in place when that is the only way to keep them
 * (hard links, an owner the linter cannot give the new file).
 */
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import * as path from "node:path";
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from "diff";
import type { Block, Diagnostic, File } from "../hcl/ast.js";
import { blankOneLineBodies } from "../hcl/one-line-blocks.js";
import { parseModuleFile } from "../terraform/parse.js";
import { fixKindOf, type Finding, type Fix, type TextEdit } from "./types.js";

export const MAX_FIX_PASSES = 10;

/** The parser's code for HCL's "Invalid single-argument block definition" (which syntax/one-line-block fixes). */
const ONE_LINE_BLOCK = "one-line-block";

function inside(fix: Fix, e: TextEdit): boolean {
  const w = fix.within;
  return w === undefined || (e.start >= w.start && e.end <= w.end);
}

/**
 * Apply whole fixes (all edits of a fix or none) to `text`, skipping a fix
 * that overlaps one already taken (earlier fixes in `fixes` order win) and a
 * fix with an edit outside its `within` node.
 */
export function applyFixes(text: string, file: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const taken: TextEdit[] = [];
  let applied = 0;
  const overlaps = (e: TextEdit): boolean =>
    taken.some((t) => (e.start < t.end && t.start < e.end) || (e.start === e.end && e.start === t.start) || (t.start === t.end && t.start === e.start));
  for (const fix of fixes) {
    const edits = fix.edits.filter((e) => e.file === file);
    if (edits.length === 0 || edits.length !== fix.edits.length) continue;
    if (edits.some((e) => e.start < 0 || e.end < e.start || e.end > text.length)) continue;
    if (!edits.every((e) => inside(fix, e))) continue;
    if (edits.some(overlaps)) continue;
    // Edits within one fix must not overlap each other either.
    const sorted = [...edits].sort((a, b) => a.start - b.start);
    if (sorted.some((e, i) => i > 0 && e.start < sorted[i - 1]!.end)) continue;
    taken.push(...edits);
    applied++;
  }
  taken.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of taken) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { text: out, applied };
}

/** Which fixes to apply: the safe ones (`--fix`, fix-all in editors) or every one (`--fix-unsafe`). */
export type FixScope = "safe" | "all";

/** Whether a fix is applied under `scope` (a fix that does not say its kind is unsafe). */
export function inScope(fix: Fix, scope: FixScope): boolean {
  return scope === "all" || fixKindOf(fix) === "safe";
}

/**
 * Fixes of unsuppressed findings, grouped by the (single) file they edit;
 * with `scope` "safe" (the default), only the safe ones. A finding whose fix
 * edits text outside the node it was computed for is left out and, when
 * `refused` is given, added to it.
 */
export function fixesByFile(findings: readonly Finding[], refused?: Finding[], scope: FixScope = "safe"): Map<string, Fix[]> {
  const out = new Map<string, Fix[]>();
  for (const f of findings) {
    if (!f.fix || f.suppressed || f.fix.edits.length === 0 || !inScope(f.fix, scope)) continue;
    const fix = f.fix;
    const file = fix.edits[0]!.file;
    if (!fix.edits.every((e) => e.file === file)) continue;
    if (!fix.edits.every((e) => inside(fix, e))) {
      refused?.push(f);
      continue;
    }
    let list = out.get(file);
    if (!list) out.set(file, (list = []));
    list.push(fix);
  }
  return out;
}

/**
 * The node a fix for a finding at [start, end] belongs to when its rule did
 * not say: the innermost block of `file` that holds the range, else the range
 * itself.
 */
export function enclosingNode(file: File, start: number, end: number): { start: number; end: number } {
  let found: { start: number; end: number } = { start, end };
  let blocks: readonly Block[] = file.body.blocks;
  for (;;) {
    const b = blocks.find((x) => x.range.start.offset <= start && end <= x.range.end.offset);
    if (!b) return found;
    found = { start: b.range.start.offset, end: b.range.end.offset };
    blocks = b.body.blocks;
  }
}

/** How many times the guard blanks one-line blocks and parses again (each round blanks every one it finds). */
const MAX_BLANK_ROUNDS = 20;

/**
 * The syntax errors of `text` other than one-line blocks, and the one-line
 * block errors the parser reported. After its first error the parser reports no
 * further one, so a file holding a one-line block could hide any later
 * error (such as a stray `}`): the bodies of its one-line blocks are
 * blanked and the text parsed again until no one-line block is left. A
 * one-line block whose `{` has no matching `}` counts as an error itself.
 */
function syntaxErrors(text: string, file: string): { others: Diagnostic[]; oneLine: Diagnostic[] } {
  const errorsOf = (diags: readonly Diagnostic[]) => diags.filter((d) => d.severity === "error");
  let parsed = parseModuleFile(text, file);
  const oneLine = errorsOf(parsed.diagnostics).filter((d) => d.code === ONE_LINE_BLOCK);
  for (let round = 0; round < MAX_BLANK_ROUNDS; round++) {
    const errors = errorsOf(parsed.diagnostics);
    const others = errors.filter((d) => d.code !== ONE_LINE_BLOCK);
    if (others.length > 0 || errors.length === 0) return { others, oneLine };
    const blanked = blankOneLineBodies(parsed);
    // A one-line block whose `{` is never closed: an error of its own.
    if (blanked === null) return { others: errors.slice(0, 1), oneLine };
    if (blanked === parsed.file.text) break;
    parsed = parseModuleFile(blanked, file);
  }
  return { others: [], oneLine };
}

export type FileFixResult =
  | { kind: "fixed"; text: string; applied: number }
  | { kind: "unchanged" }
  /**
   * Nothing applied; `reason` completes "not fixed: ". `syntaxError`: the
   * fixes were refused because the result would have had this syntax error
   * ("line:column: summary", in the result's text).
   */
  | { kind: "refused"; reason: string; syntaxError?: string };

/**
 * The fixed text of one file (`file` is its module-relative path, used for
 * the edits and to choose the syntax). A file with syntax errors is not fixed
 * (a one-line block HCL rejects is the exception: fixing it is what
 * syntax/one-line-block's fix is for); the result must parse with no syntax
 * error the original did not have.
 */
export function fixFileText(file: string, text: string, fixes: readonly Fix[]): FileFixResult {
  const before = syntaxErrors(text, file);
  if (before.others.length > 0) return { kind: "refused", reason: "the file has syntax errors" };
  const result = applyFixes(text, file, fixes);
  if (result.applied === 0 || result.text === text) return { kind: "unchanged" };
  const after = syntaxErrors(result.text, file);
  if (after.others.length > 0 || after.oneLine.length > before.oneLine.length) {
    const d = after.others[0] ?? after.oneLine[0]!;
    const syntaxError = `${d.subject.start.line}:${d.subject.start.column}: ${d.summary}`;
    return { kind: "refused", reason: `the fixes would have introduced a syntax error (${syntaxError}); the file is left as it was`, syntaxError };
  }
  return { kind: "fixed", text: result.text, applied: result.applied };
}

/** A file the fixes could not be written to; the message names it or its directory. */
export class FixWriteError extends Error {}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOSPC") return "no space left on device";
  if (code === "EDQUOT") return "disk quota exceeded";
  return code ?? (err instanceof Error ? err.message : String(err));
}

function unlinkQuietly(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // best effort
  }
}

/** Overwrite the file itself (same inode: hard links, owner and mode stay). */
function writeInPlace(target: string, data: Buffer): void {
  let fd: number;
  try {
    fd = openSync(target, "r+");
  } catch (err) {
    throw new FixWriteError(`cannot write ${target}: ${reasonOf(err)}`);
  }
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off, off);
    ftruncateSync(fd, data.length);
    fsyncSync(fd);
  } catch (err) {
    throw new FixWriteError(`cannot write ${target}: ${reasonOf(err)}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Write the new file next to the old one and rename it over it. Returns
 * false (nothing changed) when the new file could not get the old one's
 * owner and group.
 */
function writeByRename(target: string, data: Buffer, st: Stats | null): boolean {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.tfcapi-lint-${process.pid}-${Date.now()}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, "wx", 0o600);
  } catch (err) {
    throw new FixWriteError(`cannot create a file in directory ${dir}: ${reasonOf(err)}`);
  }
  try {
    if (st) {
      if (st.uid !== process.getuid?.() || st.gid !== process.getgid?.()) {
        try {
          fchownSync(fd, st.uid, st.gid);
        } catch {
          closeSync(fd);
          unlinkQuietly(tmp);
          return false;
        }
      }
      fchmodSync(fd, st.mode & 0o7777);
    } else {
      fchmodSync(fd, 0o644);
    }
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw new FixWriteError(`cannot write ${tmp}: ${reasonOf(err)}`);
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    unlinkQuietly(tmp);
    throw new FixWriteError(`cannot replace ${target}: ${reasonOf(err)}`);
  }
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Directory fsync is not supported everywhere.
  }
  return true;
}

/**
 * Write `text` to `abs`. A symbolic link is followed (the file it points to
 * is written, the link stays). The write is atomic (temp file, fsync,
 * rename) and keeps the file's mode, owner and group; a file with more than
 * one hard link, or whose owner the new file cannot be given, is written in
 * place instead. Throws FixWriteError with a message for the user.
 */
export function writeFileAtomic(abs: string, text: string): void {
  let target = abs;
  try {
    target = realpathSync(abs);
  } catch {
    // A new file: written where it was asked for.
  }
  let st: Stats | null = null;
  try {
    st = statSync(target);
  } catch {
    // New file: default mode.
  }
  const data = Buffer.from(text, "utf8");
  if (st && st.nlink > 1) return writeInPlace(target, data);
  if (!writeByRename(target, data, st)) writeInPlace(target, data);
}

/**
 * Read a module file for fixing: the text as the parser saw it (a leading
 * BOM removed) and the BOM to put back.
 */
export function readForFix(abs: string): { text: string; bom: string } {
  const raw = readFileSync(abs, "utf8");
  return raw.charCodeAt(0) === 0xfeff ? { text: raw.slice(1), bom: "\ufeff" } : { text: raw, bom: "" };
}

/**
 * Line edits beyond which a diff is not aligned line by line: Myers'
 * algorithm (jsdiff's) costs time in proportion to their square.
 */
const MAX_DIFF_EDITS = 2_000;

/** Lines of context around a change. */
const DIFF_CONTEXT = 3;

/**
 * A unified diff of two texts (hunks with three lines of context), in the
 * form `git apply` and `patch` take (jsdiff's): a last line without a
 * newline is followed by "\\ No newline at end of file". Texts too different
 * to align (more than MAX_DIFF_EDITS line edits) show the changed region as
 * replaced.
 */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return "";
  const oldFileName = file.startsWith("/") ? file : `a/${file}`;
  const newFileName = file.startsWith("/") ? file : `b/${file}`;
  const aligned = structuredPatch(oldFileName, newFileName, before, after, undefined, undefined, { context: DIFF_CONTEXT, maxEditLength: MAX_DIFF_EDITS });
  const patch = aligned ?? { oldFileName, newFileName, oldHeader: undefined, newHeader: undefined, hunks: [replacedRegion(before, after)] };
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/** The lines of a text, each with its newline (the last one may have none). */
function linesWithEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** One hunk from the first line that differs to the last, with context, in jsdiff's form. */
function replacedRegion(before: string, after: string): StructuredPatchHunk {
  const a = linesWithEnds(before);
  const b = linesWithEnds(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const from = Math.max(0, pre - DIFF_CONTEXT);
  const lines: string[] = [];
  const push = (mark: string, line: string): void => {
    if (line.endsWith("\n")) lines.push(mark + line.slice(0, -1));
    else lines.push(mark + line, "\\ No newline at end of file");
  };
  for (const line of a.slice(from, pre)) push(" ", line);
  for (const line of a.slice(pre, a.length - suf)) push("-", line);
  for (const line of b.slice(pre, b.length - suf)) push("+", line);
  const tail = a.slice(a.length - suf, Math.min(a.length, a.length - suf + DIFF_CONTEXT));
  for (const line of tail) push(" ", line);
  return {
    oldStart: from + 1,
    oldLines: pre - from + (a.length - suf - pre) + tail.length,
    newStart: from + 1,
    newLines: pre - from + (b.length - suf - pre) + tail.length,
    lines,
  };
}

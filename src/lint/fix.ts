/**
 * Applying fixes: the text edits of fixable findings, per file, without
 * overlaps, highest offset first; files are written atomically (temp file in
 * the same directory, fsync, rename, original mode kept).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import * as path from "node:path";
import type { Finding, Fix, TextEdit } from "./types.js";

export const MAX_FIX_PASSES = 10;

/**
 * Apply whole fixes (all edits of a fix or none) to `text`, skipping a fix
 * that overlaps one already taken (earlier fixes in `fixes` order win).
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

/** Fixes of unsuppressed findings, grouped by the (single) file they edit. */
export function fixesByFile(findings: readonly Finding[]): Map<string, Fix[]> {
  const out = new Map<string, Fix[]>();
  for (const f of findings) {
    if (!f.fix || f.suppressed || f.fix.edits.length === 0) continue;
    const file = f.fix.edits[0]!.file;
    if (!f.fix.edits.every((e) => e.file === file)) continue;
    let list = out.get(file);
    if (!list) out.set(file, (list = []));
    list.push(f.fix);
  }
  return out;
}

/** Write `text` to `abs` atomically, keeping the file's mode. */
export function writeFileAtomic(abs: string, text: string): void {
  let mode = 0o644;
  try {
    mode = statSync(abs).mode & 0o7777;
  } catch {
    // New file: default mode.
  }
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.tfcapi-lint-${process.pid}-${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // best effort
    }
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, abs);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // best effort
    }
    throw err;
  }
  try {
    const dfd = openSync(path.dirname(abs), "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Directory fsync is not supported everywhere.
  }
}

/**
 * Read a module file for fixing: the text as the parser saw it (a leading
 * BOM removed) and the BOM to put back.
 */
export function readForFix(abs: string): { text: string; bom: string } {
  const raw = readFileSync(abs, "utf8");
  return raw.charCodeAt(0) === 0xfeff ? { text: raw.slice(1), bom: "\ufeff" } : { text: raw, bom: "" };
}

type DiffOp = { kind: " " | "-" | "+"; text: string };

/** Line edit script from a to b: equal prefix and suffix, LCS in between. */
function diffLines(a: string[], b: string[]): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: DiffOp[] = [];
  for (let i = 0; i < pre; i++) ops.push({ kind: " ", text: a[i] });
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;
  if (n * m <= 4_000_000) {
    // lcs[i][j]: length of the longest common subsequence of am[i..] and bm[j..].
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (am[i] === bm[j]) {
        ops.push({ kind: " ", text: am[i++] });
        j++;
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) ops.push({ kind: "-", text: am[i++] });
      else ops.push({ kind: "+", text: bm[j++] });
    }
    while (i < n) ops.push({ kind: "-", text: am[i++] });
    while (j < m) ops.push({ kind: "+", text: bm[j++] });
  } else {
    // Too large to align line by line: show the changed region as replaced.
    for (const t of am) ops.push({ kind: "-", text: t });
    for (const t of bm) ops.push({ kind: "+", text: t });
  }
  for (let i = a.length - suf; i < a.length; i++) ops.push({ kind: " ", text: a[i] });
  return ops;
}

/** A unified diff of two texts (hunks with three lines of context). */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return "";
  const ops = diffLines(before.split("\n"), after.split("\n"));
  const ctx = 3;
  const shown = file.startsWith("/") ? file : `a/${file}`;
  const shownB = file.startsWith("/") ? file : `b/${file}`;
  const lines = [`--- ${shown}`, `+++ ${shownB}`];
  // Line numbers (1-based) in a and b before each op.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let la = 1;
  let lb = 1;
  for (const op of ops) {
    aLine.push(la);
    bLine.push(lb);
    if (op.kind !== "+") la++;
    if (op.kind !== "-") lb++;
  }
  let k = 0;
  while (k < ops.length) {
    while (k < ops.length && ops[k].kind === " ") k++;
    if (k >= ops.length) break;
    // A hunk: from ctx lines before this change to ctx lines after the last
    // change that is at most 2*ctx equal lines away from the previous one.
    const first = Math.max(0, k - ctx);
    let last = k;
    let scan = k;
    while (scan < ops.length) {
      if (ops[scan].kind !== " ") {
        last = scan;
        scan++;
        continue;
      }
      let run = scan;
      while (run < ops.length && ops[run].kind === " ") run++;
      if (run >= ops.length || run - scan > 2 * ctx) break;
      scan = run;
    }
    const end = Math.min(ops.length, last + 1 + ctx);
    const body = ops.slice(first, end);
    const aCount = body.filter((o) => o.kind !== "+").length;
    const bCount = body.filter((o) => o.kind !== "-").length;
    lines.push(`@@ -${aLine[first]},${aCount} +${bLine[first]},${bCount} @@`);
    for (const o of body) lines.push(`${o.kind}${o.text}`);
    k = end;
  }
  return `${lines.join("\n")}\n`;
}

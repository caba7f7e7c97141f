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

/** A compact unified diff of two texts (one hunk around the changed lines). */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return "";
  const a = before.split("\n");
  const b = after.split("\n");
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ctx = 3;
  const start = Math.max(0, pre - ctx);
  const aEnd = Math.min(a.length, a.length - suf + ctx);
  const bEnd = Math.min(b.length, b.length - suf + ctx);
  const shown = file.startsWith("/") ? file : `a/${file}`;
  const shownB = file.startsWith("/") ? file : `b/${file}`;
  const lines = [`--- ${shown}`, `+++ ${shownB}`, `@@ -${start + 1},${aEnd - start} +${start + 1},${bEnd - start} @@`];
  for (let i = start; i < pre; i++) lines.push(` ${a[i]}`);
  for (let i = pre; i < a.length - suf; i++) lines.push(`-${a[i]}`);
  for (let i = pre; i < b.length - suf; i++) lines.push(`+${b[i]}`);
  for (let i = a.length - suf; i < aEnd; i++) lines.push(` ${a[i]}`);
  return `${lines.join("\n")}\n`;
}

/**
 * Source text handling shared by the lexer, the parser and the outline:
 * BOM removal, line starts and offset -> position conversion.
 *
 * Positions inside the parser are UTF-16 based (JavaScript string indices).
 * A leading byte order mark (U+FEFF) is removed before parsing; all offsets,
 * lines and columns are relative to the text without it. (HashiCorp's parser
 * skips the BOM too; its byte offsets still count the BOM's three bytes,
 * which the outline adds back.)
 */
import type { Pos, Range } from "./ast.js";

export const BOM = 0xfeff;

/** Returns the text without a leading BOM, and whether one was present. */
export function stripBom(text: string): { text: string; hadBom: boolean } {
  if (text.length > 0 && text.charCodeAt(0) === BOM) return { text: text.slice(1), hadBom: true };
  return { text, hadBom: false };
}

/** Offsets of the first character of every line; `\n` ends a line (so `\r\n` does too). */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf("\n");
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf("\n", i + 1);
  }
  return starts;
}

/** Converts offsets to positions; remembers the last line to speed up mostly-forward lookups. */
export class LineIndex {
  readonly lineStarts: number[];
  private last = 0;

  constructor(lineStarts: number[]) {
    this.lineStarts = lineStarts;
  }

  /** 0-based line index containing `offset`. */
  lineOf(offset: number): number {
    const ls = this.lineStarts;
    let l = this.last;
    if (ls[l] <= offset && (l + 1 >= ls.length || ls[l + 1] > offset)) return l;
    if (l + 1 < ls.length && ls[l + 1] <= offset && (l + 2 >= ls.length || ls[l + 2] > offset)) {
      this.last = l + 1;
      return l + 1;
    }
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    l = lo;
    this.last = l;
    return l;
  }

  pos(offset: number): Pos {
    const l = this.lineOf(offset);
    return { line: l + 1, column: offset - this.lineStarts[l] + 1, offset };
  }

  range(start: number, end: number): Range {
    return { start: this.pos(start), end: this.pos(end) };
  }
}

export function rangeBetween(a: Range, b: Range): Range {
  return { start: a.start, end: b.end };
}

/** The line ending a text uses (CRLF when its first line break is one). */
export function newlineOf(text: string): string {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** The whitespace that starts the line containing `offset`. */
export function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart));
  return m ? m[0] : "";
}

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
export class LineIndex implements RangeMaker {
  readonly lineStarts: number[];
  /** The line number of the line at lineStarts[0] (1 for a whole text). */
  readonly firstLine: number;
  private last = 0;

  constructor(lineStarts: number[], firstLine = 1) {
    this.lineStarts = lineStarts;
    this.firstLine = firstLine;
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
    return { line: l + this.firstLine, column: offset - this.lineStarts[l] + 1, offset };
  }

  /** The range [start, end) of this text: two offsets, positions made when read. */
  range(start: number, end: number): Span {
    return new Span(this, start, end);
  }
}

/** What a parser makes its ranges with, from offsets into the text it reads. */
export interface RangeMaker {
  range(start: number, end: number): Span;
}

/**
 * Ranges of a text embedded at offset `shift` of a larger one (a JSON
 * string's content parsed as a template): offsets into the embedded text
 * become offsets into the larger one, positioned by its line index.
 */
export class ShiftedLineIndex implements RangeMaker {
  constructor(
    readonly target: LineIndex,
    readonly shift: number,
  ) {}

  range(start: number, end: number): Span {
    return new Span(this.target, start + this.shift, end + this.shift);
  }
}

/**
 * The ranges of `text` as if it started at position `base` of some larger
 * text: offsets and line numbers of the results are the larger text's.
 */
export function indexAt(text: string, base: Pos): RangeMaker {
  const local = computeLineStarts(text);
  const starts = local.map((s, i) => (i === 0 ? base.offset - (base.column - 1) : s + base.offset));
  return new ShiftedLineIndex(new LineIndex(starts, base.line), base.offset);
}

/**
 * A range of a parsed text as two offsets and the text's line index: what
 * every syntax-tree node holds. Its `start` and `end` positions are computed
 * when read (a binary search in the line table), so a tree holds no position
 * objects at all. Treat it as immutable. `toJSON` gives the plain
 * `{ start, end }` form; anything that leaves the process or a thread
 * (findings, worker results) takes a copy with `plainRange`.
 */
export class Span implements Range {
  readonly lines: LineIndex;
  /** 0-based UTF-16 offset of the first character. */
  readonly startOffset: number;
  /** 0-based UTF-16 offset just past the last character. */
  readonly endOffset: number;

  constructor(lines: LineIndex, startOffset: number, endOffset: number) {
    this.lines = lines;
    this.startOffset = startOffset;
    this.endOffset = endOffset;
  }

  get start(): Pos {
    return this.lines.pos(this.startOffset);
  }

  get end(): Pos {
    return this.lines.pos(this.endOffset);
  }

  toJSON(): { start: Pos; end: Pos } {
    return { start: this.start, end: this.end };
  }
}

/** The start offset of a range (without making its position). */
export function startOffsetOf(r: Range): number {
  return r instanceof Span ? r.startOffset : r.start.offset;
}

/** The end offset of a range (without making its position). */
export function endOffsetOf(r: Range): number {
  return r instanceof Span ? r.endOffset : r.end.offset;
}

/** A plain `{ start, end }` copy of a range, safe to clone, serialise or keep after its tree. */
export function plainRange(r: Range): Range {
  const start = r.start;
  const end = r.end;
  return { start: { line: start.line, column: start.column, offset: start.offset }, end: { line: end.line, column: end.column, offset: end.offset } };
}

/** From the start of `a` to the end of `b`. */
export function rangeBetween(a: Range, b: Range): Range {
  if (a instanceof Span && b instanceof Span && a.lines === b.lines) return new Span(a.lines, a.startOffset, b.endOffset);
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

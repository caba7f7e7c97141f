/**
 * Positions between the linter and the client. The linter counts 1-based
 * lines and columns in UTF-16 code units with UTF-16 offsets (the text after
 * a BOM); LSP counts 0-based lines and characters in the encoding agreed at
 * initialize (`utf-16` unless the client offers `utf-8` or `utf-32` first).
 * Lines end at `\n` (a `\r` before it belongs to the line break), as the
 * parser counts them.
 */
import type { Position, Range } from "vscode-languageserver/node.js";
import { computeLineStarts, LineIndex } from "../hcl/source.js";

export type PositionEncoding = "utf-8" | "utf-16" | "utf-32";

/** The first encoding of the client's list that the server supports; `utf-16` when none is. */
export function chooseEncoding(offered: readonly string[] | undefined): PositionEncoding {
  for (const e of offered ?? []) {
    if (e === "utf-16" || e === "utf-8" || e === "utf-32") return e;
  }
  return "utf-16";
}

/** Code units of `s` in an encoding. */
function units(s: string, enc: PositionEncoding): number {
  if (enc === "utf-16") return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += enc === "utf-8" ? 4 : 1;
        i++;
        continue;
      }
    }
    n += enc === "utf-32" ? 1 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/**
 * A text's positions in the client's encoding, on the HCL layer's line
 * index (the same line starts and line search the parser uses).
 */
export class TextPositions {
  private readonly lines: LineIndex;
  private readonly starts: readonly number[];

  constructor(
    readonly text: string,
    private readonly enc: PositionEncoding,
  ) {
    this.lines = new LineIndex(computeLineStarts(text));
    this.starts = this.lines.lineStarts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of the start of a 0-based line (clamped). */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))]!;
  }

  /** Offset of the end of a 0-based line, before its line break. */
  lineEnd(line: number): number {
    if (line + 1 >= this.starts.length) return this.text.length;
    let end = this.starts[line + 1]! - 1;
    if (end > this.lineStart(line) && this.text.charCodeAt(end - 1) === 0x0d) end--;
    return end;
  }

  /** The text of a 0-based line without its line break. */
  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** The 0-based line holding `offset`. */
  lineOf(offset: number): number {
    return this.lines.lineOf(offset);
  }

  /** LSP position of a UTF-16 offset. */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, character: units(this.text.slice(this.lineStart(line), o), this.enc) };
  }

  /** LSP position of a linter line and column (1-based, UTF-16). */
  positionAt(line1: number, column1: number): Position {
    const line = Math.max(0, Math.min(line1 - 1, this.starts.length - 1));
    const start = this.lineStart(line);
    const o = Math.min(start + Math.max(0, column1 - 1), this.lineEnd(line));
    return { line, character: units(this.text.slice(start, o), this.enc) };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** UTF-16 offset of an LSP position (a character past the line's end is its end). */
  offset(pos: Position): number {
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.lineStart(pos.line);
    const end = this.lineEnd(pos.line);
    if (this.enc === "utf-16") return Math.min(start + Math.max(0, pos.character), end);
    let n = 0;
    let i = start;
    while (i < end && n < pos.character) {
      const c = this.text.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < end && (this.text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      n += this.enc === "utf-32" ? 1 : pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      i += pair ? 2 : 1;
    }
    return i;
  }
}

/** Whether two LSP ranges overlap or touch (an empty range touching another counts). */
export function rangesTouch(a: Range, b: Range): boolean {
  return !(before(a.end, b.start) || before(b.end, a.start));
}

/** Whether `p` is inside `r` (ends included). */
export function contains(r: Range, p: Position): boolean {
  return !before(p, r.start) && !before(r.end, p);
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

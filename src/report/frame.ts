/**
 * Code frames for the text formatter: the source line of a finding with a
 * caret underline below its range.
 *
 *      12 |   value = local.ids
 *         |           ^^^^^^^^^
 *
 * Columns are UTF-16 code units (as in the AST). A range spanning several
 * lines is underlined to the end of its first line. Very long lines (minified
 * `.tf.json`) are cut to a window around the range, marked with `…`.
 */
import type { Range } from "../hcl/ast.js";
import { sanitizeControls, splitLines } from "./util.js";

/** Longest source line shown as is; longer lines are windowed. */
export const MAX_FRAME_WIDTH = 160;
/** How much of the line before the range a window keeps. */
const WINDOW_LEAD = 40;

export interface FrameParts {
  lineNumber: number;
  /** The (possibly windowed) source text, controls replaced. */
  source: string;
  /** Whitespace before the caret run: tabs where the source has tabs. */
  pad: string;
  /** The underline (`^` repeated, at least one). */
  carets: string;
}

/**
 * Lines of a source text, split once per text and reused for every finding
 * of the file.
 */
export class SourceLines {
  private readonly cache = new Map<string, string[]>();

  constructor(private readonly sources: Map<string, string>) {}

  line(file: string, lineNumber: number): string | undefined {
    let lines = this.cache.get(file);
    if (lines === undefined) {
      const text = this.sources.get(file);
      if (text === undefined) return undefined;
      lines = splitLines(text.replace(/^\uFEFF/, ""));
      this.cache.set(file, lines);
    }
    return lineNumber >= 1 && lineNumber <= lines.length ? lines[lineNumber - 1] : undefined;
  }
}

/** The parts of a frame for `range` on `lineText`; the caller lays them out. */
export function frameParts(lineText: string, range: Range): FrameParts {
  const lineNumber = range.start.line;
  let startIdx = Math.max(0, range.start.column - 1);
  let endIdx: number;
  if (range.end.line === range.start.line) endIdx = Math.max(startIdx, range.end.column - 1);
  else endIdx = lineText.length;
  startIdx = Math.min(startIdx, lineText.length);
  endIdx = Math.min(endIdx, lineText.length);

  let text = lineText;
  let offset = 0;
  let prefix = "";
  let suffix = "";
  if (text.length > MAX_FRAME_WIDTH) {
    offset = Math.max(0, startIdx - WINDOW_LEAD);
    const windowEnd = Math.min(text.length, offset + MAX_FRAME_WIDTH);
    if (offset > 0) prefix = "…";
    if (windowEnd < text.length) suffix = "…";
    text = text.slice(offset, windowEnd);
    endIdx = Math.min(endIdx, windowEnd);
  }
  const relStart = startIdx - offset;
  const relEnd = endIdx - offset;
  const before = prefix + text.slice(0, relStart);
  const pad = before.replace(/[^\t]/g, " ");
  const carets = "^".repeat(Math.max(1, relEnd - relStart));
  return { lineNumber, source: sanitizeControls(prefix + text + suffix), pad, carets };
}

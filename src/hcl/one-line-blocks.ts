/**
 * One-line blocks that HCL rejects, found from the text when the parser
 * could not keep them whole. After the first error of a file HashiCorp's
 * parser (and ours, which matches it) reports nothing more of the same kind
 * and keeps only the first argument of each later one-line block; a nested
 * block inside a one-line block ends the parse of that block. To report and
 * fix every such block, the text between the braces is re-read on its own,
 * one item per line.
 */
import type { Block, Comment, Diagnostic, File, Pos, Range } from "./ast.js";
import { lex, T } from "./lexer.js";
import { parseNative } from "./parser.js";
import { LineIndex, newlineOf } from "./source.js";

const WRAPPER = "__tfcapi_lint_wrap";

const commentsByLine = new WeakMap<File, Map<number, Comment[]>>();

/** The comments that start on `line` (cached per file). */
function commentsOnLine(file: File, line: number): Comment[] {
  let index = commentsByLine.get(file);
  if (!index) {
    index = new Map();
    for (const c of file.comments) {
      const list = index.get(c.range.start.line);
      if (list) list.push(c);
      else index.set(c.range.start.line, [c]);
    }
    commentsByLine.set(file, index);
  }
  return index.get(line) ?? [];
}
const MAX_ITEMS = 200;

export interface SplitBody {
  /** The re-read text: `WRAPPER {`, one item per line, `}`. */
  file: File;
  wrapper: Block;
  /** Map a start offset in `file` (not an inserted newline) to the original file. */
  toOriginal(offset: number): number;
  /** Map an exclusive end offset in `file` to the original file. */
  toOriginalEnd(offset: number): number;
  /** Offset of the original closing brace. */
  close: number;
  /** How many commas separated items (`{ a = 1, b = 2 }`); each was read as a line break. */
  commas: number;
}

/**
 * The closing brace of the one-line block whose opening brace ends at
 * `bodyStart`: the last `}` of the line before any end-of-line comment.
 */
function closingBraceOnLine(file: File, bodyStart: number): number | null {
  const text = file.text;
  let lineEnd = text.indexOf("\n", bodyStart);
  if (lineEnd < 0) lineEnd = text.length;
  const line = posAt(file, bodyStart).line;
  const trailing = commentsOnLine(file, line).find((c) => c.range.start.offset >= bodyStart && c.range.start.offset < lineEnd && c.style !== "/*");
  const limit = trailing ? trailing.range.start.offset : lineEnd;
  const close = text.lastIndexOf("}", limit - 1);
  if (close < bodyStart || text.slice(close + 1, limit).trim() !== "") return null;
  return close;
}

/** For each `{` of `text` (by offset), the offset of the `}` that closes it, from the tokens; an unclosed `{` is missing. */
function braceMatches(text: string): Map<number, number> {
  const tk = lex(text);
  const out = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < tk.count; i++) {
    const ty = tk.types[i];
    if (ty === T.OBrace) open.push(tk.starts[i]!);
    else if (ty === T.CBrace && open.length > 0) out.set(open.pop()!, tk.starts[i]!);
  }
  return out;
}

/** True when the block's items (and comments) account for all the text between its braces, but blanks and commas between items. */
function coversBody(text: string, b: Block): boolean {
  const items = [...b.body.attributes.map((a) => a.range), ...b.body.blocks.map((x) => x.range)].sort((x, y) => x.start.offset - y.start.offset);
  let pos = b.openBraceRange.end.offset;
  for (const r of items) {
    const gap = text.slice(pos, r.start.offset).trim();
    if (r.start.offset < pos || (gap !== "" && !(gap === "," && pos > b.openBraceRange.end.offset))) return false;
    pos = r.end.offset;
  }
  return text.slice(pos, b.closeBraceRange.start.offset).trim() === "";
}

/**
 * `masked` with the body of the first block of a one-line diagnostic that
 * the parser could not read whole blanked (line breaks kept): its closing
 * brace is not where its tokens close it, or its items do not account for
 * its text (it dropped them after the first error). `masked` itself when
 * every such block was read whole; null when a body cannot be blanked (no
 * matching brace, or outside the re-read text).
 */
function maskBrokenBlock(text: string, diags: readonly Diagnostic[], shift: number, masked: string): string | null {
  let matches: Map<number, number> | undefined;
  for (const d of diags) {
    const b = d.block;
    if (!b) continue;
    const open = b.openBraceRange.start.offset;
    const close = (matches ??= braceMatches(text)).get(open);
    if (close === undefined || open < shift || close > shift + masked.length) return null;
    if (close === b.closeBraceRange.start.offset && coversBody(text, b)) continue;
    const from = open + 1 - shift;
    const to = close - shift;
    if (masked.slice(from, to).trim() === "") return null;
    return masked.slice(0, from) + masked.slice(from, to).replace(/[^\r\n]/g, " ") + masked.slice(to);
  }
  return masked;
}

/**
 * The text of `parsed` with the bodies of its one-line blocks HCL rejects
 * blanked (line breaks kept): those of its one-line diagnostics and those
 * found from the text. A new parse of it reports the errors the parser kept
 * quiet after the first one-line block. `parsed.file.text` itself when there
 * is nothing to blank; null when some such block's `{` has no matching `}`
 * (the braces do not balance).
 */
export function blankOneLineBodies(parsed: { file: File; diagnostics: readonly Diagnostic[] }): string | null {
  const text = parsed.file.text;
  const blocks: Block[] = [];
  for (const d of parsed.diagnostics) if (d.code === "one-line-block" && d.block) blocks.push(d.block);
  for (const found of findInvalidOneLineBlocks(parsed.file)) blocks.push(found.block);
  if (blocks.length === 0) return text;
  const matches = braceMatches(text);
  const spans: [number, number][] = [];
  for (const b of blocks) {
    const open = b.openBraceRange.start.offset;
    const close = matches.get(open);
    if (close === undefined) return null;
    if (text.slice(open + 1, close).trim() !== "") spans.push([open + 1, close]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let pos = 0;
  for (const [from, to] of spans) {
    if (to <= pos) continue; // inside a body already blanked
    const start = Math.max(from, pos);
    out += text.slice(pos, start) + text.slice(start, to).replace(/[^\r\n]/g, " ");
    pos = to;
  }
  return out + text.slice(pos);
}

/**
 * Re-read the body of a one-line block with each item on its own line:
 * parse it inside a multi-line wrapper and, while the parser asks for a
 * newline between two items, insert one there. Null when the body has any
 * other problem (then a rewrite would be a guess).
 */
export function splitOneLineBody(file: File, block: Block): SplitBody | null {
  const bodyStart = block.openBraceRange.end.offset;
  const close = closingBraceOnLine(file, bodyStart);
  if (close === null) return null;
  const nl = newlineOf(file.text);
  const prefix = `${WRAPPER} {${nl}`;
  let body = file.text.slice(bodyStart, close);
  // Original offset (relative to bodyStart) of each character of `body`; -1 for inserted ones.
  let origin = Array.from({ length: body.length }, (_, i) => i);
  let commas = 0;
  // `body` with the bodies of nested blocks the parser could not keep whole
  // blanked out (see maskBrokenBlock); the same length and line breaks.
  let masked = body;
  for (let i = 0; i <= MAX_ITEMS; i++) {
    const parsed = parseNative(`${prefix}${masked}${nl}}${nl}`, file.filename);
    const problem = parsed.diagnostics.find((d) => d.code !== "one-line-block");
    if (!problem) {
      const blocks = parsed.file.body.blocks;
      if (blocks.length !== 1 || blocks[0]!.type !== WRAPPER || parsed.file.body.attributes.length > 0) return null;
      if (parsed.diagnostics.length > 0) {
        // After a one-line block the parser stops reporting errors, so a
        // clean list proves nothing: an item that is itself a one-line block
        // holding one (`n { m { a = 1 b = 2 } }`) is read with its braces
        // mismatched. Blank such an item's body and read again: the item
        // stays whole, on its own line, where the split fix re-reads it in
        // turn (or keeps it as written for the next fix pass).
        const next = maskBrokenBlock(parsed.file.text, parsed.diagnostics, prefix.length, masked);
        if (next === null) return null;
        if (next !== masked) {
          masked = next;
          continue;
        }
      }
      if (blocks[0]!.closeBraceRange.start.offset !== prefix.length + masked.length + nl.length) return null;
      const at = (offset: number): number => {
        // Item boundaries never fall on an inserted newline; clamp anyway.
        let i = Math.min(Math.max(offset - prefix.length, 0), origin.length - 1);
        while (i > 0 && origin[i]! < 0) i--;
        return bodyStart + Math.max(origin[i] ?? 0, 0);
      };
      return {
        // The items' text as written (a blanked body is the same length).
        file: { ...parsed.file, text: `${prefix}${body}${nl}}${nl}` },
        wrapper: blocks[0]!,
        toOriginal: at,
        toOriginalEnd: (offset) => at(offset - 1) + 1,
        close,
        commas,
      };
    }
    const pos = problem.subject.start.offset - prefix.length;
    if (pos <= 0 || pos > body.length) return null;
    if (problem.summary === "Unexpected comma after argument" && body[pos] === ",") {
      // Arguments separated by commas, as in an object: read each comma as a line break.
      body = body.slice(0, pos) + nl + body.slice(pos + 1);
      masked = masked.slice(0, pos) + nl + masked.slice(pos + 1);
      origin = [...origin.slice(0, pos), ...Array.from({ length: nl.length }, () => -1), ...origin.slice(pos + 1)];
      commas++;
      continue;
    }
    if (!problem.summary.startsWith("Missing newline after")) return null;
    body = body.slice(0, pos) + nl + body.slice(pos);
    masked = masked.slice(0, pos) + nl + masked.slice(pos);
    origin = [...origin.slice(0, pos), ...Array.from({ length: nl.length }, () => -1), ...origin.slice(pos)];
  }
  return null;
}

/** Line/column of an offset, from the file's line starts. */
export function posAt(file: File, offset: number): Pos {
  return new LineIndex(file.lineStarts).pos(offset);
}

/**
 * Where HCL would report this block: at its first nested block (type and
 * brace) when that comes first, else at the name of its second item. Null
 * when the block is a valid one-line block.
 */
export function oneLineSubject(file: File, split: SplitBody): Range | null {
  type Item = { start: number; subject: Range };
  const attrs: Item[] = split.wrapper.body.attributes.map((a) => ({ start: a.range.start.offset, subject: a.nameRange }));
  const blocks: (Item & { header: Range })[] = split.wrapper.body.blocks.map((b) => ({
    start: b.range.start.offset,
    subject: b.typeRange,
    header: { start: b.typeRange.start, end: b.openBraceRange.end },
  }));
  const items: Item[] = [...attrs, ...blocks].sort((a, b) => a.start - b.start);
  const first = items[0];
  if (!first) return null;
  const firstBlock = blocks.find((b) => b.start === first.start);
  const r = firstBlock ? firstBlock.header : items[1]?.subject;
  if (!r) return null;
  return { start: posAt(file, split.toOriginal(r.start.offset)), end: posAt(file, split.toOriginalEnd(r.end.offset)) };
}

/** True when something other than blanks or a comment follows the block's `{` on its line. */
function opensOneLine(file: File, block: Block): boolean {
  const text = file.text;
  const from = block.openBraceRange.end.offset;
  let lineEnd = text.indexOf("\n", from);
  if (lineEnd < 0) lineEnd = text.length;
  let rest = text.slice(from, lineEnd);
  if (rest.trim() === "") return false;
  for (const c of commentsOnLine(file, block.openBraceRange.end.line)) {
    if (c.range.start.offset >= from && c.range.start.offset < lineEnd) {
      rest = rest.slice(0, c.range.start.offset - from) + " ".repeat(Math.min(c.range.end.offset, lineEnd) - c.range.start.offset) + rest.slice(Math.min(c.range.end.offset, lineEnd) - from);
    }
  }
  return rest.trim() !== "";
}

/** Fast path: a one-line block whose text is exactly its one argument (or nothing). */
function isPlainValidOneLiner(file: File, block: Block): boolean {
  if (!block.singleLine || block.body.blocks.length > 0 || block.body.attributes.length > 1) return false;
  const text = file.text;
  const start = block.openBraceRange.end.offset;
  const end = block.closeBraceRange.start.offset;
  const attr = block.body.attributes[0];
  if (!attr) return text.slice(start, end).trim() === "";
  return text.slice(start, attr.range.start.offset).trim() === "" && text.slice(attr.range.end.offset, end).trim() === "";
}

export interface OneLineBlock {
  block: Block;
  subject: Range;
  /** What the block holds, as re-read from its text. */
  attributes: number;
  blocks: number;
}

/**
 * Every block of the file written on one line with more than one item or a
 * nested block, found from the text (nested blocks included), in source
 * order.
 */
export function findInvalidOneLineBlocks(file: File): OneLineBlock[] {
  const out: OneLineBlock[] = [];
  if (file.syntax !== "native") return out;
  // Blocks nest without limit: an explicit stack, popped in source order.
  const stack: Block[] = [];
  for (let i = file.body.blocks.length - 1; i >= 0; i--) stack.push(file.body.blocks[i]!);
  while (stack.length > 0) {
    const block = stack.pop()!;
    if (isPlainValidOneLiner(file, block)) continue;
    if (opensOneLine(file, block)) {
      const split = splitOneLineBody(file, block);
      const subject = split ? oneLineSubject(file, split) : null;
      if (split && subject) {
        out.push({ block, subject, attributes: split.wrapper.body.attributes.length, blocks: split.wrapper.body.blocks.length });
      }
      continue;
    }
    const nested = block.body.blocks;
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]!);
  }
  return out;
}

/**
 * Text rewriting for fixes: expand a one-line block to the multi-line form
 * (one argument per line, nested blocks on their own lines, comments kept).
 */
import type { Attribute, Block, Comment, File } from "../../src/hcl/ast.js";
import { INDENT_UNIT, lineIndentAt, newlineOf } from "./outputs-expr.js";
import { splitOneLineBody } from "./outputs-oneline.js";

/** A replacement of [start, end) in a file. */
export interface Replacement {
  start: number;
  end: number;
  text: string;
}

/**
 * Expand an invalid one-line block: the replacement for its braces and
 * everything between them. Uses the syntax tree when the parser kept the
 * whole block; otherwise (a nested block inside a one-line block makes the
 * parser give up on the rest of the block) re-reads the text between the
 * braces on their line. Null when neither gives a faithful rewrite.
 */
export function expandOneLineBlock(file: File, block: Block, indent?: string): Replacement | null {
  const own = indent ?? lineIndentAt(file.text, block.range.start.offset);
  if (block.singleLine) {
    const text = expandBlockBody(file, block, [], own);
    if (text !== null) return { start: block.openBraceRange.start.offset, end: block.closeBraceRange.end.offset, text };
  }
  return expandFromLine(file, block, own);
}

function expandFromLine(file: File, block: Block, own: string): Replacement | null {
  const split = splitOneLineBody(file, block);
  if (split === null) return null;
  const expanded = expandBlockBody(split.file, split.wrapper, [], own);
  if (expanded === null) return null;
  return { start: block.openBraceRange.start.offset, end: split.close + 1, text: expanded };
}

type Item = { kind: "attr"; node: Attribute; start: number; end: number } | { kind: "block"; node: Block; start: number; end: number };

function itemsOf(block: Block): Item[] {
  const items: Item[] = [
    ...block.body.attributes.map((a): Item => ({ kind: "attr", node: a, start: a.range.start.offset, end: a.range.end.offset })),
    ...block.body.blocks.map((b): Item => ({ kind: "block", node: b, start: b.range.start.offset, end: b.range.end.offset })),
  ];
  return items.sort((a, b) => a.start - b.start);
}

/** A one-line block HCL rejects: more than one argument, or any nested block. */
export function isInvalidOneLineBlock(block: Block): boolean {
  return block.singleLine && (block.body.blocks.length > 0 || block.body.attributes.length > 1);
}

/**
 * The multi-line text that replaces `block` from its opening to its closing
 * brace (inclusive), with `extraLines` appended as further body lines; null
 * when the block's source holds text the syntax tree does not account for
 * (the parser recovered from something we cannot rebuild faithfully).
 *
 * `indent` is the indentation of the line the block starts on; nested
 * one-line blocks that are themselves invalid are expanded too.
 */
export function expandBlockBody(file: File, block: Block, extraLines: readonly string[] = [], indent?: string): string | null {
  const text = file.text;
  const nl = newlineOf(text);
  const own = indent ?? lineIndentAt(text, block.range.start.offset);
  const inner = own + INDENT_UNIT;
  const bodyStart = block.openBraceRange.end.offset;
  const bodyEnd = block.closeBraceRange.start.offset;
  if (bodyEnd < bodyStart) return null;
  const items = itemsOf(block);
  const comments: Comment[] = file.comments.filter((c) => c.range.start.offset >= bodyStart && c.range.end.offset <= bodyEnd);

  // Everything between the braces must be an item, a comment or blank.
  const covered = [...items.map((i) => [i.start, i.end] as const), ...comments.map((c) => [c.range.start.offset, c.range.end.offset] as const)].sort(
    (a, b) => a[0] - b[0],
  );
  let pos = bodyStart;
  for (const [s, e] of covered) {
    if (s < pos || e > bodyEnd) return null;
    if (text.slice(pos, s).trim() !== "") return null;
    pos = e;
  }
  if (text.slice(pos, bodyEnd).trim() !== "") return null;

  // Lay out line by line; consecutive arguments get their `=` aligned, as
  // `terraform fmt` does (a comment or a block ends a run).
  type Line = { text: string } | { name: string; value: string };
  const out: Line[] = [];
  let ci = 0;
  for (const item of items) {
    while (ci < comments.length && comments[ci]!.range.start.offset < item.start) out.push({ text: comments[ci++]!.text });
    if (item.kind === "attr") {
      const a = item.node;
      out.push({ name: a.name, value: text.slice(a.expr.range.start.offset, a.range.end.offset) });
    } else {
      const b = item.node;
      if (isInvalidOneLineBlock(b)) {
        const expanded = expandOneLineBlock(file, b, inner);
        if (expanded === null) return null;
        out.push({ text: text.slice(b.range.start.offset, expanded.start) + expanded.text });
      } else {
        out.push({ text: text.slice(item.start, item.end) });
      }
    }
  }
  while (ci < comments.length) out.push({ text: comments[ci++]!.text });
  for (const extra of extraLines) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(.*)$/s.exec(extra);
    out.push(m ? { name: m[1]!, value: m[2]! } : { text: extra });
  }
  const lines: string[] = [];
  for (let i = 0; i < out.length; ) {
    const line = out[i]!;
    if ("text" in line) {
      lines.push(inner + line.text);
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && "name" in out[j]!) j++;
    const run = out.slice(i, j) as { name: string; value: string }[];
    const width = Math.max(...run.map((r) => r.name.length));
    for (const r of run) lines.push(`${inner}${r.name.padEnd(width)} = ${r.value}`);
    i = j;
  }
  return "{" + nl + lines.join(nl) + nl + own + "}";
}

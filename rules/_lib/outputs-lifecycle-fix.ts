/**
 * The fix that adds an attribute to a resource's `lifecycle { ignore_changes }`:
 * extend an existing list, add the argument to an existing lifecycle block,
 * or create the lifecycle block. Native syntax only; returns null whenever the
 * edit would be a guess (JSON, override files, one-line resources).
 */
import type { Attribute, Block } from "../../src/hcl/ast.js";
import type { Fix, TextEdit } from "../../src/lint/types.js";
import type { Resource } from "../../src/terraform/model.js";
import { INDENT_UNIT, lineIndentAt, newlineOf } from "./outputs-expr.js";
import { expandBlockBody } from "./outputs-format.js";

function lineEndAt(text: string, offset: number): number {
  const i = text.indexOf("\n", offset);
  if (i < 0) return text.length;
  return i > 0 && text[i - 1] === "\r" ? i - 1 : i;
}

/** True when only blanks precede `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === "";
}

function closeBraceLine(block: Block): number {
  return block.closeBraceRange.start.line;
}

/**
 * The `=` column width of the run of one-line arguments that ends on the
 * line just above the closing brace (what `terraform fmt` aligns a new last
 * argument with); 0 when there is no such run.
 */
function alignedWidth(attrs: readonly Attribute[], onlyAttributes: boolean, closeLine: number): number {
  if (!onlyAttributes || attrs.length === 0) return 0;
  const sorted = [...attrs].sort((a, b) => a.range.start.offset - b.range.start.offset);
  let expectLine = closeLine - 1;
  let width = 0;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const a = sorted[i]!;
    if (a.range.start.line !== a.range.end.line || a.range.end.line !== expectLine) break;
    width = Math.max(width, a.name.length);
    expectLine--;
  }
  return width;
}

export function ignoreChangesFix(resource: Resource, path: string): Fix | null {
  const file = resource.file;
  if (file.hcl.syntax !== "native") return null;
  if (resource.overriddenBy && resource.overriddenBy.length > 0) return null;
  if (resource.block.singleLine) return null;
  const text = file.hcl.text;
  const nl = newlineOf(text);
  const description = `Add ${path} to lifecycle { ignore_changes }`;
  const edit = (start: number, end: number, t: string): TextEdit => ({ file: file.path, start, end, text: t });
  const lc = resource.lifecycle;
  const inResourceBody = (offset: number): boolean =>
    offset > resource.block.openBraceRange.end.offset && offset < resource.block.closeBraceRange.start.offset;

  if (lc.ignoreChangesAttr) {
    if (!inResourceBody(lc.ignoreChangesAttr.range.start.offset)) return null;
    const tuple = lc.ignoreChangesAttr.expr;
    if (tuple.kind !== "TupleCons") return null;
    const open = tuple.range.start.offset;
    const close = tuple.range.end.offset - 1; // the `]`
    if (text[open] !== "[" || text[close] !== "]") return null;
    if (tuple.exprs.length === 0) return { description, edits: [edit(open, close + 1, `[${path}]`)] };
    const last = tuple.exprs[tuple.exprs.length - 1]!;
    const afterLast = text.slice(last.range.end.offset, close);
    const commaAt = afterLast.indexOf(",");
    const trailingComma = commaAt >= 0 && afterLast.slice(0, commaAt).trim() === "";
    const multiLine = tuple.range.start.line !== tuple.range.end.line;
    if (!multiLine || last.range.end.line === tuple.range.end.line) {
      if (trailingComma) return { description, edits: [edit(last.range.end.offset + commaAt + 1, last.range.end.offset + commaAt + 1, ` ${path},`)] };
      return { description, edits: [edit(last.range.end.offset, last.range.end.offset, `, ${path}`)] };
    }
    // One element per line: add a line after the last element (and after any end-of-line comment).
    const indent = lineIndentAt(text, last.range.start.offset);
    const eol = lineEndAt(text, last.range.end.offset);
    if (trailingComma) return { description, edits: [edit(eol, eol, `${nl}${indent}${path},`)] };
    if (eol === last.range.end.offset) return { description, edits: [edit(eol, eol, `,${nl}${indent}${path}`)] };
    return {
      description,
      edits: [edit(last.range.end.offset, last.range.end.offset, ","), edit(eol, eol, `${nl}${indent}${path}`)],
    };
  }

  const line = `ignore_changes = [${path}]`;
  if (lc.block) {
    const block = lc.block;
    if (!inResourceBody(block.range.start.offset)) return null;
    if (block.singleLine) {
      const expanded = expandBlockBody(file.hcl, block, [line]);
      if (expanded === null) return null;
      return { description, edits: [edit(block.openBraceRange.start.offset, block.closeBraceRange.end.offset, expanded)] };
    }
    const closeAt = block.closeBraceRange.start.offset;
    if (!startsLine(text, closeAt)) return null;
    const indent = lineIndentAt(text, block.range.start.offset) + INDENT_UNIT;
    const lineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
    const width = alignedWidth(block.body.attributes, block.body.blocks.length === 0, closeBraceLine(block));
    const name = "ignore_changes".padEnd(Math.max(width, "ignore_changes".length));
    return { description, edits: [edit(lineStart, lineStart, `${indent}${name} = [${path}]${nl}`)] };
  }

  const closeAt = resource.block.closeBraceRange.start.offset;
  if (!startsLine(text, closeAt)) return null;
  const indent = lineIndentAt(text, resource.block.range.start.offset) + INDENT_UNIT;
  const lineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
  const previousLineBlank = lineStart >= 1 && text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart).trim() === "";
  const lifecycle = [
    ...(previousLineBlank ? [] : [""]),
    `${indent}lifecycle {`,
    `${indent}${INDENT_UNIT}${line}`,
    `${indent}}`,
  ].join(nl);
  return { description, edits: [edit(lineStart, lineStart, lifecycle + nl)] };
}

/**
 * Text edits that add or change an argument of a block, keeping the block's
 * own indentation and line endings, for native and JSON syntax.
 */
import type { Block, Expression } from "../../src/hcl/ast.js";
import type { TextEdit } from "../../src/lint/types.js";
import type { SourceFile } from "../../src/terraform/model.js";

function lineEnding(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** The whitespace at the start of the given 1-based line. */
function lineIndent(file: SourceFile, line: number): string {
  const text = file.hcl.text;
  const start = file.hcl.lineStarts[line - 1] ?? 0;
  let end = start;
  while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
  return text.slice(start, end);
}

/** True when only whitespace precedes `offset` on its line. */
function startsLine(file: SourceFile, line: number, offset: number): boolean {
  const start = file.hcl.lineStarts[line - 1] ?? 0;
  return file.hcl.text.slice(start, offset).trim() === "";
}

/** Replace an expression's source text. */
export function replaceExpressionFix(file: SourceFile, expr: Expression, text: string): TextEdit {
  return { file: file.path, start: expr.range.start.offset, end: expr.range.end.offset, text };
}

/**
 * Insert `name = value` (native) or `"name": value` (JSON) as the block's
 * last argument. Returns undefined for a one-line native block: HCL allows a
 * single argument there, and expanding the block is a different fix.
 */
export function insertAttributeFix(file: SourceFile, block: Block, name: string, value: string): TextEdit | undefined {
  if (file.hcl.syntax === "json") return insertJsonProperty(file, block, name, value);
  if (block.singleLine) return undefined;
  const text = file.hcl.text;
  const eol = lineEnding(text);
  const closeLine = block.closeBraceRange.start.line;
  const attrs = block.body.attributes;
  const last = attrs[attrs.length - 1];
  if (last) {
    const indent = lineIndent(file, last.range.start.line);
    const endLine = last.range.end.line;
    if (endLine < closeLine) {
      const at = file.hcl.lineStarts[endLine] ?? text.length;
      return { file: file.path, start: at, end: at, text: `${indent}${name} = ${value}${eol}` };
    }
    // The closing brace shares the last argument's line: not valid HCL in a
    // multi-line block, so there is nothing sound to edit.
    return undefined;
  }
  const openLine = block.openBraceRange.start.line;
  const firstBlock = block.body.blocks[0];
  const indent = firstBlock
    ? lineIndent(file, firstBlock.range.start.line)
    : `${lineIndent(file, closeLine)}  `;
  if (openLine < closeLine) {
    const at = file.hcl.lineStarts[openLine] ?? text.length;
    return { file: file.path, start: at, end: at, text: `${indent}${name} = ${value}${eol}` };
  }
  return undefined;
}

function insertJsonProperty(file: SourceFile, block: Block, name: string, value: string): TextEdit | undefined {
  const property = `${JSON.stringify(name)}: ${value}`;
  const members = [...block.body.attributes.map((a) => a.range), ...block.body.blocks.map((b) => b.range)];
  members.sort((a, b) => a.end.offset - b.end.offset);
  const last = members[members.length - 1];
  if (!last) {
    const at = block.openBraceRange.end.offset;
    return { file: file.path, start: at, end: at, text: property };
  }
  // Right after the last member: whatever followed it (a comma, `}`) still fits.
  const at = last.end.offset;
  if (startsLine(file, last.start.line, last.start.offset)) {
    const eol = lineEnding(file.hcl.text);
    return { file: file.path, start: at, end: at, text: `,${eol}${lineIndent(file, last.start.line)}${property}` };
  }
  return { file: file.path, start: at, end: at, text: `, ${property}` };
}

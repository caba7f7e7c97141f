/**
 * Public entry of the HCL layer: parse a file (native syntax, or JSON syntax
 * when the filename ends in `.json`), the oracle-compatible outline, and the
 * AST types and walking helpers.
 */
import type { ParseResult } from "./ast.js";
import { parseJson } from "./json.js";
import { ARGUMENTS_ONLY, type BlockSchema } from "./json-shape.js";
import { parseNative } from "./parser.js";

export type * from "./ast.js";
export type { BlockSchema, StringMode } from "./json-shape.js";
export { ARGUMENTS_ONLY } from "./json-shape.js";
export { parseExpressionAt, parseTemplateAt, parseNative } from "./parser.js";
export { hclOutline } from "./outline.js";
export {
  walkExpression,
  children,
  forEachChild,
  unwrap,
  constantValue,
  constString,
  constBool,
  isNullLiteral,
  objectKeyName,
  expressionKey,
  traversalText,
  exprText,
  collectRefs,
  collectCalls,
} from "./walk.js";
export { blockHeaderRange, blockNameRange, bodyAttributes, findAttr } from "./blocks.js";
export { findInvalidOneLineBlocks, splitOneLineBody } from "./one-line-blocks.js";
export { Span, LineIndex, plainRange, rangeBetween, startOffsetOf, endOffsetOf } from "./source.js";
export { SyntaxNode, copyNode } from "./nodes.js";

/**
 * Parses an HCL file; `*.json` files use the JSON syntax, read with
 * `jsonSchema` (default: every property an argument; a Terraform module file
 * is read with Terraform's block schema, src/terraform/parse.ts). Never throws.
 */
export function parseHcl(text: string, filename: string, jsonSchema: BlockSchema = ARGUMENTS_ONLY): ParseResult {
  if (filename.endsWith(".json")) return parseJson(text, filename, jsonSchema);
  return parseNative(text, filename);
}

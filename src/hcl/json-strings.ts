/**
 * JSON strings as HCL expressions: a string value is a native-syntax template
 * (or, for a few Terraform arguments, a native expression, or a plain
 * literal). The native parser reads the *decoded* string, so its positions
 * must be mapped back into the file.
 *
 * Mapping is exact in both cases:
 * - a string without escapes is parsed in place: its decoded text is its
 *   source text, on one line, starting after the opening quote;
 * - a string with escapes is parsed at offset 0 and every position in the
 *   result is moved to the source offset of the decoded unit it points at
 *   (`decodedOffsets`), so `"a\n${var.x}"` yields `var.x` at its real column. A
 *   position inside an escape's expansion (only possible for the end of a
 *   range that splits a `\uXXXX` surrogate pair) maps to the escape start.
 */

import type { Diagnostic, Expression, Pos, TemplateExpr } from "./ast.js";
import { decodedOffsets, type JString } from "./json-value.js";
import { parseExpressionAt, parseTemplateAt, type TextBase } from "./parser.js";
import { JsonTemplateNode, SyntaxNode, TemplateInterpNode } from "./nodes.js";
import { Span, type LineIndex } from "./source.js";

export interface StringExpr {
  expr: Expression;
  diagnostics: Diagnostic[];
}

/** The string in template mode: `"${var.a}-x"`. */
export function templateFromString(s: JString, text: string, filename: string, lines: LineIndex): StringExpr {
  // Text without template sequences is all literal: skip the parser (this is
  // most strings, and it keeps large files fast).
  if (!s.value.includes("${") && !s.value.includes("%{")) return { expr: literalFromString(s, text, lines), diagnostics: [] };
  const result = parseInPlace(s, text, filename, lines, parseTemplateAt);
  const tokenRange = lines.range(s.range.start, s.range.end);
  const expr = result.expr;
  if (expr.kind === "Template") return { expr: new JsonTemplateNode(expr.parts, tokenRange, s.value), diagnostics: result.diagnostics };
  if (expr.kind === "TemplateWrap") {
    expr.form = "json";
    expr.range = tokenRange;
    return result;
  }
  // Any other node (the native parser's choice for odd input): keep it as
  // the single interpolated part of a template so the JSON value survives.
  const wrapped: TemplateExpr = new JsonTemplateNode([new TemplateInterpNode(expr, expr.range, false, false)], tokenRange, s.value);
  return { expr: wrapped, diagnostics: result.diagnostics };
}

/** The string as one native expression: `"list(string)"`, `"aws.west"`. */
export function expressionFromString(s: JString, text: string, filename: string, lines: LineIndex): StringExpr {
  return parseInPlace(s, text, filename, lines, parseExpressionAt);
}

/**
 * The string used verbatim, `${` and all. Shaped like the native parser's
 * template for plain text: one literal part per line (each keeping its line
 * break), and a single empty part for the empty string.
 */
export function literalFromString(s: JString, text: string, lines: LineIndex): TemplateExpr {
  const value = s.value;
  // Source offsets where each part ends: after each line break, then the end.
  const ends = s.escaped ? lineBreakEnds(text, s) : [];
  if (!s.escaped) for (let nl = value.indexOf("\n"); nl !== -1; nl = value.indexOf("\n", nl + 1)) ends.push(s.range.start + 2 + nl);
  if (ends.length === 0 || ends[ends.length - 1] !== s.contentEnd) ends.push(s.contentEnd);
  const parts: TemplateExpr["parts"] = [];
  let from = 0;
  let fromSource = s.range.start + 1;
  for (const endSource of ends) {
    const nl = value.indexOf("\n", from);
    const to = nl === -1 ? value.length : nl + 1;
    parts.push({
      kind: "TemplateLiteral",
      value: value.slice(from, to),
      range: lines.range(fromSource, endSource),
    });
    from = to;
    fromSource = endSource;
  }
  return {
    kind: "Template",
    parts,
    form: "json",
    jsonValue: value,
    range: lines.range(s.range.start, s.range.end),
  };
}

/**
 * Source offsets just after each escape of an escaped string that decodes to
 * a line break (`\n` or `\u000a`), in order. (A raw line break cannot occur:
 * it ends the string token.)
 */
function lineBreakEnds(text: string, s: JString): number[] {
  const ends: number[] = [];
  for (let i = text.indexOf("\\", s.range.start + 1); i !== -1 && i < s.contentEnd; i = text.indexOf("\\", i)) {
    const e = text[i + 1];
    if (e === "n") {
      ends.push(i + 2);
      i += 2;
    } else if (e === "u") {
      if (/^000[aA]$/.test(text.slice(i + 2, i + 6))) ends.push(i + 6);
      i += 2;
    } else {
      i += 2;
    }
  }
  return ends;
}

type NativeParse = (text: string, filename: string, base?: TextBase) => { expr: Expression; diagnostics: Diagnostic[] };

function parseInPlace(s: JString, text: string, filename: string, lines: LineIndex, parse: NativeParse): StringExpr {
  if (!s.escaped) {
    // Unescaped: the decoded text is the source text after the opening quote.
    const r = parse(s.value, filename, { lines, offset: s.range.start + 1 });
    return { expr: r.expr, diagnostics: r.diagnostics };
  }
  const r = parse(s.value, filename);
  const map = decodedOffsets(text, s);
  const last = map.length - 1;
  const at = (offset: number): number => map[offset < 0 ? 0 : offset > last ? last : offset];
  const move = (p: Pos): Pos => lines.pos(at(p.offset));
  const moveSpan = (r: Span): Span => new Span(lines, at(r.startOffset), at(r.endOffset));
  const moveNode = (n: SyntaxNode): void => n.moveOffsets(at, lines);
  remapPositions(r.expr, move, moveSpan, moveNode);
  remapPositions(r.diagnostics, move, moveSpan, moveNode);
  return { expr: r.expr, diagnostics: r.diagnostics };
}

function isPos(v: object): v is Pos {
  const p = v as Partial<Pos>;
  return typeof p.offset === "number" && typeof p.line === "number" && typeof p.column === "number";
}

/**
 * Moves every syntax node's offsets (`moveNode`) and replaces every other
 * range (Span) and position object reachable from `root` by its mapped copy.
 * Iterative (the tree may be deep) and safe when nodes, ranges or positions
 * are shared: each holder is visited once and ranges and positions are
 * replaced, never mutated, so a shared one is mapped from its original value
 * each time.
 */
export function remapPositions(root: object, move: (p: Pos) => Pos, moveSpan: (r: Span) => Span, moveNode: (n: SyntaxNode) => void): void {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const holder = stack.pop() as Record<string, unknown>;
    if (seen.has(holder)) continue;
    seen.add(holder);
    const node = holder instanceof SyntaxNode;
    if (node) moveNode(holder);
    for (const key of Object.keys(holder)) {
      if (node && key === "lines") continue;
      const v = holder[key];
      if (v === null || typeof v !== "object") continue;
      if (v instanceof Span) holder[key] = moveSpan(v);
      else if (isPos(v)) holder[key] = move(v);
      else stack.push(v);
    }
  }
}

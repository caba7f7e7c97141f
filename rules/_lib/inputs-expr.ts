/**
 * Small expression helpers for the input/module/version/drift rules: a
 * child enumerator (so rules can decide which subtrees to skip), reference
 * matching and object keys. Kept independent of walk.ts on purpose: these
 * rules need to stop descending at specific calls (e.g. distro strippers).
 */
import { children } from "../../src/hcl/walk.js";
import type {
  Attribute,
  Block,
  Body,
  Expression,
  ObjectConsItem,
  ScopeTraversal,
  TemplatePart,
} from "../../src/hcl/ast.js";

/** The direct sub-expressions of `expr`, in source order (object keys included). */
export function childExpressions(expr: Expression): Expression[] {
  return children(expr, true);
}

/**
 * Visit `expr` and its descendants depth-first. Returning `false` from
 * `visit` skips the node's children.
 */
export function visitExpression(expr: Expression, visit: (e: Expression) => boolean | void): void {
  if (visit(expr) === false) return;
  // The children in childExpressions' order, without building arrays (hot:
  // most rules walk every expression of the module through here).
  switch (expr.kind) {
    case "LiteralValue":
    case "ScopeTraversal":
    case "AnonSymbol":
    case "Invalid":
      return;
    case "Template":
      visitParts(expr.parts, visit);
      return;
    case "TemplateWrap":
      visitExpression(expr.wrapped, visit);
      return;
    case "RelativeTraversal":
      visitExpression(expr.source, visit);
      return;
    case "Index":
      visitExpression(expr.collection, visit);
      visitExpression(expr.key, visit);
      return;
    case "Splat":
      visitExpression(expr.source, visit);
      visitExpression(expr.each, visit);
      return;
    case "FunctionCall":
      for (const a of expr.args) visitExpression(a, visit);
      return;
    case "Conditional":
      visitExpression(expr.condition, visit);
      visitExpression(expr.trueResult, visit);
      visitExpression(expr.falseResult, visit);
      return;
    case "BinaryOp":
      visitExpression(expr.lhs, visit);
      visitExpression(expr.rhs, visit);
      return;
    case "UnaryOp":
      visitExpression(expr.operand, visit);
      return;
    case "TupleCons":
      for (const e of expr.exprs) visitExpression(e, visit);
      return;
    case "ObjectCons":
      for (const item of expr.items) {
        visitExpression(item.key, visit);
        visitExpression(item.value, visit);
      }
      return;
    case "For":
      visitExpression(expr.collection, visit);
      if (expr.keyExpr) visitExpression(expr.keyExpr, visit);
      visitExpression(expr.valExpr, visit);
      if (expr.condition) visitExpression(expr.condition, visit);
      return;
    case "Parentheses":
      visitExpression(expr.expr, visit);
      return;
  }
}

/** visitExpression over the expressions of template parts, in source order. */
function visitParts(parts: readonly TemplatePart[], visit: (e: Expression) => boolean | void): void {
  for (const part of parts) {
    switch (part.kind) {
      case "TemplateLiteral":
        break;
      case "TemplateInterp":
        visitExpression(part.expr, visit);
        break;
      case "TemplateIf":
        visitExpression(part.condition, visit);
        visitParts(part.then, visit);
        if (part.else) visitParts(part.else, visit);
        break;
      case "TemplateFor":
        visitExpression(part.collection, visit);
        visitParts(part.body, visit);
        break;
    }
  }
}

/** Every attribute of a body and of its nested blocks, with the block path. */
export function bodyAttributes(body: Body, path: string[] = []): { attr: Attribute; path: string[]; blocks: Block[] }[] {
  const out: { attr: Attribute; path: string[]; blocks: Block[] }[] = [];
  const walk = (b: Body, p: string[], blocks: Block[]): void => {
    for (const attr of b.attributes) out.push({ attr, path: [...p, attr.name], blocks });
    for (const block of b.blocks) walk(block.body, [...p, block.type, ...block.labels], [...blocks, block]);
  };
  walk(body, path, []);
  return out;
}

/** The root name and first attribute of a traversal: `var.x` -> ["var", "x"]. */
export function traversalHead(expr: ScopeTraversal): { root: string; name: string | null } {
  const [first, second] = expr.traversal;
  const root = first && first.kind === "TraverseRoot" ? first.name : "";
  const name = second && second.kind === "TraverseAttr" ? second.name : null;
  return { root, name };
}

/** `expr` is a traversal starting `<root>.<name>` (e.g. `var.captf_tags...`). */
export function isRefTo(expr: Expression, root: string, name: string): expr is ScopeTraversal {
  if (expr.kind !== "ScopeTraversal") return false;
  // traversalHead(expr), without allocating (called on every node by many rules).
  const first = expr.traversal[0];
  const second = expr.traversal[1];
  return (first && first.kind === "TraverseRoot" ? first.name : "") === root && (second && second.kind === "TraverseAttr" ? second.name : null) === name;
}

/** The name of the local `expr` starts with (`local.tags["x"]` -> "tags"). */
export function localName(expr: Expression): string | null {
  if (expr.kind !== "ScopeTraversal") return null;
  const first = expr.traversal[0];
  if (!first || first.kind !== "TraverseRoot" || first.name !== "local") return null;
  const second = expr.traversal[1];
  return second && second.kind === "TraverseAttr" ? second.name : null;
}

/** Every traversal in `expr` that starts `<root>.<name>`. */
export function findRefs(expr: Expression, root: string, name: string): ScopeTraversal[] {
  const out: ScopeTraversal[] = [];
  visitExpression(expr, (e) => {
    if (isRefTo(e, root, name)) out.push(e);
  });
  return out;
}

/** Names of every local `expr` mentions, with the mentioning traversal. */
export function localRefs(expr: Expression): { name: string; ref: ScopeTraversal }[] {
  const out: { name: string; ref: ScopeTraversal }[] = [];
  visitExpression(expr, (e) => {
    const n = localName(e);
    if (n !== null && e.kind === "ScopeTraversal") out.push({ name: n, ref: e });
  });
  return out;
}

/** Strip any parentheses around `expr`. */
export function unwrapParens(expr: Expression): Expression {
  let e = expr;
  while (e.kind === "Parentheses") e = e.expr;
  return e;
}

/**
 * A constant string spelled without interpolation: a quoted/heredoc/JSON
 * template made only of literal parts, or a string literal.
 */
export function plainString(expr: Expression): string | null {
  const e = unwrapParens(expr);
  if (e.kind === "LiteralValue") return e.type === "string" ? String(e.value) : null;
  if (e.kind === "Template") {
    let s = "";
    for (const part of e.parts) {
      if (part.kind !== "TemplateLiteral") return null;
      s += part.value;
    }
    return s;
  }
  return null;
}

/** The key of an object constructor item when it is a bare name or a plain string. */
export function objectKey(item: ObjectConsItem): string | null {
  if (item.keyIsBareIdent && item.key.kind === "ScopeTraversal") {
    const first = item.key.traversal[0];
    return first && first.kind === "TraverseRoot" ? first.name : null;
  }
  return plainString(item.key);
}

/**
 * The range of a block's header: from its type keyword to the end of its
 * last label. In JSON syntax the type and labels are nested property names
 * (often on different lines), so the header is the labels alone, or the
 * type's property name when there are no labels.
 */
export function blockHeaderRange(block: Block, syntax: "native" | "json" = "native"): Block["range"] {
  const first = block.labelRanges[0];
  const last = block.labelRanges[block.labelRanges.length - 1];
  if (!first || !last) return block.typeRange;
  return { start: syntax === "json" ? first.start : block.typeRange.start, end: last.end };
}

/** The range of a block's first label (the declared name), or its header. */
export function blockNameRange(block: Block): Block["range"] {
  return block.labelRanges[0] ?? blockHeaderRange(block);
}

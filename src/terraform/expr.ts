/**
 * Small expression helpers for the Terraform layer: constant strings and
 * bools, traversal text, source slices, and a generic child iterator.
 * Kept local to terraform/ so the model does not depend on evaluation
 * details of hcl/walk.ts.
 */
import { children, unwrap } from "../hcl/walk.js";

export { unwrap };
import type { Attribute, Body, Expression, File, ObjectConsItem, Range, TemplatePart, Traverser } from "../hcl/ast.js";

/** The value of a string literal or a template with no interpolations, else null. */
export function constString(expr: Expression | null | undefined): string | null {
  if (!expr) return null;
  const e = expr.kind === "Parentheses" ? unwrap(expr) : expr;
  if (e.kind === "LiteralValue") return e.type === "string" ? String(e.value) : null;
  if (e.kind === "Template") {
    let out = "";
    for (const p of e.parts) {
      if (p.kind !== "TemplateLiteral") return null;
      out += p.value;
    }
    return out;
  }
  return null;
}

/**
 * The value of a literal bool, or of the strings `"true"`/`"false"` (which
 * Terraform converts to bool, and which JSON "literal" arguments produce).
 */
export function constBool(expr: Expression | null | undefined): boolean | null {
  if (!expr) return null;
  const e = unwrap(expr);
  if (e.kind === "LiteralValue" && e.type === "bool") return e.value as boolean;
  const s = constString(e);
  if (s === "true") return true;
  if (s === "false") return false;
  return null;
}

/** `null` literal (possibly parenthesised). */
export function isNullLiteral(expr: Expression): boolean {
  const e = unwrap(expr);
  return e.kind === "LiteralValue" && e.type === "null";
}

/** Text of traversal steps: `var.a.b`, `x[0].y`, `m["k"]`, `a.*.b`. */
export function traversalText(steps: readonly Traverser[]): string {
  let out = "";
  for (const s of steps) {
    switch (s.kind) {
      case "TraverseRoot":
        out += s.name;
        break;
      case "TraverseAttr":
        out += "." + s.name;
        break;
      case "TraverseIndex":
        out += typeof s.key === "number" ? `[${s.key}]` : `[${JSON.stringify(s.key)}]`;
        break;
      case "TraverseSplat":
        out += ".*";
        break;
    }
  }
  return out;
}

/** The source text of a node. */
export function sourceText(file: File, node: { range: Range }): string {
  return file.text.slice(node.range.start.offset, node.range.end.offset);
}

/** The string an object key stands for: a bare identifier or a constant string. */
export function objectKeyName(item: ObjectConsItem): string | null {
  if (item.keyIsBareIdent && item.key.kind === "ScopeTraversal") {
    const root = item.key.traversal[0];
    return root && root.kind === "TraverseRoot" ? root.name : null;
  }
  const k = item.key.kind === "Parentheses" ? null : item.key;
  return constString(k);
}

export function findAttr(body: Body, name: string): Attribute | null {
  for (const a of body.attributes) if (a.name === name) return a;
  return null;
}

/** Direct sub-expressions of `e` (template directive parts included, bare object keys not). */
export function exprChildren(e: Expression): Expression[] {
  return children(e, false);
}

/**
 * `fn(child, a, b)` for each of exprChildren(e), in the same order, without
 * building arrays (the graph walks every expression of a module this way).
 */
export function forEachChild<A, B>(e: Expression, fn: (child: Expression, a: A, b: B) => void, a: A, b: B): void {
  switch (e.kind) {
    case "LiteralValue":
    case "ScopeTraversal":
    case "AnonSymbol":
    case "Invalid":
      return;
    case "Template":
      forEachPartChild(e.parts, fn, a, b);
      return;
    case "TemplateWrap":
      fn(e.wrapped, a, b);
      return;
    case "RelativeTraversal":
      fn(e.source, a, b);
      return;
    case "Index":
      fn(e.collection, a, b);
      fn(e.key, a, b);
      return;
    case "Splat":
      fn(e.source, a, b);
      fn(e.each, a, b);
      return;
    case "FunctionCall":
      for (const x of e.args) fn(x, a, b);
      return;
    case "Conditional":
      fn(e.condition, a, b);
      fn(e.trueResult, a, b);
      fn(e.falseResult, a, b);
      return;
    case "BinaryOp":
      fn(e.lhs, a, b);
      fn(e.rhs, a, b);
      return;
    case "UnaryOp":
      fn(e.operand, a, b);
      return;
    case "TupleCons":
      for (const x of e.exprs) fn(x, a, b);
      return;
    case "ObjectCons":
      for (const it of e.items) {
        if (!it.keyIsBareIdent) fn(it.key, a, b);
        fn(it.value, a, b);
      }
      return;
    case "For":
      fn(e.collection, a, b);
      if (e.keyExpr) fn(e.keyExpr, a, b);
      fn(e.valExpr, a, b);
      if (e.condition) fn(e.condition, a, b);
      return;
    case "Parentheses":
      fn(e.expr, a, b);
      return;
  }
}

function forEachPartChild<A, B>(parts: readonly TemplatePart[], fn: (child: Expression, a: A, b: B) => void, a: A, b: B): void {
  for (const p of parts) {
    switch (p.kind) {
      case "TemplateLiteral":
        break;
      case "TemplateInterp":
        fn(p.expr, a, b);
        break;
      case "TemplateIf":
        fn(p.condition, a, b);
        forEachPartChild(p.then, fn, a, b);
        if (p.else) forEachPartChild(p.else, fn, a, b);
        break;
      case "TemplateFor":
        fn(p.collection, a, b);
        forEachPartChild(p.body, fn, a, b);
        break;
    }
  }
}

/** Visit `e` and every sub-expression, depth first. */
export function forEachExpr(e: Expression, visit: (x: Expression) => void): void {
  const stack: Expression[] = [e];
  while (stack.length) {
    const x = stack.pop()!;
    visit(x);
    const kids = exprChildren(x);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/** Every attribute expression of a body, recursively through nested blocks. */
export function bodyExpressions(body: Body, out: Expression[] = []): Expression[] {
  for (const a of body.attributes) out.push(a.expr);
  for (const b of body.blocks) bodyExpressions(b.body, out);
  return out;
}

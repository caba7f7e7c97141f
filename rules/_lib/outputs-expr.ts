/**
 * Small expression and declaration helpers shared by the output/*, syntax/*
 * and pool/autoscaling-ignore-changes rules.
 */
import { children } from "../../src/hcl/walk.js";
import { unwrap } from "../../src/terraform/expr.js";
import type { Attribute, Block, Expression, Range, Traverser } from "../../src/hcl/ast.js";
import type { Declared, SourceFile } from "../../src/terraform/model.js";

/** The direct sub-expressions of `expr` (template parts included, bare object keys not). */
export function childExpressions(expr: Expression): Expression[] {
  return children(expr, false);
}

/** Visit `expr` and every expression inside it, parents first. */
export function visitExpressions(expr: Expression, visit: (e: Expression) => void): void {
  const stack: Expression[] = [expr];
  while (stack.length > 0) {
    const e = stack.pop()!;
    visit(e);
    const kids = childExpressions(e);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/** Strip parentheses and `"${ x }"` wrappers: both yield exactly x's value. */
export { unwrap };

/** `var.x.y` style text for a plain ScopeTraversal, or null. */
export function traversalPath(expr: Expression): string | null {
  if (expr.kind !== "ScopeTraversal") return null;
  return stepsText(expr.traversal);
}

export function stepsText(steps: readonly Traverser[]): string {
  let out = "";
  for (const s of steps) {
    if (s.kind === "TraverseRoot") out += s.name;
    else if (s.kind === "TraverseAttr") out += `.${s.name}`;
    else if (s.kind === "TraverseIndex") out += typeof s.key === "number" ? `[${s.key}]` : `[${JSON.stringify(s.key)}]`;
    else out += "[*]";
  }
  return out;
}

/** The string value of a literal string expression (quoted or JSON), or null. */
export function literalString(expr: Expression): string | null {
  const e = unwrap(expr);
  if (e.kind === "LiteralValue" && e.type === "string") return e.value as string;
  if (e.kind === "Template" && e.parts.length === 1 && e.parts[0]!.kind === "TemplateLiteral") return e.parts[0]!.value;
  if (e.kind === "Template" && e.parts.length === 0) return "";
  return null;
}

/** A block's header: from its type keyword to the end of its last label. */
export function blockHeaderRange(block: Block): Range {
  const last = block.labelRanges.length > 0 ? block.labelRanges[block.labelRanges.length - 1]! : block.typeRange;
  return { start: block.typeRange.start, end: last.end };
}

/**
 * The file an attribute of a declaration comes from: the declaration's own
 * file, or the override file that supplied it after merging.
 */
export function fileOfAttribute(decl: Declared, attr: Attribute): SourceFile {
  for (const o of decl.overriddenBy ?? []) {
    if (o.block.body.attributes.includes(attr)) return o.file;
  }
  return decl.file;
}

/** The line ending the file uses (CRLF when its first line break is one). */
export function newlineOf(text: string): string {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** `local.a` -> `a`; null for anything else. */
export function localNameOf(expr: Expression): string | null {
  if (expr.kind !== "ScopeTraversal" || expr.traversal.length !== 2) return null;
  const [root, attr] = expr.traversal;
  if (root!.kind !== "TraverseRoot" || root!.name !== "local" || attr!.kind !== "TraverseAttr") return null;
  return attr!.name;
}

/** " (via local.a, local.b)" for messages, or "" when no locals were passed. */
export function viaText(locals: readonly string[]): string {
  if (locals.length === 0) return "";
  return ` (via ${locals.map((l) => (l.startsWith("local.") ? l : `local.${l}`)).join(", ")})`;
}

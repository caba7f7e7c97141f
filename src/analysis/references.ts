/**
 * What a reference names, in Terraform's terms: `local.x`, `var.x`, a plain
 * traversal's address text, the locals a chain passed through (for "via"
 * in messages).
 */
import type { Expression, ScopeTraversal } from "../hcl/ast.js";
import { traversalText, walkExpression } from "../hcl/walk.js";
import type { ChainStep } from "../terraform/graph-api.js";

/** `var.x.y` style text for a plain traversal, or null for any other expression. */
export function traversalPath(expr: Expression): string | null {
  return expr.kind === "ScopeTraversal" ? traversalText(expr.traversal) : null;
}

/** The root name and first attribute of a traversal: `var.x` -> { root: "var", name: "x" }. */
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

/** Exactly `local.a` -> `a`; null for anything else (`local.a.b` too). */
export function localNameOf(expr: Expression): string | null {
  if (expr.kind !== "ScopeTraversal" || expr.traversal.length !== 2) return null;
  const [root, attr] = expr.traversal;
  if (root!.kind !== "TraverseRoot" || root!.name !== "local" || attr!.kind !== "TraverseAttr") return null;
  return attr!.name;
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
  walkExpression(expr, (e) => {
    if (isRefTo(e, root, name)) out.push(e);
  });
  return out;
}

/** Names of every local `expr` mentions, with the mentioning traversal. */
export function localRefs(expr: Expression): { name: string; ref: ScopeTraversal }[] {
  const out: { name: string; ref: ScopeTraversal }[] = [];
  walkExpression(expr, (e) => {
    const n = localName(e);
    if (n !== null && e.kind === "ScopeTraversal") out.push({ name: n, ref: e });
  });
  return out;
}

/**
 * " (via local.a, local.b)" for messages, or "" when no locals were passed.
 * With `maxShown`, a longer chain shows its first two and its last local.
 */
export function viaText(locals: readonly string[], maxShown = Infinity): string {
  if (locals.length === 0) return "";
  const names = locals.map((l) => (l.startsWith("local.") ? l : `local.${l}`));
  const shown = names.length <= maxShown ? names.join(", ") : `${names.slice(0, 2).join(", ")}, ... ${names[names.length - 1]}`;
  return ` (via ${shown})`;
}

/** The locals a dependency chain passes through, in order. */
export function chainLocals(chain: readonly ChainStep[] | null): string[] {
  return (chain ?? []).map((s) => s.address).filter((a) => a.startsWith("local."));
}

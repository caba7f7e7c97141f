/**
 * Whether a value is guarded by `var.autoscaling.enabled`: a conditional
 * testing it in the value itself or in any local the value reads, for
 * pool/min-max-unpinned.
 */
import type { Block, Body, Expression, TemplatePart } from "../../src/hcl/ast.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { Resource } from "../../src/terraform/model.js";
import { visitExpressions } from "./outputs-expr.js";

export const AUTOSCALING_ENABLED = "var.autoscaling.enabled";

function templateIfConditions(parts: readonly TemplatePart[], out: Expression[]): void {
  for (const p of parts) {
    if (p.kind === "TemplateIf") {
      out.push(p.condition);
      templateIfConditions(p.then, out);
      if (p.else) templateIfConditions(p.else, out);
    } else if (p.kind === "TemplateFor") templateIfConditions(p.body, out);
  }
}

/** The conditions tested inside `expr` (conditionals, template `%{ if }`, `for ... if`). */
function conditionsIn(expr: Expression): Expression[] {
  const out: Expression[] = [];
  visitExpressions(expr, (e) => {
    if (e.kind === "Conditional") out.push(e.condition);
    else if (e.kind === "Template") templateIfConditions(e.parts, out);
    else if (e.kind === "For" && e.condition) out.push(e.condition);
  });
  return out;
}

/** Does `expr` (or a local it reads, transitively) branch on `target`? */
export function branchesOn(graph: DependencyGraph, expr: Expression, target: string): boolean {
  const exprs: Expression[] = [expr];
  for (const address of graph.dependencies(expr).keys()) {
    if (!address.startsWith("local.")) continue;
    const l = graph.local(address.slice("local.".length));
    if (l) exprs.push(l.value);
  }
  return exprs.some((e) => conditionsIn(e).some((c) => graph.reaches(c, target) !== null));
}

/** The `for_each` of every `dynamic` block in a resource body. */
export function dynamicForEaches(body: Body): Expression[] {
  const out: Expression[] = [];
  const walk = (blocks: readonly Block[]): void => {
    for (const b of blocks) {
      if (b.type === "dynamic") {
        const fe = b.body.attributes.find((a) => a.name === "for_each");
        if (fe) out.push(fe.expr);
      }
      walk(b.body.blocks);
    }
  };
  walk(body.blocks);
  return out;
}

/** A resource that exists (or whose autoscaling blocks exist) only depending on autoscaling.enabled. */
export function resourceGatedOn(graph: DependencyGraph, resource: Resource, target: string): boolean {
  const gates = [resource.count?.expr, resource.forEach?.expr, ...dynamicForEaches(resource.body)];
  return gates.some((g) => g !== undefined && graph.reaches(g, target) !== null);
}

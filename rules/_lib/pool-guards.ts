/**
 * Whether a value is guarded by `var.autoscaling.enabled`: a conditional
 * testing it in the value itself or in any local the value reads, for
 * pool/min-max-unpinned.
 */
import type { Block, Body, Expression, TemplatePart } from "../../src/hcl/ast.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit, Resource } from "../../src/terraform/model.js";
import { traversalPath } from "../../src/analysis/references.js";
import { unwrap, walkExpression } from "../../src/hcl/walk.js";

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
  walkExpression(expr, (e) => {
    if (e.kind === "Conditional") out.push(e.condition);
    else if (e.kind === "Template") templateIfConditions(e.parts, out);
    else if (e.kind === "For" && e.condition) out.push(e.condition);
  }, false);
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

/** A resource that exists (or whose autoscaling blocks exist) only depending on one of `targets`. */
export function resourceGatedOn(graph: DependencyGraph, resource: Resource, targets: readonly string[]): boolean {
  const gates = [resource.count?.expr, resource.forEach?.expr, ...dynamicForEaches(resource.body)];
  return gates.some((g) => g !== undefined && reachesAny(graph, g, targets) !== null);
}

/** What stands for `var.autoscaling` and its attributes in one module. */
export interface AutoscalingTargets {
  /** Whole-object aliases (`var.autoscaling`, or a child's `var.scaling`). */
  object: string[];
  min: string[];
  max: string[];
  enabled: string[];
}

const ROOT_TARGETS: AutoscalingTargets = {
  object: ["var.autoscaling"],
  min: ["var.autoscaling.min"],
  max: ["var.autoscaling.max"],
  enabled: [AUTOSCALING_ENABLED],
};

export function reachesAny(graph: DependencyGraph, expr: Expression, targets: readonly string[]): string | null {
  for (const t of targets) if (graph.reaches(expr, t) !== null) return t;
  return null;
}

export function branchesOnAny(graph: DependencyGraph, expr: Expression, targets: readonly string[]): boolean {
  return targets.some((t) => branchesOn(graph, expr, t));
}

/**
 * The autoscaling targets of `unit`: the root's own `var.autoscaling`; in a
 * local child module, the variables its call sets from the parent's targets
 * (a bound only when the parent passes it with no condition on `enabled`).
 */
export function autoscalingTargets(
  load: LoadResult,
  unit: ModuleUnit,
  graphOf: (m: Module) => DependencyGraph,
  depth = 0,
): AutoscalingTargets {
  const none: AutoscalingTargets = { object: [], min: [], max: [], enabled: [] };
  if (unit === load.root) return unit.expressions.variables.has("autoscaling") ? ROOT_TARGETS : none;
  if (depth > 16) return none;
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return none;
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const up = autoscalingTargets(load, parent, graphOf, depth + 1);
  if (up.min.length + up.max.length === 0) return none;
  const graph = graphOf(parent.expressions);
  const gates = [call.count?.expr, call.forEach?.expr].filter((e): e is Expression => e !== undefined);
  const gated = gates.some((g) => reachesAny(graph, g, up.enabled) !== null);
  const out: AutoscalingTargets = { object: [], min: [], max: [], enabled: [] };
  for (const [name, attr] of call.args) {
    if (!unit.expressions.variables.has(name)) continue;
    const v = `var.${name}`;
    const plain = graph.resolveLocals(attr.expr).expr;
    const path = traversalPath(unwrap(plain));
    if (path !== null && up.object.includes(path)) {
      out.object.push(v);
      out.enabled.push(`${v}.enabled`);
      if (!gated) {
        out.min.push(`${v}.min`);
        out.max.push(`${v}.max`);
      }
      continue;
    }
    if (reachesAny(graph, attr.expr, up.enabled) !== null) out.enabled.push(v);
    if (gated || branchesOnAny(graph, attr.expr, up.enabled)) continue;
    if (reachesAny(graph, attr.expr, up.min) !== null) out.min.push(v);
    if (reachesAny(graph, attr.expr, up.max) !== null) out.max.push(v);
  }
  return out;
}

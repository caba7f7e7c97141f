
/**
 * `max(var.autoscaling.max, var.replicas)`: some argument does not come from
 * the autoscaling input, so the value never drops below it when autoscaling is off.
 */
import type { Expression } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import { MIN_MAX_ATTRIBUTES } from "../../src/contract/providers.js";
import { attributesAt } from "../../src/analysis/attributes.js";
import { autoscalingTargets, type AutoscalingTargets } from "../../src/analysis/autoscaling.js";
import { branchesOnAny, reachesAny, resourceGatedOn } from "../../src/analysis/guards.js";
import { chainLocals, viaText } from "../../src/analysis/references.js";
import { unwrap } from "../../src/hcl/walk.js";
import { chainHops, type Hop, joinHops, moduleArgumentHop } from "../../src/analysis/paths.js";

function flooredByOther(graph: DependencyGraph, value: Expression, t: AutoscalingTargets): boolean {
  const e = unwrap(graph.resolveLocals(value).expr);
  if (e.kind !== "FunctionCall" || e.name !== "max" || e.expandFinal) return false;
  const sources = [...t.object, ...t.min, ...t.max];
  return e.args.some((a) => reachesAny(graph, a, sources) === null);
}

function describe(target: string, isRoot: boolean, callName: string | null): string {
  if (isRoot || callName === null) return target;
  return `${target} (set from the autoscaling input by module.${callName})`;
}

export default defineRule({
  id: "pool/min-max-unpinned",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["machinepool"],
  summary: "Scaling-group min/max come from var.autoscaling only when autoscaling is enabled",
  // Local child modules too: a group module called with min/max arguments.
  scope: "all",
  fixable: false,
  tags: ["contract", "machinepool", "autoscaling"],
  check(ctx) {
    const module = ctx.expressions;
    const graph = ctx.graph;
    const targets = autoscalingTargets(ctx.load, ctx.unit, (m) => ctx.graphOf(m));
    if (targets.min.length + targets.max.length === 0) return;
    const parent = ctx.load.units.find((u) => u.children.some((c) => c.unit === ctx.unit));
    const callName = parent?.children.find((c) => c.unit === ctx.unit)?.call.name ?? null;
    const table = new Map(MIN_MAX_ATTRIBUTES.map((m) => [m.type, m]));
    // In a child module, where the calling module sets the bound: its argument and what that reads.
    const call = parent?.children.find((c) => c.unit === ctx.unit)?.call;
    const callerHops = (bound: string): Hop[] => {
      const arg = bound.startsWith("var.") && call && parent ? call.args.get(bound.slice(4).split(".")[0]!) : undefined;
      if (!arg || !call || !parent) return [];
      const parentGraph = ctx.graphOf(parent.expressions);
      const deps = parentGraph.dependencies(arg.expr);
      const variable = deps.has("var.autoscaling") ? "var.autoscaling" : [...deps.keys()].find((a) => a.startsWith("var."));
      return joinHops([moduleArgumentHop(call, arg.name)], chainHops(parent.expressions, variable ? deps.get(variable)! : null, call));
    };
    for (const r of module.resources.values()) {
      const spec = table.get(r.type);
      if (!spec) continue;
      if (resourceGatedOn(graph, r, targets.enabled)) continue;
      const switched = (spec.switches ?? []).some((path) =>
        attributesAt(r.body, path).some((a) => reachesAny(graph, a.expr, targets.enabled) !== null),
      );
      if (switched) continue;
      for (const path of spec.bounds) {
        for (const attr of attributesAt(r.body, path)) {
          const bound = reachesAny(graph, attr.expr, targets.min) ?? reachesAny(graph, attr.expr, targets.max);
          if (bound === null) continue;
          if (branchesOnAny(graph, attr.expr, targets.enabled)) continue;
          if (flooredByOther(graph, attr.expr, targets)) continue;
          const chain = graph.reaches(attr.expr, bound);
          const enabled = targets.enabled[0] ?? "var.autoscaling.enabled";
          ctx.report({
            message: `${r.address} ${path.join(".")} comes from ${describe(bound, ctx.isRoot, callName)}${viaText(chainLocals(chain))} with no condition on var.autoscaling.enabled: with autoscaling disabled it is 0 and the group scales to zero; use ${ctx.isRoot ? `${enabled} ? ${bound} : var.replicas` : "the autoscaling bounds only while var.autoscaling.enabled is true and var.replicas otherwise"}`,
            file: r.file.path,
            range: attr.range,
            related: joinHops(chainHops(module, chain, r), callerHops(bound)),
          });
        }
      }
    }
  },
});

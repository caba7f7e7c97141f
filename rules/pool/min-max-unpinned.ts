import type { Expression } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import { MIN_MAX_ATTRIBUTES } from "../../src/contract/providers.js";
import { attributesAt } from "../_lib/outputs-autoscaling.js";
import { unwrap, viaText } from "../_lib/outputs-expr.js";
import { chainLocals } from "../_lib/pool-common.js";
import { AUTOSCALING_ENABLED, branchesOn, resourceGatedOn } from "../_lib/pool-guards.js";

const BOUNDS = ["var.autoscaling.min", "var.autoscaling.max"];

/**
 * `max(var.autoscaling.max, var.replicas)`: some argument does not come from
 * var.autoscaling, so the value never drops below it when autoscaling is off.
 */
function flooredByOther(graph: DependencyGraph, value: Expression): boolean {
  const e = unwrap(graph.resolveLocals(value).expr);
  if (e.kind !== "FunctionCall" || e.name !== "max" || e.expandFinal) return false;
  return e.args.some((a) => graph.reaches(a, "var.autoscaling") === null);
}

export default defineRule({
  id: "pool/min-max-unpinned",
  severity: "warning",
  roles: ["machinepool"],
  summary: "Scaling-group min/max come from var.autoscaling only when autoscaling is enabled",
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "autoscaling"],
  check(ctx) {
    const module = ctx.expressions;
    const graph = ctx.graph;
    const table = new Map(MIN_MAX_ATTRIBUTES.map((m) => [m.type, m]));
    for (const r of module.resources.values()) {
      const spec = table.get(r.type);
      if (!spec) continue;
      if (resourceGatedOn(graph, r, AUTOSCALING_ENABLED)) continue;
      const switched = (spec.switches ?? []).some((path) =>
        attributesAt(r.body, path).some((a) => graph.reaches(a.expr, AUTOSCALING_ENABLED) !== null),
      );
      if (switched) continue;
      for (const path of spec.bounds) {
        for (const attr of attributesAt(r.body, path)) {
          let bound: string | null = null;
          let chain = null;
          for (const b of BOUNDS) {
            chain = graph.reaches(attr.expr, b);
            if (chain) {
              bound = b;
              break;
            }
          }
          if (!bound) continue;
          if (branchesOn(graph, attr.expr, AUTOSCALING_ENABLED)) continue;
          if (flooredByOther(graph, attr.expr)) continue;
          ctx.report({
            message: `${r.address} ${path.join(".")} comes from ${bound}${viaText(chainLocals(chain))} with no condition on var.autoscaling.enabled: with autoscaling disabled it is 0 and the group scales to zero; use var.autoscaling.enabled ? ${bound} : var.replicas`,
            file: r.file.path,
            range: attr.range,
          });
        }
      }
    }
  },
});

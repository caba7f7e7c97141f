import { defineRule } from "../../src/lint/types.js";
import { carrierVariables, derivedFrom } from "../../src/analysis/derivation.js";
import { chainHops, type Hop, joinHops, moduleArgumentHop } from "../../src/analysis/paths.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit } from "../../src/terraform/model.js";

/**
 * Where a carrier variable of `unit` gets the bootstrap data, as hops: in a
 * local child module, the calling module's argument and what it is derived
 * from, up to the root's var.bootstrap_data (its declaration is the last hop
 * of the chain already).
 */
function carrierOriginHops(load: LoadResult, unit: ModuleUnit, carrier: string, graphOf: (m: Module) => DependencyGraph, depth = 0): Hop[] {
  if (unit === load.root || depth > 16) return [];
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  const call = parent?.children.find((c) => c.unit === unit)?.call;
  const attr = call?.args.get(carrier);
  if (!parent || !call || !attr) return [];
  for (const src of carrierVariables(load, parent, "bootstrap_data", graphOf, depth + 1)) {
    const found = derivedFrom(graphOf(parent.expressions), attr.expr, `var.${src}`);
    if (!found) continue;
    return joinHops([moduleArgumentHop(call, carrier)], chainHops(parent.expressions, found.steps, call), carrierOriginHops(load, parent, src, graphOf, depth + 1));
  }
  return [];
}

export default defineRule({
  id: "pool/bootstrap-replaces-instances",
  severity: "error",
  roles: ["machinepool"],
  summary: "No replace_triggered_by depends on bootstrap data (the token rotates; instances must not be replaced)",
  // Local child modules too (a group defined in ./modules/group).
  scope: "all",
  fixable: false,
  tags: ["contract", "machinepool", "bootstrap", "lifecycle"],
  check(ctx) {
    const module = ctx.expressions;
    const carriers = carrierVariables(ctx.load, ctx.unit, "bootstrap_data", (m) => ctx.graphOf(m));
    for (const r of module.resources.values()) {
      for (const trigger of r.lifecycle.replaceTriggeredBy) {
        let found = null;
        let carrier = "";
        for (const c of carriers) {
          found = derivedFrom(ctx.graph, trigger, `var.${c}`);
          carrier = c;
          if (found) break;
        }
        if (!found) continue;
        const data = carrier === "bootstrap_data" ? "var.bootstrap_data" : `var.${carrier} (the bootstrap data, passed in by the calling module)`;
        const [first, ...rest] = found.chain;
        const middle = rest.slice(0, -1);
        const what =
          rest.length === 0
            ? `references ${data}`
            : `references ${first}, which carries ${data}${middle.length > 0 ? ` (via ${middle.join(" -> ")})` : ""}`;
        const related = joinHops(chainHops(module, found.steps, r), carrierOriginHops(ctx.load, ctx.unit, carrier, (m) => ctx.graphOf(m)));
        ctx.report({
          related,
          message: `replace_triggered_by of ${r.address} ${what}: the bootstrap token rotates every few minutes, so every rotation would replace ${r.address}; let bootstrap changes update the launch configuration in place and trigger replacement only on what must roll the instances (image, Kubernetes version)`,
          file: r.file.path,
          range: trigger.range,
        });
      }
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import { SCALING_GROUP_TYPES } from "../../src/contract/providers.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit } from "../../src/terraform/model.js";
import { blockHeaderRange } from "../_lib/outputs-expr.js";

const VERSION = "var.kubernetes_version";

/**
 * Managed node pools whose Kubernetes version belongs to the managed
 * cluster, not to the pool: the pool has no argument a version could reach.
 */
const VERSION_OWNED_BY_CLUSTER = new Set(["digitalocean_kubernetes_node_pool"]);

/**
 * What carries the Kubernetes version in `unit`: `var.kubernetes_version` in
 * the root; in a local child module, each variable whose argument depends on
 * the parent's carriers (through locals, resources, data sources and other
 * module calls). Null when the unit's call cannot be found.
 */
function versionCarriers(load: LoadResult, unit: ModuleUnit, graphOf: (m: Module) => DependencyGraph, depth = 0): string[] | null {
  if (unit === load.root) return [VERSION];
  if (depth > 16) return null;
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return null;
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const up = versionCarriers(load, parent, graphOf, depth + 1);
  if (up === null) return null;
  const graph = graphOf(parent.expressions);
  const out: string[] = [];
  for (const [name, attr] of call.args) {
    if (!unit.expressions.variables.has(name)) continue;
    if (up.some((c) => graph.reaches(attr.expr, c, { throughResources: true }) !== null)) out.push(`var.${name}`);
  }
  return out;
}

export default defineRule({
  id: "pool/version-no-roll",
  severity: "warning",
  roles: ["machinepool"],
  summary: "A Kubernetes version change reaches the scaling group (or its launch template) and rolls the instances",
  // Local child modules too: a group module gets the version (or an image
  // chosen by it) as an argument.
  scope: "all",
  fixable: false,
  tags: ["contract", "machinepool", "upgrade"],
  check(ctx) {
    const module = ctx.expressions;
    if (!ctx.load.root.expressions.variables.has("kubernetes_version")) return;
    const carriers = versionCarriers(ctx.load, ctx.unit, (m) => ctx.graphOf(m));
    if (carriers === null) return;
    const groupTypes = new Set(
      SCALING_GROUP_TYPES.filter((t) => !t.attached && !VERSION_OWNED_BY_CLUSTER.has(t.type)).map((t) => t.type),
    );
    for (const group of module.resources.values()) {
      if (!groupTypes.has(group.type)) continue;
      // Everything that shapes the group's members: its own arguments, what
      // they reference (launch template, image lookup, module outputs...)
      // and the resources in its replace_triggered_by.
      const exprs = [...ctx.graph.resourceExpressions(group), ...group.lifecycle.replaceTriggeredBy];
      const reached = carriers.some((c) => exprs.some((e) => ctx.graph.reaches(e, c, { throughResources: true }) !== null));
      if (reached) continue;
      const callName = ctx.load.units.flatMap((u) => u.children).find((c) => c.unit === ctx.unit)?.call.name;
      const why = ctx.isRoot
        ? " (neither its arguments, its launch template or image lookup, nor its replace_triggered_by)"
        : `: module.${callName ?? "?"} passes this module nothing derived from it`;
      ctx.report({
        message: `var.kubernetes_version never reaches ${group.address}${why}, so a version upgrade leaves every instance on the old version; use the version in the image selection or a rolling trigger of the group`,
        file: group.file.path,
        range: blockHeaderRange(group.block),
      });
    }
  },
});

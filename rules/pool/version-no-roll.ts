import { defineRule } from "../../src/lint/types.js";
import { SCALING_GROUP_TYPES } from "../../src/contract/providers.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { rolloutGap } from "../shared/version-rollout.js";

const VERSION = "var.kubernetes_version";

/**
 * Managed node pools whose Kubernetes version belongs to the managed
 * cluster, not to the pool: the pool has no argument a version could reach.
 */
const VERSION_OWNED_BY_CLUSTER = new Set(["digitalocean_kubernetes_node_pool"]);

export default defineRule({
  id: "pool/version-no-roll",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["machinepool"],
  summary: "A Kubernetes version change reaches the scaling group (or its launch template) and rolls the instances",
  // Root only: a group in a child module may find its launch template or
  // image by name, which no argument shows, so "never reaches" is not certain there.
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "upgrade"],
  check(ctx) {
    const module = ctx.expressions;
    if (!module.variables.has("kubernetes_version")) return;
    const groupTypes = new Set(
      SCALING_GROUP_TYPES.filter((t) => !t.attached && !VERSION_OWNED_BY_CLUSTER.has(t.type)).map((t) => t.type),
    );
    for (const group of module.resources.values()) {
      if (!groupTypes.has(group.type)) continue;
      // Everything that shapes the group's members: its own arguments, what
      // they reference (launch template, image lookup, module outputs...)
      // and the resources in its replace_triggered_by.
      const exprs = [...ctx.graph.resourceExpressions(group), ...group.lifecycle.replaceTriggeredBy];
      if (exprs.some((e) => ctx.graph.reaches(e, VERSION, { throughResources: true }) !== null)) {
        // The version reaches the group: does anything roll the existing instances?
        const rolled = rolloutGap(ctx, group);
        if (rolled) ctx.report({ ...rolled, file: group.file.path, range: blockHeaderRange(group.block) });
        continue;
      }
      const why = " (neither its arguments, its launch template or image lookup, nor its replace_triggered_by)";
      ctx.report({
        message: `var.kubernetes_version never reaches ${group.address}${why}, so a version upgrade leaves every instance on the old version; use the version in the image selection or a rolling trigger of the group`,
        file: group.file.path,
        range: blockHeaderRange(group.block),
      });
    }
  },
});

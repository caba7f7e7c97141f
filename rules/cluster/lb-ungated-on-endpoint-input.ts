import { defineRule } from "../../src/lint/types.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import type { Resource } from "../../src/terraform/module-types.js";
import { apiLoadBalancer } from "../../src/analysis/api-lb.js";
import type { Hop } from "../../src/analysis/paths.js";

const INPUT = "var.control_plane_endpoint";

export default defineRule({
  id: "cluster/lb-ungated-on-endpoint-input",
  provenance: "control-plane",
  severity: "info",
  roles: ["cluster"],
  summary: "The API load balancer is created even when var.control_plane_endpoint is set",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "endpoint", "load-balancer"],
  check(ctx) {
    const module = ctx.expressions;
    const topo = apiLoadBalancer(module, ctx.graph);
    if (!topo) return;
    // GCP has no LB resource: its address and forwarding rules are what is created.
    const nodes: { resource: Resource; hops: Hop[] }[] =
      topo.cloud === "gcp" ? [...topo.addresses, ...topo.frontends.filter((f) => f.block === null)] : topo.lbs;
    const seen = new Set<string>();
    for (const { resource, hops } of nodes) {
      if (seen.has(resource.address)) continue;
      seen.add(resource.address);
      const gates = [resource.count, resource.forEach].filter((a) => a !== null);
      // A gate may come through the resource it iterates (for_each = aws_lb_listener.api).
      if (gates.some((g) => ctx.graph.reaches(g.expr, INPUT, { throughResources: true }) !== null)) continue;
      ctx.report({
        message: `${resource.address} is created even when the caller passes var.control_plane_endpoint, whose endpoint the module must use instead of making one; create it only without that input (count = var.control_plane_endpoint == null ? 1 : 0)`,
        file: resource.file,
        range: blockHeaderRange(resource.block, resource.file.hcl.syntax),
        related: hops,
      });
    }
  },
});

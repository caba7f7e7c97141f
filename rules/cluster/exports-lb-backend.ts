import { defineRule } from "../../src/lint/types.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { apiLoadBalancer } from "../../src/analysis/api-lb.js";
import { joinTargets, membershipsInto } from "../shared/backend-groups.js";

export default defineRule({
  id: "cluster/exports-lb-backend",
  provenance: "control-plane",
  severity: "warning",
  roles: ["cluster"],
  summary: "An API load-balancer backend group is neither published in exports nor filled in the module: control-plane machines cannot register",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "exports", "load-balancer"],
  check(ctx) {
    const module = ctx.expressions;
    const graph = ctx.graph;
    const exportsOut = module.outputs.get("exports");
    if (!exportsOut?.value) return;
    const topo = apiLoadBalancer(module, graph);
    if (!topo) return;
    const exported = graph.dependencies(exportsOut.value);
    for (const group of topo.groups) {
      const targets = joinTargets(module, graph, group.resource);
      if ([...exported.keys()].some((a) => targets.has(a))) continue;
      // Handed to a module call: published or registered there, maybe.
      const viaModule = [...module.moduleCalls.values()].some((call) =>
        [...call.args.values()].some((arg) => [...graph.dependencies(arg.expr).keys()].some((a) => targets.has(a))),
      );
      if (viaModule) continue;
      // Pattern B: the module fills the group itself (a scaling group attachment, an instance group's instances).
      if (membershipsInto(module, graph, targets).length > 0) continue;
      const r = group.resource;
      ctx.report({
        message: `The API backend group ${r.address} is not published in the exports output, and nothing in this module puts instances in it: control-plane machine modules cannot register their instances, so the load balancer never gets a backend. Add its id to exports (for example api_backend_id = ${r.count ? `one(${r.address}[*].id)` : r.forEach ? `{ for k, g in ${r.address} : k => g.id }` : `${r.address}.id`})`,
        file: r.file,
        range: blockHeaderRange(r.block, r.file.hcl.syntax),
        related: group.hops,
      });
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import { findArguments, fileOf } from "../../src/terraform/module-builder.js";
import { apiLoadBalancer } from "../../src/analysis/api-lb.js";
import { chainHops, iterationHop, joinHops } from "../../src/analysis/paths.js";
import { argumentDependencies, joinTargets, membershipsInto } from "../shared/backend-groups.js";

export default defineRule({
  id: "cluster/lb-registration-in-cluster",
  provenance: "control-plane",
  severity: "warning",
  roles: ["cluster"],
  summary: "The cluster module registers instances found by a data source in an API backend group",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "load-balancer", "registration"],
  check(ctx) {
    const module = ctx.expressions;
    const graph = ctx.graph;
    const topo = apiLoadBalancer(module, graph);
    if (!topo) return;
    const done = new Set<string>();
    for (const group of topo.groups) {
      const targets = joinTargets(module, graph, group.resource);
      for (const { resource, row } of membershipsInto(module, graph, targets)) {
        if (row.kind !== "member" && row.kind !== "group-lists-members") continue;
        for (const path of row.member) {
          for (const m of findArguments(resource.body, path)) {
            const deps = argumentDependencies(graph, resource, m.expr);
            const data = [...deps.keys()].find((a) => a.startsWith("data."));
            if (!data) continue;
            const key = `${resource.address}\u0000${m.range.start.offset}`;
            if (done.has(key)) continue;
            done.add(key);
            // Reached through each.* / count.index: the iteration is the first hop.
            const iteration = graph.dependencies(m.expr).has(data) ? null : iterationHop(resource, resource.forEach ? "for_each" : "count");
            ctx.report({
              message: `${resource.address} registers members found by ${data} in the API backend group ${group.resource.address} from the cluster module: the cluster is applied before any control-plane machine exists and is not applied again when machines come and go, so new machines are never registered and deleted ones stay. Register each instance from the machine module, in its own state`,
              file: fileOf(resource, m.attr ?? m.expr),
              range: m.expr.range,
              related: joinHops([iteration], chainHops(module, deps.get(data)!, resource), group.hops),
            });
          }
        }
      }
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import type { Expression } from "../../src/hcl/ast.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import { endpointChoices, endpointOutput, resourcesBehindEndpoint } from "../../src/analysis/endpoint.js";
import { chainHops, joinHops, localHop, resourceHop, type Hop } from "../../src/analysis/paths.js";
import type { Local, Module } from "../../src/terraform/module-types.js";

const INITIALIZED = "var.control_plane_initialized";

const DEADLOCK =
  "control_plane_initialized stays false until the first control-plane Machine is up, and Cluster API creates no Machine before the endpoint is published: a deadlock";

function localHops(module: Module, via: readonly Local[]): Hop[] {
  return via.map((l) => localHop(module, l.name)).filter((h): h is Hop => h !== null);
}

export default defineRule({
  id: "output/endpoint-gated-on-initialized",
  provenance: "control-plane",
  severity: "error",
  roles: ["cluster"],
  summary: "The control-plane endpoint, or the resource behind it, waits for var.control_plane_initialized: a deadlock",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "endpoint", "ordering"],
  check(ctx) {
    const module = ctx.expressions;
    const output = endpointOutput(module);
    if (!output) return;
    const reported = new Set<Expression>();

    for (const branch of endpointChoices(module, output)) {
      for (const cond of branch.conditions) {
        if (reported.has(cond.expr)) continue;
        const chain = ctx.graph.reaches(cond.expr, INITIALIZED);
        if (!chain) continue;
        reported.add(cond.expr);
        ctx.report({
          message: `control_plane_endpoint publishes its value only when this condition, which depends on ${INITIALIZED}, is ${cond.holds}; ${DEADLOCK}. Publish the endpoint whatever control_plane_initialized says`,
          file: cond.file,
          range: cond.expr.range,
          related: joinHops(localHops(module, cond.via), chainHops(module, chain)),
        });
      }
      if (reported.has(branch.expr)) continue;
      const chain = ctx.graph.reaches(branch.expr, INITIALIZED);
      if (!chain) continue;
      reported.add(branch.expr);
      ctx.report({
        message: `This control_plane_endpoint value depends on ${INITIALIZED}; ${DEADLOCK}. Build the endpoint from the load balancer or address alone`,
        file: branch.file,
        range: branch.expr.range,
        related: joinHops(localHops(module, branch.via), chainHops(module, chain)),
      });
    }

    for (const { resource, chain: toResource } of resourcesBehindEndpoint(ctx.graph, output)) {
      for (const gate of [resource.count, resource.forEach]) {
        if (!gate) continue;
        const chain = ctx.graph.reaches(gate.expr, INITIALIZED);
        if (!chain) continue;
        const file = fileOf(resource, gate);
        const meta = gate === resource.count ? "count" : "for_each";
        ctx.report({
          message: `${resource.address} is behind control_plane_endpoint, but its ${meta} depends on ${INITIALIZED}, so it is not created until a control-plane Machine exists; ${DEADLOCK}. Gate it on var.control_plane_endpoint instead (count = var.control_plane_endpoint == null ? 1 : 0)`,
          file,
          range: gate.expr.range,
          related: joinHops(chainHops(module, toResource.slice(0, -1)), [resourceHop(resource)], chainHops(module, chain, resource)),
        });
      }
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import type { Resource } from "../../src/terraform/module-types.js";
import { chainLocals } from "../../src/analysis/references.js";
import { endpointOutput, outputValueFile, resourcesBehindEndpoint } from "../../src/analysis/endpoint.js";

function protectedFromDestroy(r: Resource): boolean {
  return r.lifecycle.preventDestroyAttr !== null && r.lifecycle.preventDestroy !== false;
}

export default defineRule({
  id: "cluster/endpoint-prevent-destroy",
  provenance: "contract-depth",
  severity: "info",
  roles: ["cluster"],
  summary: "The resource behind control_plane_endpoint is protected with lifecycle { prevent_destroy = true }",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "endpoint"],
  check(ctx) {
    const module = ctx.expressions;
    const output = endpointOutput(module);
    if (!output) return;
    const behind = resourcesBehindEndpoint(ctx.graph, output).map((b) => ({ resource: b.resource, via: chainLocals(b.chain.slice(0, -1)) }));
    if (behind.length === 0 || behind.some((b) => protectedFromDestroy(b.resource))) return;
    // A protected address behind a DNS record (or similar) keeps the endpoint too.
    for (const address of ctx.graph.dependencies(output.value, { throughResources: true }).keys()) {
      const r = module.resources.get(address);
      if (r && protectedFromDestroy(r)) return;
    }
    const names = behind
      .map((b) => `${b.resource.address}${b.via.length > 0 ? ` via ${b.via.join(", ")}` : ""}`)
      .join("; ");
    ctx.report({
      message: `No resource behind control_plane_endpoint has lifecycle { prevent_destroy = true } (it comes from ${names}): replacing it changes the endpoint, which breaks every kubeconfig and certificate SAN and is never picked up by Cluster API; protect the load balancer (or address) it comes from`,
      file: outputValueFile(output),
      range: output.value.range,
    });
  },
});

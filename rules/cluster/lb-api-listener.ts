import { defineRule } from "../../src/lint/types.js";
import { apiLoadBalancer, argumentSite, describePort, frontendPorts, portValues, stringValues } from "../../src/analysis/api-lb.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { blocksOf } from "../../src/terraform/module-builder.js";
import type { Resource } from "../../src/terraform/module-types.js";

function header(r: Resource): { file: Resource["file"]; range: Resource["range"] } {
  return { file: r.file, range: blockHeaderRange(r.block, r.file.hcl.syntax) };
}

const TLS_ADVICE = "the API server must terminate TLS itself (its clients authenticate with certificates)";

export default defineRule({
  id: "cluster/lb-api-listener",
  provenance: "control-plane",
  severity: "error",
  roles: ["cluster"],
  summary: "The API load balancer listens on the endpoint's port and forwards it as TCP (no TLS or HTTP termination)",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "load-balancer"],
  check(ctx) {
    const module = ctx.expressions;
    const topo = apiLoadBalancer(module, ctx.graph);
    if (!topo) return;

    // The endpoint port is a constant on a branch; every frontend listens on other constants.
    const frontendPortLists = topo.frontends.map((fe) => ({ fe, ports: frontendPorts(module, fe) }));
    const allConstant = topo.frontendsComplete && frontendPortLists.length > 0 && frontendPortLists.every((f) => f.ports.length > 0 && f.ports.every((p) => p.kind === "const"));
    if (allConstant) {
      const reported = new Set<number>();
      for (const ep of topo.endpoints) {
        if (!ep.port) continue;
        for (const p of portValues(module, ep.port)) {
          if (p.kind !== "const" || reported.has(p.value)) continue;
          if (frontendPortLists.some((f) => f.ports.some((q) => q.kind === "const" && q.value === p.value))) continue;
          reported.add(p.value);
          for (const f of frontendPortLists) {
            const first = f.ports[0]!;
            ctx.report({
              message: `The API frontend ${f.fe.resource.address} listens on ${f.ports.map(describePort).join(", ")} but control_plane_endpoint publishes port ${p.value}: clients connect to a port nothing listens on; listen on the endpoint's port (or publish the port the listener uses)`,
              file: first.site.file,
              range: first.site.expr.range,
              related: [{ file: p.site.file, range: p.site.expr.range, message: `control_plane_endpoint port ${p.value}` }, ...f.fe.hops],
            });
          }
        }
      }
    }

    // TLS or HTTP terminated on the API path.
    for (const lb of topo.lbs) {
      if (lb.row.terminates) {
        ctx.report({
          message: `The API load balancer ${lb.resource.address} (${lb.resource.type}) terminates TLS and speaks HTTP: ${TLS_ADVICE}; use a layer-4 load balancer`,
          ...header(lb.resource),
          related: lb.hops,
        });
        continue;
      }
      const kind = lb.row.kindArg;
      if (!kind || !lb.row.terminatingKinds) continue;
      const site = argumentSite(module, lb.resource, lb.resource.body, kind.path);
      const values = site ? stringValues(module, site) : [];
      const bad = site ? values.find((v) => v.value !== null && lb.row.terminatingKinds!.includes(v.value)) : null;
      if (site && !bad) continue;
      if (!site && !lb.row.terminatingKinds.includes(kind.default)) continue;
      const shown = bad ? JSON.stringify(bad.value) : `unset (default ${JSON.stringify(kind.default)})`;
      ctx.report({
        message: `The API load balancer ${lb.resource.address} has ${kind.path.join(".")} ${shown}, a load balancer that terminates TLS and speaks HTTP: ${TLS_ADVICE}; use a TCP passthrough load balancer${lb.row.passthroughKinds ? ` (${lb.row.passthroughKinds.map((k) => JSON.stringify(k)).join(" or ")})` : ""}`,
        ...(bad ? { file: bad.site.file, range: bad.site.expr.range } : header(lb.resource)),
        related: lb.hops,
      });
    }
    const seenProxy = new Set<string>();
    for (const fe of topo.frontends) {
      if (fe.row.protocolArg && fe.row.terminatingProtocols.length > 0) {
        const site = argumentSite(module, fe.resource, fe.body, fe.row.protocolArg.path);
        const bad = site ? stringValues(module, site).find((v) => v.value !== null && fe.row.terminatingProtocols.includes(v.value.toUpperCase())) : null;
        if (bad) {
          ctx.report({
            message: `The API frontend ${fe.resource.address} uses protocol ${JSON.stringify(bad.value)}, which terminates TLS or speaks HTTP: ${TLS_ADVICE}; use TCP passthrough`,
            file: bad.site.file,
            range: bad.site.expr.range,
            related: fe.hops,
          });
        }
      }
      for (const blockType of fe.row.terminatingBlocks ?? []) {
        for (const b of blocksOf(fe.body, blockType)) {
          ctx.report({
            message: `The API frontend ${fe.resource.address} sets ${blockType}, so it terminates TLS: ${TLS_ADVICE}; remove it and forward TCP`,
            file: fe.resource.file,
            range: b.typeRange,
            related: fe.hops,
          });
        }
      }
    }
    for (const path of topo.paths) {
      const proxy = path.proxy;
      if (!proxy || !proxy.row.terminates || seenProxy.has(proxy.resource.address)) continue;
      seenProxy.add(proxy.resource.address);
      ctx.report({
        message: `The API frontend ${path.frontend?.resource.address ?? ""} sends traffic through ${proxy.resource.address}, a ${proxy.resource.type} that terminates TLS or speaks HTTP: ${TLS_ADVICE}; forward TCP (a passthrough forwarding rule or a TCP proxy)`,
        ...header(proxy.resource),
        related: path.frontend?.hops ?? [],
      });
    }
  },
});

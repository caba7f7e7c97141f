import { defineRule } from "../../src/lint/types.js";
import { apiLoadBalancer, backendPortSite, describePort, frontendPorts, pathFoci, portMayBe, portValues } from "../../src/analysis/api-lb.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

const SUPERVISOR = 9345;

export default defineRule({
  id: "cluster/lb-rke2-supervisor",
  provenance: "control-plane",
  severity: "error",
  roles: ["cluster"],
  summary: "An RKE2-aware module's API load balancer forwards port 9345 on the endpoint's address to port 9345 of the nodes",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "load-balancer", "rke2"],
  check(ctx) {
    const module = ctx.expressions;
    const topo = apiLoadBalancer(module, ctx.graph);
    if (!topo || !topo.rke2Aware) return;

    // Absence: every API frontend's port is known and none may be 9345.
    const ports = topo.frontends.map((fe) => ({ fe, ports: frontendPorts(module, fe) }));
    const allKnown = ports.every((p) => p.ports.length > 0 && p.ports.every((v) => v.kind !== "unknown"));
    const childMayHoldIt = !topo.frontendsComplete;
    if (allKnown && !childMayHoldIt && !ports.some((p) => p.ports.some((v) => portMayBe(v, SUPERVISOR)))) {
      const anchor = topo.lbs[0]?.resource ?? topo.addresses[0]?.resource;
      const hops = topo.lbs[0]?.hops ?? topo.addresses[0]?.hops ?? [];
      if (anchor) {
        const listed = ports.map((p) => `${p.fe.resource.address}${p.fe.row.block ? ` ${p.fe.row.block}` : ""} (${p.ports.map(describePort).join(", ")})`);
        ctx.report({
          message: `${topo.lbs[0] ? "The API load balancer" : "The API endpoint's address"} ${anchor.address} has no frontend on port 9345${listed.length > 0 ? `: its frontends are ${listed.join("; ")}` : " (no frontend uses this address)"}; RKE2 nodes join through the supervisor on port 9345 of the same address as the API, so they hang; add a 9345 frontend forwarding to port 9345 of the control-plane nodes`,
          file: anchor.file,
          range: blockHeaderRange(anchor.block, anchor.file.hcl.syntax),
          related: [...hops, ...ports.map((p) => p.fe.hops[p.fe.hops.length - 1]!)],
        });
      }
    }

    // A 9345 frontend that forwards to a constant port other than 9345.
    const seen = new Set<string>();
    for (const path of topo.paths) {
      if (!path.frontend) continue;
      for (const focus of pathFoci(module, path)) {
      const fp = frontendPorts(module, path.frontend, focus);
      if (fp.length === 0 || !fp.every((v) => v.kind === "const" && v.value === SUPERVISOR)) continue;
      const backend = backendPortSite(path, focus);
      if (!backend) continue;
      const bp = portValues(module, backend);
      const bad = bp.find((v) => v.kind === "const" && v.value !== SUPERVISOR);
      if (!bad || bp.length !== 1) continue;
      const key = `${bad.site.file.path}:${bad.site.expr.range.start.line}:${bad.site.expr.range.start.column}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ctx.report({
        message: `The 9345 frontend ${path.frontend.resource.address} forwards to backend port ${describePort(bad)}: the RKE2 supervisor listens on 9345 on every server node; forward 9345 to port 9345`,
        file: bad.site.file,
        range: bad.site.expr.range,
        related: [...(path.group ? path.group.hops : path.frontend.hops), ...(bad.site.trail ?? [])],
      });
      }
    }
  },
});

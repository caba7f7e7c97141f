import { defineRule } from "../../src/lint/types.js";
import { apiLoadBalancer, argumentSite, mayBeTrue, stringValues, type GroupNode, type LbNode } from "../../src/analysis/api-lb.js";
import type { Hop } from "../../src/analysis/paths.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import type { Module } from "../../src/terraform/module-types.js";

function headerOf(node: { resource: GroupNode["resource"] }): { file: GroupNode["resource"]["file"]; range: ReturnType<typeof blockHeaderRange> } {
  const r = node.resource;
  return { file: r.file, range: blockHeaderRange(r.block, r.file.hcl.syntax) };
}

/** The internal argument of an API LB that may be true (with its site), or null. */
function privateLb(module: Module, lb: LbNode): Hop | null {
  const row = lb.row;
  if (!row.privateArg) return null;
  if (row.kindArg && row.passthroughKinds) {
    const kind = argumentSite(module, lb.resource, lb.resource.body, row.kindArg.path);
    const kinds = kind ? stringValues(module, kind).map((v) => v.value) : [row.kindArg.default];
    if (!kinds.some((k) => k !== null && row.passthroughKinds!.includes(k))) return null;
  }
  const site = argumentSite(module, lb.resource, lb.resource.body, row.privateArg.path);
  if (site ? !mayBeTrue(module, site) : !row.privateArg.default) return null;
  const where = site ? { file: site.file, range: site.expr.range } : headerOf(lb);
  return { ...where, message: `${lb.resource.address} may be internal (${row.privateArg.path.join(".")})` };
}

export default defineRule({
  id: "cluster/lb-hairpin",
  provenance: "control-plane",
  severity: "error",
  roles: ["cluster"],
  summary: "A control-plane node can reach the API load balancer it is a backend of (no client address kept on an internal passthrough LB)",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "load-balancer"],
  check(ctx) {
    const module = ctx.expressions;
    const topo = apiLoadBalancer(module, ctx.graph);
    if (!topo) return;
    const reported = new Set<string>();

    // Internal passthrough LBs whose backend groups keep the client's source address.
    for (const lb of topo.lbs) {
      const internal = privateLb(module, lb);
      if (!internal) continue;
      for (const path of topo.paths) {
        const g = path.group;
        if (path.lb !== lb || !g?.row.preserveSource || reported.has(g.resource.address)) continue;
        const ps = g.row.preserveSource;
        const site = argumentSite(module, g.resource, g.resource.body, ps.path);
        const arg = ps.path.join(".");
        let where: { file: typeof g.resource.file; range: typeof g.resource.range } | null = null;
        let trail: readonly Hop[] = [];
        let why = "";
        if (site) {
          const t = stringValues(module, site).find((v) => v.value === "true");
          if (t) {
            where = { file: t.site.file, range: t.site.expr.range };
            trail = t.site.trail ?? [];
            why = `${arg} is true`;
          }
        } else if (ps.default === true) {
          where = headerOf(g);
          why = `${arg} is unset (default true)`;
        } else if (ps.default === "by-target-type" && g.row.targetTypeArg) {
          const tt = argumentSite(module, g.resource, g.resource.body, g.row.targetTypeArg.path);
          const types = tt ? stringValues(module, tt).map((v) => v.value) : [g.row.targetTypeArg.default];
          if (types.includes(g.row.targetTypeArg.default)) {
            where = headerOf(g);
            why = `${arg} is unset and ${g.row.targetTypeArg.path.join(".")} is ${JSON.stringify(g.row.targetTypeArg.default)}${tt ? "" : " (the default)"}, so the client IP is preserved`;
          }
        }
        if (!where) continue;
        reported.add(g.resource.address);
        ctx.report({
          message: `Backend group ${g.resource.address} of the internal API load balancer ${lb.resource.address} preserves the client's source address (${why}): a control-plane node that connects to the endpoint and is routed to itself drops the reply, so kubelets and the first control-plane node hang; set ${arg} = false`,
          file: where.file,
          range: where.range,
          related: [...g.hops, ...trail, internal],
        });
      }
    }

    // Passthrough frontends (GCP internal forwarding rules): a backend reaching the address answers itself.
    for (const fe of topo.frontends) {
      const scheme = fe.row.schemeArg;
      if (!scheme) continue;
      const site = argumentSite(module, fe.resource, fe.body, scheme.path);
      if (!site) continue;
      const bad = stringValues(module, site).find((v) => v.value !== null && scheme.hairpinSchemes.includes(v.value));
      if (!bad) continue;
      ctx.report({
        message: `API frontend ${fe.resource.address} uses ${scheme.path.join(".")} = ${JSON.stringify(bad.value)} (passthrough): a control-plane node that connects to the endpoint is answered by itself, never by another control-plane node, so joining nodes hang while the local API server is down; use an external scheme or a proxy (INTERNAL_MANAGED)`,
        file: bad.site.file,
        range: bad.site.expr.range,
        related: [...fe.hops, ...(bad.site.trail ?? [])],
      });
    }
  },
});

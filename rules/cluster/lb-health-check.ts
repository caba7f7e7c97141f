import { defineRule, type ReportInput } from "../../src/lint/types.js";
import {
  apiLoadBalancer,
  argumentSite,
  backendPortSite,
  frontendPorts,
  instanceFor,
  pathFoci,
  portValues,
  probeProtocols,
  stringValues,
  type ApiPath,
  type Focus,
  type PortValue,
  type ProbeNode,
  type ProbeProtocolValue,
} from "../../src/analysis/api-lb.js";
import type { Site } from "../../src/analysis/values.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import type { Expression } from "../../src/hcl/ast.js";
import type { Module } from "../../src/terraform/module-types.js";

const SUPERVISOR = 9345;
const API_PATHS = ["/readyz", "/healthz", "/livez"];

/** Where a probe is written: its nested block's type keyword, or its resource's header. */
function probeWhere(p: ProbeNode): { file: ProbeNode["resource"]["file"]; range: ProbeNode["resource"]["range"] } {
  if (p.block) return { file: p.resource.file, range: p.block.typeRange };
  return { file: p.resource.file, range: blockHeaderRange(p.resource.block, p.resource.file.hcl.syntax) };
}

function at(site: Site): { file: Site["file"]; range: Site["expr"]["range"] } {
  return { file: site.file, range: site.expr.range };
}

/** A single constant number on every branch, else null. */
function singleConstant(values: readonly PortValue[]): number | null {
  if (values.length === 0) return null;
  const first = values[0]!;
  if (first.kind !== "const") return null;
  return values.every((v) => v.kind === "const" && v.value === first.value) ? first.value : null;
}

/** Whether an accepted-codes value holds `code`: `200`, `200,403`, `200-399`, `200|403`. */
function codesHold(spec: string, code: number): boolean | null {
  let known = true;
  const held = spec.split(/[,|]/).some((part) => {
    const t = part.trim();
    const range = /^(\d{3})\s*-\s*(\d{3})$/.exec(t);
    if (range) return Number(range[1]) <= code && code <= Number(range[2]);
    if (/^\d{3}$/.test(t)) return Number(t) === code;
    known = false;
    return false;
  });
  return held ? true : known ? false : null;
}

/** Path part of a probe path without its query. */
function pathOnly(p: string): string {
  const q = p.indexOf("?");
  return q < 0 ? p : p.slice(0, q);
}

/**
 * The ports a probe of a path probes: the probe's own port when set (its
 * "backend port" values meaning the backend port), else the backend port,
 * else the frontend port. Null when nothing is known.
 */
function effectivePorts(module: Module, path: ApiPath, probe: ProbeNode, proto: ProbeProtocolValue, focus: Focus): { values: PortValue[]; own: Site | null } {
  if (proto.target && proto.target.port !== null) {
    return { values: [{ kind: "const", value: proto.target.port, site: proto.site! }], own: proto.site };
  }
  const own = probe.row.portArg ? argumentSite(module, probe.resource, proto.body, probe.row.portArg, instanceFor(module, focus, probe.resource)) : null;
  if (own) {
    const vals = portValues(module, own);
    const meansBackend = (v: PortValue): boolean => probe.row.backendPortValues.some((b) => (v.kind === "const" && v.value === b) || (typeof b === "string" && v.kind === "unknown" && stringValues(module, v.site).every((s) => s.value === b)));
    if (!vals.some(meansBackend)) return { values: vals, own };
    if (!vals.every(meansBackend)) return { values: [{ kind: "unknown", site: own }], own };
  } else if (probe.row.portDefault === "unknown") {
    return { values: [], own: null };
  } else if (typeof probe.row.portDefault === "number") {
    const where = probeWhere(probe);
    const expr: Expression = { kind: "LiteralValue", type: "number", value: probe.row.portDefault, raw: String(probe.row.portDefault), range: where.range };
    return { values: [{ kind: "const", value: probe.row.portDefault, site: { expr, file: where.file, via: [] } }], own: null };
  }
  const backend = backendPortSite(path, focus);
  if (backend) return { values: portValues(module, backend), own: null };
  if (path.frontend && !path.proxy) return { values: frontendPorts(module, path.frontend, focus), own: null };
  return { values: [], own: null };
}

export default defineRule({
  id: "cluster/lb-health-check",
  provenance: "control-plane",
  severity: "error",
  roles: ["cluster"],
  summary: "The API load balancer's probes can go green: TCP or HTTPS on a health path, never plain HTTP, 403 accepted on 9345, the backend port",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "load-balancer"],
  check(ctx) {
    const module = ctx.expressions;
    const topo = apiLoadBalancer(module, ctx.graph);
    if (!topo) return;
    const seen = new Set<string>();
    const report = (key: string, finding: ReportInput): void => {
      if (seen.has(key)) return;
      seen.add(key);
      ctx.report(finding);
    };
    for (const path of topo.paths) {
      for (const focus of pathFoci(module, path)) {
      for (const probe of path.probes) {
        const inst = instanceFor(module, focus, probe.resource);
        const name = probe.block ? `${probe.resource.address} ${probe.row.block}` : probe.resource.address;
        const protos = probeProtocols(module, probe, focus);
        for (const proto of protos) {
          const { values: ports } = effectivePorts(module, path, probe, proto, focus);
          const known = ports.length > 0 && ports.every((p) => p.kind === "const" || p.kind === "api");
          const on9345 = known && ports.every((p) => p.kind === "const" && p.value === SUPERVISOR);
          const onApi = known && ports.every((p) => !(p.kind === "const" && p.value === SUPERVISOR));
          const protoWhere = proto.site ? at(proto.site) : probeWhere(probe);
          const protoKey = `${protoWhere.file.path}:${protoWhere.range.start.line}:${protoWhere.range.start.column}`;

          if (proto.protocol === "http") {
            report(`http@${protoKey}`, {
              message: `Health probe ${name} uses plain HTTP: the kube-apiserver and the RKE2 supervisor answer only TLS, so the probe never goes green and no control-plane node receives traffic; use TCP, or HTTPS with path /readyz`,
              ...protoWhere,
              related: [...probe.hops, ...(proto.site?.trail ?? [])],
            });
            continue;
          }
          if (proto.protocol !== "https") continue;
          const everyHttps = protos.every((p) => p.protocol === "https");
          if (onApi) {
            // Path: every branch outside /readyz, /healthz, /livez.
            const pathSite = proto.target ? null : probe.row.pathArg ? argumentSite(module, probe.resource, proto.body, probe.row.pathArg, inst) : null;
            const paths = proto.target ? [proto.target.path ?? probe.row.pathDefault] : pathSite ? stringValues(module, pathSite).map((v) => v.value) : [probe.row.pathDefault];
            if (paths.length > 0 && paths.every((p) => p !== null && !API_PATHS.includes(pathOnly(p)))) {
              const where = pathSite ? at(pathSite) : protoWhere;
              report(`path@${where.file.path}:${where.range.start.line}:${where.range.start.column}`, {
                message: `Health probe ${name} checks the kube-apiserver over HTTPS on path ${paths.map((p) => JSON.stringify(p)).join(" or ")}${pathSite ? "" : " (the default)"}, which is not a health endpoint; use /readyz (or /healthz, /livez)`,
                severity: "warning",
                ...where,
                related: probe.hops,
              });
            }
            if (topo.rke2Aware && everyHttps) {
              report(`rke2@${protoKey}`, {
                message: `Health probe ${name} checks the kube-apiserver over HTTPS in a module that supports RKE2: an unauthenticated probe is answered 401/403 unless anonymous auth is enabled, so the backends stay unhealthy; use a TCP probe`,
                severity: "warning",
                ...protoWhere,
                related: [...probe.hops, ...(proto.site?.trail ?? [])],
              });
            }
          }
          if (on9345) {
            const codesSite = probe.row.codesArg ? argumentSite(module, probe.resource, proto.body, probe.row.codesArg, inst) : null;
            const codes = codesSite ? stringValues(module, codesSite).map((v) => v.value) : [probe.row.codesDefault];
            const excludes = codes.length > 0 && codes.every((c) => c !== null && codesHold(c, 403) === false);
            if (excludes) {
              const where = codesSite ? at(codesSite) : protoWhere;
              report(`codes@${where.file.path}:${where.range.start.line}:${where.range.start.column}`, {
                message: `Health probe ${name} checks the RKE2 supervisor port 9345 over HTTPS but accepts only ${codes.join(" or ")}${codesSite ? "" : " (the default)"}: the supervisor answers an anonymous request with 403, so the probe never goes green; accept 403${probe.row.codesArg ? ` (${probe.row.codesArg.join(".")})` : ""} or use a TCP probe`,
                ...where,
                related: [...probe.hops, ...((codesSite ?? proto.site)?.trail ?? [])],
              });
            }
          }
        }

        // Port: a constant probe port that differs from the constant backend port.
        for (const proto of protos) {
          const own = proto.target && proto.target.port !== null ? proto.site : probe.row.portArg ? argumentSite(module, probe.resource, proto.body, probe.row.portArg, inst) : null;
          if (!own) continue;
          const probePort = proto.target?.port ?? singleConstant(portValues(module, own));
          if (probePort === null || probe.row.backendPortValues.includes(probePort)) continue;
          const backend = backendPortSite(path, focus);
          const backendPort = backend ? singleConstant(portValues(module, backend)) : null;
          if (backendPort === null || backendPort === probePort) continue;
          report(`port@${own.file.path}:${own.expr.range.start.line}:${own.expr.range.start.column}`, {
            message: `Health probe ${name} checks port ${probePort} but its backends receive traffic on port ${backendPort}: the probe tests a port the API is not served on; probe the backend port${probe.row.backendPortValues.length > 0 ? ` (${probe.row.backendPortValues.map((v) => JSON.stringify(v)).join(" or ")})` : ""}`,
            ...at(own),
            related: [...probe.hops, { file: backend!.file, range: backend!.expr.range, message: `backend port ${backendPort}` }],
          });
        }
      }
      }
    }
  },
});

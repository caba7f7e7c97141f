import { viaText } from "../../src/analysis/references.js";
import { defineRule } from "../../src/lint/types.js";
import { ShapeReporter, objectValueViews, outputValueSite, reportMissingAttrs } from "../shared/output-shapes.js";
import {
  alternatives,
  charLength,
  classify,
  describeLiteral,
  literalAlternatives,
  type Site,
} from "../../src/analysis/values.js";
import type { Module } from "../../src/terraform/module-types.js";

/**
 * Whether an attribute's value is certainly not null: every value it may
 * take is a literal other than null. (A reference may be null, so it never
 * counts.)
 */
function certainlyNonNull(module: Module, site: Site | undefined): boolean {
  if (!site) return false;
  const all = alternatives(module, site, { scalar: true });
  return all.length > 0 && all.every((a) => {
    const k = classify(a.expr).kind;
    return k !== "null" && k !== "unknown";
  });
}

export default defineRule({
  id: "output/endpoint-shape",
  provenance: "contract-depth",
  severity: "error",
  roles: ["cluster"],
  summary: "control_plane_endpoint objects have a host and a port in 1-65535",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "endpoint"],
  check(ctx) {
    const value = outputValueSite(ctx, "control_plane_endpoint");
    if (!value) return;
    const module = ctx.expressions;
    const out = new ShapeReporter(ctx);
    for (const view of objectValueViews(module, value, "control_plane_endpoint", "{ host = ..., port = 6443 } or null", out)) {
      reportMissingAttrs(out, view, ["host", "port"], "control_plane_endpoint", "a half-set endpoint is rejected (OutputsInvalid) and the control plane never starts; set both host and port");
      const host = view.attrs.get("host");
      const port = view.attrs.get("port");

      if (host) {
        for (const alt of literalAlternatives(module, host)) {
          const where = viaText(alt.via, 4);
          if (alt.kind === "string") {
            if (typeof alt.value !== "string") continue;
            const n = charLength(alt.value);
            if (n === 0) out.report(alt, alt.expr.range, `control_plane_endpoint.host is empty${where}; the endpoint is invalid until host is a DNS name or IP address`);
            else if (n > 512) out.report(alt, alt.expr.range, `control_plane_endpoint.host is ${n} characters long${where}; Cluster API accepts at most 512`);
          } else if (alt.kind === "null") {
            if (certainlyNonNull(module, port)) {
              out.report(alt, alt.expr.range, `control_plane_endpoint.host is null while port is set${where}; a half-set endpoint is rejected (OutputsInvalid): return null for the whole endpoint until the host is known`);
            }
          } else {
            out.report(alt, alt.expr.range, `control_plane_endpoint.host is ${describeLiteral(alt)}${where}; it must be a string (a DNS name or IP address)`);
          }
        }
      }

      if (port) {
        for (const alt of literalAlternatives(module, port)) {
          const where = viaText(alt.via, 4);
          if (alt.kind === "number") {
            const n = alt.value as number;
            if (Number.isInteger(n) && n >= 1 && n <= 65535) continue;
            out.report(alt, alt.expr.range, `control_plane_endpoint.port ${alt.value}${where} is not a TCP port; it must be an integer from 1 to 65535 (the API server usually listens on 6443)`);
          } else if (alt.kind === "null") {
            if (certainlyNonNull(module, host)) {
              out.report(alt, alt.expr.range, `control_plane_endpoint.port is null while host is set${where}; a half-set endpoint is rejected (OutputsInvalid): set the port (e.g. 6443)`);
            }
          } else if (alt.kind === "bool" || alt.kind === "list" || alt.kind === "object") {
            out.report(alt, alt.expr.range, `control_plane_endpoint.port is ${describeLiteral(alt)}${where}; it must be a number from 1 to 65535`);
          }
        }
      }
    }
  },
});

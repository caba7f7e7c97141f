import { defineRule } from "../../src/lint/types.js";
import { blockHeaderRange } from "../_lib/outputs-expr.js";

/** Providers whose resources and data sources talk to the workload cluster's API server. */
const WORKLOAD_API_PREFIXES = ["kubernetes_", "helm_", "kubectl_", "kustomization_"];

const INITIALIZED = "var.control_plane_initialized";

export default defineRule({
  id: "cluster/gate-on-initialized",
  severity: "warning",
  roles: ["cluster"],
  summary: "Workload-cluster resources (kubernetes, helm, kubectl, kustomization) wait for control_plane_initialized",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "ordering"],
  check(ctx) {
    const module = ctx.expressions;
    for (const r of [...module.resources.values(), ...module.dataSources.values()]) {
      if (!WORKLOAD_API_PREFIXES.some((p) => r.type.startsWith(p))) continue;
      const gates = [r.count, r.forEach].filter((a) => a !== null);
      if (gates.some((a) => ctx.graph.reaches(a.expr, INITIALIZED) !== null)) continue;
      const what = r.mode === "data" ? "data source" : "resource";
      const meta = r.forEach ? "for_each" : "count";
      ctx.report({
        message: `${r.address} talks to the workload cluster's API server, but its ${gates.length > 0 ? meta : "count"} does not depend on var.control_plane_initialized, so this ${what} is planned before any API server exists; gate it, e.g. count = var.control_plane_initialized ? 1 : 0`,
        file: r.file.path,
        range: blockHeaderRange(r.block),
      });
    }
  },
});

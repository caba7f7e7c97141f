import { defineRule } from "../../src/lint/types.js";
import type { Body } from "../../src/hcl/ast.js";
import type { Module, Resource } from "../../src/terraform/model.js";
import { blockHeaderRange, traversalPath, unwrap } from "../_lib/outputs-expr.js";

/** Providers whose resources and data sources talk to the workload cluster's API server. */
const WORKLOAD_API_PREFIXES = ["kubernetes_", "helm_", "kubectl_", "kustomization_"];

const INITIALIZED = "var.control_plane_initialized";

/** Provider arguments that point a Kubernetes client at some cluster. */
const CONNECTION_ARGS = new Set([
  "host",
  "config_path",
  "config_paths",
  "kubeconfig_path",
  "kubeconfig_raw",
  "kubeconfig_incluster",
  "config_context",
]);

function connects(body: Body): boolean {
  if (body.attributes.some((a) => CONNECTION_ARGS.has(a.name))) return true;
  return body.blocks.some((b) => b.type === "kubernetes" && connects(b.body));
}

/**
 * The resource uses a provider configuration that is declared here and sets
 * no connection at all: an in-cluster client, i.e. the management cluster
 * the controller's Job runs in, which is up before the module is applied.
 */
function usesInClusterProvider(module: Module, r: Resource): boolean {
  let name = r.type.slice(0, r.type.indexOf("_"));
  let alias: string | null = null;
  if (r.providerAttr) {
    const path = traversalPath(unwrap(r.providerAttr.expr));
    if (path === null) return false;
    const [n, a] = path.split(".");
    name = n!;
    alias = a ?? null;
  }
  const config = module.providers.find((p) => p.name === name && p.alias === alias);
  return config !== undefined && !connects(config.body);
}

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
      if (usesInClusterProvider(module, r)) continue;
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

import { defineRule } from "../../src/lint/types.js";
import type { Body, Expression } from "../../src/hcl/ast.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit, ProviderConfig, Resource } from "../../src/terraform/module-types.js";
import { objectKeyName, unwrap } from "../../src/hcl/walk.js";
import { traversalPath } from "../../src/analysis/references.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

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

/** Whether a provider body (or a `kubernetes` block in it, at any depth) sets a connection argument. */
export function connects(body: Body): boolean {
  // An explicit stack of bodies rather than recursion: any nesting depth on the main thread.
  const pending: Body[] = [body];
  while (pending.length > 0) {
    const b = pending.pop()!;
    if (b.attributes.some((a) => CONNECTION_ARGS.has(a.name))) return true;
    for (const inner of b.blocks) if (inner.type === "kubernetes") pending.push(inner.body);
  }
  return false;
}

/**
 * The provider configuration a block of `unit` uses for `name`/`alias`: the
 * unit's own, or (in a child module) the one its call maps to it through
 * `providers = { ... }`, or the parent's default one it inherits.
 */
function providerConfig(load: LoadResult, unit: ModuleUnit, name: string, alias: string | null, depth = 0): ProviderConfig | undefined {
  const own = unit.expressions.providers.find((p) => p.name === name && p.alias === alias);
  if (own || unit === load.root || depth > 16) return own;
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return undefined;
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const map = call.block.body.attributes.find((a) => a.name === "providers");
  const key = alias ? `${name}.${alias}` : name;
  if (map) {
    const obj = unwrap(map.expr);
    if (obj.kind !== "ObjectCons") return undefined;
    for (const item of obj.items) {
      if (traversalPath(unwrap(item.key)) !== key && objectKeyName(item) !== key) continue;
      const target = traversalPath(unwrap(item.value));
      if (target === null) return undefined;
      const [n, a] = target.split(".");
      return providerConfig(load, parent, n!, a ?? null, depth + 1);
    }
  }
  // Without a mapping a child inherits only the parent's default configuration.
  return alias === null ? providerConfig(load, parent, name, null, depth + 1) : undefined;
}

/**
 * The resource uses a provider configuration that is declared and sets no
 * connection at all: an in-cluster client, i.e. the management cluster the
 * controller's Job runs in, which is up before the module is applied.
 */
function usesInClusterProvider(load: LoadResult, unit: ModuleUnit, r: Resource): boolean {
  let name = r.type.slice(0, r.type.indexOf("_"));
  let alias: string | null = null;
  if (r.providerAttr) {
    const path = traversalPath(unwrap(r.providerAttr.expr));
    if (path === null) return false;
    const [n, a] = path.split(".");
    name = n!;
    alias = a ?? null;
  }
  const config = providerConfig(load, unit, name, alias);
  return config !== undefined && !connects(config.body);
}

/**
 * What stands for `var.control_plane_initialized` in `unit`: the variable in
 * the root; in a local child module, each variable whose argument depends on
 * the parent's gates. Null when the whole child is gated (its call's
 * `count`/`for_each` depends on a gate) or its call cannot be found.
 */
function gateTargets(load: LoadResult, unit: ModuleUnit, graphOf: (m: Module) => DependencyGraph, depth = 0): string[] | null {
  if (unit === load.root) return [INITIALIZED];
  if (depth > 16) return null;
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return null;
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const up = gateTargets(load, parent, graphOf, depth + 1);
  if (up === null) return null;
  const graph = graphOf(parent.expressions);
  const reachesGate = (e: Expression): boolean => up.some((t) => graph.reaches(e, t) !== null);
  if ([call.count, call.forEach].some((a) => a !== null && reachesGate(a.expr))) return null;
  const out: string[] = [];
  for (const [name, attr] of call.args) {
    if (unit.expressions.variables.has(name) && reachesGate(attr.expr)) out.push(`var.${name}`);
  }
  return out;
}

export default defineRule({
  id: "cluster/gate-on-initialized",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["cluster"],
  summary: "Workload-cluster resources (kubernetes, helm, kubectl, kustomization) wait for control_plane_initialized",
  // Local child modules too (an add-ons module called from the root).
  scope: "all",
  fixable: false,
  tags: ["contract", "cluster", "ordering"],
  check(ctx) {
    const module = ctx.expressions;
    const targets = gateTargets(ctx.load, ctx.unit, (m) => ctx.graphOf(m));
    if (targets === null) return;
    for (const r of [...module.resources.values(), ...module.dataSources.values()]) {
      if (!WORKLOAD_API_PREFIXES.some((p) => r.type.startsWith(p))) continue;
      if (usesInClusterProvider(ctx.load, ctx.unit, r)) continue;
      const gates = [r.count, r.forEach].filter((a) => a !== null);
      if (gates.some((a) => targets.some((t) => ctx.graph.reaches(a.expr, t) !== null))) continue;
      const what = r.mode === "data" ? "data source" : "resource";
      const meta = r.forEach ? "for_each" : "count";
      const callName = ctx.load.units.flatMap((u) => u.children).find((c) => c.unit === ctx.unit)?.call.name;
      const fix = ctx.isRoot
        ? "gate it, e.g. count = var.control_plane_initialized ? 1 : 0"
        : `gate the call module.${callName ?? "?"} with count = var.control_plane_initialized ? 1 : 0, or pass the flag in and use it in this block's ${meta}`;
      ctx.report({
        message: `${r.address} talks to the workload cluster's API server, but its ${gates.length > 0 ? meta : "count"} does not depend on var.control_plane_initialized, so this ${what} is planned before any API server exists; ${fix}`,
        file: r.file.path,
        range: blockHeaderRange(r.block),
      });
    }
  },
});

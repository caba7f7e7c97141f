/**
 * What the cluster-side registration rules share: the resources an
 * argument names (through locals, and through the resource's own
 * `for_each`/`count` for `each.*`/`count.index`), where a control-plane
 * machine actually joins an API backend group (the group, or the instance
 * groups and endpoint groups a GCP backend service lists), and the
 * membership resources of the module that fill such a group.
 */
import type { Expression } from "../../src/hcl/ast.js";
import type { ChainStep, DependencyGraph } from "../../src/terraform/graph-api.js";
import type { Module, Resource } from "../../src/terraform/module-types.js";
import { findArguments } from "../../src/terraform/module-builder.js";
import { MEMBERSHIP_TYPES, membershipType, type MembershipType } from "../../src/contract/cloud/memberships.js";

/**
 * Resource types a backend group lists as its backends and that machines
 * join themselves: every type whose row lists its members, and GCP network
 * endpoint groups (members join them through `google_compute_network_endpoint`).
 */
const CONTAINER_TYPES: ReadonlySet<string> = new Set([
  ...MEMBERSHIP_TYPES.filter((m) => m.kind === "group-lists-members").map((m) => m.type),
  "google_compute_network_endpoint_group",
  "google_compute_region_network_endpoint_group",
]);

/**
 * What an argument value of `r` is made of: its expression and, when it
 * reads `each.*` or `count.index`, the resource's `for_each` or `count`
 * (`target_group_arn = each.value` takes its value from the `for_each`).
 */
export function argumentExpressions(graph: DependencyGraph, r: Resource, expr: Expression): Expression[] {
  const keys = [...graph.dependencies(expr).keys()];
  const out = [expr];
  if (r.forEach && keys.some((k) => k.startsWith("each."))) out.push(r.forEach.expr);
  if (r.count && keys.some((k) => k.startsWith("count."))) out.push(r.count.expr);
  return out;
}

/** What an argument value depends on: the addresses in order, and the chain to one of them. */
export interface ArgumentDependencies {
  keys(): string[];
  get(address: string): ChainStep[] | undefined;
}

/**
 * The dependencies of an argument value (`argumentExpressions`: with those of
 * the resource's iteration it reads), the value's own first. A chain is
 * spelled out only when asked for (`get`): spelling out every one costs the
 * square of a long chain of locals.
 */
export function argumentDependencies(graph: DependencyGraph, r: Resource, expr: Expression): ArgumentDependencies {
  const maps = argumentExpressions(graph, r, expr).map((e) => graph.dependencies(e));
  return {
    keys(): string[] {
      const seen = new Set<string>();
      for (const m of maps) for (const a of m.keys()) seen.add(a);
      return [...seen];
    },
    get(address: string): ChainStep[] | undefined {
      return maps.find((m) => m.has(address))?.get(address);
    },
  };
}

/** The managed resources the arguments at `paths` name. */
export function namedBy(module: Module, graph: DependencyGraph, r: Resource, paths: readonly (readonly string[])[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    for (const m of findArguments(r.body, p)) {
      for (const a of argumentDependencies(graph, r, m.expr).keys()) if (module.resources.has(a)) out.add(a);
    }
  }
  return out;
}

/** Where machines join an API backend group: the group and the instance or endpoint groups it lists. */
export function joinTargets(module: Module, graph: DependencyGraph, group: Resource): Set<string> {
  const out = new Set<string>([group.address]);
  for (const e of graph.resourceExpressions(group)) {
    for (const a of graph.dependencies(e).keys()) {
      const r = module.resources.get(a);
      if (r && CONTAINER_TYPES.has(r.type)) out.add(a);
    }
  }
  return out;
}

/** A membership resource of the module whose group argument names one of `targets`. */
export interface Membership {
  resource: Resource;
  row: MembershipType;
}

export function membershipsInto(module: Module, graph: DependencyGraph, targets: ReadonlySet<string>): Membership[] {
  const out: Membership[] = [];
  for (const r of module.resources.values()) {
    const row = membershipType(r.type);
    if (!row) continue;
    if (row.kind === "group-lists-members") {
      // The group lists its own members.
      if (targets.has(r.address) && row.member.some((p) => findArguments(r.body, p).length > 0)) out.push({ resource: r, row });
      continue;
    }
    const named = namedBy(module, graph, r, row.group);
    if ([...named].some((a) => targets.has(a))) out.push({ resource: r, row });
  }
  return out;
}

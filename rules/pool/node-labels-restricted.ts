/**
 * `pool/node-labels-restricted`: a pool that renders `node_labels` into its
 * instances' boot configuration must filter the label prefixes the kubelet
 * may not set on itself.
 */
import type { Attribute, Expression, ForExpr } from "../../src/hcl/ast.js";
import { children, walkExpression } from "../../src/hcl/walk.js";
import { defineRule } from "../../src/lint/types.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Module, Resource, SourceFile } from "../../src/terraform/module-types.js";
import type { ChainStep, DependencyGraph } from "../../src/terraform/graph-api.js";
import { attributesAt } from "../../src/analysis/attributes.js";
import { USER_DATA_ARGUMENTS } from "../../src/contract/providers.js";
import { argumentHop, chainHops, joinHops } from "../../src/analysis/paths.js";
import { blockingConditions, checkAssertions } from "../shared/conditions.js";

const TARGET = "var.node_labels";

/**
 * Where instances get their boot configuration, beyond the user-data table:
 * a managed instance group's per-instance metadata.
 */
const BOOT_CONFIG_EXTRA: readonly { type: string; path: readonly string[] }[] = [
  { type: "google_compute_instance_group_manager", path: ["all_instances_config", "metadata"] },
  { type: "google_compute_region_instance_group_manager", path: ["all_instances_config", "metadata"] },
];

function bootConfigPaths(type: string): (readonly string[])[] {
  return [...USER_DATA_ARGUMENTS.filter((a) => a.type === type).map((a) => a.path), ...BOOT_CONFIG_EXTRA.filter((a) => a.type === type).map((a) => a.path)];
}

/** The first boot-configuration argument `var.node_labels` reaches, with the chain. */
function renderedAt(m: Module, graph: DependencyGraph): { resource: Resource; attr: Attribute; path: string; chain: ChainStep[] } | null {
  for (const resource of [...m.resources.values(), ...m.dataSources.values()]) {
    for (const path of bootConfigPaths(resource.type)) {
      for (const attr of attributesAt(resource.body, path)) {
        const chain = graph.reaches(attr.expr, TARGET, { throughResources: true });
        if (chain) return { resource, attr, path: path.join("."), chain };
      }
    }
  }
  return null;
}

/** Every expression of the module, with its file. */
function allExpressions(m: Module, graph: DependencyGraph): { expr: Expression; file: SourceFile }[] {
  const out: { expr: Expression; file: SourceFile }[] = [];
  for (const l of m.locals.values()) out.push({ expr: l.value, file: l.file });
  for (const r of [...m.resources.values(), ...m.dataSources.values()]) for (const e of graph.resourceExpressions(r)) out.push({ expr: e, file: r.file });
  for (const o of m.outputs.values()) if (o.value) out.push({ expr: o.value, file: o.file });
  for (const c of m.moduleCalls.values()) for (const a of c.args.values()) out.push({ expr: a.expr, file: c.file });
  return out;
}

/**
 * What the module's `for` expressions over a collection derived from
 * var.node_labels say: the first of them (in source order), and whether any
 * filters (has an `if`). A `for` nested in another's collection can reach
 * the labels only if the outer collection does, so the collection of a
 * `for` that does not reach them is not searched; and a `for` without an
 * `if` is asked only until the first is known. Asking of every `for` of a
 * chain nested n deep would scan the chain n times (n² steps).
 */
function labelFors(m: Module, graph: DependencyGraph): { first: { node: ForExpr; file: SourceFile } | null; filtered: boolean } {
  let first: { node: ForExpr; file: SourceFile } | null = null;
  for (const { expr, file } of allExpressions(m, graph)) {
    // Pre-order, with whether the node lies in the collection of a `for` known not to reach the labels.
    const stack: Expression[] = [expr];
    const pruned: boolean[] = [false];
    while (stack.length > 0) {
      const e = stack.pop()!;
      const off = pruned.pop()!;
      let collectionOff = off;
      if (e.kind === "For" && !off && (first === null || e.condition !== null)) {
        // Through locals only: a `for` over a resource built from the labels iterates something else.
        const reaches = graph.reaches(e.collection, TARGET) !== null;
        if (reaches && e.condition !== null) return { first: first ?? { node: e, file }, filtered: true };
        if (reaches) first ??= { node: e, file };
        else collectionOff = true;
      }
      const kids = children(e, false);
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push(kids[i]!);
        pruned.push(e.kind === "For" && kids[i] === e.collection ? collectionOff : off);
      }
    }
  }
  return { first, filtered: false };
}

const RESTRICTED_WORD = /kubernetes|k8s/i;

/** A condition that reads var.node_labels itself and names the restricted domains in a string. */
function filtersRestricted(cond: Expression): boolean {
  let readsLabels = false;
  let namesDomain = false;
  walkExpression(cond, (e) => {
    if (e.kind === "ScopeTraversal") {
      const [root, name] = e.traversal;
      if (root?.kind === "TraverseRoot" && root.name === "var" && name?.kind === "TraverseAttr" && name.name === "node_labels") readsLabels = true;
    } else if (e.kind === "LiteralValue" && e.type === "string" && RESTRICTED_WORD.test(String(e.value))) {
      namesDomain = true;
    } else if (e.kind === "Template") {
      for (const p of e.parts) if (p.kind === "TemplateLiteral" && RESTRICTED_WORD.test(p.value)) namesDomain = true;
    }
  }, false);
  return readsLabels && namesDomain;
}

export default defineRule({
  id: "pool/node-labels-restricted",
  provenance: "control-plane",
  severity: "warning",
  roles: ["machinepool"],
  summary: "node_labels rendered into the kubelet's boot configuration are filtered of the kubernetes.io/k8s.io prefixes the kubelet may not set",
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "labels"],
  check(ctx) {
    const m = ctx.expressions;
    if (!m.variables.has("node_labels")) return;
    const rendered = renderedAt(m, ctx.graph);
    if (!rendered) return;
    // Through a module call the child may filter the labels (as a for ... if
    // over its own input): what it does is not followed, so stay silent.
    if (rendered.chain.some((step) => step.address.startsWith("module."))) return;
    const fors = labelFors(m, ctx.graph);
    if (fors.filtered) return;
    // Any condition that names the restricted domains, a check's assertion included.
    if ([...blockingConditions(m), ...checkAssertions(m)].some(filtersRestricted)) return;
    const bootFile = fileOf(rendered.resource, rendered.attr);
    const first = fors.first;
    const related = joinHops([argumentHop(rendered.resource, rendered.attr, rendered.path)], chainHops(m, rendered.chain, rendered.resource));
    ctx.report({
      message: `node_labels reach the kubelet's registration through ${rendered.resource.address}.${rendered.attr.name} without a filter: a MachinePool label such as node-role.kubernetes.io/worker (any kubernetes.io or k8s.io prefix the NodeRestriction admission plugin reserves) makes the kubelet refuse to start, and the pool's instances never become Nodes; drop those keys, e.g. with if !can(regex("(^|\\\\.)(kubernetes|k8s)\\\\.io/", ${first?.node.keyVar ?? "k"})) in ${first ? "this for expression" : "the for expression that renders them"}`,
      file: first ? first.file : bootFile,
      range: first ? first.node.range : rendered.attr.range,
      related,
    });
  },
});

/**
 * "Is this value derived from var.X?" with attribute precision across
 * resources: a reference to
 * `aws_launch_template.node.image_id` depends only on that argument, a
 * reference to a whole resource on all of its arguments, and a computed
 * attribute (`id`, `arn`) on nothing the module controls, except where the
 * provider documents it as following the arguments (`terraform_data.output`,
 * a launch template's `latest_version`, any attribute of a data source).
 */
import type { Body, Expression } from "../hcl/ast.js";
import type { ChainStep, DependencyGraph, Reference } from "../terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit, Resource } from "../terraform/module-types.js";

/**
 * Computed attributes of managed resources and the arguments whose change
 * changes them (`*`: any argument). `id` of null_resource/terraform_data
 * changes when the resource is replaced, i.e. when its triggers change.
 */
const COMPUTED_FOLLOWS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  aws_launch_template: { latest_version: ["*"] },
  google_compute_instance_template: { self_link: ["*"], self_link_unique: ["*"], id: ["*"] },
  google_compute_region_instance_template: { self_link: ["*"], self_link_unique: ["*"], id: ["*"] },
  null_resource: { id: ["triggers"] },
  terraform_data: { id: ["triggers_replace"], output: ["input"] },
};

const MAX_DEPTH = 64;

/** The first attribute name of a reference path (`.triggers["x"]` -> `triggers`), skipping index steps. */
function firstAttr(path: string): string | null {
  const m = /^(?:\[[^\]]*\])*\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(path);
  return m ? m[1]! : null;
}

/** The expressions inside the arguments or nested blocks named `name`. */
function argumentExprs(resource: Resource, name: string): Expression[] {
  const out: Expression[] = resource.body.attributes.filter((a) => a.name === name).map((a) => a.expr);
  // Blocks nest without limit: an explicit stack, popped in source order.
  const walk = (top: Body): void => {
    const stack: Body[] = [top];
    while (stack.length > 0) {
      const body = stack.pop()!;
      for (const a of body.attributes) out.push(a.expr);
      for (let i = body.blocks.length - 1; i >= 0; i--) stack.push(body.blocks[i]!.body);
    }
  };
  for (const b of resource.body.blocks) {
    if (b.type === name || (b.type === "dynamic" && b.labels[0] === name)) walk(b.body);
  }
  return out;
}

/** The expressions of `resource` a reference with `path` depends on (empty: none we know of). */
function exprsForPath(graph: DependencyGraph, resource: Resource, path: string): Expression[] {
  const attr = firstAttr(path);
  if (attr === null || resource.mode === "data") return graph.resourceExpressions(resource);
  const follows = COMPUTED_FOLLOWS[resource.type]?.[attr];
  if (follows) {
    if (follows.includes("*")) return graph.resourceExpressions(resource);
    return follows.flatMap((name) => argumentExprs(resource, name));
  }
  return argumentExprs(resource, attr);
}

export interface Derivation {
  /** Addresses passed through, from the expression to the variable (`local.x`, `terraform_data.boot`, `var.bootstrap_data`). */
  chain: string[];
  /** The same, each with where it is referenced (for the finding's path: paths.ts chainHops). */
  steps: ChainStep[];
}

/**
 * Does `expr` carry the value of `variable` (e.g. `var.bootstrap_data`)?
 * Follows locals and, attribute by attribute, resources and data sources.
 */
export function derivedFrom(graph: DependencyGraph, expr: Expression, variable: string): Derivation | null {
  const seen = new Set<string>();
  const visit = (e: Expression, depth: number): ChainStep[] | null => {
    if (depth > MAX_DEPTH) return null;
    for (const ref of graph.directRefs(e)) {
      const hit = follow(ref, depth);
      if (hit) return hit;
    }
    return null;
  };
  const follow = (ref: Reference, depth: number): ChainStep[] | null => {
    const step: ChainStep = { address: ref.address, range: ref.range };
    if (ref.address === variable) return [step];
    const key = `${ref.address}${ref.kind === "local" ? "" : ref.path}`;
    if (seen.has(key)) return null;
    seen.add(key);
    let exprs: Expression[] | null = null;
    if (ref.kind === "local") {
      const l = graph.local(ref.address.slice("local.".length));
      exprs = l ? [l.value] : null;
    } else if (ref.kind === "resource" || ref.kind === "data") {
      const m = graph.module;
      const r = m.resources.get(ref.address) ?? m.dataSources.get(ref.address);
      exprs = r ? exprsForPath(graph, r, ref.path) : null;
    }
    if (!exprs) return null;
    for (const x of exprs) {
      const tail = visit(x, depth + 1);
      if (tail) return [step, ...tail];
    }
    return null;
  };
  const steps = visit(expr, 0);
  return steps ? { chain: steps.map((s) => s.address), steps } : null;
}

/**
 * The variables of `unit` that carry the root module's `var.<rootVariable>`
 * in any form: the variable itself in the root; in a local child module,
 * each argument of its call derived from one of the parent's carriers.
 */
export function carrierVariables(
  load: LoadResult,
  unit: ModuleUnit,
  rootVariable: string,
  graphOf: (m: Module) => DependencyGraph,
  depth = 0,
): string[] {
  if (unit === load.root) return unit.expressions.variables.has(rootVariable) ? [rootVariable] : [];
  if (depth > 16) return [];
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return [];
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const sources = carrierVariables(load, parent, rootVariable, graphOf, depth + 1);
  if (sources.length === 0) return [];
  const graph = graphOf(parent.expressions);
  const out: string[] = [];
  for (const [name, attr] of call.args) {
    if (!unit.expressions.variables.has(name)) continue;
    if (sources.some((src) => derivedFrom(graph, attr.expr, `var.${src}`) !== null)) out.push(name);
  }
  return out;
}

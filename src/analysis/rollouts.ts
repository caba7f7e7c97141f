/**
 * Questions the pool rollout rules ask of a scaling group (with the tables
 * of contract/rollouts.ts): the literal values a setting can take (per
 * instance, dynamic blocks bound: iteration.ts), the launch configurations
 * a group references, the provider switches of the module, and whether a
 * group is replaced when a value changes.
 */
import type { Expression } from "../hcl/ast.js";
import { blocksOf, findArguments } from "../terraform/module-builder.js";
import type { DependencyGraph, Reference } from "../terraform/graph-api.js";
import type { Module, ProviderConfig, Resource, SourceFile } from "../terraform/module-types.js";
import { fileOf } from "../terraform/module-builder.js";
import { launchConfigType, type ArgPath, type LaunchConfigType, type ProviderRolloutFlag } from "../contract/rollouts.js";
import { resourceSite } from "./iteration.js";
import { alternatives, classify, type Site } from "./values.js";
import { chainHops, type Hop, joinHops, siteHops } from "./paths.js";
import type { ChainStep } from "../terraform/graph-api.js";

/** One argument found in a resource (possibly in nested or dynamic blocks). */
export interface FoundArgument {
  expr: Expression;
  /** The range of `name = value` (or of the object item). */
  range: { start: Expression["range"]["start"]; end: Expression["range"]["end"] };
}

/** Every occurrence of `path` in the resource body (nested blocks, `dynamic` content, object values). */
export function argumentsAt(resource: Resource, path: ArgPath): FoundArgument[] {
  return findArguments(resource.body, path).map((m) => ({ expr: m.expr, range: m.range }));
}

/** What a setting can be: the literal values of its alternatives, whether some are unknown, whether it may be unset. */
export interface SettingValues {
  /** No occurrence of the argument: the provider's default applies. */
  unset: boolean;
  /** Literal alternatives (strings, numbers and bools as written, `null` as null). */
  literals: { value: string | number | boolean | null; site: Site }[];
  /** Some alternative is not a literal. */
  unknown: boolean;
  args: FoundArgument[];
}

/** The values of a resource's setting at `path`, evaluated per instance (each.value, count.index, dynamic iterators bound). */
export function settingValues(module: Module, resource: Resource, path: ArgPath): SettingValues {
  const args = argumentsAt(resource, path);
  const out: SettingValues = { unset: args.length === 0, literals: [], unknown: false, args };
  for (const a of args) {
    const alts = alternatives(module, resourceSite(module, resource, a.expr), { scalar: true });
    if (alts.length === 0) out.unknown = true;
    for (const alt of alts) {
      const c = classify(alt.expr);
      if (c.kind === "unknown" || c.kind === "list" || c.kind === "object" || !("value" in c)) out.unknown = true;
      else out.literals.push({ value: c.value ?? null, site: alt });
    }
  }
  return out;
}

/** Does the setting take one of `values` on some branch (or is it unset while the provider's default is one)? */
export function mayBe(s: SettingValues, values: readonly string[], unsetMeans: string | null): boolean {
  if (s.unset) return unsetMeans !== null && values.includes(unsetMeans);
  return s.literals.some((l) => l.value !== null && values.includes(String(l.value)));
}

/** Is the setting one of `values` on every branch (unset counts through its default; an unknown alternative does not)? */
export function alwaysIs(s: SettingValues, values: readonly string[], unsetMeans: string | null): boolean {
  if (s.unset) return unsetMeans !== null && values.includes(unsetMeans);
  if (s.unknown || s.literals.length === 0) return false;
  // A null alternative leaves the argument unset on that branch.
  return s.literals.every((l) => (l.value === null ? unsetMeans !== null && values.includes(unsetMeans) : values.includes(String(l.value))));
}

/**
 * The hops of a setting that took one of `values`: the argument itself
 * (labelled `aws_autoscaling_group.pool.launch_template.version`), then
 * the first such alternative's trail (locals, for_each entries).
 */
export function settingHops(module: Module, s: SettingValues, values: readonly string[], owner?: Resource, path?: ArgPath): Hop[] {
  const hit = s.literals.find((l) => l.value !== null && values.includes(String(l.value)));
  const own: Hop[] = owner && path ? s.args.map((a) => ({ file: fileOf(owner, a.expr), range: a.expr.range, message: `${owner.address}.${path.join(".")}` })) : [];
  return joinHops(own, hit ? siteHops(module, hit.site) : []);
}

/** A resource a reference reached (through locals), with the chain of steps from the expression. */
export interface ReachedResource {
  resource: Resource;
  ref: Reference;
  steps: ChainStep[];
}

/** The first attribute name of a reference path (`[0].latest_version` -> `latest_version`). */
export function referencedAttribute(path: string): string | null {
  const m = /^(?:\[[^\]]*\])*\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(path);
  return m ? m[1]! : null;
}

/**
 * The managed resources `expr` references directly or through locals (not
 * through other resources' arguments), each with the chain that got there.
 */
export function resourcesReferenced(graph: DependencyGraph, expr: Expression): ReachedResource[] {
  const out: ReachedResource[] = [];
  const seen = new Set<string>();
  const visit = (e: Expression, prefix: ChainStep[], depth: number): void => {
    if (depth > 64) return;
    for (const ref of graph.directRefs(e)) {
      const step: ChainStep = { address: ref.address, range: ref.range };
      if (ref.kind === "local") {
        if (seen.has(ref.address)) continue;
        seen.add(ref.address);
        const l = graph.local(ref.address.slice("local.".length));
        if (l) visit(l.value, [...prefix, step], depth + 1);
      } else if (ref.kind === "resource") {
        const r = graph.module.resources.get(ref.address);
        if (r) out.push({ resource: r, ref, steps: [...prefix, step] });
      }
    }
  };
  visit(expr, [], 0);
  return out;
}

/** The launch configurations (table rows) a group's argument references, with the attribute read. */
export function launchConfigsReferenced(graph: DependencyGraph, expr: Expression): (ReachedResource & { config: LaunchConfigType; attribute: string | null })[] {
  const out: (ReachedResource & { config: LaunchConfigType; attribute: string | null })[] = [];
  for (const r of resourcesReferenced(graph, expr)) {
    const config = launchConfigType(r.resource.type);
    if (config) out.push({ ...r, config, attribute: referencedAttribute(r.ref.path) });
  }
  return out;
}

/** The path hops of a reached resource, from the group's argument to the resource's header. */
export function reachedHops(module: Module, owner: Resource, reached: ReachedResource): Hop[] {
  return chainHops(module, reached.steps, owner);
}

/** The module's own configuration of `provider` that `resource` uses (its `provider` meta-argument's alias, else the default one). */
export function providerConfigFor(module: Module, resource: Resource, provider: string): ProviderConfig | null {
  let alias: string | null = null;
  if (resource.providerAttr) {
    const text = exprText(resource.providerAttr.expr);
    if (text === null) return null;
    const [name, a] = text.split(".");
    if (name !== provider) return null;
    alias = a ?? null;
  }
  return module.providers.find((p) => p.name === provider && (p.alias ?? null) === alias) ?? null;
}

function exprText(e: Expression): string | null {
  if (e.kind !== "ScopeTraversal") return null;
  const parts: string[] = [];
  for (const t of e.traversal) {
    if (t.kind === "TraverseRoot" || t.kind === "TraverseAttr") parts.push(t.name);
    else return null;
  }
  return parts.join(".");
}

/** A provider switch: its state in one provider block. */
export interface FlagState {
  state: "unset" | "true" | "false" | "unknown";
  /** The argument, when set. */
  expr?: Expression;
  file: SourceFile;
}

/** The value of a provider switch in `config` (unset: the provider's default applies). */
export function providerFlag(config: ProviderConfig, flag: ProviderRolloutFlag): FlagState {
  const found = findArguments(config.body, flag.path);
  if (found.length === 0) return { state: "unset", file: config.file };
  const values = new Set<string>();
  let unknown = false;
  for (const m of found) {
    const c = classify(m.expr);
    if (c.kind === "bool" && typeof c.value === "boolean") values.add(String(c.value));
    else unknown = true;
  }
  const expr = found[0]!.expr;
  const file = fileOf(config, expr);
  if (unknown || values.size !== 1) return { state: "unknown", expr, file };
  return { state: values.has("true") ? "true" : "false", expr, file };
}

/**
 * Is the group replaced when `target` changes: its `replace_triggered_by`,
 * one of its replacing arguments, or its `for_each`/`count` reaches it?
 */
export function replacedOn(graph: DependencyGraph, group: Resource, replacing: readonly string[], target: string): boolean {
  const exprs: Expression[] = [...group.lifecycle.replaceTriggeredBy];
  for (const name of replacing) for (const a of argumentsAt(group, [name])) exprs.push(a.expr);
  if (group.forEach) exprs.push(group.forEach.expr);
  if (group.count) exprs.push(group.count.expr);
  return exprs.some((e) => graph.reaches(e, target, { throughResources: true }) !== null);
}

/** Whether the resource has the nested block `type` (literal, object value in JSON, or `dynamic`). */
export function hasNestedBlock(resource: Resource, type: string): boolean {
  if (blocksOf(resource.body, type).length > 0) return true;
  return resource.body.blocks.some((b) => b.type === "dynamic" && b.labels[0] === type);
}

/** The expressions of the group's argument or nested blocks named `name` (dynamic blocks and their `for_each` included). */
export function namedExpressions(resource: Resource, name: string): Expression[] {
  const out: Expression[] = [];
  // Blocks nest without limit: an explicit stack, popped in source order.
  const walk = (top: Resource["body"]): void => {
    const stack: Resource["body"][] = [top];
    while (stack.length > 0) {
      const body = stack.pop()!;
      for (const a of body.attributes) out.push(a.expr);
      for (let i = body.blocks.length - 1; i >= 0; i--) stack.push(body.blocks[i]!.body);
    }
  };
  for (const a of resource.body.attributes) if (a.name === name) out.push(a.expr);
  for (const b of resource.body.blocks) {
    if (b.type === name) walk(b.body);
    else if (b.type === "dynamic" && b.labels[0] === name) walk(b.body);
  }
  return out;
}

export { joinHops };

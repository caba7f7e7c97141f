/**
 * Iteration in the value analysis: what `each.key`, `each.value`,
 * `count.index` and `dynamic` iterators stand for, one resource instance
 * (and one dynamic block) at a time.
 *
 * A site made by `resourceSite` (a `Site` of sites.ts with `iter` set) is
 * evaluated per instance: `alternatives`, `literalAlternatives`,
 * `objectViews` and `listElements` take every instance of the resource in
 * turn (and every entry of each enclosing `dynamic` block), bind the
 * iteration names to that instance's entry, and return the union. Within
 * one instance the key is fixed, so `local.m[each.key].port`,
 * `aws_lb_target_group.tg[each.key].port` and `each.value.port` are the
 * values of that entry; two resources iterating the same collection can be
 * compared key by key with `instancesOf` and `instanceSite`.
 *
 * Such sites are also evaluated more deeply than plain ones (still only
 * through forms whose result is certain): traversals into locals
 * (`local.m.a.b`), resource instances (`aws_x.y[k].arg`, `[0]`, `[*]`,
 * `one(...)`, `for i in aws_x.y`), indexes by folded keys (an unknown key
 * selects every entry: possible), templates, operators and conditions over
 * bound values, `format` with a constant format (a template), `tostring` /
 * `tonumber`. Variables stay unknown whatever their default; a resource
 * attribute that is not an argument in the configuration (computed) is
 * unknown.
 *
 * Collections are read as entries: literal maps/objects; `toset([...])` and
 * lists (for `for_each`: key = value = element); `merge` (later constant
 * keys win); `for` expressions (one entry per element; an `if` makes it
 * possible; over an unknown collection, one entry standing for every
 * element, whose known attributes are still evaluated); conditionals (both
 * branches' entries, possible); `setproduct` (tuples); `concat`,
 * `flatten`, `values`, `keys`; splats; resources with `count`/`for_each`.
 *
 * Sites evaluated here carry a `trail` (sites.ts): the locals followed, the
 * `for_each`/`count`/`dynamic` expression and the entry an iteration name
 * stood for, the arguments of other instances read, in order, in the shape
 * `ctx.report({ related })` takes.
 *
 * Everything runs within the budget of the question (values.ts): deep or
 * self-referencing input stops early, dropping alternatives, never adding
 * one; resources whose instances depend on each other in a long chain stop
 * at a fixed nesting. Instances of a resource are computed once per
 * resource.
 *
 * Another instance's nested blocks are read too (`x[k].block[0].arg`,
 * `x[k].block[*].arg`, literal or dynamic). Not followed (unknown): module
 * call outputs, data sources, `for` grouping (`...`), `format` verbs other
 * than `%s`, `%d`, `%v`, `%%`.
 */
import type { Block, Body, Expression, ForExpr, FunctionCall, LiteralValue, Range, ScopeTraversal, TemplateExpr, TemplatePart, Traverser } from "../hcl/ast.js";
import { constantValue, objectKeyName, unwrap, walkBlocks, type ConstValue } from "../hcl/walk.js";
import { copyNode } from "../hcl/nodes.js";
import { blocksOf, fileOf } from "../terraform/module-builder.js";
import type { Module, Resource, SourceFile } from "../terraform/module-types.js";
import type { BlockSite, Budget, Element, ExpandOptions, Instance, IterationResolver, IterBinding, IterScope, IterValue, PendingIteration, Site, TrailHop } from "./sites.js";
import { expandInto, forBody, STEP_LIMIT } from "./values.js";

export type { BlockSite, Instance, IterBinding, IterScope, IterValue, PendingIteration } from "./sites.js";

// ------------------------------------------------------------------ types

/** One entry of a collection: its key and value (null = unknown), and whether it certainly exists. */
export interface Entry {
  key: IterValue | null;
  /** The key as a constant, when known: a map key or set element as a string, a list index as a number. */
  keyConst: string | number | null;
  value: IterValue | null;
  certain: boolean;
  /** The entry of a `for` over a collection of unknown elements: it stands for each of them. */
  generic?: boolean;
}

/** The entries of a collection; `complete` is false when there may be others (or their number is unknown). */
export interface Entries {
  entries: Entry[];
  complete: boolean;
}

/**
 * The instances of a resource. `complete` is false when there may be
 * others than those listed, or their number is unknown (`count =
 * var.n`, `for_each = var.m`): then an instance with a null key stands for
 * the unknown ones, so that arguments not depending on the key still
 * evaluate. A `count` that is certainly 0 gives no instance. A key whose
 * entry differs between branches (`merge(m, var.x ? { b = 2 } : {})`)
 * appears once per branch, each possible.
 */
export interface Instances {
  mode: "single" | "count" | "for_each";
  complete: boolean;
  instances: Instance[];
}

/** The nested blocks of one type; `complete` is false when a dynamic block's collection has an unknown size. */
export interface BlockSet {
  complete: boolean;
  blocks: BlockSite[];
}

// -------------------------------------------------------------- constants

const MAX_DEPTH = 200;
/** Entries read from one collection, instances of one resource, blocks of one dynamic. */
const MAX_ENTRIES = 256;
/** Alternatives of one template part or operand that are combined. */
const MAX_COMBINED = 16;
/** The name the element of a splat (`x[*].a`) is bound to. */
const SPLAT = "\u0000splat";

const NO_NAMES: ReadonlyMap<string, IterBinding> = new Map();
/** What this file lends the expansion of values.ts: every scope made here carries it (`scopeOf`). */
const RESOLVER: IterationResolver = {
  expand: iterationExpand,
  tryFirstSucceeds,
  elements: iterationElements,
  split: splitInstances,
  get empty() {
    return EMPTY_ITER;
  },
};
/** Iteration mode with nothing bound (a local reached from an iteration site). */
export const EMPTY_ITER: IterScope = { names: NO_NAMES, resolver: RESOLVER };

/** An iteration scope: the names bound, what is still to split into instances, and this file's hooks. */
function scopeOf(names: ReadonlyMap<string, IterBinding>, pending?: PendingIteration): IterScope {
  return pending ? { names, pending, resolver: RESOLVER } : { names, resolver: RESOLVER };
}

/** Resource arguments that are not resource attributes. */
const META_ARGUMENTS = new Set(["count", "for_each", "depends_on", "provider", "lifecycle", "provisioner", "connection"]);

// -------------------------------------------------------------- public API

/**
 * A values.ts `Site` for `expr`, an expression inside `resource` (an
 * argument, a nested block's argument, a `dynamic` block's `content`, its
 * `for_each`). Its alternatives are those of every instance (and dynamic
 * entry), each evaluated with the iteration names bound.
 */
export function resourceSite(module: Module, resource: Resource, expr: Expression, file?: SourceFile): Site {
  void module;
  const f = file ?? fileOf(resource, expr);
  return { expr, file: f, via: [], iter: scopeOf(NO_NAMES, { resource, instance: null, dynamics: dynamicChain(resource, expr, f) }) };
}

/** `resourceSite` for one instance only (from `instancesOf`). */
export function instanceSite(module: Module, resource: Resource, instance: Instance, expr: Expression, file?: SourceFile): Site {
  void module;
  const f = file ?? fileOf(resource, expr);
  const dynamics = dynamicChain(resource, expr, f);
  if (dynamics.length === 0) return { expr, file: f, via: [], iter: scopeOf(namesOf(instance)) };
  return { expr, file: f, via: [], iter: scopeOf(NO_NAMES, { resource, instance, dynamics }) };
}

const instancesCache = new WeakMap<Resource, Instances>();
const computing = new Set<Resource>();
/** Resources whose instances are computed inside each other's (`for_each = aws_x.prev`, chained). */
const MAX_NESTED_RESOURCES = 24;

/** The instances of `resource` (computed once per resource). */
export function instancesOf(module: Module, resource: Resource): Instances {
  const cached = instancesCache.get(resource);
  if (cached) return cached;
  if (computing.has(resource) || computing.size >= MAX_NESTED_RESOURCES) return unknownInstances(resource);
  computing.add(resource);
  try {
    const result = computeInstances(module, resource, { steps: 0 }, computing.size * 8);
    instancesCache.set(resource, result);
    return result;
  } catch (err) {
    // Nesting too deep for the stack: nothing is known of the instances.
    if (err instanceof RangeError) return unknownInstances(resource);
    throw err;
  } finally {
    computing.delete(resource);
  }
}

/** The instance of `resource` with `key` (a `for_each` key or `count` index), or null when it is not known to exist. */
export function instanceByKey(module: Module, resource: Resource, key: string | number): Instance | null {
  return instancesOf(module, resource).instances.find((i) => i.key !== null && String(i.key) === String(key)) ?? null;
}

/**
 * The sites of one instance's argument: `["port"]`, or through nested
 * (possibly dynamic) blocks `["health_check", "port"]`. One site per block
 * that sets it; empty when no block sets it (it is then unset or computed).
 * `instance` may be given by key (`instanceByKey`).
 */
export function instanceArgument(module: Module, resource: Resource, instance: Instance | string | number, path: string | readonly string[]): Site[] {
  if (typeof instance !== "object") {
    // Every instance with that key (one per branch when its entry differs between branches).
    const same = instancesOf(module, resource).instances.filter((i) => i.key !== null && String(i.key) === String(instance));
    return same.flatMap((i) => instanceArgument(module, resource, i, path));
  }
  const inst = instance;
  const steps = typeof path === "string" ? [path] : path;
  if (steps.length === 0) return [];
  if (steps.length === 1) {
    const attr = resource.body.attributes.find((a) => a.name === steps[0]);
    return attr && !META_ARGUMENTS.has(attr.name) ? [instanceSite(module, resource, inst, attr.expr)] : [];
  }
  const name = steps[steps.length - 1]!;
  const out: Site[] = [];
  for (const b of dynamicBlocks(module, resource, steps.slice(0, -1), inst).blocks) {
    const s = blockArgument(b, name);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Each nested block `path` (`"health_check"`, or `["default_action",
 * "forward"]`) of the resource's instances (or of one instance): a literal
 * block is one, a `dynamic` block one per entry of its `for_each`.
 */
export function dynamicBlocks(module: Module, resource: Resource, path: string | readonly string[], instance?: Instance): BlockSet {
  const steps = typeof path === "string" ? [path] : path;
  const set: BlockSet = { complete: true, blocks: [] };
  if (steps.length === 0) return set;
  const all = instancesOf(module, resource);
  const insts = instance ? [instance] : all.instances;
  if (!instance && !all.complete) set.complete = false;
  const budget: Budget = { steps: 0 };
  let level: BlockSite[] = insts.map((inst) => ({ resource, instance: inst, block: resource.block, dynamic: null, certain: inst.certain, iter: scopeOf(namesOf(inst)) }));
  for (const type of steps) {
    const next: BlockSite[] = [];
    for (const parent of level) {
      const r = blocksIn(module, parent, parent.block === resource.block ? resource.body : parent.block.body, type, budget);
      if (!r.complete) set.complete = false;
      next.push(...r.blocks);
      if (next.length >= MAX_ENTRIES * 4) {
        set.complete = false;
        break;
      }
    }
    level = next;
  }
  set.blocks = level;
  return set;
}

/** The blocks `type` directly in `body` (of `parent`'s instance and bindings): literal ones, and one per entry of each `dynamic "type"`. */
function blocksIn(module: Module, parent: BlockSite, body: Body, type: string, budget: Budget): BlockSet {
  const { resource, instance } = parent;
  const names = parent.iter.names;
  const set: BlockSet = { complete: true, blocks: [] };
  for (const b of blocksOf(body, type)) set.blocks.push({ resource, instance, block: b, dynamic: null, certain: parent.certain, iter: scopeOf(names) });
  for (const d of body.blocks) {
    if (d.type !== "dynamic" || d.labels[0] !== type) continue;
    const { entries, complete } = dynamicEntries(module, resource, d, names, budget);
    if (!complete) set.complete = false;
    const name = iteratorName(d);
    for (const entry of entries) {
      const inner = new Map(names);
      inner.set(name, dynamicBinding(resource, d, entry));
      for (const c of blocksOf(d.body, "content")) set.blocks.push({ resource, instance, block: c, dynamic: d, certain: parent.certain && entry.certain, iter: scopeOf(inner) });
    }
  }
  return set;
}

/** The site of argument `name` in one block from `dynamicBlocks`, or null when the block does not set it. */
export function blockArgument(block: BlockSite, name: string): Site | null {
  const attr = block.block.body.attributes.find((a) => a.name === name);
  if (!attr) return null;
  return { expr: attr.expr, file: fileOf(block.resource, attr.expr), via: [], iter: block.iter };
}

/**
 * The entries of a collection value at `site` (a map, object, set, list,
 * `for`, `merge`, resource...). `forEach` reads lists as `for_each` does
 * in the spec (key = value = element); otherwise a list's keys are its
 * indexes. `site` may come from anywhere (a local, a resource argument).
 */
export function collectionEntries(module: Module, site: Site, forEach = false): Entries {
  const s: Site = site.iter ? site : { ...site, iter: EMPTY_ITER };
  const budget: Budget = { steps: 0 };
  const sites = s.iter!.pending ? splitInstances(module, s, budget) : [s];
  const out: Entries = { entries: [], complete: true };
  for (const x of sites) {
    const r = entriesOf(module, x, forEach ? "set" : "list", 0, budget);
    if (!r.complete) out.complete = false;
    out.entries.push(...r.entries.map((e) => (sites.length > 1 ? { ...e, certain: false } : e)));
  }
  if (budget.steps > STEP_LIMIT) out.complete = false;
  return out;
}

// -------------------------------------------------- internal, for values.ts

/**
 * The elements of a list-like alternative in iteration mode (values.ts
 * `listElements`): one per entry, each with its variables bound; an entry
 * standing for unknown elements is `fromFor`.
 */
function iterationElements(module: Module, alt: Site, depth: number, budget: Budget): Element[] {
  const r = entriesOfLeaf(module, alt, "list", depth, budget);
  if (!r) return [];
  const out: Element[] = [];
  for (const x of r.entries) {
    if (!x.value) continue;
    out.push({ site: valueSite(x.value, alt), fromFor: x.generic === true });
  }
  return out;
}

/** A value as a site: itself, or a reference naming the instance or resource (unknown for tuples and unknown keys). */
function valueSite(v: IterValue, at: Site): Site {
  switch (v.kind) {
    case "site":
      return v.site;
    case "instance": {
      const t = instanceTraversal(v.resource, v.instance, at);
      return t ? { ...at, expr: t } : at;
    }
    case "resource":
      return { ...at, expr: resourceTraversal(v.resource, at.expr.range) };
    case "tuple":
    case "blocks":
      return at;
  }
}

/**
 * `site` once per instance of its pending resource (and entry of each
 * enclosing dynamic block), with the names bound; sites without pending
 * iteration are returned as they are.
 */
function splitInstances(module: Module, site: Site, budget: Budget): Site[] {
  const p = site.iter?.pending;
  if (!p) return [site];
  const insts = p.instance ? [p.instance] : instancesOf(module, p.resource).instances;
  const out: Site[] = [];
  for (const inst of insts.slice(0, MAX_ENTRIES)) {
    let names: ReadonlyMap<string, IterBinding>[] = [namesOf(inst)];
    for (const d of p.dynamics) {
      const next: ReadonlyMap<string, IterBinding>[] = [];
      const name = iteratorName(d);
      for (const n of names) {
        for (const entry of dynamicEntries(module, p.resource, d, n, budget).entries) {
          if (next.length >= MAX_ENTRIES) break;
          const m = new Map(n);
          m.set(name, dynamicBinding(p.resource, d, entry));
          next.push(m);
        }
      }
      names = next;
    }
    for (const n of names) out.push({ ...site, iter: scopeOf(n) });
  }
  return out;
}

/**
 * `try(a, ...)` in iteration mode: when `a` certainly succeeds and every
 * value it takes is a known constant, those are the values (the fallbacks
 * are never taken): push them and return true.
 */
function tryFirstSucceeds(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean {
  const saved = budget.missing;
  budget.missing = false;
  const sub: Site[] = [];
  expandInto(module, site, opts, sub, depth, budget);
  const failed = budget.missing;
  budget.missing = saved;
  if (failed || sub.length === 0 || budget.steps > STEP_LIMIT) return false;
  if (!sub.every((s) => constantValue(s.expr).known && !isNullValue(s.expr))) return false;
  out.push(...sub);
  return true;
}

/**
 * The iteration-mode forms of `expand` (values.ts): returns true when it
 * handled `site` (pushing its alternatives into `out`), false to let the
 * ordinary expansion go on.
 */
function iterationExpand(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean {
  if (depth > MAX_DEPTH || budget.steps > STEP_LIMIT) return true;
  const e = site.expr;
  const names = site.iter!.names;
  switch (e.kind) {
    case "ScopeTraversal": {
      const root = e.traversal[0];
      if (!root || root.kind !== "TraverseRoot") return false;
      const binding = names.get(root.name);
      if (binding) {
        boundTraversal(module, site, binding, e.traversal.slice(1), opts, out, depth, budget);
        return true;
      }
      const forBinding = site.scope?.get(root.name);
      if (forBinding) {
        const coll = entriesOf(module, forBinding.collection, "list", depth + 1, budget);
        const valueVar = forBinding.keyOf ?? forBinding.name;
        for (const entry of coll.entries) {
          const fixed = fixFor(site, forBinding.keyOf !== undefined ? forBinding.name : null, valueVar, entry);
          if (forBinding.condition && foldBool(module, { ...fixed, expr: forBinding.condition }, depth + 1, budget) === false) continue;
          const v = forBinding.keyOf !== undefined ? entry.key : entry.value;
          if (v) walkPath(module, v, e.traversal.slice(1), 0, site, opts, out, depth + 1, budget);
          else out.push(site);
        }
        if (!coll.complete) out.push(site);
        return true;
      }
      if (site.scope?.has(root.name)) return true;
      const second = e.traversal[1];
      if (root.name === "local" && e.traversal.length > 2 && second?.kind === "TraverseAttr") {
        const head = localSite(module, site, second.name);
        if (head) walkPath(module, { kind: "site", site: head }, e.traversal.slice(2), 0, site, opts, out, depth + 1, budget);
        else out.push(site);
        return true;
      }
      if (second?.kind === "TraverseAttr") {
        const r = module.resources.get(`${root.name}.${second.name}`);
        if (r) {
          walkPath(module, { kind: "resource", resource: r, site }, e.traversal.slice(2), 0, site, opts, out, depth + 1, budget);
          return true;
        }
      }
      return false;
    }
    case "AnonSymbol": {
      const b = names.get(SPLAT);
      if (b?.value) walkPath(module, b.value, [], 0, site, opts, out, depth + 1, budget);
      return true;
    }
    case "RelativeTraversal": {
      // A splat's element (`x[*].a`): its value as bound, not re-read as an expression.
      const item = unwrap(e.source).kind === "AnonSymbol" ? names.get(SPLAT)?.value : undefined;
      if (item) walkPath(module, item, e.traversal, 0, site, opts, out, depth + 1, budget);
      else walkPath(module, { kind: "site", site: { ...site, expr: e.source } }, e.traversal, 0, site, opts, out, depth + 1, budget);
      return true;
    }
    case "Index":
      walkPath(module, { kind: "site", site: { ...site, expr: e.collection } }, [{ kind: "KeyExpr", key: { ...site, expr: e.key } }], 0, site, opts, out, depth + 1, budget);
      return true;
    case "Conditional": {
      const c = foldBool(module, { ...site, expr: e.condition }, depth + 1, budget);
      if (c === null) return false;
      expandInto(module, { ...site, expr: c ? e.trueResult : e.falseResult }, opts, out, depth + 1, budget);
      return true;
    }
    case "Template": {
      if (e.parts.every((p) => p.kind === "TemplateLiteral")) return false;
      const strings = foldTemplate(module, site, e.parts, depth + 1, budget);
      if (strings === null) return false;
      for (const s of strings) out.push(literalSite(s, site));
      return true;
    }
    case "BinaryOp":
    case "UnaryOp": {
      const values = foldOperator(module, site, depth + 1, budget);
      if (values === null) return false;
      for (const v of values) out.push(literalSite(v, site));
      return true;
    }
    case "FunctionCall":
      return iterationCall(module, site, e, opts, out, depth, budget);
    default:
      return false;
  }
}

// ------------------------------------------------------------- traversals

type Step = Traverser | { kind: "KeyExpr"; key: Site; range?: Range };

function boundTraversal(module: Module, site: Site, binding: IterBinding, rest: Traverser[], opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  if (binding.role === "var") {
    if (binding.value) walkPath(module, withTrail(binding.value, site.trail, binding), rest, 0, site, opts, out, depth + 1, budget);
    else out.push(site);
    return;
  }
  const first = rest[0];
  if (!first || first.kind !== "TraverseAttr") return;
  const head = binding.role === "count" ? (first.name === "index" ? binding.key : null) : first.name === "key" ? binding.key : first.name === "value" ? binding.value : null;
  if (head) walkPath(module, withTrail(head, site.trail, binding), rest.slice(1), 0, site, opts, out, depth + 1, budget);
  else out.push(site);
}

/** `val` reached from a site with `trail` through `binding`: the iteration's hops around the value's own. */
function withTrail(val: IterValue, trail: readonly TrailHop[] | undefined, binding: IterBinding): IterValue {
  if (val.kind !== "site") return val;
  const hops = [...(trail ?? []), ...(binding.origin ? [binding.origin] : []), ...(val.site.trail ?? []), ...(binding.entry ? [binding.entry] : [])];
  const seen = new Set<string>();
  const joined = hops.filter((h) => {
    const k = `${h.file.path}\u0000${h.range.start.offset}\u0000${h.range.end.offset}\u0000${h.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { kind: "site", site: { ...val.site, trail: joined } };
}

/** The hop of an entry: its value (or key), labelled with the collection (`local.ports["api"]`). */
function entryHop(entry: Entry, fallback: string): TrailHop | undefined {
  const v = entry.value?.kind === "site" ? entry.value.site : entry.key?.kind === "site" ? entry.key.site : null;
  if (!v) return undefined;
  const name = v.via.length > 0 ? v.via[v.via.length - 1]! : fallback;
  return { file: v.file, range: v.expr.range, message: entry.keyConst === null ? `${name} entry` : `${name}[${JSON.stringify(entry.keyConst)}]` };
}

/** The value of `local.<name>` seen from `site` (iteration mode kept, names dropped). */
function localSite(module: Module, site: Site, name: string): Site | null {
  const local = module.locals.get(name);
  const address = `local.${name}`;
  if (!local || site.via.includes(address)) return null;
  return { expr: local.value, file: local.file, via: [...site.via, address], iter: EMPTY_ITER, trail: [...(site.trail ?? []), { file: local.file, range: local.value.range, message: address }] };
}

function isStatic(steps: readonly Step[], i: number): steps is Traverser[] {
  for (let k = i; k < steps.length; k++) {
    const s = steps[k]!;
    if (s.kind !== "TraverseAttr" && s.kind !== "TraverseIndex") return false;
  }
  return true;
}

/** The key a step selects: a name, a literal index, a folded key (null = unknown). */
function stepKey(module: Module, step: Step, depth: number, budget: Budget): { known: true; key: string | number } | { known: false } {
  if (step.kind === "TraverseAttr") return { known: true, key: step.name };
  if (step.kind === "TraverseIndex") return { known: true, key: step.key };
  if (step.kind === "KeyExpr") {
    const c = foldConst(module, step.key, depth, budget);
    if (c.known && (typeof c.value === "string" || typeof c.value === "number")) return { known: true, key: c.value };
    if (c.known && typeof c.value === "boolean") return { known: true, key: String(c.value) };
  }
  return { known: false };
}

/** A traversal `base` + `steps` (`var.x` + `.port`), placed where `base` is. */
function extendTraversal(base: ScopeTraversal, steps: readonly Traverser[]): ScopeTraversal {
  return { kind: "ScopeTraversal", traversal: [...base.traversal, ...steps], range: base.range };
}

/**
 * Apply `steps[i..]` to `val` and push what results: the expansion of the
 * value reached, or `here` (unknown) when it cannot be followed.
 */
function walkPath(module: Module, val: IterValue, steps: readonly Step[], i: number, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  if (depth > MAX_DEPTH || ++budget.steps > STEP_LIMIT) return;
  if (i >= steps.length) {
    emitValue(module, val, here, opts, out, depth, budget);
    return;
  }
  switch (val.kind) {
    case "site": {
      for (const alt of altsAt(module, val.site, {}, depth + 1, budget)) stepInto(module, alt, steps, i, here, opts, out, depth + 1, budget);
      return;
    }
    case "tuple": {
      const k = stepKey(module, steps[i]!, depth + 1, budget);
      if (k.known) {
        const item = typeof k.key === "number" || /^\d+$/.test(k.key) ? val.items[Number(k.key)] : undefined;
        if (item) walkPath(module, item, steps, i + 1, here, opts, out, depth + 1, budget);
        else budget.missing = true;
      } else for (const item of val.items) walkPath(module, item, steps, i + 1, here, opts, out, depth + 1, budget);
      return;
    }
    case "resource":
      resourceStep(module, val.resource, steps, i, here, opts, out, depth, budget);
      return;
    case "blocks":
      blocksStep(module, val, steps, i, here, opts, out, depth, budget);
      return;
    case "instance":
      instanceStep(module, val.resource, val.instance, steps, i, here, opts, out, depth, budget);
      return;
  }
}

/** A value with no steps left: push its alternatives. */
function emitValue(module: Module, val: IterValue, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  switch (val.kind) {
    case "site":
      expandInto(module, val.site, opts, out, depth + 1, budget);
      return;
    case "instance": {
      const t = instanceTraversal(val.resource, val.instance, here);
      out.push(t ? { ...here, expr: t } : here);
      return;
    }
    case "resource":
      out.push({ ...here, expr: resourceTraversal(val.resource, here.expr.range) });
      return;
    case "blocks":
      out.push(val.ref ? { ...here, expr: val.ref } : here);
      return;
    case "tuple":
      out.push(here);
      return;
  }
}

/**
 * `aws_x.y[k].block` (or `aws_x.y.block` for a single resource) naming a
 * nested block type: its blocks as a list (`[*]`, `one(...)`), null when
 * the traversal is not that.
 */
function blockListEntries(module: Module, r: Resource, e: ScopeTraversal, at: Site): Entries | null {
  const rest = e.traversal.slice(2);
  const all = instancesOf(module, r);
  let insts: Instance[];
  let name: Traverser | undefined;
  if (all.mode === "single") {
    if (rest.length !== 1) return null;
    insts = all.instances;
    name = rest[0];
  } else {
    if (rest.length !== 2 || rest[0]!.kind !== "TraverseIndex") return null;
    const key = rest[0]!.key;
    insts = all.instances.filter((i) => i.key === null || String(i.key) === String(key));
    name = rest[1];
  }
  if (name?.kind !== "TraverseAttr" || !hasBlock(r.body, name.name) || r.body.attributes.some((a) => a.name === name.name)) return null;
  const out: Entries = { entries: [], complete: insts.length === 1 };
  for (const inst of insts) {
    const set = dynamicBlocks(module, r, name.name, inst);
    if (!set.complete) out.complete = false;
    const literal = set.complete && set.blocks.every((b) => b.dynamic === null);
    set.blocks.forEach((b, idx) => {
      const keyConst = literal ? idx : null;
      out.entries.push({
        key: keyConst === null ? null : siteValue(literalSite(idx, at)),
        keyConst,
        value: { kind: "blocks", blocks: [b], complete: true, site: at },
        certain: b.certain && insts.length === 1,
      });
    });
  }
  return out;
}

function hasBlock(body: Body, type: string): boolean {
  return blocksOf(body, type).length > 0 || body.blocks.some((b) => b.type === "dynamic" && b.labels[0] === type);
}

/**
 * Steps into nested blocks: `[n]` picks the n-th when every block is
 * literal (else any of them, possible); an argument name reads it in each
 * block; a nested block type goes one level down.
 */
function blocksStep(module: Module, val: Extract<IterValue, { kind: "blocks" }>, steps: readonly Step[], i: number, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  const step = steps[i]!;
  if (step.kind !== "TraverseAttr") {
    const k = stepKey(module, step, depth + 1, budget);
    const literal = val.complete && val.blocks.every((b) => b.dynamic === null);
    let chosen = val.blocks;
    if (k.known && literal) {
      const b = typeof k.key === "number" || /^\d+$/.test(k.key) ? val.blocks[Number(k.key)] : undefined;
      chosen = b ? [b] : [];
      if (!b) budget.missing = true;
    } else if (!val.complete) out.push(here);
    walkPath(module, { ...val, blocks: chosen }, steps, i + 1, here, opts, out, depth + 1, budget);
    return;
  }
  for (const b of val.blocks) {
    const attr = b.block.body.attributes.find((a) => a.name === step.name);
    if (attr) {
      const s: Site = { expr: attr.expr, file: fileOf(b.resource, attr.expr), via: here.via, iter: b.iter, trail: here.trail ?? [] };
      walkPath(module, { kind: "site", site: s }, steps, i + 1, here, opts, out, depth + 1, budget);
    } else if (hasBlock(b.block.body, step.name)) {
      const inner = blocksIn(module, b, b.block.body, step.name, budget);
      walkPath(module, { kind: "blocks", blocks: inner.blocks, complete: inner.complete, site: here }, steps, i + 1, here, opts, out, depth + 1, budget);
    } else out.push(here);
  }
}

function resourceTraversal(r: Resource, range: Range): ScopeTraversal {
  return {
    kind: "ScopeTraversal",
    traversal: [
      { kind: "TraverseRoot", name: r.type, range },
      { kind: "TraverseAttr", name: r.name, range },
    ],
    range,
  };
}

/** `type.name[key]` (or `type.name` for a single resource); null for an instance of unknown key. */
function instanceTraversal(r: Resource, inst: Instance, here: Site, rest: readonly Traverser[] = []): ScopeTraversal | null {
  const base = resourceTraversal(r, here.expr.range);
  if (inst.binding === null) return rest.length ? extendTraversal(base, rest) : base;
  if (inst.key === null) return null;
  return extendTraversal(base, [{ kind: "TraverseIndex", key: inst.key, range: here.expr.range }, ...rest]);
}

/** One alternative of a value with steps left to apply. */
function stepInto(module: Module, alt: Site, steps: readonly Step[], i: number, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  const e = alt.expr;
  if (e.kind === "ScopeTraversal") {
    // A reference that is not followed further (a variable, a data source,
    // a resource): extend it and look again (resources and locals are read).
    const rest: Traverser[] = [];
    for (let k = i; k < steps.length; k++) {
      const s = steps[k]!;
      if (s.kind === "TraverseAttr" || s.kind === "TraverseIndex") rest.push(s);
      else if (s.kind === "KeyExpr") {
        const key = stepKey(module, s, depth + 1, budget);
        if (!key.known) {
          if (isResourceRef(module, e) && rest.length === 0) {
            walkPath(module, { kind: "resource", resource: resourceOf(module, e)!, site: alt }, steps, k, here, opts, out, depth + 1, budget);
          } else out.push(here);
          return;
        }
        rest.push({ kind: "TraverseIndex", key: key.key, range: s.key.expr.range });
      } else {
        out.push(here);
        return;
      }
    }
    const extended = extendTraversal(e, rest);
    if (isBoundOrFollowable(module, alt, extended)) expandInto(module, { ...alt, expr: extended }, opts, out, depth + 1, budget);
    else out.push({ ...alt, expr: extended });
    return;
  }
  const r = entriesOfLeaf(module, alt, "list", depth + 1, budget);
  if (r === null) {
    out.push(here);
    return;
  }
  const k = stepKey(module, steps[i]!, depth + 1, budget);
  let matched = false;
  for (const entry of r.entries) {
    if (k.known && entry.keyConst !== null && String(entry.keyConst) !== String(k.key)) continue;
    matched = true;
    if (entry.value) walkPath(module, entry.value, steps, i + 1, here, opts, out, depth + 1, budget);
    else out.push(here);
  }
  if (!matched) {
    if (r.complete) budget.missing = true;
    else out.push(here);
  }
}

function isResourceRef(module: Module, e: ScopeTraversal): boolean {
  return resourceOf(module, e) !== null && e.traversal.length === 2;
}

function resourceOf(module: Module, e: ScopeTraversal): Resource | null {
  const [root, name] = e.traversal;
  if (root?.kind !== "TraverseRoot" || name?.kind !== "TraverseAttr") return null;
  return module.resources.get(`${root.name}.${name.name}`) ?? null;
}

/** Would expanding `t` go further than pushing it back (a bound name, a local with steps, a resource)? */
function isBoundOrFollowable(module: Module, site: Site, t: ScopeTraversal): boolean {
  const root = t.traversal[0];
  if (root?.kind !== "TraverseRoot") return false;
  if (site.iter?.names.has(root.name) || site.scope?.has(root.name)) return true;
  if (root.name === "local") return true;
  return resourceOf(module, t) !== null;
}

function resourceStep(module: Module, r: Resource, steps: readonly Step[], i: number, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  const all = instancesOf(module, r);
  const step = steps[i]!;
  if (all.mode === "single") {
    instanceStep(module, r, all.instances[0]!, steps, i, here, opts, out, depth, budget);
    return;
  }
  if (step.kind === "TraverseAttr" || step.kind === "TraverseSplat") {
    out.push(here);
    return;
  }
  const k = stepKey(module, step, depth + 1, budget);
  let matched = false;
  for (const inst of all.instances) {
    if (k.known && inst.key !== null && String(inst.key) !== String(k.key)) continue;
    matched = true;
    if (inst.key === null && k.known) {
      // An instance of unknown key read by a known key: that key, values unknown.
      const known: Instance = { ...inst, key: k.key, binding: inst.binding ? { ...inst.binding, key: { kind: "site", site: literalSite(k.key, here) } } : null };
      instanceStep(module, r, known, steps, i + 1, here, opts, out, depth + 1, budget);
    } else instanceStep(module, r, inst, steps, i + 1, here, opts, out, depth + 1, budget);
  }
  if (!matched) {
    if (all.complete) budget.missing = true;
    else out.push(here);
  }
}

function instanceStep(module: Module, r: Resource, inst: Instance, steps: readonly Step[], i: number, here: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  if (depth > MAX_DEPTH || ++budget.steps > STEP_LIMIT) return;
  if (i >= steps.length) {
    emitValue(module, { kind: "instance", resource: r, instance: inst, site: here }, here, opts, out, depth, budget);
    return;
  }
  const step = steps[i]!;
  if (step.kind !== "TraverseAttr") {
    out.push(here);
    return;
  }
  const attr = META_ARGUMENTS.has(step.name) ? undefined : r.body.attributes.find((a) => a.name === step.name);
  if (!attr && !META_ARGUMENTS.has(step.name) && hasBlock(r.body, step.name)) {
    // A nested block (`aws_lb_target_group.tg[k].health_check[0].port`).
    const set = dynamicBlocks(module, r, step.name, inst);
    const ref = instanceTraversal(r, inst, here, [{ kind: "TraverseAttr", name: step.name, range: here.expr.range }]);
    walkPath(module, { kind: "blocks", blocks: set.blocks, complete: set.complete, site: here, ...(ref ? { ref } : {}) }, steps, i + 1, here, opts, out, depth + 1, budget);
    return;
  }
  if (attr) {
    const s = instanceSite(module, r, inst, attr.expr);
    const key = inst.binding === null || inst.key === null ? "" : `[${JSON.stringify(inst.key)}]`;
    const hop: TrailHop = { file: s.file, range: attr.expr.range, message: `${r.address}${key}.${attr.name}` };
    walkPath(module, { kind: "site", site: { ...s, via: here.via, trail: [...(here.trail ?? []), hop] } }, steps, i + 1, here, opts, out, depth + 1, budget);
    return;
  }
  // Not an argument: computed (or a nested block): unknown; named as the
  // resource attribute when the rest of the path is plain.
  const rest = isStatic(steps, i) ? (steps.slice(i) as Traverser[]) : null;
  const t = rest ? instanceTraversal(r, inst, here, rest) : null;
  out.push(t ? { ...here, expr: t } : here);
}

// ---------------------------------------------------------------- entries

/** The alternatives of `site` at `depth` (the depth limit holds across iteration's own recursion). */
function altsAt(module: Module, site: Site, opts: ExpandOptions, depth: number, budget: Budget): Site[] {
  const out: Site[] = [];
  expandInto(module, site, opts, out, depth, budget);
  return out;
}

type Mode = "list" | "set";

/** The entries of the collection `site` evaluates to (each alternative; several make them possible). */
function entriesOf(module: Module, site: Site, mode: Mode, depth: number, budget: Budget): Entries {
  if (depth > MAX_DEPTH || budget.steps > STEP_LIMIT) return { entries: [], complete: false };
  const s: Site = site.iter ? site : { ...site, iter: EMPTY_ITER };
  const alts = altsAt(module, s, {}, depth + 1, budget);
  const out: Entries = { entries: [], complete: alts.length > 0 };
  for (const alt of alts) {
    const r = entriesOfLeaf(module, alt, mode, depth + 1, budget) ?? { entries: [], complete: false };
    if (!r.complete) out.complete = false;
    for (const e of r.entries) {
      if (out.entries.length >= MAX_ENTRIES) {
        out.complete = false;
        break;
      }
      out.entries.push(alts.length > 1 ? { ...e, certain: false } : e);
    }
  }
  return out;
}

function siteValue(site: Site): IterValue {
  return { kind: "site", site };
}

/** The entries of one alternative; null when it is not a collection form (unknown). */
function entriesOfLeaf(module: Module, alt: Site, mode: Mode, depth: number, budget: Budget): Entries | null {
  if (depth > MAX_DEPTH || ++budget.steps > STEP_LIMIT) return { entries: [], complete: false };
  const e = alt.expr;
  switch (e.kind) {
    case "ObjectCons": {
      const entries: Entry[] = [];
      for (const item of e.items) {
        const name = objectKeyName(item);
        const keySite: Site = { ...alt, expr: item.key };
        const keyConst = name ?? scalarKey(foldConst(module, keySite, depth + 1, budget));
        const key = name !== null ? siteValue(literalSite(name, { ...alt, expr: item.key })) : siteValue(keySite);
        entries.push({ key, keyConst, value: siteValue({ ...alt, expr: item.value }), certain: true });
      }
      return { entries: dedupeLast(entries), complete: true };
    }
    case "TupleCons": {
      const entries: Entry[] = e.exprs.map((x, idx) => {
        const v: Site = { ...alt, expr: x };
        if (mode === "set") return { key: siteValue(v), keyConst: scalarKey(foldConst(module, v, depth + 1, budget)), value: siteValue(v), certain: true };
        return { key: siteValue(literalSite(idx, v)), keyConst: idx, value: siteValue(v), certain: true };
      });
      return { entries: mode === "set" ? dedupeFirst(entries) : entries, complete: true };
    }
    case "For":
      return forEntries(module, alt, e, mode, depth, budget);
    case "Splat": {
      const src = splatSource(module, { ...alt, expr: e.source }, depth + 1, budget);
      const entries: Entry[] = src.entries.map((se, idx) => {
        const names = new Map(alt.iter?.names ?? NO_NAMES);
        names.set(SPLAT, { role: "var", key: null, value: se.value });
        const v: Site = { ...alt, expr: e.each, iter: scopeOf(names) };
        const certainIndex = src.entries.slice(0, idx + 1).every((x) => x.certain);
        const keyConst = mode === "set" ? scalarKey(foldConst(module, v, depth + 1, budget)) : certainIndex ? idx : null;
        return { key: mode === "set" ? siteValue(v) : keyConst === null ? null : siteValue(literalSite(keyConst, alt)), keyConst, value: siteValue(v), certain: se.certain };
      });
      return { entries, complete: src.complete };
    }
    case "ScopeTraversal": {
      const r = resourceOf(module, e);
      if (!r) return null;
      if (e.traversal.length === 2) return resourceEntries(module, r, alt);
      return blockListEntries(module, r, e, alt);
    }
    case "FunctionCall":
      return callEntries(module, alt, e, mode, depth, budget);
    default:
      return null;
  }
}

/** The instances of a resource as a collection (`for i in aws_x.y`, `aws_x.y[*]`, `for_each = aws_x.y`). */
function resourceEntries(module: Module, r: Resource, at: Site): Entries | null {
  const all = instancesOf(module, r);
  if (all.mode === "single") return null;
  const entries: Entry[] = all.instances.map((inst) => ({
    key: inst.key === null ? null : siteValue(literalSite(inst.key, at)),
    keyConst: inst.key,
    value: { kind: "instance", resource: r, instance: inst, site: at },
    certain: inst.certain,
  }));
  return { entries, complete: all.complete };
}

/** The elements a splat iterates: a list's, or the value itself when it is a single object or instance. */
function splatSource(module: Module, site: Site, depth: number, budget: Budget): Entries {
  const out: Entries = { entries: [], complete: true };
  const alts = altsAt(module, site, {}, depth + 1, budget);
  if (alts.length === 0) return { entries: [], complete: false };
  for (const alt of alts) {
    const e = alt.expr;
    const r = e.kind === "ScopeTraversal" ? resourceOf(module, e) : null;
    let part: Entries | null;
    if (e.kind === "ObjectCons") part = { entries: [{ key: null, keyConst: 0, value: siteValue(alt), certain: true }], complete: true };
    else if (r && e.kind === "ScopeTraversal" && e.traversal.length === 2 && instancesOf(module, r).mode === "single") {
      part = { entries: [{ key: null, keyConst: 0, value: { kind: "instance", resource: r, instance: instancesOf(module, r).instances[0]!, site: alt }, certain: true }], complete: true };
    } else if (r && e.kind === "ScopeTraversal" && e.traversal.length === 3 && e.traversal[2]!.kind === "TraverseIndex") {
      // `aws_x.y[k][*]`: the one instance.
      const key = (e.traversal[2] as { key: string | number }).key;
      const insts = instancesOf(module, r).instances.filter((i) => i.key === null || String(i.key) === String(key));
      part = { entries: insts.map((inst) => ({ key: null, keyConst: 0, value: { kind: "instance", resource: r, instance: inst, site: alt } as IterValue, certain: false })), complete: false };
    } else part = entriesOfLeaf(module, alt, "list", depth + 1, budget);
    if (!part) {
      out.complete = false;
      continue;
    }
    if (!part.complete) out.complete = false;
    out.entries.push(...part.entries.map((x) => (alts.length > 1 ? { ...x, certain: false } : x)));
  }
  return out;
}

/** A `for` variable pair fixed to one entry. */
function fixFor(site: Site, keyVar: string | null, valVar: string, entry: Entry): Site {
  const names = new Map(site.iter?.names ?? NO_NAMES);
  names.set(valVar, { role: "var", key: null, value: entry.value });
  if (keyVar) names.set(keyVar, { role: "var", key: null, value: entry.key });
  let scope = site.scope;
  if (scope && (scope.has(valVar) || (keyVar !== null && scope.has(keyVar)))) {
    const m = new Map(scope);
    m.delete(valVar);
    if (keyVar) m.delete(keyVar);
    scope = m;
  }
  return { ...site, iter: scopeOf(names), ...(scope ? { scope } : {}) };
}

function forEntries(module: Module, alt: Site, e: ForExpr, mode: Mode, depth: number, budget: Budget): Entries {
  const coll = entriesOf(module, { ...alt, expr: e.collection }, "list", depth + 1, budget);
  const entries: Entry[] = [];
  let prefixCertain = true;
  for (const ce of coll.entries) {
    const fixed = fixFor(alt, e.keyVar, e.valVar, ce);
    let certain = ce.certain;
    if (e.condition) {
      const c = foldBool(module, { ...fixed, expr: e.condition }, depth + 1, budget);
      if (c === false) continue;
      if (c === null) certain = false;
    }
    const value: Site = { ...fixed, expr: e.valExpr };
    if (e.form === "object") {
      const keySite: Site = { ...fixed, expr: e.keyExpr! };
      const keyConst = scalarKey(foldConst(module, keySite, depth + 1, budget));
      entries.push({ key: siteValue(keySite), keyConst, value: e.group ? null : siteValue(value), certain: certain && !e.group });
    } else if (mode === "set") {
      entries.push({ key: siteValue(value), keyConst: scalarKey(foldConst(module, value, depth + 1, budget)), value: siteValue(value), certain });
    } else {
      const idx = prefixCertain ? entries.length : null;
      entries.push({ key: idx === null ? null : siteValue(literalSite(idx, value)), keyConst: idx, value: siteValue(value), certain });
    }
    if (!certain) prefixCertain = false;
  }
  if (!coll.complete) {
    // Elements not known: one entry stands for each of them, its key and
    // value evaluated with the variables bound to the whole collection.
    const value = forBody(alt, e, e.valExpr);
    const key = e.form === "object" ? forBody(alt, e, e.keyExpr!) : mode === "set" ? value : null;
    entries.push({ key: key ? siteValue(key) : null, keyConst: null, value: e.group ? null : siteValue(value), certain: false, generic: true });
  }
  return { entries: e.form === "object" ? dedupeLast(entries) : entries, complete: coll.complete };
}

function callEntries(module: Module, alt: Site, e: FunctionCall, mode: Mode, depth: number, budget: Budget): Entries | null {
  if (e.expandFinal) return null;
  const arg = (n: number): Site => ({ ...alt, expr: e.args[n]! });
  switch (e.name) {
    case "toset":
      return e.args.length === 1 ? setOf(entriesOf(module, arg(0), "set", depth + 1, budget)) : null;
    case "tolist":
    case "tomap":
    case "sensitive":
    case "nonsensitive":
      return e.args.length === 1 ? entriesOf(module, arg(0), mode, depth + 1, budget) : null;
    case "concat": {
      const out: Entries = { entries: [], complete: true };
      let indexKnown = true;
      for (let n = 0; n < e.args.length; n++) {
        const r = entriesOf(module, arg(n), mode, depth + 1, budget);
        for (const x of r.entries) {
          if (mode === "set") out.entries.push(x);
          else {
            const idx = indexKnown && x.certain ? out.entries.length : null;
            if (!x.certain) indexKnown = false;
            out.entries.push({ ...x, keyConst: idx, key: idx === null ? null : siteValue(literalSite(idx, alt)) });
          }
        }
        if (!r.complete) {
          out.complete = false;
          indexKnown = false;
        }
      }
      return mode === "set" ? setOf(out) : out;
    }
    case "merge": {
      const out: Entries = { entries: [], complete: true };
      for (let n = 0; n < e.args.length; n++) {
        const a = unwrap(e.args[n]!);
        if (a.kind === "LiteralValue" && a.value === null) continue;
        const r = entriesOf(module, arg(n), "list", depth + 1, budget);
        // A later key replaces an earlier one; an unknown later map may replace any.
        const later = new Set(r.entries.filter((x) => x.certain && x.keyConst !== null).map((x) => String(x.keyConst)));
        const maybeLater = new Set(r.entries.filter((x) => !x.certain && x.keyConst !== null).map((x) => String(x.keyConst)));
        const unknownKeys = !r.complete || r.entries.some((x) => x.keyConst === null);
        out.entries = out.entries.filter((x) => x.keyConst === null || !later.has(String(x.keyConst)));
        out.entries = out.entries.map((x) => (unknownKeys || (x.keyConst !== null && maybeLater.has(String(x.keyConst))) ? { ...x, certain: false } : x));
        out.entries.push(...r.entries);
        if (!r.complete) out.complete = false;
      }
      return { entries: dedupeLast(out.entries), complete: out.complete };
    }
    case "setproduct": {
      if (e.args.length === 0) return null;
      const sets = e.args.map((_, n) => entriesOf(module, arg(n), "list", depth + 1, budget));
      let tuples: { items: IterValue[]; certain: boolean }[] = [{ items: [], certain: true }];
      for (const s of sets) {
        const next: typeof tuples = [];
        for (const t of tuples) {
          for (const x of s.entries) {
            if (next.length >= MAX_ENTRIES || !x.value) continue;
            next.push({ items: [...t.items, x.value], certain: t.certain && x.certain });
          }
        }
        tuples = next;
      }
      const complete = sets.every((s) => s.complete) && tuples.length < MAX_ENTRIES;
      const entries: Entry[] = tuples.map((t, idx) => {
        const keyConst = mode === "list" && complete ? idx : null;
        return { key: keyConst === null ? null : siteValue(literalSite(idx, alt)), keyConst, value: { kind: "tuple", items: t.items, site: alt }, certain: t.certain };
      });
      return { entries, complete };
    }
    case "flatten": {
      if (e.args.length !== 1) return null;
      const out: Entries = { entries: [], complete: true };
      flattenInto(module, arg(0), out, depth + 1, budget);
      const entries = out.entries.map((x, idx) => {
        if (mode === "set") return x;
        const keyConst = out.complete && out.entries.every((y) => y.certain) ? idx : null;
        return { ...x, keyConst, key: keyConst === null ? null : siteValue(literalSite(idx, alt)) };
      });
      return { entries, complete: out.complete };
    }
    case "values":
    case "keys": {
      if (e.args.length !== 1) return null;
      const r = entriesOf(module, arg(0), "list", depth + 1, budget);
      const entries: Entry[] = r.entries.map((x, idx) => {
        const v = e.name === "keys" ? x.key : x.value;
        const keyConst = mode === "set" ? (e.name === "keys" ? x.keyConst : v && v.kind === "site" ? scalarKey(foldConst(module, v.site, depth + 1, budget)) : null) : r.complete && r.entries.every((y) => y.certain) ? idx : null;
        return { key: mode === "set" ? v : keyConst === null ? null : siteValue(literalSite(keyConst, alt)), keyConst, value: v, certain: x.certain };
      });
      return { entries, complete: r.complete };
    }
    case "range": {
      const nums: number[] = [];
      for (let n = 0; n < e.args.length; n++) {
        const c = foldConst(module, arg(n), depth + 1, budget);
        if (!c.known || typeof c.value !== "number") return null;
        nums.push(c.value);
      }
      if (nums.length < 1 || nums.length > 3) return null;
      const [start, end, step] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? (nums[0]! <= nums[1]! ? 1 : -1)];
      if (step === 0) return null;
      const entries: Entry[] = [];
      for (let v = start; step > 0 ? v < end : v > end; v += step) {
        if (entries.length >= MAX_ENTRIES) return { entries, complete: false };
        const el = literalSite(v, alt);
        entries.push({ key: siteValue(mode === "set" ? el : literalSite(entries.length, alt)), keyConst: mode === "set" ? String(v) : entries.length, value: siteValue(el), certain: true });
      }
      return { entries, complete: true };
    }
    case "zipmap": {
      if (e.args.length !== 2) return null;
      const ks = entriesOf(module, arg(0), "list", depth + 1, budget);
      const vs = entriesOf(module, arg(1), "list", depth + 1, budget);
      const exact = (r: Entries): boolean => r.complete && r.entries.every((x) => x.certain);
      if (!exact(ks) || !exact(vs) || ks.entries.length !== vs.entries.length) return { entries: [], complete: false };
      const entries: Entry[] = ks.entries.map((k, idx) => {
        const keyConst = k.value?.kind === "site" ? scalarKey(foldConst(module, k.value.site, depth + 1, budget)) : null;
        return { key: k.value, keyConst, value: vs.entries[idx]!.value, certain: true };
      });
      return { entries: dedupeLast(entries), complete: true };
    }
    case "jsondecode": {
      // jsondecode(jsonencode(x)) is x.
      const inner = e.args.length === 1 ? unwrap(e.args[0]!) : null;
      if (inner?.kind !== "FunctionCall" || inner.name !== "jsonencode" || inner.args.length !== 1 || inner.expandFinal) return null;
      return entriesOf(module, { ...alt, expr: inner.args[0]! }, mode, depth + 1, budget);
    }
    case "distinct":
    case "compact": {
      if (e.args.length !== 1) return null;
      const r = entriesOf(module, arg(0), mode, depth + 1, budget);
      return { entries: r.entries.map((x) => ({ ...x, certain: false, ...(mode === "list" ? { keyConst: null, key: null } : {}) })), complete: r.complete };
    }
    default:
      return null;
  }
}

/** flatten(): nested lists spliced in, other values kept. */
function flattenInto(module: Module, site: Site, out: Entries, depth: number, budget: Budget): void {
  const r = entriesOf(module, site, "list", depth, budget);
  if (!r.complete) out.complete = false;
  for (const x of r.entries) {
    if (out.entries.length >= MAX_ENTRIES) {
      out.complete = false;
      return;
    }
    if (x.value?.kind === "site") {
      const alts = altsAt(module, x.value.site, {}, depth + 1, budget);
      const lists = alts.filter((a) => isListForm(a.expr));
      if (lists.length > 0) {
        if (lists.length !== alts.length) out.complete = false;
        for (const l of lists) {
          const before = out.entries.length;
          flattenInto(module, l, out, depth + 1, budget);
          if (!x.certain || alts.length > 1) for (let k = before; k < out.entries.length; k++) out.entries[k] = { ...out.entries[k]!, certain: false };
        }
        continue;
      }
    }
    out.entries.push(x);
  }
}

function isListForm(e: Expression): boolean {
  return e.kind === "TupleCons" || (e.kind === "For" && e.form === "tuple") || (e.kind === "FunctionCall" && ["concat", "tolist", "flatten"].includes(e.name));
}

/** A set: elements with the same constant value are one. */
function setOf(r: Entries): Entries {
  return { entries: dedupeFirst(r.entries), complete: r.complete };
}

function dedupeFirst(entries: Entry[]): Entry[] {
  const seen = new Set<string>();
  return entries.filter((x) => {
    if (x.keyConst === null || !x.certain) return true;
    const k = String(x.keyConst);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Later certain entries replace earlier ones with the same key. */
function dedupeLast(entries: Entry[]): Entry[] {
  const last = new Map<string, number>();
  entries.forEach((x, idx) => {
    if (x.keyConst !== null && x.certain) last.set(String(x.keyConst), idx);
  });
  return entries.filter((x, idx) => {
    if (x.keyConst === null) return true;
    const l = last.get(String(x.keyConst));
    return l === undefined || l <= idx;
  });
}

// --------------------------------------------------------------- instances

function unknownInstances(resource: Resource): Instances {
  if (resource.forEach) return { mode: "for_each", complete: false, instances: [{ key: null, certain: false, value: null, binding: { role: "entry", key: null, value: null } }] };
  if (resource.count) return { mode: "count", complete: false, instances: [{ key: null, certain: false, value: null, binding: { role: "count", key: null, value: null } }] };
  return { mode: "single", complete: true, instances: [{ key: null, certain: true, value: null, binding: null }] };
}

function computeInstances(module: Module, resource: Resource, budget: Budget, depth: number): Instances {
  if (resource.forEach) {
    const expr = resource.forEach.expr;
    const site: Site = { expr, file: fileOf(resource, expr), via: [], iter: EMPTY_ITER };
    const r = entriesOf(module, site, "set", depth, budget);
    const complete = r.complete && budget.steps <= STEP_LIMIT;
    const origin: TrailHop = { file: site.file, range: expr.range, message: `${resource.address} for_each` };
    const instances: Instance[] = r.entries.map((x) => {
      const entry = entryHop(x, `${resource.address} for_each`);
      return {
        key: x.keyConst === null ? null : String(x.keyConst),
        certain: x.certain,
        value: x.value?.kind === "site" ? x.value.site : null,
        binding: { role: "entry", key: x.key, value: x.value, origin, ...(entry ? { entry } : {}) },
      };
    });
    if (instances.length === 0 && !complete) return unknownInstances(resource);
    return { mode: "for_each", complete, instances };
  }
  if (resource.count) {
    const expr = resource.count.expr;
    const site: Site = { expr, file: fileOf(resource, expr), via: [], iter: EMPTY_ITER };
    const leaves = altsAt(module, site, { scalar: true }, depth, budget);
    const counts = leaves.map((l) => constantValue(l.expr));
    const numbers = counts.map((c) => (c.known && typeof c.value === "number" && Number.isInteger(c.value) && c.value >= 0 ? c.value : -1));
    if (leaves.length === 0 || numbers.some((n) => n < 0) || budget.steps > STEP_LIMIT) return unknownInstances(resource);
    const origin: TrailHop = { file: site.file, range: expr.range, message: `${resource.address} count` };
    const max = Math.max(...numbers);
    const min = Math.min(...numbers);
    const n = Math.min(max, MAX_ENTRIES);
    const instances: Instance[] = [];
    for (let idx = 0; idx < n; idx++) {
      instances.push({ key: idx, certain: idx < min, value: null, binding: { role: "count", key: siteValue(literalSite(idx, site)), value: null, origin } });
    }
    return { mode: "count", complete: max <= MAX_ENTRIES, instances };
  }
  return unknownInstances(resource);
}

function namesOf(inst: Instance): ReadonlyMap<string, IterBinding> {
  if (!inst.binding) return NO_NAMES;
  return new Map([[inst.binding.role === "count" ? "count" : "each", inst.binding]]);
}

// ------------------------------------------------------------------ dynamic

function iteratorName(d: Block): string {
  const it = d.body.attributes.find((a) => a.name === "iterator");
  if (it) {
    const e = unwrap(it.expr);
    if (e.kind === "ScopeTraversal" && e.traversal.length === 1 && e.traversal[0]!.kind === "TraverseRoot") return e.traversal[0]!.name;
    const s = constantValue(e);
    if (s.known && typeof s.value === "string") return s.value;
  }
  return d.labels[0] ?? "";
}

function dynamicBinding(resource: Resource, d: Block, entry: Entry): IterBinding {
  const fe = d.body.attributes.find((a) => a.name === "for_each");
  const label = `${resource.address} dynamic "${d.labels[0] ?? ""}" for_each`;
  const origin: TrailHop | undefined = fe ? { file: fileOf(resource, fe.expr), range: fe.expr.range, message: label } : undefined;
  const hop = entryHop(entry, label);
  return { role: "entry", key: entry.key, value: entry.value, ...(origin ? { origin } : {}), ...(hop ? { entry: hop } : {}) };
}

/** The entries of a dynamic block's `for_each`, seen with `names` bound; an unknown collection gives one unknown entry. */
function dynamicEntries(module: Module, resource: Resource, d: Block, names: ReadonlyMap<string, IterBinding>, budget: Budget): Entries {
  const fe = d.body.attributes.find((a) => a.name === "for_each");
  if (!fe) return { entries: [], complete: false };
  const site: Site = { expr: fe.expr, file: fileOf(resource, fe.expr), via: [], iter: scopeOf(names) };
  const r = entriesOf(module, site, "list", 0, budget);
  if (r.entries.length === 0 && !r.complete) return { entries: [{ key: null, keyConst: null, value: null, certain: false }], complete: false };
  return r;
}

/** The `dynamic` blocks whose `content` holds `expr`, outermost first. */
function dynamicChain(resource: Resource, expr: Expression, file: SourceFile): Block[] {
  const out: Block[] = [];
  const inside = (r: Range): boolean => r.start.offset <= expr.range.start.offset && expr.range.end.offset <= r.end.offset;
  walkBlocks(resource.body, (b) => {
    if (!inside(b.range) || fileOf(resource, b).path !== file.path) return [];
    if (b.type !== "dynamic") return [b.body];
    const contents = blocksOf(b.body, "content").filter((c) => inside(c.range));
    for (let k = 0; k < contents.length; k++) out.push(b);
    // Each content holding the expression is walked in turn.
    return contents.map((c) => c.body);
  });
  return out;
}

// ----------------------------------------------------------------- folding

function isNullValue(e: Expression): boolean {
  const c = constantValue(e);
  return c.known && c.value === null;
}

function scalarKey(c: { known: true; value: ConstValue } | { known: false }): string | number | null {
  if (!c.known) return null;
  if (typeof c.value === "string" || typeof c.value === "number") return String(c.value);
  if (typeof c.value === "boolean") return String(c.value);
  return null;
}

/** Every constant `site` may be, or null when one alternative is unknown (or there is none). */
function foldAll(module: Module, site: Site, depth: number, budget: Budget): ConstValue[] | null {
  const leaves: Site[] = [];
  expandInto(module, site, { scalar: true }, leaves, depth, budget);
  if (leaves.length === 0 || budget.steps > STEP_LIMIT) return null;
  const values: ConstValue[] = [];
  const seen = new Set<string>();
  for (const l of leaves) {
    const c = constantValue(l.expr);
    if (!c.known) return null;
    const k = JSON.stringify(c.value);
    if (!seen.has(k)) {
      seen.add(k);
      values.push(c.value);
    }
  }
  return values;
}

/** The one constant `site` certainly is. */
function foldConst(module: Module, site: Site, depth: number, budget: Budget): { known: true; value: ConstValue } | { known: false } {
  const s: Site = site.iter ? site : { ...site, iter: EMPTY_ITER };
  const all = foldAll(module, s, depth, budget);
  return all !== null && all.length === 1 ? { known: true, value: all[0]! } : { known: false };
}

/** true / false when a condition certainly is that (bools, or the strings "true"/"false"), else null. */
function foldBool(module: Module, site: Site, depth: number, budget: Budget): boolean | null {
  const all = foldAll(module, site, depth, budget);
  if (all === null) return null;
  const bools = all.map((v) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null));
  if (bools.some((b) => b === null)) return null;
  if (bools.every((b) => b === true)) return true;
  if (bools.every((b) => b === false)) return false;
  return null;
}

function literalSite(value: ConstValue, origin: Site): Site {
  const v = value as string | number | boolean | null;
  const type = v === null ? "null" : typeof v === "string" ? "string" : typeof v === "number" ? "number" : "bool";
  const expr: LiteralValue = { kind: "LiteralValue", type, value: v, raw: typeof v === "string" ? JSON.stringify(v) : String(v), range: origin.expr.range };
  const { pending: _p, ...iter } = origin.iter ?? EMPTY_ITER;
  void _p;
  return { ...origin, expr, iter: iter as IterScope };
}

/**
 * Combinations of per-part constants, when at most one part has several
 * (several parts varying together could pair values that never meet).
 */
function combine(parts: ConstValue[][]): ConstValue[][] | null {
  if (parts.filter((p) => p.length > 1).length > 1) return null;
  let out: ConstValue[][] = [[]];
  for (const p of parts) {
    if (p.length > MAX_COMBINED) return null;
    out = out.flatMap((prefix) => p.map((v) => [...prefix, v]));
  }
  return out;
}

function templateString(v: ConstValue): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") {
    const c = constantValue({ kind: "Template", form: "quoted", parts: [{ kind: "TemplateInterp", expr: { kind: "LiteralValue", type: typeof v === "number" ? "number" : "bool", value: v, raw: String(v), range: ZERO }, range: ZERO, stripLeft: false, stripRight: false }], range: ZERO });
    return c.known && typeof c.value === "string" ? c.value : null;
  }
  return null;
}

const ZERO_POS = { line: 1, column: 1, offset: 0 };
const ZERO: Range = { start: ZERO_POS, end: ZERO_POS };

function foldTemplate(module: Module, site: Site, parts: readonly TemplatePart[], depth: number, budget: Budget): string[] | null {
  // Directives nested deeper than the question's depth budget are not folded (unknown: silent).
  if (depth > MAX_DEPTH) return null;
  const pieces: ConstValue[][] = [];
  for (const p of parts) {
    if (p.kind === "TemplateLiteral") pieces.push([p.value]);
    else if (p.kind === "TemplateInterp") {
      const all = foldAll(module, { ...site, expr: p.expr }, depth, budget);
      if (all === null) return null;
      const strs = all.map(templateString);
      if (strs.some((s) => s === null)) return null;
      pieces.push(strs as string[]);
    } else if (p.kind === "TemplateIf") {
      const c = foldBool(module, { ...site, expr: p.condition }, depth, budget);
      if (c === null) return null;
      const chosen = c ? p.then : (p.else ?? []);
      const inner = foldTemplate(module, site, chosen, depth + 1, budget);
      if (inner === null) return null;
      pieces.push(inner);
    } else return null;
  }
  const combos = combine(pieces);
  return combos === null ? null : combos.map((c) => (c as string[]).join(""));
}

function foldOperator(module: Module, site: Site, depth: number, budget: Budget): ConstValue[] | null {
  const e = site.expr;
  const operands = e.kind === "BinaryOp" ? [e.lhs, e.rhs] : e.kind === "UnaryOp" ? [e.operand] : [];
  if (operands.length === 0) return null;
  const values: ConstValue[][] = [];
  for (const o of operands) {
    const all = foldAll(module, { ...site, expr: o }, depth, budget);
    if (all === null) return null;
    values.push(all);
  }
  const combos = combine(values);
  if (combos === null) return null;
  const out: ConstValue[] = [];
  for (const c of combos) {
    const lits = c.map((v) => constExpr(v));
    if (lits.some((l) => l === null)) return null;
    const synth: Expression = e.kind === "BinaryOp" ? copyNode(e, { lhs: lits[0]!, rhs: lits[1]! }) : copyNode(e as Extract<Expression, { kind: "UnaryOp" }>, { operand: lits[0]! });
    const r = constantValue(synth);
    if (!r.known || (r.value !== null && typeof r.value === "object")) return null;
    out.push(r.value);
  }
  return out;
}

/** A literal expression for a scalar constant (null for lists and objects). */
function constExpr(v: ConstValue): Expression | null {
  if (v !== null && typeof v === "object") return null;
  const type = v === null ? "null" : typeof v === "string" ? "string" : typeof v === "number" ? "number" : "bool";
  return { kind: "LiteralValue", type, value: v, raw: String(v), range: ZERO };
}

// ---------------------------------------------------------------- functions

const formatTemplates = new WeakMap<FunctionCall, Map<string, TemplateExpr | null>>();

/**
 * `format(fmt, a, b)` with a constant `fmt` as the template it stands for
 * (`%s`, `%d`, `%v` are interpolations, `%%` a percent sign); null when the
 * format uses anything else (widths, argument indexes, other verbs).
 */
export function formatAsTemplate(call: FunctionCall, fmt: string): TemplateExpr | null {
  let byFmt = formatTemplates.get(call);
  if (!byFmt) {
    byFmt = new Map();
    formatTemplates.set(call, byFmt);
  }
  if (byFmt.has(fmt)) return byFmt.get(fmt)!;
  const parts: TemplatePart[] = [];
  let text = "";
  let arg = 1;
  let ok = true;
  for (let i = 0; i < fmt.length && ok; i++) {
    const ch = fmt[i]!;
    if (ch !== "%") {
      text += ch;
      continue;
    }
    const verb = fmt[i + 1];
    i++;
    if (verb === "%") text += "%";
    else if ((verb === "s" || verb === "d" || verb === "v") && arg < call.args.length) {
      if (text) parts.push({ kind: "TemplateLiteral", value: text, range: call.range });
      text = "";
      const a = call.args[arg++]!;
      parts.push({ kind: "TemplateInterp", expr: a, range: a.range, stripLeft: false, stripRight: false });
    } else ok = false;
  }
  if (text) parts.push({ kind: "TemplateLiteral", value: text, range: call.range });
  const t: TemplateExpr | null = ok && arg === call.args.length ? { kind: "Template", form: "quoted", parts, range: call.range } : null;
  byFmt.set(fmt, t);
  return t;
}

function iterationCall(module: Module, site: Site, e: FunctionCall, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean {
  if (e.expandFinal) return false;
  switch (e.name) {
    case "format": {
      if (e.args.length === 0) return false;
      const f = foldConst(module, { ...site, expr: e.args[0]! }, depth + 1, budget);
      if (!f.known || typeof f.value !== "string") return false;
      const t = formatAsTemplate(e, f.value);
      if (!t) return false;
      expandInto(module, { ...site, expr: t }, opts, out, depth + 1, budget);
      return true;
    }
    case "tostring":
    case "tonumber": {
      if (e.args.length !== 1) return false;
      const sub: Site[] = [];
      expandInto(module, { ...site, expr: e.args[0]! }, opts, sub, depth + 1, budget);
      for (const s of sub) {
        const c = constantValue(s.expr);
        if (!c.known || c.value === null || typeof c.value === "object") {
          out.push(s);
          continue;
        }
        if (e.name === "tostring") {
          const str = templateString(c.value);
          out.push(str === null ? s : literalSite(str, s));
        } else if (typeof c.value === "number") out.push(s);
        else if (typeof c.value === "string" && /^-?\d+(\.\d+)?$/.test(c.value.trim())) out.push(literalSite(Number(c.value), s));
      }
      return true;
    }
    case "lower":
    case "upper":
    case "trimspace": {
      if (e.args.length !== 1) return false;
      const all = foldAll(module, { ...site, expr: e.args[0]! }, depth + 1, budget);
      if (all === null || all.some((v) => typeof v !== "string")) return false;
      const f = (v: string): string => (e.name === "lower" ? v.toLowerCase() : e.name === "upper" ? v.toUpperCase() : v.trim());
      for (const v of all) out.push(literalSite(f(v as string), site));
      return true;
    }
    case "contains": {
      if (e.args.length !== 2) return false;
      const r = entriesOf(module, { ...site, expr: e.args[0]! }, "list", depth + 1, budget);
      const x = foldConst(module, { ...site, expr: e.args[1]! }, depth + 1, budget);
      if (!x.known || x.value === null || typeof x.value === "object") return false;
      const values = r.entries.map((en) => (en.value?.kind === "site" ? foldConst(module, en.value.site, depth + 1, budget) : { known: false as const }));
      const equal = values.map((v) => v.known && v.value === x.value);
      if (r.entries.some((en, idx) => en.certain && equal[idx])) out.push(literalSite(true, site));
      else if (r.complete && values.every((v) => v.known && v.value !== null && typeof v.value !== "object") && !equal.some(Boolean)) out.push(literalSite(false, site));
      else return false;
      return true;
    }
    case "length": {
      if (e.args.length !== 1) return false;
      const r = entriesOf(module, { ...site, expr: e.args[0]! }, "list", depth + 1, budget);
      if (!r.complete || !r.entries.every((x) => x.certain)) return false;
      out.push(literalSite(r.entries.length, site));
      return true;
    }
    case "jsondecode": {
      const inner = e.args.length === 1 ? unwrap(e.args[0]!) : null;
      if (inner?.kind !== "FunctionCall" || inner.name !== "jsonencode" || inner.args.length !== 1 || inner.expandFinal) return false;
      expandInto(module, { ...site, expr: inner.args[0]! }, opts, out, depth + 1, budget);
      return true;
    }
    case "one":
    case "element": {
      if ((e.name === "one" && e.args.length !== 1) || (e.name === "element" && e.args.length !== 2)) return false;
      const r = entriesOf(module, { ...site, expr: e.args[0]! }, "list", depth + 1, budget);
      if (e.name === "element") {
        // element() wraps around: index modulo the length, when both are known.
        const idx = foldConst(module, { ...site, expr: e.args[1]! }, depth + 1, budget);
        const exact = r.complete && r.entries.length > 0 && r.entries.every((x) => x.certain);
        const n = idx.known && typeof idx.value === "number" && Number.isInteger(idx.value) && idx.value >= 0 && exact ? idx.value % r.entries.length : null;
        const chosen = n === null ? r.entries : [r.entries[n]!];
        for (const x of chosen) {
          if (x.value) walkPath(module, x.value, [], 0, site, opts, out, depth + 1, budget);
          else out.push(site);
        }
        if (!r.complete) out.push(site);
        return true;
      }
      if (r.entries.length === 0) {
        if (!r.complete) out.push(site);
        return true;
      }
      for (const x of r.entries) {
        if (x.value) walkPath(module, x.value, [], 0, site, opts, out, depth + 1, budget);
        else out.push(site);
      }
      return true;
    }
    case "lookup": {
      if (e.args.length !== 2 && e.args.length !== 3) return false;
      const saved = budget.missing;
      budget.missing = false;
      const sub: Site[] = [];
      walkPath(module, siteValue({ ...site, expr: e.args[0]! }), [{ kind: "KeyExpr", key: { ...site, expr: e.args[1]! } }], 0, site, opts, sub, depth + 1, budget);
      const missing = budget.missing;
      budget.missing = saved;
      const found = sub.filter((s) => s !== site);
      out.push(...found);
      if (e.args.length === 3 && (missing || found.length !== sub.length || found.length === 0)) expandInto(module, { ...site, expr: e.args[2]! }, opts, out, depth + 1, budget);
      return true;
    }
    default:
      return false;
  }
}

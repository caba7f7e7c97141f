/**
 * The module dependency graph (graph-api.ts): references of expressions,
 * classified by kind, and what an expression depends on transitively
 * through locals and (optionally) through resource, data and module-call
 * arguments, with the shortest chain that proves it.
 *
 * Scoping: names bound by `for` expressions (and template `%{ for }`) are
 * not references, and neither are `dynamic` block iterators (the block's
 * label, or its `iterator` argument) inside that block's `content`. A
 * one-time index over every expression of the module records these scopes
 * per sub-expression, so asking about any sub-expression (e.g. the body of
 * a `for`) is still scoped correctly. An iterator reference is not listed
 * as a reference, but `dependencies` follows it to the dynamic block's
 * `for_each`.
 *
 * Everything is cached; cycles (locals referring to each other) terminate.
 */
import type { Block, Body, Expression, TemplatePart, Traverser } from "../hcl/ast.js";
import type { ChainStep, DependencyGraph, RefKind, Reference } from "./graph-api.js";
import type { Local, Module, Resource } from "./module-types.js";
import { constString, pushChildren, reverseFrom, traversalText, unwrap, walkTemplateParts } from "../hcl/walk.js";
import { blocksOf } from "./module-builder.js";

/** name -> the dynamic block's for_each (iterator) or null (a `for` variable). */
type Scope = ReadonlyMap<string, Expression | null>;
const EMPTY_SCOPE: Scope = new Map();

interface ScanResult {
  refs: Reference[];
  /** for_each expressions of dynamic iterators referenced. */
  iteratorSources: Expression[];
}

interface EffectiveRef {
  address: string;
  path: string;
  via: ChainStep[];
}

/** A dependency chain as a parent-linked list (last step first). */
interface ChainNode {
  step: ChainStep;
  parent: ChainNode | null;
}

function chainOf(node: ChainNode): ChainStep[] {
  const out: ChainStep[] = [];
  for (let n: ChainNode | null = node; n; n = n.parent) out.push(n.step);
  return out.reverse();
}

/**
 * A Map of address -> chain whose chain arrays are built on first access.
 * Mutating it (callers should not: results are cached) first turns it into
 * an ordinary Map with every chain built.
 */
class ChainMap extends Map<string, ChainStep[]> {
  private nodes: Map<string, ChainNode> | null;
  constructor(nodes: Map<string, ChainNode>) {
    super();
    this.nodes = nodes;
  }
  private plain(): void {
    const nodes = this.nodes;
    if (!nodes) return;
    // Rebuild in breadth-first order (chains read earlier were added first).
    const ordered = [...nodes.keys()].map((k) => [k, this.get(k)!] as const);
    this.nodes = null;
    super.clear();
    for (const [k, v] of ordered) super.set(k, v);
  }
  override get size(): number {
    return this.nodes ? this.nodes.size : super.size;
  }
  override has(key: string): boolean {
    return this.nodes ? this.nodes.has(key) : super.has(key);
  }
  override get(key: string): ChainStep[] | undefined {
    let chain = super.get(key);
    if (chain || !this.nodes) return chain;
    const node = this.nodes.get(key);
    if (!node) return undefined;
    chain = chainOf(node);
    super.set(key, chain);
    return chain;
  }
  override set(key: string, value: ChainStep[]): this {
    this.plain();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.plain();
    return super.delete(key);
  }
  override clear(): void {
    this.nodes = null;
    super.clear();
  }
  override keys(): MapIterator<string> {
    return this.nodes ? this.nodes.keys() : super.keys();
  }
  override values(): MapIterator<ChainStep[]> {
    this.plain();
    return super.values();
  }
  override entries(): MapIterator<[string, ChainStep[]]> {
    this.plain();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, ChainStep[]]> {
    return this.entries();
  }
  override forEach(cb: (value: ChainStep[], key: string, map: Map<string, ChainStep[]>) => void, thisArg?: unknown): void {
    this.plain();
    super.forEach(cb, thisArg);
  }
}

interface OwnedExpr {
  owner: string;
  expr: Expression;
  scope: Scope;
}

const THROUGH = { throughResources: true };

export function buildGraph(module: Module): DependencyGraph {
  return new Graph(module);
}

class Graph implements DependencyGraph {
  readonly module: Module;
  private indexed: OwnedExpr[] | null = null;
  private readonly scopes = new Map<Expression, Scope>();
  private readonly scanCache = new WeakMap<Expression, ScanResult>();
  /** What the index's walk found in an indexed expression, classified into a ScanResult when first asked. */
  private readonly found = new Map<Expression, Found>();
  private readonly depCache = [new WeakMap<Expression, Map<string, ChainStep[]>>(), new WeakMap<Expression, Map<string, ChainStep[]>>()];
  private readonly effCache = new WeakMap<Reference, EffectiveRef[]>();
  private readonly edgeCache = [new Map<string, ChainStep[]>(), new Map<string, ChainStep[]>()];
  private readonly resExprCache = new WeakMap<Resource, Expression[]>();
  /** reaches() answers with a path by expression, then target (without and with throughResources). */
  private readonly reachCache = [new WeakMap<Expression, Map<string, ChainStep[] | null>>(), new WeakMap<Expression, Map<string, ChainStep[] | null>>()];
  private readonly resolveCache = new WeakMap<Expression, { expr: Expression; via: string[] }>();
  private readonly targets = new Map<string, { address: string; path: string } | null>();
  private allRefs: { ref: Reference; owner: string }[] | null = null;
  /** allReferences by address, each with its path normalised (isReferenced). */
  private refIndex: Map<string, { ref: Reference; owner: string; path: string }[]> | null = null;

  constructor(module: Module) {
    this.module = module;
  }

  // ------------------------------------------------------------- indexing

  private index(): OwnedExpr[] {
    if (this.indexed) return this.indexed;
    const out: OwnedExpr[] = [];
    const m = this.module;
    // One walk per indexed expression records the scopes of its
    // sub-expressions and scans its references (allReferences reads them all).
    const walker = new IndexWalk(this.scopes);
    const twice = new Set<Expression>();
    const add = (owner: string, items: { expr: Expression; scope: Scope }[]) => {
      for (const it of items) {
        out.push({ owner, expr: it.expr, scope: it.scope });
        const found: Found = { traversals: [], iteratorSources: [] };
        walker.out = found;
        walker.visit(it.expr, it.scope);
        // An expression indexed twice is scanned when asked, with the scope it was marked with last.
        if (this.found.has(it.expr)) twice.add(it.expr);
        this.found.set(it.expr, found);
      }
    };
    for (const v of m.variables.values()) {
      const items: { expr: Expression; scope: Scope }[] = [];
      if (v.defaultAttr) items.push({ expr: v.defaultAttr.expr, scope: EMPTY_SCOPE });
      for (const val of v.validations) items.push(...bodyExprs(val.body, EMPTY_SCOPE, NO_SKIP));
      add(`variable.${v.name}`, items);
    }
    for (const l of m.locals.values()) add(`local.${l.name}`, [{ expr: l.value, scope: EMPTY_SCOPE }]);
    for (const o of m.outputs.values()) add(`output.${o.name}`, bodyExprs(o.block.body, EMPTY_SCOPE, OUTPUT_SKIP));
    for (const r of [...m.resources.values(), ...m.dataSources.values()]) {
      add(r.address, bodyExprs(r.body, EMPTY_SCOPE, RESOURCE_ALL_SKIP));
      for (const item of lifecycleReferenceExprs(r)) add(r.address, [{ expr: item, scope: EMPTY_SCOPE }]);
    }
    for (const c of m.moduleCalls.values()) add(`module.${c.name}`, bodyExprs(c.block.body, EMPTY_SCOPE, MODULE_SKIP));
    for (const p of m.providers) {
      add(p.alias ? `provider.${p.name}.${p.alias}` : `provider.${p.name}`, bodyExprs(p.body, EMPTY_SCOPE, PROVIDER_SKIP));
    }
    for (const f of m.files) {
      for (const b of f.hcl.body.blocks) {
        if (b.type === "check" && b.labels.length === 1) add(`check.${b.labels[0]}`, bodyExprs(b.body, EMPTY_SCOPE, NO_SKIP));
      }
    }
    for (const e of twice) this.found.delete(e);
    this.indexed = out;
    return out;
  }

  // ------------------------------------------------------------ references

  private scan(expr: Expression): ScanResult {
    const cached = this.scanCache.get(expr);
    if (cached) return cached;
    this.index();
    let result: ScanResult;
    const found = this.found.get(expr);
    if (found) {
      // The index's walk found the references of this expression already.
      result = { refs: [], iteratorSources: found.iteratorSources };
      for (const t of found.traversals) {
        const ref = classify(t);
        if (ref) result.refs.push(ref);
      }
      this.found.delete(expr);
    } else {
      result = { refs: [], iteratorSources: [] };
      scanExpr(expr, this.scopes.get(expr) ?? EMPTY_SCOPE, result);
    }
    this.scanCache.set(expr, result);
    return result;
  }

  directRefs(expr: Expression): Reference[] {
    return this.scan(expr).refs;
  }

  /** Direct references plus those of the for_each of referenced dynamic iterators. */
  private firstHops(expr: Expression): Reference[] {
    const s = this.scan(expr);
    if (s.iteratorSources.length === 0) return s.refs;
    const out = [...s.refs];
    const seen = new Set<Expression>([expr]);
    const queue = [...s.iteratorSources];
    while (queue.length) {
      const fe = queue.shift()!;
      if (seen.has(fe)) continue;
      seen.add(fe);
      const fs = this.scan(fe);
      out.push(...fs.refs);
      queue.push(...fs.iteratorSources);
    }
    return out;
  }

  // ---------------------------------------------------------- dependencies

  /** Expressions a node's value is computed from (null: not expandable). */
  private nodeExprs(address: string, through: boolean): Expression[] | null {
    if (address.startsWith("local.")) {
      const l = this.module.locals.get(address.slice(6));
      return l ? [l.value] : null;
    }
    if (!through) return null;
    const r = this.module.resources.get(address) ?? this.module.dataSources.get(address);
    if (r) return this.resourceExpressions(r);
    if (address.startsWith("module.")) {
      const c = this.module.moduleCalls.get(address.slice(7));
      if (c) return bodyExprs(c.block.body, EMPTY_SCOPE, MODULE_SKIP).map((x) => x.expr);
    }
    return null;
  }

  /** The distinct objects a node's value refers to directly, first reference of each. */
  private edges(address: string, through: boolean): ChainStep[] {
    const cache = this.edgeCache[through ? 1 : 0]!;
    let out = cache.get(address);
    if (out) return out;
    out = [];
    const exprs = this.nodeExprs(address, through);
    if (exprs) {
      const seen = new Set<string>();
      for (const e of exprs) {
        for (const r of this.firstHops(e)) {
          if (seen.has(r.address)) continue;
          seen.add(r.address);
          out.push({ address: r.address, range: r.range });
        }
      }
    }
    cache.set(address, out);
    return out;
  }

  dependencies(expr: Expression, opts?: { throughResources?: boolean }): Map<string, ChainStep[]> {
    const through = !!opts?.throughResources;
    const cache = this.depCache[through ? 1 : 0]!;
    const cached = cache.get(expr);
    if (cached) return cached;
    // Breadth-first from the expression, so the first chain found for an
    // address is a shortest one. Chains are parent-linked and turned into
    // arrays only when read (deep local chains would be quadratic otherwise).
    const nodes = new Map<string, ChainNode>();
    const queue: ChainNode[] = [];
    for (const r of this.firstHops(expr)) {
      if (nodes.has(r.address)) continue;
      const n: ChainNode = { step: { address: r.address, range: r.range }, parent: null };
      nodes.set(r.address, n);
      queue.push(n);
    }
    for (let i = 0; i < queue.length; i++) {
      const cur = queue[i]!;
      for (const step of this.edges(cur.step.address, through)) {
        if (nodes.has(step.address)) continue;
        const n: ChainNode = { step, parent: cur };
        nodes.set(step.address, n);
        queue.push(n);
      }
    }
    const result = new ChainMap(nodes);
    cache.set(expr, result);
    return result;
  }

  reaches(expr: Expression, target: string, opts?: { throughResources?: boolean }): ChainStep[] | null {
    const t = this.target(target);
    if (!t) return null;
    const through = !!opts?.throughResources;
    // `dependencies` is cached per expression, so a target without a path is answered from it.
    const deps = this.dependencies(expr, through ? THROUGH : undefined);
    const coarse = deps.get(t.address);
    if (!coarse) return null;
    if (t.path === "") return coarse;
    // A path search is not: keep its answer (rules ask again, e.g. every unit
    // of a scope "all" rule about its parents' gates).
    const cache = this.reachCache[through ? 1 : 0]!;
    let answers = cache.get(expr);
    if (answers === undefined) {
      answers = new Map();
      cache.set(expr, answers);
    }
    const known = answers.get(target);
    if (known !== undefined) return known;
    const chain = this.reachesPath(expr, t.address, t.path, through);
    answers.set(target, chain);
    return chain;
  }

  /** A target string read once per graph. */
  private target(target: string): { address: string; path: string } | null {
    let t = this.targets.get(target);
    if (t === undefined) {
      t = parseTarget(target);
      this.targets.set(target, t);
    }
    return t;
  }

  /**
   * Path-aware search: some reference made by `expr` or by an object it
   * depends on must name `address` with a path starting with `path`. A
   * reference to a local whose value is exactly a traversal counts as a
   * reference to that traversal with the remaining path appended
   * (`local.as.enabled` with `local.as = var.autoscaling` is
   * `var.autoscaling.enabled`).
   */
  private reachesPath(expr: Expression, address: string, path: string, through: boolean): ChainStep[] | null {
    const match = (refs: Reference[]): ChainStep[] | null => {
      for (const r of refs) {
        for (const eff of this.effective(r)) {
          if (eff.address === address && hasPathPrefix(eff.path, path)) {
            return [{ address: r.address, range: r.range }, ...eff.via];
          }
        }
      }
      return null;
    };
    const direct = match(this.firstHops(expr));
    if (direct) return direct;
    const deps = this.dependencies(expr, { throughResources: through }) as ChainMap;
    for (const node of deps.keys()) {
      const exprs = this.nodeExprs(node, through);
      if (!exprs) continue;
      for (const e of exprs) {
        const tail = match(this.firstHops(e));
        if (tail) return [...deps.get(node)!, ...tail];
      }
    }
    return null;
  }

  /**
   * What a reference stands for after passing through locals that alias
   * other values: a local whose value is a plain traversal, or a
   * conditional / `try(...)` / `coalesce(...)` some of whose results are
   * plain traversals (`local.as = var.as != null ? var.as : local.d`). The
   * reference's own path is appended to each. Cached; cycle-safe.
   */
  private effective(ref: Reference, visiting: Set<string> = new Set()): EffectiveRef[] {
    const top = visiting.size === 0;
    if (top) {
      const cached = this.effCache.get(ref);
      if (cached) return cached;
    }
    const own: EffectiveRef = { address: ref.address, path: normalizePath(ref.path), via: [] };
    let out: EffectiveRef[] = [own];
    if (ref.kind === "local" && !visiting.has(ref.address)) {
      const l = this.module.locals.get(ref.address.slice(6));
      const targets = l ? aliasTargets(l.value) : [];
      if (targets.length) {
        out = [];
        visiting.add(ref.address);
        for (const t of targets) {
          const inner = this.scan(t).refs[0];
          if (!inner || inner.expr !== t) continue;
          for (const e of this.effective(inner, visiting)) {
            out.push({ address: e.address, path: e.path + own.path, via: [{ address: inner.address, range: inner.range }, ...e.via] });
          }
        }
        visiting.delete(ref.address);
        if (out.length === 0) out = [own];
      }
    }
    if (top) this.effCache.set(ref, out);
    return out;
  }

  resourceExpressions(resource: Resource): Expression[] {
    const cached = this.resExprCache.get(resource);
    if (cached) return cached;
    const exprs = bodyExprs(resource.body, EMPTY_SCOPE, RESOURCE_DATA_SKIP).map((x) => x.expr);
    this.resExprCache.set(resource, exprs);
    return exprs;
  }

  local(name: string): Local | undefined {
    return this.module.locals.get(name);
  }

  resolveLocals(expr: Expression): { expr: Expression; via: string[] } {
    const known = this.resolveCache.get(expr);
    if (known) return known;
    const resolved = this.computeResolveLocals(expr);
    this.resolveCache.set(expr, resolved);
    return resolved;
  }

  private computeResolveLocals(expr: Expression): { expr: Expression; via: string[] } {
    const via: string[] = [];
    let cur = expr;
    for (;;) {
      const e = unwrap(cur);
      if (e.kind !== "ScopeTraversal" || e.traversal.length !== 2) return { expr: cur, via };
      const [root, attr] = e.traversal as [Traverser, Traverser];
      if (root.kind !== "TraverseRoot" || root.name !== "local" || attr.kind !== "TraverseAttr") return { expr: cur, via };
      const l = this.module.locals.get(attr.name);
      const address = `local.${attr.name}`;
      if (!l || via.includes(address)) return { expr: cur, via };
      via.push(address);
      cur = l.value;
    }
  }

  allReferences(): { ref: Reference; owner: string }[] {
    if (this.allRefs) return this.allRefs;
    const out: { ref: Reference; owner: string }[] = [];
    for (const item of this.index()) {
      for (const ref of this.scan(item.expr).refs) out.push({ ref, owner: item.owner });
    }
    this.allRefs = out;
    return out;
  }

  isReferenced(address: string, opts?: { excludeModuleCalls?: boolean }): boolean {
    if (!this.refIndex) {
      this.refIndex = new Map();
      for (const item of this.allReferences()) {
        let list = this.refIndex.get(item.ref.address);
        if (!list) this.refIndex.set(item.ref.address, (list = []));
        list.push({ ref: item.ref, owner: item.owner, path: normalizePath(item.ref.path) });
      }
    }
    const t = this.target(address);
    if (!t) return false;
    const list = this.refIndex.get(t.address) ?? [];
    const selfOwner = t.address.startsWith("var.") ? `variable.${t.address.slice(4)}` : null;
    return list.some(
      (item) =>
        item.owner !== selfOwner &&
        !(opts?.excludeModuleCalls && item.owner.startsWith("module.")) &&
        hasPathPrefix(item.path, t.path),
    );
  }
}

// --------------------------------------------------------------- scanning

function bind(scope: Scope, names: (string | null)[], value: Expression | null = null): Scope {
  const next = new Map(scope);
  for (const n of names) if (n) next.set(n, value);
  return next;
}

/** The traversals of an expression that are references or not (classify decides), and the iterator sources it uses. */
interface Found {
  traversals: Extract<Expression, { kind: "ScopeTraversal" }>[];
  iteratorSources: Expression[];
}

/**
 * The index's walk of one expression: records the scope of every
 * sub-expression that has bound names, and finds what scanExpr would scan
 * (the same traversals and iterator sources, in the same order) into `out`.
 */
class IndexWalk {
  out: Found = { traversals: [], iteratorSources: [] };
  constructor(private readonly scopes: Map<Expression, Scope>) {}

  visit(expr: Expression, scope: Scope): void {
    walkScoped(expr, scope, this.scopes, foundTraversal, this.out);
  }
}

/**
 * Whether a traversal names no reference: its root is not a plain name, or
 * is a name bound in `scope` (whose source, an iterator's collection, is
 * noted in `out`).
 */
function boundInScope(expr: Extract<Expression, { kind: "ScopeTraversal" }>, scope: Scope, out: { iteratorSources: Expression[] }): boolean {
  const root = expr.traversal[0];
  if (!root || root.kind !== "TraverseRoot") return true;
  if (!scope.has(root.name)) return false;
  const src = scope.get(root.name);
  if (src) out.iteratorSources.push(src);
  return true;
}

/** As scanTraversal, with the classification left for when it is asked for. */
function foundTraversal(expr: Extract<Expression, { kind: "ScopeTraversal" }>, scope: Scope, out: Found): void {
  if (!boundInScope(expr, scope, out)) out.traversals.push(expr);
}

function scanTraversal(expr: Extract<Expression, { kind: "ScopeTraversal" }>, scope: Scope, out: ScanResult): void {
  if (boundInScope(expr, scope, out)) return;
  const ref = classify(expr);
  if (ref) out.refs.push(ref);
}

function scanExpr(expr: Expression, scope: Scope, out: ScanResult): void {
  walkScoped(expr, scope, null, scanTraversal, out);
}

/**
 * Every traversal of `expr`, pre-order in source order, each with the names
 * bound around it (`for` variables, template `for` variables), given to
 * `onTraversal`; with `scopes`, the scope of every sub-expression that has
 * bound names is recorded there. Expressions nest without limit: an explicit
 * stack of (expression, scope) in two parallel arrays, children pushed in
 * reverse so they pop in source order.
 */
function walkScoped<O>(
  expr: Expression,
  scope: Scope,
  scopes: Map<Expression, Scope> | null,
  onTraversal: (t: Extract<Expression, { kind: "ScopeTraversal" }>, scope: Scope, out: O) => void,
  out: O,
): void {
  const exprs: Expression[] = [expr];
  const scoped: Scope[] = [scope];
  while (exprs.length > 0) {
    const e = exprs.pop()!;
    const s = scoped.pop()!;
    if (scopes !== null && s.size > 0) scopes.set(e, s);
    switch (e.kind) {
      case "ScopeTraversal":
        onTraversal(e, s, out);
        break;
      case "For": {
        const inner = bind(s, [e.keyVar, e.valVar]);
        if (e.condition) exprs.push(e.condition), scoped.push(inner);
        exprs.push(e.valExpr), scoped.push(inner);
        if (e.keyExpr) exprs.push(e.keyExpr), scoped.push(inner);
        exprs.push(e.collection), scoped.push(s);
        break;
      }
      case "Template":
        pushTemplateParts(e.parts, s, exprs, scoped);
        break;
      default: {
        const base = exprs.length;
        pushChildren(e, exprs, false);
        for (let i = base; i < exprs.length; i++) scoped.push(s);
      }
    }
  }
}

/**
 * The expressions of a template's parts with their scopes (a `%{ for }`
 * binds its names in its body), pushed so that they pop in source order
 * (directives nest without limit: walkTemplateParts keeps its own stack).
 */
function pushTemplateParts(parts: readonly TemplatePart[], scope: Scope, exprs: Expression[], scoped: Scope[]): void {
  const base = exprs.length;
  walkTemplateParts(parts, scope, (p, s) => {
    if (p.kind === "TemplateInterp") exprs.push(p.expr), scoped.push(s);
    else if (p.kind === "TemplateIf") exprs.push(p.condition), scoped.push(s);
    else if (p.kind === "TemplateFor") {
      exprs.push(p.collection), scoped.push(s);
      return bind(s, [p.keyVar, p.valVar]);
    }
    return s;
  });
  reverseFrom(exprs, base);
  reverseFrom(scoped, base);
}

const SIMPLE_ROOTS: Record<string, RefKind> = {
  var: "var",
  local: "local",
  module: "module",
  each: "each",
  count: "count",
  path: "path",
  terraform: "terraform",
};

/** Classify a traversal as a reference (null when it names nothing). */
function classify(expr: Extract<Expression, { kind: "ScopeTraversal" }>): Reference | null {
  const steps = expr.traversal;
  const root = steps[0] as Extract<Traverser, { kind: "TraverseRoot" }>;
  const make = (kind: RefKind, n: number): Reference => {
    // The text of a traversal is its steps' texts in a row.
    const address = traversalText(steps.slice(0, n));
    const path = n < steps.length ? traversalText(steps.slice(n)) : "";
    return { kind, address, path, text: address + path, range: expr.range, expr };
  };
  const attrAt = (i: number) => steps[i]?.kind === "TraverseAttr";
  if (root.name === "self") return make("self", 1);
  const simple = SIMPLE_ROOTS[root.name];
  if (simple) return attrAt(1) ? make(simple, 2) : null;
  if (root.name === "data") return attrAt(1) && attrAt(2) ? make("data", 3) : null;
  if (attrAt(1)) return make("resource", 2);
  return null;
}

// ------------------------------------------------------- body expressions

interface Skip {
  attrs: ReadonlySet<string>;
  blocks: ReadonlySet<string>;
}
const NO_SKIP: Skip = { attrs: new Set(), blocks: new Set() };
/** Data flow of a resource: no meta-arguments that are not values. */
const RESOURCE_DATA_SKIP: Skip = { attrs: new Set(["provider", "depends_on"]), blocks: new Set(["lifecycle"]) };
/** Every reference of a resource except lifecycle (handled separately). */
const RESOURCE_ALL_SKIP: Skip = { attrs: new Set(["provider"]), blocks: new Set(["lifecycle"]) };
const OUTPUT_SKIP: Skip = NO_SKIP;
const MODULE_SKIP: Skip = { attrs: new Set(["source", "version", "providers"]), blocks: new Set() };
const PROVIDER_SKIP: Skip = { attrs: new Set(["alias"]), blocks: new Set() };

/**
 * Attribute expressions of a body, recursively, each with its scope:
 * inside `dynamic "x" { content { ... } }` the iterator name is bound to the
 * dynamic block's `for_each`. Blocks nest without limit: an explicit stack
 * of bodies and dynamic blocks still to read, popped in source order.
 */
function bodyExprs(body: Body, scope: Scope, skip: Skip): { expr: Expression; scope: Scope }[] {
  const out: { expr: Expression; scope: Scope }[] = [];
  const stack: { body: Body; dynamic: Block | null; scope: Scope; top: boolean }[] = [{ body, dynamic: null, scope, top: true }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (task.dynamic !== null) {
      const inner = dynamicExprs(task.dynamic, task.scope, out);
      const contents = blocksOf(task.dynamic.body, "content");
      for (let i = contents.length - 1; i >= 0; i--) stack.push({ body: contents[i]!.body, dynamic: null, scope: inner, top: false });
      continue;
    }
    const { top } = task;
    for (const a of task.body.attributes) {
      if (top && (skip.attrs.has(a.name) || skip.blocks.has(a.name))) continue;
      out.push({ expr: a.expr, scope: task.scope });
    }
    const blocks = task.body.blocks;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const b = blocks[i]!;
      if (top && skip.blocks.has(b.type)) continue;
      if (b.type === "dynamic") stack.push({ body: b.body, dynamic: b, scope: task.scope, top: false });
      else stack.push({ body: b.body, dynamic: null, scope: task.scope, top: false });
    }
  }
  return out;
}

/** The `for_each` and `labels` of a `dynamic` block, appended to `out`; the scope of its `content` (the iterator bound). */
function dynamicExprs(b: Block, scope: Scope, out: { expr: Expression; scope: Scope }[]): Scope {
  const forEach = b.body.attributes.find((a) => a.name === "for_each") ?? null;
  const iterAttr = b.body.attributes.find((a) => a.name === "iterator") ?? null;
  let name = b.labels[0] ?? null;
  if (iterAttr) {
    const e = unwrap(iterAttr.expr);
    if (e.kind === "ScopeTraversal" && e.traversal.length === 1 && e.traversal[0]!.kind === "TraverseRoot") name = e.traversal[0]!.name;
    else name = constString(e) ?? name;
  }
  if (forEach) out.push({ expr: forEach.expr, scope });
  const inner = name && forEach ? bind(scope, [name], forEach.expr) : name ? bind(scope, [name]) : scope;
  for (const a of b.body.attributes) {
    if (a.name === "labels") out.push({ expr: a.expr, scope: inner });
  }
  return inner;
}

function lifecycleReferenceExprs(r: Resource): Expression[] {
  const out: Expression[] = [...r.lifecycle.replaceTriggeredBy];
  for (const c of [...r.lifecycle.preconditions, ...r.lifecycle.postconditions]) {
    for (const a of c.body.attributes) out.push(a.expr);
  }
  return out;
}

/**
 * The plain traversals an expression may evaluate to unchanged: itself, the
 * branches of a conditional, the arguments of `try`/`coalesce`.
 */
function aliasTargets(expr: Expression): Extract<Expression, { kind: "ScopeTraversal" }>[] {
  // Conditionals nest without limit: an explicit stack, popped in source order.
  const out: Extract<Expression, { kind: "ScopeTraversal" }>[] = [];
  const stack: Expression[] = [expr];
  while (stack.length > 0) {
    const e = unwrap(stack.pop()!);
    if (e.kind === "ScopeTraversal") out.push(e);
    else if (e.kind === "Conditional") stack.push(e.falseResult, e.trueResult);
    else if (e.kind === "FunctionCall" && (e.name === "try" || e.name === "coalesce")) {
      for (let i = e.args.length - 1; i >= 0; i--) stack.push(e.args[i]!);
    }
  }
  return out;
}

// ----------------------------------------------------------------- targets

/** Split `var.a.b` / `data.t.n.id` / `aws_x.y[0]` into address and path. */
function parseTarget(target: string): { address: string; path: string } | null {
  const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(target);
  if (!m) return null;
  const segs: string[] = [m[0]];
  let rest = target.slice(m[0].length);
  const n = m[0] === "data" ? 3 : m[0] === "self" ? 1 : 2;
  while (segs.length < n) {
    const s = /^\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(rest);
    if (!s) return null;
    segs.push(s[1]!);
    rest = rest.slice(s[0].length);
  }
  return { address: segs.join("."), path: normalizePath(rest) };
}

/** `["enabled"]` -> `.enabled` so both spellings compare equal. */
function normalizePath(path: string): string {
  if (!path.includes('["')) return path;
  return path.replace(/\["([A-Za-z_][A-Za-z0-9_-]*)"\]/g, ".$1");
}

function hasPathPrefix(path: string, prefix: string): boolean {
  if (prefix === "") return true;
  if (!path.startsWith(prefix)) return false;
  const next = path[prefix.length];
  return next === undefined || next === "." || next === "[";
}


/**
 * What values an expression can take: which object constructors it can
 * evaluate to, which elements a list value holds, and which literal values
 * an attribute can take. Everything here looks only through forms a careful
 * author writes (parentheses, `"${x}"`, exact `local.x` references,
 * conditionals, `try`, `coalesce`, `(non)sensitive`, `merge` of objects,
 * `concat`/`flatten`/`tolist`, `for` results and their variables, `lookup`
 * in a literal map); anything else is unknown and yields nothing, so rules
 * stay silent on it. Each conditional branch knows what its condition tells
 * (guards.ts): under `x != null ? A : B`, `x` is not null in `A`.
 *
 * A site inside a resource made by `resourceSite` (iteration.ts) is
 * evaluated one instance at a time, with `each`, `count` and `dynamic`
 * iterators bound, and looks deeper (traversals into locals and resources,
 * indexes, templates, `format`): see iteration.ts. Sites without `iter` are
 * evaluated as described above, unchanged. This file does not import
 * iteration.ts: it calls the hooks the site's scope carries
 * (`site.iter.resolver`, sites.ts), and iteration.ts calls back in.
 */
import type { Expression, ForExpr, FunctionCall, ObjectCons, Range, ScopeTraversal } from "../hcl/ast.js";
import { constantValue, expressionKey, isNullLiteral, objectKeyName, type ConstValue, unwrap, walkExpression } from "../hcl/walk.js";
import { factRoot, factsUnder, filterFacts, joinFacts } from "./guards.js";
import type { Module } from "../terraform/module-types.js";
import { localNameOf } from "./references.js";
import type { Binding, Budget, Element, ExpandOptions, IterScope, Site } from "./sites.js";

export type { Binding, Budget, Element, ExpandOptions, Site, TrailHop } from "./sites.js";

/** Roots of names that mean the same thing everywhere in a module (not `for` variables). */
const GLOBAL_ROOTS = new Set(["local", "var", "module", "data", "path", "terraform"]);

/** Deep local chains or self-referencing values stop here (nothing is reported past it). */
const MAX_DEPTH = 200;
/**
 * Expansion steps per question: locals that each branch twice into the next
 * would otherwise take exponential time. Stopping early only drops
 * alternatives, so whatever is reported stays certain.
 */
const MAX_STEPS = 5000;

/** @internal The step limit of one question. */
export const STEP_LIMIT = MAX_STEPS;

/** Functions whose result is one of their arguments. */
const PICK_ONE = new Set(["try", "coalesce"]);
/** Functions whose single argument passes through unchanged. */
const PASS_THROUGH = new Set(["nonsensitive", "sensitive"]);
/** List functions whose elements are the elements of their (list) arguments. */
const LIST_UNION = new Set(["concat", "tolist", "coalescelist"]);

function isSkippedByCoalesce(e: Expression): boolean {
  const c = constantValue(e);
  return c.known && (c.value === null || c.value === "");
}

/** Follow `local.x` (possibly parenthesised); null when `site` is not one or the local is unknown / cyclic. */
export function followLocal(module: Module, site: Site): Site | null {
  const name = localNameOf(unwrap(site.expr));
  if (name === null) return null;
  const local = module.locals.get(name);
  const address = `local.${name}`;
  if (!local || site.via.includes(address)) return null;
  // A local's value is evaluated on its own: no `for` variables are in scope,
  // but what is known of module-wide names still holds.
  const facts = filterFacts(site.facts, (k) => GLOBAL_ROOTS.has(factRoot(k)));
  return { expr: local.value, file: local.file, via: [...site.via, address], ...(facts ? { facts } : {}), ...(site.conditions ? { conditions: site.conditions } : {}), ...(site.iter ? { iter: site.iter.resolver.empty, trail: [...(site.trail ?? []), { file: local.file, range: local.value.range, message: address }] } : {}) };
}

/** Parentheses and exact local references only: the one value `site` certainly is. */
export function resolveStrict(module: Module, site: Site): Site {
  let cur: Site = { ...site, expr: unwrap(site.expr) };
  for (let i = 0; i < MAX_DEPTH; i++) {
    const next = followLocal(module, cur);
    if (!next) return cur;
    cur = { ...next, expr: unwrap(next.expr) };
  }
  return cur;
}

/**
 * The expressions `site` may evaluate to, each a leaf that is not itself
 * one of the forms looked through. A conditional whose condition is a
 * constant contributes only its live branch.
 */
export function alternatives(module: Module, site: Site, opts: ExpandOptions = {}): Site[] {
  const budget: Budget = { steps: 0 };
  if (!site.iter) return alternativesWithin(module, site, opts, budget);
  // One instance at a time, so that `each.key` and `each.value` stay together.
  const out: Site[] = [];
  try {
    for (const s of site.iter.resolver.split(module, site, budget)) expand(module, s, opts, out, 0, budget);
  } catch (err) {
    // Iteration through resources nested too deep for the stack: what was
    // found so far are alternatives; the others are dropped.
    if (!(err instanceof RangeError)) throw err;
  }
  return distinctSites(out);
}

const bindingIds = new WeakMap<object, number>();
let nextBindingId = 1;

/** A number per iteration binding set, so that leaves evaluated under different bindings stay apart. */
function bindingId(site: Site): number {
  const names = site.iter?.names;
  if (!names || names.size === 0) return 0;
  let id = bindingIds.get(names);
  if (id === undefined) {
    id = nextBindingId++;
    bindingIds.set(names, id);
  }
  return id;
}

/** Whether `site`'s expression mentions a name its iteration binds (`each`, an iterator, a fixed `for` variable). */
function readsBoundName(site: Site): boolean {
  const names = site.iter?.names;
  if (!names || names.size === 0) return false;
  let found = false;
  walkExpression(site.expr, (e) => {
    if (found) return false;
    if (e.kind === "AnonSymbol") found = true;
    else if (e.kind === "ScopeTraversal") {
      const root = e.traversal[0];
      if (root && root.kind === "TraverseRoot" && names.has(root.name)) found = true;
    }
    return !found;
  }, false);
  return found;
}

/** Leaves whose parts a rule may evaluate further (under the leaf's bindings). */
const COMPOUND = new Set(["Template", "For", "ObjectCons", "TupleCons", "FunctionCall", "Splat", "BinaryOp", "UnaryOp"]);

/**
 * Sites without repeats (instances of one resource often reach the same
 * leaf): the same literal or reference at the same place is one; a compound
 * leaf is kept once per binding of the iteration names.
 */
function distinctSites(sites: Site[]): Site[] {
  const seen = new Set<string>();
  const out: Site[] = [];
  for (const s of sites) {
    const k0 = constantValue(s.expr);
    const c = k0.known ? JSON.stringify(k0.value) : COMPOUND.has(s.expr.kind) && readsBoundName(s) ? `#${bindingId(s)}` : "";
    const k = `${s.file.path}:${s.expr.range.start.offset}:${s.expr.range.end.offset}:${s.expr.kind}:${c}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(s);
  }
  return out;
}

/** @internal The alternatives of `site` within one question's budget. */
export function alternativesWithin(module: Module, site: Site, opts: ExpandOptions, budget: Budget): Site[] {
  const out: Site[] = [];
  expand(module, site, opts, out, 0, budget);
  return out;
}

/** @internal Expand `site` into `out` (iteration.ts calls back into the expansion). */
export function expandInto(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  expand(module, site, opts, out, depth, budget);
}

function expand(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): void {
  const e = unwrap(site.expr);
  const here: Site = { ...site, expr: e };
  if (depth > MAX_DEPTH || ++budget.steps > MAX_STEPS) return;
  const key = site.facts && site.facts.nonNull.size > 0 ? expressionKey(e) : null;
  if (key !== null && site.facts!.nonNull.has(key)) {
    // Guarded by `x != null`: x takes every value it may take but null.
    const facts = filterFacts(site.facts, (k) => k !== key);
    const sub: Site[] = [];
    expand(module, { ...here, ...(facts ? { facts } : { facts: undefined }) }, opts, sub, depth + 1, budget);
    for (const x of sub) if (!isNullLiteral(x.expr)) out.push(x);
    return;
  }
  if (here.iter && here.iter.resolver.expand(module, here, opts, out, depth, budget)) return;
  if (e.kind === "ScopeTraversal" && iterationValues(module, here, e, opts, out, depth, budget)) return;
  const local = followLocal(module, here);
  if (local) {
    expand(module, local, opts, out, depth + 1, budget);
    return;
  }
  if (localNameOf(e) !== null) {
    // An undeclared or cyclic local: unknown.
    out.push(here);
    return;
  }
  switch (e.kind) {
    case "Conditional": {
      // A condition that is a constant, also through locals (`local.debug = false`).
      const c = constantValue(resolveStrict(module, { ...here, expr: e.condition }).expr);
      if (c.known && typeof c.value === "boolean") {
        expand(module, { ...here, expr: c.value ? e.trueResult : e.falseResult }, opts, out, depth + 1, budget);
        return;
      }
      // Each branch knows what its condition tells (`x != null ? x.a : null`), and which condition selects it when asked.
      expand(module, { ...here, expr: e.trueResult, facts: joinFacts(here.facts, factsUnder(e.condition, true)), ...selectedBy(here, e.condition, true) }, opts, out, depth + 1, budget);
      expand(module, { ...here, expr: e.falseResult, facts: joinFacts(here.facts, factsUnder(e.condition, false)), ...selectedBy(here, e.condition, false) }, opts, out, depth + 1, budget);
      return;
    }
    case "FunctionCall": {
      if (e.expandFinal) break;
      if (PICK_ONE.has(e.name) && e.args.length > 0) {
        // Under `can(x) ? try(x, d) : ...` the first argument succeeds: no fallback is taken.
        const first = e.name === "try" && here.facts ? expressionKey(e.args[0]!) : null;
        if (first !== null && here.facts!.succeeds.has(first)) {
          expand(module, { ...here, expr: e.args[0]! }, opts, out, depth + 1, budget);
          return;
        }
        for (const a of e.args) {
          if (e.name === "try" && here.iter && here.iter.resolver.tryFirstSucceeds(module, { ...here, expr: a }, opts, out, depth + 1, budget)) return;
          const sub: Site[] = [];
          expand(module, { ...here, expr: a }, opts, sub, depth + 1, budget);
          // coalesce() never returns null or "": it skips them.
          for (const x of sub) if (!(e.name === "coalesce" && isSkippedByCoalesce(x.expr))) out.push(x);
          // A constant argument never fails (try) and, unless null or "",
          // is never skipped (coalesce): the arguments after it are never returned.
          const c = constantValue(resolveStrict(module, { ...here, expr: a }).expr);
          if (c.known && !(e.name === "coalesce" && (c.value === null || c.value === ""))) break;
        }
        return;
      }
      if (PASS_THROUGH.has(e.name) && e.args.length === 1) {
        expand(module, { ...here, expr: e.args[0]! }, opts, out, depth + 1, budget);
        return;
      }
      if (opts.scalar && e.name === "lookup" && (e.args.length === 2 || e.args.length === 3)) {
        mapValues(module, { ...here, expr: e.args[0]! }, e.args[1]!, out, depth, budget);
        if (e.args.length === 3) expand(module, { ...here, expr: e.args[2]! }, opts, out, depth + 1, budget);
        return;
      }
      break;
    }
    case "Index":
      if (opts.scalar) {
        const before = out.length;
        mapValues(module, { ...here, expr: e.collection }, e.key, out, depth, budget);
        if (out.length > before) return;
      }
      break;
    default:
      break;
  }
  out.push(here);
}

/** The iteration scope without `names` (a `for` rebinds them). */
function withoutNames(iter: IterScope, names: readonly (string | null)[]): IterScope {
  if (!names.some((n) => n !== null && iter.names.has(n))) return iter;
  const m = new Map(iter.names);
  for (const n of names) if (n !== null) m.delete(n);
  return { ...iter, names: m };
}

/** The conditions of a branch of `site`'s conditional, for a site that keeps them (`Site.conditions`). */
function selectedBy(site: Site, condition: Expression, holds: boolean): Pick<Site, "conditions"> | null {
  return site.conditions ? { conditions: [...site.conditions, { expr: condition, file: site.file, holds, via: site.via }] } : null;
}

/**
 * The body of a `for` expression: its value variable takes the elements of
 * the collection (with an `if` clause, those that may pass it), and the
 * body knows what the `if` clause tells.
 */
export function forBody(site: Site, e: ForExpr, body: Expression): Site {
  const scope = new Map(site.scope ?? []);
  const collection: Site = { ...site, expr: e.collection };
  if (e.keyVar) scope.set(e.keyVar, site.iter ? { collection, name: e.keyVar, condition: e.condition, keyOf: e.valVar } : null);
  scope.set(e.valVar, { collection, name: e.valVar, condition: e.condition });
  const rebound = (k: string): boolean => factRoot(k) !== e.valVar && factRoot(k) !== e.keyVar;
  const outer = filterFacts(site.facts, rebound);
  const facts = e.condition ? joinFacts(outer, factsUnder(e.condition, true)) : outer;
  const iter = site.iter ? withoutNames(site.iter, [e.valVar, e.keyVar]) : undefined;
  return { ...site, expr: body, scope, facts, ...(iter ? { iter } : {}) };
}

/**
 * An element `a` for which the `if` clause is certainly false: the clause
 * compares `a` (or `a.attr`) with a constant (`a.address != null`,
 * `zone != ""`) and every value the element gives it is a known constant.
 */
function filteredOut(module: Module, binding: Binding, element: Site, budget: Budget): boolean {
  const cond = binding.condition;
  if (cond === null) return false;
  const c = unwrap(cond);
  if (c.kind !== "BinaryOp" || (c.op !== "!=" && c.op !== "==")) return false;
  const lc = constantValue(c.lhs);
  const rc = constantValue(c.rhs);
  const [side, constant] = rc.known ? [unwrap(c.lhs), rc] : lc.known ? [unwrap(c.rhs), lc] : [null, null];
  if (side === null || !constant?.known || side.kind !== "ScopeTraversal") return false;
  const [root, attr, ...rest] = side.traversal;
  if (root?.kind !== "TraverseRoot" || root.name !== binding.name || rest.length > 0) return false;
  let values: Site[];
  if (attr === undefined) values = alternativesWithin(module, element, {}, budget);
  else if (attr.kind !== "TraverseAttr") return false;
  else {
    const alts = alternativesWithin(module, element, {}, budget);
    if (alts.length !== 1 || alts[0]!.expr.kind !== "ObjectCons") return false;
    const value = viewOfObject(alts[0]!, alts[0]!.expr, false).attrs.get(attr.name);
    if (!value) return false;
    values = alternativesWithin(module, value, {}, budget);
  }
  if (values.length === 0 || budget.steps > MAX_STEPS) return false;
  const wanted = JSON.stringify(constant.value);
  const consts = values.map((v) => constantValue(v.expr));
  if (consts.some((k) => !k.known)) return false;
  const equal = consts.map((k) => k.known && JSON.stringify(k.value) === wanted);
  return c.op === "!=" ? equal.every(Boolean) : !equal.some(Boolean);
}

/**
 * `x` or `x.attr` where `x` is a `for` value variable: the values are the
 * collection's elements (or their `attr`). Returns false when `e` is not a
 * bound name (the caller goes on); a bound name that cannot be followed
 * adds nothing (unknown).
 */
function iterationValues(module: Module, site: Site, e: ScopeTraversal, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean {
  const root = e.traversal[0];
  if (!root || root.kind !== "TraverseRoot" || !site.scope?.has(root.name)) return false;
  const binding = site.scope.get(root.name);
  if (!binding || binding.keyOf !== undefined) return true;
  const steps = e.traversal.slice(1);
  if (steps.length > 1 || (steps.length === 1 && steps[0]!.kind !== "TraverseAttr")) return true;
  const attr = steps.length === 1 && steps[0]!.kind === "TraverseAttr" ? steps[0]!.name : null;
  const elements: Element[] = [];
  collectElements(module, binding.collection, elements, depth + 1, false, budget);
  for (const el of elements) {
    if (filteredOut(module, binding, el.site, budget)) continue;
    if (attr === null) {
      expand(module, el.site, opts, out, depth + 1, budget);
      continue;
    }
    for (const alt of alternativesWithin(module, el.site, {}, budget)) {
      for (const view of objectViewsOf(module, alt, el.fromFor, depth + 1, budget)) {
        const value = view.attrs.get(attr);
        if (value) expand(module, value, opts, out, depth + 1, budget);
      }
    }
  }
  return true;
}

/**
 * The values a literal map (object constructor) `site` resolves to may
 * yield for `key`: the one under a constant key, else every value.
 */
function mapValues(module: Module, site: Site, key: Expression, out: Site[], depth: number, budget: Budget): void {
  const k = constantValue(resolveStrict(module, { ...site, expr: key }).expr);
  const wanted = k.known && (typeof k.value === "string" || typeof k.value === "number") ? String(k.value) : undefined;
  for (const alt of alternativesWithin(module, site, {}, budget)) {
    if (alt.expr.kind !== "ObjectCons") continue;
    for (const item of alt.expr.items) {
      if (wanted !== undefined && objectKeyName(item) !== wanted) continue;
      expand(module, { ...alt, expr: item.value }, { scalar: true }, out, depth + 1, budget);
    }
  }
}

// ----------------------------------------------------------------- values

export type ValueKind = "string" | "number" | "bool" | "null" | "list" | "object" | "unknown";

export interface Classified {
  kind: ValueKind;
  /** The constant value when known (scalars only). */
  value?: string | number | boolean | null;
}

function kindOf(v: ConstValue): ValueKind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "object";
  return typeof v === "string" ? "string" : typeof v === "number" ? "number" : "bool";
}

/**
 * The type of a leaf written as a literal: a literal value, a template
 * (always a string, constant or not), a tuple / `[for]` (list), an object
 * constructor / `{for}` (object), or an operator over constants. Anything
 * else (references, calls) is "unknown".
 */
export function classify(expr: Expression): Classified {
  const e = unwrap(expr);
  switch (e.kind) {
    case "LiteralValue":
      return { kind: e.type === "string" ? "string" : e.type === "number" ? "number" : e.type === "bool" ? "bool" : "null", value: e.value };
    case "Template": {
      const c = constantValue(e);
      return c.known && typeof c.value === "string" ? { kind: "string", value: c.value } : { kind: "string" };
    }
    case "TupleCons":
      return { kind: "list" };
    case "ObjectCons":
      return { kind: "object" };
    case "For":
      return { kind: e.form === "tuple" ? "list" : "object" };
    case "UnaryOp":
    case "BinaryOp":
    case "Conditional": {
      const c = constantValue(e);
      if (!c.known) return { kind: "unknown" };
      const kind = kindOf(c.value);
      return kind === "list" || kind === "object" ? { kind } : { kind, value: c.value as string | number | boolean | null };
    }
    default:
      return { kind: "unknown" };
  }
}

/** Each literal alternative of an attribute value, with its type. Unknown leaves are dropped. */
export function literalAlternatives(module: Module, site: Site): (Site & Classified)[] {
  const out: (Site & Classified)[] = [];
  for (const alt of alternatives(module, site, { scalar: true })) {
    const c = classify(alt.expr);
    if (c.kind !== "unknown") out.push({ ...alt, ...c });
  }
  return out;
}

// ---------------------------------------------------------------- objects

/** An object a value may evaluate to, with the attributes it certainly has. */
export interface ObjectView {
  /** The object constructor or `merge(...)` call (where missing attributes are reported). */
  site: Site;
  range: Range;
  /** True when every attribute is known: a missing attribute is certainly missing. */
  complete: boolean;
  /** Attributes whose final value is known, by name. */
  attrs: Map<string, Site>;
  /** True when the object is the result of a `for` expression (one per element). */
  fromFor: boolean;
}

function viewOfObject(site: Site, obj: ObjectCons, fromFor: boolean): ObjectView {
  const attrs = new Map<string, Site>();
  let complete = true;
  for (const item of obj.items) {
    const name = objectKeyName(item);
    if (name === null) {
      // A computed key may name any attribute, including one listed before it.
      complete = false;
      attrs.clear();
      continue;
    }
    attrs.set(name, { ...site, expr: item.value });
  }
  return { site, range: obj.range, complete, attrs, fromFor };
}

function viewOfMerge(module: Module, site: Site, call: FunctionCall, fromFor: boolean, depth: number, budget: Budget): ObjectView {
  const attrs = new Map<string, Site>();
  let complete = true;
  for (const arg of call.args) {
    const argSite: Site = { ...site, expr: arg };
    if (isNullLiteral(arg)) continue;
    const alts = alternativesWithin(module, argSite, {}, budget);
    // Out of budget, the list of alternatives may be cut short: not known to be the only one.
    const views = alts.length === 1 && budget.steps <= MAX_STEPS ? objectViewsOf(module, alts[0]!, fromFor, depth + 1, budget) : [];
    if (views.length !== 1) {
      // Unknown argument: it may add or override any attribute.
      complete = false;
      attrs.clear();
      continue;
    }
    const v = views[0]!;
    if (!v.complete) {
      complete = false;
      attrs.clear();
    }
    for (const [k, s] of v.attrs) attrs.set(k, s);
  }
  return { site, range: call.range, complete, attrs, fromFor };
}

function objectViewsOf(module: Module, alt: Site, fromFor: boolean, depth: number, budget: Budget): ObjectView[] {
  if (depth > MAX_DEPTH) return [];
  const e = alt.expr;
  if (e.kind === "ObjectCons") return [viewOfObject(alt, e, fromFor)];
  if (e.kind === "FunctionCall" && e.name === "merge" && !e.expandFinal && e.args.length > 0) {
    return [viewOfMerge(module, alt, e, fromFor, depth, budget)];
  }
  return [];
}

/** The objects `site` may evaluate to (object constructors and merges of them). */
export function objectViews(module: Module, site: Site, fromFor = false): ObjectView[] {
  const out: ObjectView[] = [];
  const budget: Budget = { steps: 0 };
  try {
    for (const s of site.iter?.pending ? site.iter.resolver.split(module, site, budget) : [site]) {
      for (const alt of alternativesWithin(module, s, {}, budget)) out.push(...objectViewsOf(module, alt, fromFor, 0, budget));
    }
  } catch (err) {
    if (!(site.iter && err instanceof RangeError)) throw err;
  }
  return out;
}

// ------------------------------------------------------------------ lists

/** The elements `site` (a list value) may hold: tuple elements, `for` results, through concat/flatten/conditionals. */
export function listElements(module: Module, site: Site): Element[] {
  const out: Element[] = [];
  const budget: Budget = { steps: 0 };
  try {
    for (const s of site.iter?.pending ? site.iter.resolver.split(module, site, budget) : [site]) collectElements(module, s, out, 0, false, budget);
  } catch (err) {
    if (!(site.iter && err instanceof RangeError)) throw err;
  }
  return out;
}

function collectElements(module: Module, site: Site, out: Element[], depth: number, flatten: boolean, budget: Budget): void {
  if (depth > MAX_DEPTH || budget.steps > MAX_STEPS) return;
  for (const alt of alternativesWithin(module, site, {}, budget)) {
    const e = alt.expr;
    if (e.kind === "TupleCons") {
      for (const x of e.exprs) pushElement(module, { ...alt, expr: x }, false, out, depth, flatten, budget);
    } else if (alt.iter && !(e.kind === "FunctionCall" && (LIST_UNION.has(e.name) || e.name === "flatten"))) {
      // Iteration mode: one element per entry, each with its variables bound (iteration.ts).
      for (const el of alt.iter.resolver.elements(module, alt, depth + 1, budget)) pushElement(module, el.site, el.fromFor, out, depth, flatten, budget);
    } else if (e.kind === "For" && e.form === "tuple") {
      pushElement(module, forBody(alt, e, e.valExpr), true, out, depth, flatten, budget);
    } else if (e.kind === "FunctionCall" && !e.expandFinal && (LIST_UNION.has(e.name) || e.name === "flatten")) {
      const inner = flatten || e.name === "flatten";
      for (const a of e.args) collectElements(module, { ...alt, expr: a }, out, depth + 1, inner, budget);
    }
  }
}

function isListForm(e: Expression): boolean {
  return (
    e.kind === "TupleCons" ||
    (e.kind === "For" && e.form === "tuple") ||
    (e.kind === "FunctionCall" && (LIST_UNION.has(e.name) || e.name === "flatten"))
  );
}

function pushElement(module: Module, el: Site, fromFor: boolean, out: Element[], depth: number, flatten: boolean, budget: Budget): void {
  if (flatten && alternativesWithin(module, el, {}, budget).some((a) => isListForm(a.expr))) {
    // flatten() splices nested lists in: their elements are the elements.
    collectElements(module, el, out, depth + 1, true, budget);
    return;
  }
  out.push({ site: el, fromFor });
}

/**
 * The elements a list value holds on every evaluation, for each way the
 * list may be written: tuple elements, also through `concat`/`tolist`
 * and locals; conditional branches and `try` fallbacks are separate lists.
 * `for` results are never certain (they may repeat or vanish).
 */
export function certainLists(module: Module, site: Site): Site[][] {
  const lists: Site[][] = [];
  const budget: Budget = { steps: 0 };
  const sites = site.iter?.pending ? site.iter.resolver.split(module, site, budget) : [site];
  for (const alt of sites.flatMap((s) => alternativesWithin(module, s, {}, budget))) {
    const elems = certainElements(module, alt, 0, budget);
    if (elems) lists.push(elems);
  }
  return lists;
}

function certainElements(module: Module, site: Site, depth: number, budget: Budget): Site[] | null {
  if (depth > MAX_DEPTH || ++budget.steps > MAX_STEPS) return null;
  const s = resolveStrict(module, site);
  const e = s.expr;
  if (e.kind === "TupleCons") return e.exprs.map((x) => ({ ...s, expr: x }));
  if (e.kind === "FunctionCall" && !e.expandFinal && (e.name === "concat" || e.name === "tolist")) {
    const out: Site[] = [];
    for (const a of e.args) out.push(...(certainElements(module, { ...s, expr: a }, depth + 1, budget) ?? []));
    return out;
  }
  return null;
}

/** The object constructor an element certainly is (parentheses and locals only), or null. */
export function certainObject(module: Module, site: Site): { site: Site; obj: ObjectCons } | null {
  const s = resolveStrict(module, site);
  return s.expr.kind === "ObjectCons" ? { site: s, obj: s.expr } : null;
}

/** The constant string an expression certainly is (parentheses and locals only), or null. */
export function certainString(module: Module, site: Site): string | null {
  const s = resolveStrict(module, site);
  const c = classify(s.expr);
  return c.kind === "string" && typeof c.value === "string" ? c.value : null;
}

// --------------------------------------------------------------- messages

/** A short rendering of a literal for messages: `"Running"`, `1`, `true`, `null`, `a list`. */
export function describeLiteral(c: Classified): string {
  if (c.value !== undefined) return c.value === null ? "null" : typeof c.value === "string" ? JSON.stringify(c.value) : String(c.value);
  switch (c.kind) {
    case "string":
      return "a string";
    case "list":
      return "a list";
    case "object":
      return "an object";
    case "number":
      return "a number";
    case "bool":
      return "a bool";
    default:
      return "a value";
  }
}

/** Number of characters (code points), as Kubernetes counts a string's length. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

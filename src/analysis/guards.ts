/**
 * Which condition guards an expression, and what it tells: inside
 * `x != null ? A : B` the value `x` is not null in `A`; inside
 * `can(x) ? A : B` evaluating `x` succeeds in `A`; inside
 * `length(x) > 0 ? A : B` `x` is neither null nor empty in `A` (so `x[0]`
 * succeeds). Facts are keyed by `expressionKey` (the same text for the same
 * expression wherever it is written).
 */
import type { Block, Body, Expression, TemplatePart } from "../hcl/ast.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { Resource } from "../terraform/module-types.js";
import { constantValue, expressionKey, isNullLiteral, unwrap, walkExpression, walkTemplateParts } from "../hcl/walk.js";

/** What is known about expressions in one branch. */
export interface Facts {
  /** Expressions that are certainly not null here. */
  readonly nonNull: ReadonlySet<string>;
  /** Expressions whose evaluation certainly succeeds here (`try(x, d)` is `x`). */
  readonly succeeds: ReadonlySet<string>;
}

export const NO_FACTS: Facts = { nonNull: new Set(), succeeds: new Set() };

function numberOf(e: Expression): number | null {
  const c = constantValue(e);
  return c.known && typeof c.value === "number" ? c.value : null;
}

/** `length(x)` -> x. */
function lengthArg(e: Expression): Expression | null {
  const u = unwrap(e);
  return u.kind === "FunctionCall" && u.name === "length" && u.args.length === 1 && !u.expandFinal ? u.args[0]! : null;
}

/** `try(x, null)` (every fallback null) -> x. */
function tryOrNullArg(e: Expression): Expression | null {
  const u = unwrap(e);
  if (u.kind !== "FunctionCall" || u.name !== "try" || u.args.length < 2 || u.expandFinal) return null;
  return u.args.slice(1).every(isNullLiteral) ? u.args[0]! : null;
}

/**
 * Is `length(x) OP n` (or `n OP length(x)`) the test "x is not empty" when
 * it `holds`? Returns x, or null.
 */
function nonEmptyTest(e: Expression, holds: boolean): Expression | null {
  const u = unwrap(e);
  if (u.kind !== "BinaryOp") return null;
  let op = u.op;
  let len = lengthArg(u.lhs);
  let n = numberOf(u.rhs);
  if (len === null) {
    len = lengthArg(u.rhs);
    n = numberOf(u.lhs);
    const flipped: Record<string, typeof op> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };
    op = flipped[op] ?? op;
  }
  if (len === null || n === null) return null;
  const nonEmptyWhenTrue = (op === ">" && n >= 0) || (op === ">=" && n >= 1) || (op === "!=" && n === 0);
  // `length(x) < n` false means length(x) >= n: not empty when n >= 1.
  const nonEmptyWhenFalse = (op === "==" && n === 0) || (op === "<" && n >= 1) || (op === "<=" && n >= 0);
  return (holds ? nonEmptyWhenTrue : nonEmptyWhenFalse) ? len : null;
}

function collect(cond: Expression, holds: boolean, nonNull: Set<string>, succeeds: Set<string>, depth: number): void {
  if (depth > 32) return;
  const e = unwrap(cond);
  const add = (set: Set<string>, x: Expression): void => {
    const k = expressionKey(x);
    if (k !== null) set.add(k);
  };
  if (e.kind === "UnaryOp" && e.op === "!") {
    collect(e.operand, !holds, nonNull, succeeds, depth + 1);
    return;
  }
  if (e.kind === "BinaryOp") {
    if ((e.op === "&&" && holds) || (e.op === "||" && !holds)) {
      collect(e.lhs, holds, nonNull, succeeds, depth + 1);
      collect(e.rhs, holds, nonNull, succeeds, depth + 1);
      return;
    }
    if ((e.op === "!=" && holds) || (e.op === "==" && !holds)) {
      const other = isNullLiteral(e.rhs) ? e.lhs : isNullLiteral(e.lhs) ? e.rhs : null;
      if (other !== null) {
        add(nonNull, other);
        const inner = tryOrNullArg(other);
        if (inner !== null) {
          add(nonNull, inner);
          add(succeeds, inner);
        }
        return;
      }
    }
    const list = nonEmptyTest(e, holds);
    if (list !== null) {
      add(nonNull, list);
      add(succeeds, list);
      const k = expressionKey(list);
      if (k !== null) succeeds.add(`${k}[0]`);
    }
    return;
  }
  if (e.kind === "FunctionCall" && e.name === "can" && e.args.length === 1 && !e.expandFinal && holds) add(succeeds, e.args[0]!);
}

/** The facts that hold where `cond` evaluated to `holds`. */
export function factsUnder(cond: Expression, holds: boolean): Facts {
  const nonNull = new Set<string>();
  const succeeds = new Set<string>();
  collect(cond, holds, nonNull, succeeds, 0);
  return { nonNull, succeeds };
}

/** Both sets of facts. */
export function joinFacts(a: Facts | undefined, b: Facts): Facts {
  if (!a || (a.nonNull.size === 0 && a.succeeds.size === 0)) return b;
  if (b.nonNull.size === 0 && b.succeeds.size === 0) return a;
  return { nonNull: new Set([...a.nonNull, ...b.nonNull]), succeeds: new Set([...a.succeeds, ...b.succeeds]) };
}

/** The facts without those about `names` (names a `for` rebinds) or, with `keep`, only those `keep` accepts. */
export function filterFacts(facts: Facts | undefined, keep: (key: string) => boolean): Facts | undefined {
  if (!facts) return undefined;
  const nonNull = new Set([...facts.nonNull].filter(keep));
  const succeeds = new Set([...facts.succeeds].filter(keep));
  return nonNull.size === 0 && succeeds.size === 0 ? undefined : { nonNull, succeeds };
}

/** The root name of a fact key: `local.x.y` -> `local`, `a.address` -> `a`. */
export function factRoot(key: string): string {
  const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(key);
  return m ? m[0] : "";
}

// ------------------------------------------------ conditions that gate a value

/** The conditions of the `%{ if }` directives in template parts, in source order. */
function templateIfConditions(top: readonly TemplatePart[], out: Expression[]): void {
  walkTemplateParts(top, null, (p) => {
    if (p.kind === "TemplateIf") out.push(p.condition);
    return null;
  });
}

const conditionsCache = new WeakMap<Expression, Expression[]>();

/** The conditions tested inside `expr` (conditionals, template `%{ if }`, `for ... if`); kept per expression. */
function conditionsIn(expr: Expression): Expression[] {
  const known = conditionsCache.get(expr);
  if (known) return known;
  const out: Expression[] = [];
  conditionsCache.set(expr, out);
  walkExpression(expr, (e) => {
    if (e.kind === "Conditional") out.push(e.condition);
    else if (e.kind === "Template") templateIfConditions(e.parts, out);
    else if (e.kind === "For" && e.condition) out.push(e.condition);
  }, false);
  return out;
}

/** Does `expr` (or a local it reads, transitively) branch on `target`? */
export function branchesOn(graph: DependencyGraph, expr: Expression, target: string): boolean {
  const exprs: Expression[] = [expr];
  for (const address of graph.dependencies(expr).keys()) {
    if (!address.startsWith("local.")) continue;
    const l = graph.local(address.slice("local.".length));
    if (l) exprs.push(l.value);
  }
  return exprs.some((e) => conditionsIn(e).some((c) => graph.reaches(c, target) !== null));
}

/** The `for_each` of every `dynamic` block in a resource body. */
export function dynamicForEaches(body: Body): Expression[] {
  const out: Expression[] = [];
  // Blocks nest without limit: an explicit stack, popped in source order.
  const stack: Block[] = [];
  for (let i = body.blocks.length - 1; i >= 0; i--) stack.push(body.blocks[i]!);
  while (stack.length > 0) {
    const b = stack.pop()!;
    if (b.type === "dynamic") {
      const fe = b.body.attributes.find((a) => a.name === "for_each");
      if (fe) out.push(fe.expr);
    }
    for (let i = b.body.blocks.length - 1; i >= 0; i--) stack.push(b.body.blocks[i]!);
  }
  return out;
}

/** A resource that exists (or whose autoscaling blocks exist) only depending on one of `targets`. */
export function resourceGatedOn(graph: DependencyGraph, resource: Resource, targets: readonly string[]): boolean {
  const gates = [resource.count?.expr, resource.forEach?.expr, ...dynamicForEaches(resource.body)];
  return gates.some((g) => g !== undefined && reachesAny(graph, g, targets) !== null);
}

/** The first of `targets` that `expr` reaches (through locals), or null. */
export function reachesAny(graph: DependencyGraph, expr: Expression, targets: readonly string[]): string | null {
  for (const t of targets) if (graph.reaches(expr, t) !== null) return t;
  return null;
}

export function branchesOnAny(graph: DependencyGraph, expr: Expression, targets: readonly string[]): boolean {
  return targets.some((t) => branchesOn(graph, expr, t));
}

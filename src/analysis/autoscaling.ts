/**
 * What holds when autoscaling is enabled (or when a known condition, such
 * as the one an autoscaler's `count` tests, has its value): which
 * conditions are then certainly true or false, which values are then null,
 * which resources then disappear; and what stands for `var.autoscaling` in
 * a local child module. Locals are followed (a module's locals are global
 * to it).
 */
import type { Expression } from "../hcl/ast.js";
import type { LoadResult, Module, ModuleUnit, Resource } from "../terraform/module-types.js";
import { constString, expressionKey, isNullLiteral, objectKeyName, unwrap } from "../hcl/walk.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import { branchesOnAny, reachesAny } from "./guards.js";
import { localNameOf, traversalPath } from "./references.js";

/**
 * What is known when one condition has a given value: the keys
 * (`expressionKey`) of the conditions that are then true and of those that
 * are then false, following locals (`local.scaler_on`, its value, and, for
 * `a && b` known true, both `a` and `b`). Without one, the known
 * condition is "autoscaling is enabled".
 */
export interface KnownCondition {
  whenTrue: ReadonlySet<string>;
  whenFalse: ReadonlySet<string>;
}

/** The address whose truth the analysis follows. */
export const AUTOSCALING_ENABLED = "var.autoscaling.enabled";
const ENABLED = AUTOSCALING_ENABLED;
const MAX_DEPTH = 32;

/**
 * The traversal an expression stands for after following locals:
 * `local.scaling.enabled` with `scaling = var.autoscaling` gives
 * `var.autoscaling.enabled`; `local.cfg.on` with `cfg = { on = var.autoscaling.enabled }`
 * gives the same. Null when it is not a plain reference.
 */
export function canonicalTraversal(module: Module, expr: Expression, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const e = unwrap(expr);
  if (e.kind !== "ScopeTraversal") return null;
  const names: string[] = [];
  for (const step of e.traversal) {
    if (step.kind === "TraverseRoot" || step.kind === "TraverseAttr") names.push(step.name);
    else if (step.kind === "TraverseIndex" && typeof step.key === "string") names.push(step.key);
    else return null;
  }
  if (names[0] !== "local") return names.join(".");
  if (names.length < 2) return null;
  const local = module.locals.get(names[1]!);
  if (!local) return null;
  return resolveInto(module, local.value, names.slice(2), depth + 1);
}

/** Follow `rest` attribute steps into `value` (through object constructors and locals). */
function resolveInto(module: Module, value: Expression, rest: string[], depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  const v = unwrap(value);
  if (rest.length > 0 && v.kind === "ObjectCons") {
    for (const item of v.items) {
      if (objectKeyName(item) === rest[0]) return resolveInto(module, item.value, rest.slice(1), depth + 1);
    }
    return null;
  }
  const base = canonicalTraversal(module, v, depth + 1);
  if (base === null) return null;
  return rest.length > 0 ? `${base}.${rest.join(".")}` : base;
}

/** The value of exactly `local.x` (parenthesised or not), or null. */
function localValue(module: Module, expr: Expression): Expression | null {
  const name = localNameOf(unwrap(expr));
  return name === null ? null : (module.locals.get(name)?.value ?? null);
}

/** `var.autoscaling` is a prefix of `var.autoscaling.enabled`. */
function isPathPrefix(prefix: string, full: string): boolean {
  return full === prefix || full.startsWith(`${prefix}.`);
}

/** A bool literal's value (not `"true"`: `==` does not convert). */
function boolLiteral(expr: Expression): boolean | null {
  const e = unwrap(expr);
  return e.kind === "LiteralValue" && e.type === "bool" ? (e.value as boolean) : null;
}

/** Is `cond` certainly true (want = true) or certainly false (want = false) when autoscaling is enabled? */
export function impliedByEnabled(module: Module, cond: Expression, want: boolean, depth = 0, known?: KnownCondition): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = unwrap(cond);
  if (known) {
    const key = expressionKey(e);
    if (key !== null && known.whenTrue.has(key)) return want;
    if (key !== null && known.whenFalse.has(key)) return !want;
  } else if (canonicalTraversal(module, e) === ENABLED) return want;
  const viaLocal = localValue(module, e);
  if (viaLocal) return impliedByEnabled(module, viaLocal, want, depth + 1, known);
  switch (e.kind) {
    case "UnaryOp":
      return e.op === "!" && impliedByEnabled(module, e.operand, !want, depth + 1, known);
    case "BinaryOp": {
      if ((e.op === "==" || e.op === "!=") && (isNullLiteral(e.lhs) || isNullLiteral(e.rhs))) {
        // `var.autoscaling != null` is certainly true when autoscaling is enabled.
        if (known) return false;
        const other = isNullLiteral(e.lhs) ? e.rhs : e.lhs;
        const path = canonicalTraversal(module, other);
        if (path === null || !isPathPrefix(path, ENABLED)) return false;
        return want === (e.op === "!=");
      }
      if (e.op === "==" || e.op === "!=") {
        const [ref, lit] = boolLiteral(e.rhs) !== null ? [e.lhs, boolLiteral(e.rhs)!] : [e.rhs, boolLiteral(e.lhs)];
        if (lit === null) return false;
        // `enabled == true` is true when enabled; `!=` flips it.
        const refWant = (lit === (e.op === "==")) === want;
        return impliedByEnabled(module, ref, refWant, depth + 1, known);
      }
      if (e.op === "||") {
        return want
          ? impliedByEnabled(module, e.lhs, true, depth + 1, known) || impliedByEnabled(module, e.rhs, true, depth + 1, known)
          : impliedByEnabled(module, e.lhs, false, depth + 1, known) && impliedByEnabled(module, e.rhs, false, depth + 1, known);
      }
      if (e.op === "&&") {
        return want
          ? impliedByEnabled(module, e.lhs, true, depth + 1, known) && impliedByEnabled(module, e.rhs, true, depth + 1, known)
          : impliedByEnabled(module, e.lhs, false, depth + 1, known) || impliedByEnabled(module, e.rhs, false, depth + 1, known);
      }
      return false;
    }
    case "FunctionCall":
      if (e.name === "lookup" && e.args.length >= 2 && !e.expandFinal && !known) {
        const base = canonicalTraversal(module, e.args[0]!);
        if (base !== null && `${base}.${constString(e.args[1]!) ?? ""}` === ENABLED) return want;
        return false;
      }
      if ((e.name === "try" || e.name === "tobool" || e.name === "coalesce") && e.args.length >= 1 && !e.expandFinal) {
        return impliedByEnabled(module, e.args[0]!, want, depth + 1, known);
      }
      return false;
    case "Conditional":
      // `c ? x : y` is certain when both branches are.
      return impliedByEnabled(module, e.trueResult, want, depth + 1, known) && impliedByEnabled(module, e.falseResult, want, depth + 1, known);
    default:
      return false;
  }
}

/** Is `expr` null whenever autoscaling is enabled (or, with `known`, whenever that condition has its value)? */
export function nullWhenEnabled(module: Module, expr: Expression, depth = 0, known?: KnownCondition): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = unwrap(expr);
  if (e.kind === "LiteralValue" && e.type === "null") return true;
  const viaLocal = localValue(module, e);
  if (viaLocal) return nullWhenEnabled(module, viaLocal, depth + 1, known);
  if (e.kind !== "Conditional") return false;
  if (impliedByEnabled(module, e.condition, true, 0, known) && nullWhenEnabled(module, e.trueResult, depth + 1, known)) return true;
  if (impliedByEnabled(module, e.condition, false, 0, known) && nullWhenEnabled(module, e.falseResult, depth + 1, known)) return true;
  return nullWhenEnabled(module, e.trueResult, depth + 1, known) && nullWhenEnabled(module, e.falseResult, depth + 1, known);
}

/** `C ? 1 : 0` / `C ? {...} : {}`: the condition a resource exists under, or null when it is not gated that way. */
export function existenceCondition(module: Module, resource: Resource): KnownCondition | null {
  for (const gate of [resource.count?.expr, resource.forEach?.expr]) {
    if (!gate) continue;
    let e = unwrap(gate);
    for (let i = 0; i < MAX_DEPTH; i++) {
      const next = localValue(module, e);
      if (!next) break;
      e = unwrap(next);
    }
    if (e.kind !== "Conditional") return null;
    const emptyTrue = isEmptyCollection(module, e.trueResult);
    const emptyFalse = isEmptyCollection(module, e.falseResult);
    if (emptyTrue === emptyFalse) return null;
    const known = { whenTrue: new Set<string>(), whenFalse: new Set<string>() };
    addKnown(module, e.condition, emptyFalse, known, 0);
    return known;
  }
  return null;
}

/** Record what `cond` having the value `holds` tells (through locals, `!`, `&&` and `||`). */
function addKnown(module: Module, cond: Expression, holds: boolean, known: { whenTrue: Set<string>; whenFalse: Set<string> }, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const e = unwrap(cond);
  const key = expressionKey(e);
  if (key === null) return;
  const set = holds ? known.whenTrue : known.whenFalse;
  if (set.has(key)) return;
  set.add(key);
  const viaLocal = localValue(module, e);
  if (viaLocal) addKnown(module, viaLocal, holds, known, depth + 1);
  else if (e.kind === "UnaryOp" && e.op === "!") addKnown(module, e.operand, !holds, known, depth + 1);
  else if (e.kind === "BinaryOp" && ((e.op === "&&" && holds) || (e.op === "||" && !holds))) {
    addKnown(module, e.lhs, holds, known, depth + 1);
    addKnown(module, e.rhs, holds, known, depth + 1);
  }
}

function isEmptyCollection(module: Module, expr: Expression, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const e = unwrap(expr);
  if (e.kind === "LiteralValue") return e.type === "number" ? e.value === 0 : false;
  if (e.kind === "TupleCons") return e.exprs.length === 0;
  if (e.kind === "ObjectCons") return e.items.length === 0;
  if (e.kind === "FunctionCall" && ["toset", "tomap", "tolist"].includes(e.name) && e.args.length === 1) {
    return isEmptyCollection(module, e.args[0]!, depth + 1);
  }
  const viaLocal = localValue(module, e);
  if (viaLocal) return isEmptyCollection(module, viaLocal, depth + 1);
  if (e.kind === "Conditional") {
    if (impliedByEnabled(module, e.condition, true)) return isEmptyCollection(module, e.trueResult, depth + 1);
    if (impliedByEnabled(module, e.condition, false)) return isEmptyCollection(module, e.falseResult, depth + 1);
    return isEmptyCollection(module, e.trueResult, depth + 1) && isEmptyCollection(module, e.falseResult, depth + 1);
  }
  return false;
}

/**
 * A resource whose `count` is 0 (or `for_each` empty) whenever autoscaling is
 * enabled: the fixed-size half of a module that switches between two groups.
 */
export function absentWhenEnabled(module: Module, resource: Resource): boolean {
  const count = resource.count?.expr;
  if (count) {
    const e = unwrap(count);
    if (e.kind === "Conditional" || localValue(module, e)) return isEmptyCollection(module, e);
  }
  const forEach = resource.forEach?.expr;
  if (forEach) {
    const e = unwrap(forEach);
    if (e.kind === "Conditional" || localValue(module, e)) return isEmptyCollection(module, e);
  }
  return false;
}

/** What stands for `var.autoscaling` and its attributes in one module. */
export interface AutoscalingTargets {
  /** Whole-object aliases (`var.autoscaling`, or a child's `var.scaling`). */
  object: string[];
  min: string[];
  max: string[];
  enabled: string[];
}

const ROOT_TARGETS: AutoscalingTargets = {
  object: ["var.autoscaling"],
  min: ["var.autoscaling.min"],
  max: ["var.autoscaling.max"],
  enabled: [AUTOSCALING_ENABLED],
};

/**
 * The autoscaling targets of `unit`: the root's own `var.autoscaling`; in a
 * local child module, the variables its call sets from the parent's targets
 * (a bound only when the parent passes it with no condition on `enabled`).
 */
export function autoscalingTargets(
  load: LoadResult,
  unit: ModuleUnit,
  graphOf: (m: Module) => DependencyGraph,
  depth = 0,
): AutoscalingTargets {
  const none: AutoscalingTargets = { object: [], min: [], max: [], enabled: [] };
  if (unit === load.root) return unit.expressions.variables.has("autoscaling") ? ROOT_TARGETS : none;
  if (depth > 16) return none;
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return none;
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const up = autoscalingTargets(load, parent, graphOf, depth + 1);
  if (up.min.length + up.max.length === 0) return none;
  const graph = graphOf(parent.expressions);
  const gates = [call.count?.expr, call.forEach?.expr].filter((e): e is Expression => e !== undefined);
  const gated = gates.some((g) => reachesAny(graph, g, up.enabled) !== null);
  const out: AutoscalingTargets = { object: [], min: [], max: [], enabled: [] };
  for (const [name, attr] of call.args) {
    if (!unit.expressions.variables.has(name)) continue;
    const v = `var.${name}`;
    const plain = graph.resolveLocals(attr.expr).expr;
    const path = traversalPath(unwrap(plain));
    if (path !== null && up.object.includes(path)) {
      out.object.push(v);
      out.enabled.push(`${v}.enabled`);
      if (!gated) {
        out.min.push(`${v}.min`);
        out.max.push(`${v}.max`);
      }
      continue;
    }
    if (reachesAny(graph, attr.expr, up.enabled) !== null) out.enabled.push(v);
    if (gated || branchesOnAny(graph, attr.expr, up.enabled)) continue;
    if (reachesAny(graph, attr.expr, up.min) !== null) out.min.push(v);
    if (reachesAny(graph, attr.expr, up.max) !== null) out.max.push(v);
  }
  return out;
}

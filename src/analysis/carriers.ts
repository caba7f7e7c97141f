/**
 * "Does this expression carry the root module's `var.<name>`?", for the
 * module a rule checks (the root, or a local child module whose variables
 * receive the value from their callers), with the finding's path: the
 * chain inside the module and, in a child, the calling module's argument
 * and what it is derived from, up to the root's variable.
 *
 * Used by the pool rules that follow the bootstrap data into a group's
 * launch configuration or replacement triggers.
 */
import type { Expression } from "../hcl/ast.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { LoadResult, Module, ModuleCall, ModuleUnit, Resource } from "../terraform/module-types.js";
import { carrierVariables, derivedFrom, type Derivation } from "./derivation.js";
import { chainHops, type Hop, joinHops, moduleArgumentHop } from "./paths.js";

export interface Carried {
  /** The variable of this module that carries the value (`bootstrap_data`, or a child's own name for it). */
  carrier: string;
  derivation: Derivation;
  /** The hops from the expression to the root variable. */
  related: Hop[];
}

/** What a rule needs to ask (a RuleContext has all of it). */
export interface CarrierScope {
  load: LoadResult;
  unit: ModuleUnit;
  graphOf(m: Module): DependencyGraph;
}

/**
 * Where a carrier variable of `unit` gets the value, as hops: in a local
 * child module, the calling module's argument and what it is derived from,
 * up to the root's variable (its declaration is the last hop of the chain
 * already).
 */
export function carrierOriginHops(scope: CarrierScope, unit: ModuleUnit, rootVariable: string, carrier: string, depth = 0): Hop[] {
  const { load } = scope;
  if (unit === load.root || depth > 16) return [];
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  const call = parent?.children.find((c) => c.unit === unit)?.call;
  const attr = call?.args.get(carrier);
  if (!parent || !call || !attr) return [];
  for (const src of carrierVariables(load, parent, rootVariable, (m) => scope.graphOf(m), depth + 1)) {
    const found = derivedFrom(scope.graphOf(parent.expressions), attr.expr, `var.${src}`);
    if (!found) continue;
    return joinHops([moduleArgumentHop(call, carrier)], chainHops(parent.expressions, found.steps, call), carrierOriginHops(scope, parent, rootVariable, src, depth + 1));
  }
  return [];
}

/** Cached carrier variables per unit and root variable (they do not change after loading). */
const carriersCache = new WeakMap<ModuleUnit, Map<string, string[]>>();

/** The variables of the scope's unit that carry the root's `var.<rootVariable>`. */
export function carriersOf(scope: CarrierScope, rootVariable: string): string[] {
  let byName = carriersCache.get(scope.unit);
  if (!byName) {
    byName = new Map();
    carriersCache.set(scope.unit, byName);
  }
  let found = byName.get(rootVariable);
  if (!found) {
    found = carrierVariables(scope.load, scope.unit, rootVariable, (m) => scope.graphOf(m));
    byName.set(rootVariable, found);
  }
  return found;
}

/**
 * Does `expr` (in the scope's unit, belonging to `owner` when it is inside
 * a resource or module call) carry the root's `var.<rootVariable>`? Follows
 * locals and, attribute by attribute, resources (derivation.ts).
 */
export function carries(scope: CarrierScope, expr: Expression, rootVariable: string, owner?: Resource | ModuleCall): Carried | null {
  const module = scope.unit.expressions;
  const graph = scope.graphOf(module);
  for (const carrier of carriersOf(scope, rootVariable)) {
    const derivation = derivedFrom(graph, expr, `var.${carrier}`);
    if (!derivation) continue;
    const related = joinHops(chainHops(module, derivation.steps, owner), carrierOriginHops(scope, scope.unit, rootVariable, carrier));
    return { carrier, derivation, related };
  }
  return null;
}

/** How a finding names the carried value: `var.bootstrap_data`, or the child's variable and where it comes from. */
export function carrierText(rootVariable: string, carrier: string): string {
  return carrier === rootVariable ? `var.${rootVariable}` : `var.${carrier} (the ${rootVariable.replace(/_/g, " ")}, passed in by the calling module)`;
}

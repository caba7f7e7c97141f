/**
 * Whether a module really uses one of its variables: a reference from a
 * resource, data source, output or provider (directly or through locals
 * that reach one), or an argument of a local module call whose child uses
 * the matching variable in turn (recursively). A hash of the value
 * (`md5(jsonencode(var.captf_tags))`) does not use it: the value ends there.
 */
import type { Expression } from "../hcl/ast.js";
import type { Module, ModuleCall, ModuleUnit } from "../terraform/model.js";
import { propagateThroughLocals } from "./locals.js";
import { endsValue } from "./functions.js";
import { localName } from "./references.js";
import { walkExpression } from "../hcl/walk.js";
import { bodyAttributes } from "../hcl/blocks.js";

/** The variables and locals an expression mentions outside value-ending calls. */
interface Mentions {
  vars: ReadonlySet<string>;
  locals: readonly string[];
}

const NO_NAMES: ReadonlySet<string> = new Set();

function valueMentions(expr: Expression): Mentions {
  let vars: Set<string> | null = null;
  const locals: string[] = [];
  walkExpression(expr, (e) => {
    if (e.kind === "FunctionCall" && endsValue(e)) return false;
    if (e.kind !== "ScopeTraversal") return true;
    const first = e.traversal[0];
    const second = e.traversal[1];
    if (first && first.kind === "TraverseRoot" && first.name === "var" && second && second.kind === "TraverseAttr") (vars ??= new Set()).add(second.name);
    const l = localName(e);
    if (l !== null) locals.push(l);
    return true;
  });
  return { vars: vars ?? NO_NAMES, locals };
}

/**
 * Top-level blocks whose expressions can put a value to use. Locals only
 * count through what reads them, module calls through their child, and
 * variable validations or `check` assertions only inspect the value.
 */
const APPLYING_BLOCKS = new Set(["resource", "data", "output", "provider", "terraform", "import", "ephemeral"]);

/**
 * What a module's expressions mention, walked once per module and kept
 * (the module model does not change after loading): each local's value, the
 * applying blocks' attributes together, each module call argument.
 */
interface UsageIndex {
  locals: Map<string, Mentions>;
  /** Variables mentioned by an applying block. */
  appliedVars: Set<string>;
  /** Locals mentioned by an applying block. */
  appliedLocals: Set<string>;
  calls: { call: ModuleCall; args: { name: string; mentions: Mentions }[] }[];
  /** localsMentioning results by variable name. */
  tainted: Map<string, Set<string>>;
}

const indexes = new WeakMap<Module, UsageIndex>();

function usageIndex(mod: Module): UsageIndex {
  const known = indexes.get(mod);
  if (known) return known;
  const locals = new Map<string, Mentions>();
  for (const local of mod.locals.values()) locals.set(local.name, valueMentions(local.value));
  const appliedVars = new Set<string>();
  const appliedLocals = new Set<string>();
  for (const file of mod.files) {
    for (const block of file.hcl.body.blocks) {
      if (!APPLYING_BLOCKS.has(block.type)) continue;
      for (const { attr } of bodyAttributes(block.body)) {
        const m = valueMentions(attr.expr);
        for (const v of m.vars) appliedVars.add(v);
        for (const l of m.locals) appliedLocals.add(l);
      }
    }
  }
  const calls: UsageIndex["calls"] = [];
  for (const call of mod.moduleCalls.values()) {
    calls.push({ call, args: [...call.args].map(([name, attr]) => ({ name, mentions: valueMentions(attr.expr) })) });
  }
  const index: UsageIndex = { locals, appliedVars, appliedLocals, calls, tainted: new Map() };
  indexes.set(mod, index);
  return index;
}

/** Locals whose value mentions `var.<name>`, directly or through other such locals. */
export function localsMentioning(mod: Module, name: string): Set<string> {
  const index = usageIndex(mod);
  const known = index.tainted.get(name);
  if (known) return known;
  const tainted = propagateThroughLocals(mod, (local) => {
    const m = index.locals.get(local.name)!;
    return { direct: m.vars.has(name), refs: m.locals as string[] };
  });
  index.tainted.set(name, tainted);
  return tainted;
}

function mentions(m: Mentions, name: string, tainted: ReadonlySet<string>): boolean {
  return m.vars.has(name) || m.locals.some((l) => tainted.has(l));
}

export interface Usage {
  used: boolean;
  /** Module calls the value is passed to that did not count as a use. */
  passedTo: ModuleCall[];
}

const usages = new WeakMap<ModuleUnit, Map<string, Usage>>();

/** Does `unit` use its variable `name`? (Answers are kept per unit: ask again at no cost.) */
export function variableUsage(unit: ModuleUnit, name: string, visiting: Set<string> = new Set()): Usage {
  const top = visiting.size === 0;
  if (top) {
    const known = usages.get(unit)?.get(name);
    if (known) return known;
  }
  const usage = computeUsage(unit, name, visiting);
  if (top) {
    const map = usages.get(unit);
    if (map) map.set(name, usage);
    else usages.set(unit, new Map([[name, usage]]));
  }
  return usage;
}

function computeUsage(unit: ModuleUnit, name: string, visiting: Set<string>): Usage {
  const key = `${unit.dir}\u0000${name}`;
  if (visiting.has(key)) return { used: false, passedTo: [] };
  visiting.add(key);
  const mod = unit.expressions;
  const index = usageIndex(mod);
  const tainted = localsMentioning(mod, name);

  if (index.appliedVars.has(name)) return { used: true, passedTo: [] };
  for (const l of index.appliedLocals) if (tainted.has(l)) return { used: true, passedTo: [] };

  const passedTo: ModuleCall[] = [];
  for (const { call, args } of index.calls) {
    for (const arg of args) {
      if (!mentions(arg.mentions, name, tainted)) continue;
      const child = call.isLocal ? unit.children.find((c) => c.call.name === call.name) : undefined;
      if (child && variableUsage(child.unit, arg.name, visiting).used) return { used: true, passedTo: [] };
      if (!passedTo.includes(call)) passedTo.push(call);
    }
  }
  return { used: false, passedTo };
}

/**
 * Whether a module really uses one of its variables: a reference from a
 * resource, data source, output or provider (directly or through locals
 * that reach one), or an argument of a local module call whose child uses
 * the matching variable in turn (recursively). A hash of the value
 * (`md5(jsonencode(var.captf_tags))`) does not use it: the value ends there.
 */
import type { Body, Expression } from "../hcl/ast.js";
import type { Module, ModuleCall, ModuleUnit } from "../terraform/module-types.js";
import { propagateThroughLocals } from "./locals.js";
import { endsValue } from "./functions.js";
import { isRefTo, localName } from "./references.js";
import { walkExpression } from "../hcl/walk.js";

/** Whether `expr` mentions `var.<name>` and the locals it mentions, outside value-ending calls. */
function valueMentions(expr: Expression, name: string): { direct: boolean; locals: string[] } {
  let direct = false;
  const locals: string[] = [];
  walkExpression(expr, (e) => {
    if (e.kind === "FunctionCall" && endsValue(e)) return false;
    if (isRefTo(e, "var", name)) direct = true;
    const l = localName(e);
    if (l !== null) locals.push(l);
    return true;
  });
  return { direct, locals };
}

const taintedByModule = new WeakMap<Module, Map<string, Set<string>>>();

/** Locals whose value mentions `var.<name>`, directly or through other such locals (kept per module and name). */
export function localsMentioning(mod: Module, name: string): Set<string> {
  let byName = taintedByModule.get(mod);
  if (!byName) {
    byName = new Map();
    taintedByModule.set(mod, byName);
  }
  const known = byName.get(name);
  if (known) return known;
  const tainted = propagateThroughLocals(mod, (local) => {
    const m = valueMentions(local.value, name);
    return { direct: m.direct, refs: m.locals };
  });
  byName.set(name, tainted);
  return tainted;
}

function mentions(expr: Expression, name: string, tainted: ReadonlySet<string>): boolean {
  const m = valueMentions(expr, name);
  return m.direct || m.locals.some((l) => tainted.has(l));
}

/**
 * Top-level blocks whose expressions can put a value to use. Locals only
 * count through what reads them, module calls through their child, and
 * variable validations or `check` assertions only inspect the value.
 */
const APPLYING_BLOCKS = new Set(["resource", "data", "output", "provider", "terraform", "import", "ephemeral"]);

export interface Usage {
  used: boolean;
  /** Module calls the value is passed to that did not count as a use. */
  passedTo: ModuleCall[];
}

const usages = new WeakMap<ModuleUnit, Map<string, Usage>>();

/**
 * Does `unit` use its variable `name`? Answers are kept per unit (the model
 * does not change after loading), so rules that ask again pay nothing.
 */
export function variableUsage(unit: ModuleUnit, name: string, visiting: Set<string> = new Set()): Usage {
  // Only a fresh question is kept: one asked inside a cycle of module calls may be cut short.
  const fresh = visiting.size === 0;
  if (fresh) {
    const known = usages.get(unit)?.get(name);
    if (known) return known;
  }
  const usage = computeUsage(unit, name, visiting);
  if (fresh) {
    const byName = usages.get(unit);
    if (byName) byName.set(name, usage);
    else usages.set(unit, new Map([[name, usage]]));
  }
  return usage;
}

function computeUsage(unit: ModuleUnit, name: string, visiting: Set<string>): Usage {
  const key = `${unit.dir}\u0000${name}`;
  if (visiting.has(key)) return { used: false, passedTo: [] };
  visiting.add(key);
  const mod = unit.expressions;
  const tainted = localsMentioning(mod, name);

  // Stops at the first use; nested blocks through a stack (no path arrays built).
  const bodies: Body[] = [];
  for (const file of mod.files) {
    for (const block of file.hcl.body.blocks) {
      if (!APPLYING_BLOCKS.has(block.type)) continue;
      bodies.push(block.body);
      while (bodies.length > 0) {
        const body = bodies.pop()!;
        for (const attr of body.attributes) {
          if (mentions(attr.expr, name, tainted)) return { used: true, passedTo: [] };
        }
        for (let i = body.blocks.length - 1; i >= 0; i--) bodies.push(body.blocks[i]!.body);
      }
    }
  }

  const passedTo: ModuleCall[] = [];
  for (const call of mod.moduleCalls.values()) {
    for (const [argName, attr] of call.args) {
      if (!mentions(attr.expr, name, tainted)) continue;
      const child = call.isLocal ? unit.children.find((c) => c.call.name === call.name) : undefined;
      if (child && variableUsage(child.unit, argName, visiting).used) return { used: true, passedTo: [] };
      if (!passedTo.includes(call)) passedTo.push(call);
    }
  }
  return { used: false, passedTo };
}

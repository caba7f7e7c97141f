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
import { isRefTo, localName } from "./references.js";
import { walkExpression } from "../hcl/walk.js";
import { bodyAttributes } from "../hcl/blocks.js";

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

/** Locals whose value mentions `var.<name>`, directly or through other such locals. */
export function localsMentioning(mod: Module, name: string): Set<string> {
  return propagateThroughLocals(mod, (local) => {
    const m = valueMentions(local.value, name);
    return { direct: m.direct, refs: m.locals };
  });
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

/** Does `unit` use its variable `name`? */
export function variableUsage(unit: ModuleUnit, name: string, visiting: Set<string> = new Set()): Usage {
  const key = `${unit.dir}\u0000${name}`;
  if (visiting.has(key)) return { used: false, passedTo: [] };
  visiting.add(key);
  const mod = unit.expressions;
  const tainted = localsMentioning(mod, name);

  for (const file of mod.files) {
    for (const block of file.hcl.body.blocks) {
      if (!APPLYING_BLOCKS.has(block.type)) continue;
      for (const { attr } of bodyAttributes(block.body)) {
        if (mentions(attr.expr, name, tainted)) return { used: true, passedTo: [] };
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

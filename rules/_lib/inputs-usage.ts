/**
 * Whether a module really uses one of its variables: a reference from any
 * declaration other than a module call (directly or through locals that
 * reach such a declaration), or an argument of a local module call whose
 * child uses the matching variable in turn (recursively). Used by
 * input/tags-unused.
 */
import type { Expression } from "../../src/hcl/ast.js";
import type { Module, ModuleCall, ModuleUnit } from "../../src/terraform/model.js";
import { bodyAttributes, findRefs, localRefs } from "./inputs-expr.js";

/** Locals whose value mentions `var.<name>`, directly or through other such locals. */
export function localsMentioning(mod: Module, name: string): Set<string> {
  const tainted = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const local of mod.locals.values()) {
      if (tainted.has(local.name)) continue;
      if (mentions(local.value, name, tainted)) {
        tainted.add(local.name);
        changed = true;
      }
    }
  }
  return tainted;
}

function mentions(expr: Expression, name: string, tainted: ReadonlySet<string>): boolean {
  if (findRefs(expr, "var", name).length > 0) return true;
  return localRefs(expr).some((r) => tainted.has(r.name));
}

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
      if (block.type === "locals" || block.type === "module") continue;
      if (block.type === "variable" && block.labels[0] === name) continue;
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

/**
 * `machine/lb-registration-ungated`: a machine module's backend membership
 * must exist only for control-plane machines.
 */
import type { Expression } from "../../src/hcl/ast.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { constantValue, unwrap } from "../../src/hcl/walk.js";
import { defineRule } from "../../src/lint/types.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Module } from "../../src/terraform/module-types.js";
import { localNameOf } from "../../src/analysis/references.js";
import { resourceGatedOn } from "../../src/analysis/guards.js";
import { membershipsOf } from "../../src/analysis/memberships.js";
import { blockingConditions } from "../shared/conditions.js";

const TARGET = "var.control_plane";

/**
 * The value of a boolean condition when `var.control_plane` is false:
 * true, false, or null when it cannot be told. Looks through `!`, `&&`,
 * `||`, `==`/`!=` against a constant bool, conditionals, parentheses and
 * locals; anything else is unknown.
 */
export function valueForWorkers(module: Module, expr: Expression, depth = 0, budget?: { exceeded: boolean }): boolean | null {
  // A budget of 50 nested operators, conditionals and locals: the recursion
  // stays shallow whatever the input's depth (the main thread's stack), and
  // each level folds its operand (constantValue) once, so a deep condition
  // costs 50 passes over it, never its depth squared. Past it the part is
  // unknown and `budget.exceeded` says so: a known answer is still exact
  // (an unknown part never decides one), an unknown one is only "not read".
  if (depth > 50) {
    if (budget) budget.exceeded = true;
    return null;
  }
  const e = unwrap(expr);
  const c = constantValue(e);
  if (c.known) return typeof c.value === "boolean" ? c.value : null;
  if (e.kind === "ScopeTraversal" && e.traversal.length === 2 && e.traversal[0]!.kind === "TraverseRoot" && e.traversal[0].name === "var" && e.traversal[1]!.kind === "TraverseAttr" && e.traversal[1].name === "control_plane") {
    return false;
  }
  const local = localNameOf(e);
  if (local !== null) {
    const l = module.locals.get(local);
    return l ? valueForWorkers(module, l.value, depth + 1, budget) : null;
  }
  switch (e.kind) {
    case "UnaryOp": {
      if (e.op !== "!") return null;
      const v = valueForWorkers(module, e.operand, depth + 1, budget);
      return v === null ? null : !v;
    }
    case "BinaryOp": {
      if (e.op === "&&" || e.op === "||") {
        const a = valueForWorkers(module, e.lhs, depth + 1, budget);
        const b = valueForWorkers(module, e.rhs, depth + 1, budget);
        if (e.op === "&&") return a === false || b === false ? false : a === true && b === true ? true : null;
        return a === true || b === true ? true : a === false && b === false ? false : null;
      }
      if (e.op === "==" || e.op === "!=") {
        const lc = constantValue(unwrap(e.lhs));
        const rc = constantValue(unwrap(e.rhs));
        const [other, k] = rc.known ? [e.lhs, rc] : lc.known ? [e.rhs, lc] : [null, null];
        if (other === null || !k?.known || typeof k.value !== "boolean") return null;
        const v = valueForWorkers(module, other, depth + 1, budget);
        if (v === null) return null;
        return e.op === "==" ? v === k.value : v !== k.value;
      }
      return null;
    }
    case "Conditional": {
      const cond = valueForWorkers(module, e.condition, depth + 1, budget);
      if (cond !== null) return valueForWorkers(module, cond ? e.trueResult : e.falseResult, depth + 1, budget);
      const a = valueForWorkers(module, e.trueResult, depth + 1, budget);
      const b = valueForWorkers(module, e.falseResult, depth + 1, budget);
      return a !== null && a === b ? a : null;
    }
    default:
      return null;
  }
}

export default defineRule({
  id: "machine/lb-registration-ungated",
  provenance: "control-plane",
  severity: "warning",
  roles: ["machine"],
  summary: "A load-balancer backend membership exists only for control-plane machines (its count/for_each depends on var.control_plane)",
  scope: "root",
  fixable: false,
  tags: ["contract", "machine", "control-plane", "load-balancer"],
  check(ctx) {
    const m = ctx.expressions;
    const memberships = membershipsOf(m, ["member"]);
    if (memberships.length === 0) return;
    // A module that refuses to apply for workers registers only control planes.
    // A condition too deep to read to the end may refuse workers too: silent.
    const refusesWorkers = (c: Expression): boolean => {
      const budget = { exceeded: false };
      const v = valueForWorkers(m, c, 0, budget);
      return v === false || (v === null && budget.exceeded);
    };
    if (blockingConditions(m).some(refusesWorkers)) return;
    for (const { resource, row } of memberships) {
      if (resourceGatedOn(ctx.graph, resource, [TARGET])) continue;
      const gate = resource.count ?? resource.forEach;
      const what = gate ? `its ${gate.name} does not depend on var.control_plane` : "it has no count or for_each";
      ctx.report({
        message: `${resource.address} puts every machine of this module, workers included, into the backend group its ${row.group[0]!.join(".")} names: ${what}; a worker in the API backend receives API traffic it cannot answer, so gate it: ${resource.forEach ? "make the for_each collection empty unless var.control_plane is true" : "e.g. count = var.control_plane ? 1 : 0"}`,
        file: gate ? fileOf(resource, gate) : resource.file,
        range: gate ? gate.range : blockHeaderRange(resource.block),
      });
    }
  },
});

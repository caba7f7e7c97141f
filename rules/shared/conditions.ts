/**
 * The condition expressions a module states about itself, for rules that
 * stay silent when the module already guards what they look for.
 */
import type { Block, Expression } from "../../src/hcl/ast.js";
import type { Module } from "../../src/terraform/module-types.js";

function pushConditions(blocks: readonly Block[], out: Expression[]): void {
  for (const b of blocks) for (const a of b.body.attributes) if (a.name === "condition") out.push(a.expr);
}

/**
 * The conditions that stop a plan or an apply when false: the preconditions
 * and postconditions of resources and data sources, the preconditions of
 * outputs and the validations of variables, in that order.
 */
export function blockingConditions(m: Module): Expression[] {
  const out: Expression[] = [];
  for (const r of [...m.resources.values(), ...m.dataSources.values()]) {
    pushConditions(r.lifecycle.preconditions, out);
    pushConditions(r.lifecycle.postconditions, out);
  }
  for (const o of m.outputs.values()) pushConditions(o.preconditions, out);
  for (const v of m.variables.values()) pushConditions(v.validations, out);
  return out;
}

/** The conditions of the `assert` blocks of the module's `check` blocks (a failed one only warns). */
export function checkAssertions(m: Module): Expression[] {
  const out: Expression[] = [];
  for (const f of m.files) {
    for (const b of f.hcl.body.blocks) if (b.type === "check") pushConditions(b.body.blocks.filter((x) => x.type === "assert"), out);
  }
  return out;
}

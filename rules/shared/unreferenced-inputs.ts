/**
 * Whether a contract input that nothing references is worth reporting, and
 * the report itself, for the "*-unused" rules (bootstrap/unused,
 * pool/node-labels-unused, ...): not in a stub module, not when a parse
 * error may have lost the reference.
 */
import type { Variable } from "../../src/terraform/module-types.js";
import type { RuleContext } from "../../src/lint/types.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

/** Resource types of providers that create nothing outside Terraform state. */
const BOOKKEEPING = /^(terraform_data$|null_|random_|time_)/;

/**
 * A stub module: it creates no resource outside Terraform state and calls
 * no module (the contract's skeletons). Nothing it declares can reach an
 * instance, so "never used" findings about instance inputs would be noise.
 */
export function isStubModule(ctx: RuleContext): boolean {
  const m = ctx.expressions;
  if (m.moduleCalls.size > 0) return false;
  return [...m.resources.values()].every((r) => BOOKKEEPING.test(r.type));
}

/**
 * A file failed to parse in a way that may have lost expressions (a block
 * written on one line is parsed completely and does not count).
 */
export function mayHaveLostReferences(ctx: RuleContext): boolean {
  // An unreadable file may hold the reference too.
  if (ctx.load.problems.some((p) => p.kind !== "source-escape")) return true;
  return ctx.unit.allFiles.some((f) => f.diagnostics.some((d) => d.severity === "error" && d.code !== "one-line-block"));
}

/**
 * Report a declared variable that nothing references (its own validations
 * do not count): the finding sits on the variable's name.
 */
export function reportUnreferencedVariable(ctx: RuleContext, name: string, message: (v: Variable) => string): void {
  const variable = ctx.expressions.variables.get(name);
  if (!variable) return;
  if (isStubModule(ctx) || mayHaveLostReferences(ctx)) return;
  if (ctx.graph.isReferenced(`var.${name}`)) return;
  ctx.report({ message: message(variable), file: variable.file.path, range: blockNameRange(variable.block) });
}

import type { Expression } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";
import { unwrap, walkExpression } from "../../src/hcl/walk.js";
import { outputValueSite } from "../shared/output-shapes.js";

/** Does `expr` mention any variable, local, resource, data source or module? */
function mentionsAnything(expr: Expression): boolean {
  let found = false;
  walkExpression(expr, (e) => {
    if (e.kind === "ScopeTraversal") found = true;
  }, false);
  return found;
}

export type Const = { known: true; value: unknown } | { known: false };
const UNKNOWN: Const = { known: false };

/** The operands `evaluate` reads of a node (in the order it combines them), or null for a leaf. */
function operandsOf(e: Expression): Expression[] | null {
  switch (e.kind) {
    case "UnaryOp":
      return [e.operand];
    case "BinaryOp":
      return [e.lhs, e.rhs];
    case "Conditional":
      return [e.trueResult, e.falseResult, e.condition];
    default:
      return null;
  }
}

/** A node's value from its operands' values (given in `operandsOf` order). */
function combine(e: Expression, v: readonly Const[]): Const {
  switch (e.kind) {
    case "UnaryOp": {
      const [x] = v;
      if (e.op === "!" && x!.known && typeof x!.value === "boolean") return { known: true, value: !x!.value };
      return UNKNOWN;
    }
    case "BinaryOp": {
      const [l, r] = v;
      if (!l!.known || !r!.known) return UNKNOWN;
      const prim = (x: unknown): boolean => x === null || ["string", "number", "boolean"].includes(typeof x);
      if ((e.op === "==" || e.op === "!=") && prim(l!.value) && prim(r!.value)) {
        return { known: true, value: (l!.value === r!.value) === (e.op === "==") };
      }
      if ((e.op === "&&" || e.op === "||") && typeof l!.value === "boolean" && typeof r!.value === "boolean") {
        return { known: true, value: e.op === "&&" ? l!.value && r!.value : l!.value || r!.value };
      }
      return UNKNOWN;
    }
    case "Conditional": {
      const [t, f, c] = v;
      if (t!.known && f!.known && t!.value === null && f!.value === null) return { known: true, value: null };
      if (c!.known && typeof c!.value === "boolean") return c!.value ? t! : f!;
      return UNKNOWN;
    }
    default:
      return UNKNOWN;
  }
}

/**
 * Evaluate the few constant forms an endpoint could be written in without
 * references: literals, parentheses, `"${x}"`, `!`, `==`/`!=`, `&&`/`||` and
 * conditionals. Anything else is unknown (never reported). Iterative (an
 * explicit stack, operands before the node that combines them), so any
 * nesting depth evaluates on the main thread.
 */
export function evaluate(expr: Expression): Const {
  const work: { e: Expression; operands: number }[] = [{ e: unwrap(expr), operands: -1 }];
  const values: Const[] = [];
  while (work.length > 0) {
    const frame = work.pop()!;
    const e = frame.e;
    if (frame.operands >= 0) {
      values.push(combine(e, values.splice(values.length - frame.operands)));
      continue;
    }
    if (e.kind === "LiteralValue") {
      values.push({ known: true, value: e.value });
      continue;
    }
    const operands = operandsOf(e);
    if (operands === null) {
      values.push(UNKNOWN);
      continue;
    }
    work.push({ e, operands: operands.length });
    for (let i = operands.length - 1; i >= 0; i--) work.push({ e: unwrap(operands[i]!), operands: -1 });
  }
  return values[0]!;
}

export default defineRule({
  id: "output/endpoint-never-set",
  provenance: "reference",
  severity: "warning",
  roles: ["cluster"],
  summary: "control_plane_endpoint is not a constant null",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "endpoint"],
  check(ctx) {
    // (A value that does not parse is never a constant null.)
    const value = outputValueSite(ctx, "control_plane_endpoint");
    if (!value || mentionsAnything(value.expr)) return;
    const v = evaluate(value.expr);
    if (!v.known || v.value !== null) return;
    ctx.report({
      message:
        "control_plane_endpoint is always null, so the control plane never creates a Machine; return var.control_plane_endpoint when it is set, else the endpoint the module creates ({ host = ..., port = ... })",
      file: value.file.path,
      range: value.expr.range,
    });
  },
});

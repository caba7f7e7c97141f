import { fileOf } from "../../src/terraform/module-builder.js";
import type { Expression } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";
import { unwrap, walkExpression } from "../../src/hcl/walk.js";

/** Does `expr` mention any variable, local, resource, data source or module? */
function mentionsAnything(expr: Expression): boolean {
  let found = false;
  walkExpression(expr, (e) => {
    if (e.kind === "ScopeTraversal") found = true;
  }, false);
  return found;
}

type Const = { known: true; value: unknown } | { known: false };
const UNKNOWN: Const = { known: false };

/**
 * Evaluate the few constant forms an endpoint could be written in without
 * references: literals, parentheses, `"${x}"`, `!`, `==`/`!=`, `&&`/`||` and
 * conditionals. Anything else is unknown (never reported).
 */
function evaluate(expr: Expression): Const {
  const e = unwrap(expr);
  switch (e.kind) {
    case "LiteralValue":
      return { known: true, value: e.value };
    case "UnaryOp": {
      const v = evaluate(e.operand);
      if (e.op === "!" && v.known && typeof v.value === "boolean") return { known: true, value: !v.value };
      return UNKNOWN;
    }
    case "BinaryOp": {
      const l = evaluate(e.lhs);
      const r = evaluate(e.rhs);
      if (!l.known || !r.known) return UNKNOWN;
      const prim = (v: unknown): boolean => v === null || ["string", "number", "boolean"].includes(typeof v);
      if ((e.op === "==" || e.op === "!=") && prim(l.value) && prim(r.value)) {
        return { known: true, value: (l.value === r.value) === (e.op === "==") };
      }
      if ((e.op === "&&" || e.op === "||") && typeof l.value === "boolean" && typeof r.value === "boolean") {
        return { known: true, value: e.op === "&&" ? l.value && r.value : l.value || r.value };
      }
      return UNKNOWN;
    }
    case "Conditional": {
      const t = evaluate(e.trueResult);
      const f = evaluate(e.falseResult);
      if (t.known && f.known && t.value === null && f.value === null) return { known: true, value: null };
      const c = evaluate(e.condition);
      if (c.known && typeof c.value === "boolean") return c.value ? t : f;
      return UNKNOWN;
    }
    default:
      return UNKNOWN;
  }
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
    const output = ctx.expressions.outputs.get("control_plane_endpoint");
    if (!output || !output.value || !output.valueAttr) return;
    if (mentionsAnything(output.value)) return;
    const v = evaluate(output.value);
    if (!v.known || v.value !== null) return;
    ctx.report({
      message:
        "control_plane_endpoint is always null, so the control plane never creates a Machine; return var.control_plane_endpoint when it is set, else the endpoint the module creates ({ host = ..., port = ... })",
      file: fileOf(output, output.valueAttr).path,
      range: output.value.range,
    });
  },
});

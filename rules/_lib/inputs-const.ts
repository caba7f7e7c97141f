/**
 * Constant strings: the value of an expression made only of literals
 * (string literals, templates whose interpolations are themselves constant),
 * with no references and no function calls.
 */
import type { Expression, TemplatePart } from "../../src/hcl/ast.js";

export function constantString(expr: Expression): string | null {
  const v = constantScalar(expr);
  return typeof v === "string" ? v : null;
}

function constantScalar(expr: Expression): string | number | boolean | null | undefined {
  switch (expr.kind) {
    case "LiteralValue":
      return expr.value;
    case "Parentheses":
      return constantScalar(expr.expr);
    case "TemplateWrap":
      return constantScalar(expr.wrapped);
    case "Template":
      return constantTemplate(expr.parts);
    default:
      return undefined;
  }
}

function constantTemplate(parts: readonly TemplatePart[]): string | undefined {
  let out = "";
  for (const part of parts) {
    if (part.kind === "TemplateLiteral") {
      out += part.value;
    } else if (part.kind === "TemplateInterp") {
      const v = constantScalar(part.expr);
      if (v === undefined || v === null) return undefined;
      out += String(v);
    } else {
      return undefined;
    }
  }
  return out;
}

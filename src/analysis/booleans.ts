/**
 * When a boolean argument may be true (control-plane.md, precision policy):
 * one of its alternatives is the constant `true`, or is built only from
 * variables and locals with `!`, `==`, `!=`, `&&`, `||` and conditionals
 * (the user can pick inputs that make it true) without being a constant
 * `false`. Anything else (a resource attribute, a function call) is unknown.
 */
import type { Expression } from "../hcl/ast.js";
import { constantValue, unwrap } from "../hcl/walk.js";
import type { Module } from "../terraform/model.js";
import { alternatives, type Site } from "./values.js";

const INPUT_ROOTS = new Set(["var", "local"]);
const BOOLEAN_OPS = new Set(["==", "!=", "&&", "||"]);

/** `e` is made only of variables, locals, literals and the boolean operators. */
function builtFromInputs(e: Expression, depth = 0): boolean {
  if (depth > 64) return false;
  const x = unwrap(e);
  switch (x.kind) {
    case "LiteralValue":
      return true;
    case "ScopeTraversal": {
      const root = x.traversal[0];
      return root?.kind === "TraverseRoot" && INPUT_ROOTS.has(root.name);
    }
    case "UnaryOp":
      return x.op === "!" && builtFromInputs(x.operand, depth + 1);
    case "BinaryOp":
      return BOOLEAN_OPS.has(x.op) && builtFromInputs(x.lhs, depth + 1) && builtFromInputs(x.rhs, depth + 1);
    case "Conditional":
      return builtFromInputs(x.condition, depth + 1) && builtFromInputs(x.trueResult, depth + 1) && builtFromInputs(x.falseResult, depth + 1);
    default:
      return false;
  }
}

/**
 * The alternative of `site` that makes it possibly true (the constant
 * `true` first), or null when no alternative may be true.
 */
export function mayBeTrue(module: Module, site: Site): Site | null {
  const alts = alternatives(module, site, { scalar: true });
  const isTrue = (s: Site): boolean => {
    const c = constantValue(s.expr);
    return c.known && c.value === true;
  };
  const constant = alts.find(isTrue);
  if (constant) return constant;
  for (const alt of alts) {
    const c = constantValue(alt.expr);
    if (c.known) continue;
    if (builtFromInputs(alt.expr)) return alt;
  }
  return null;
}

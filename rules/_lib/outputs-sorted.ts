/**
 * What `output/provider-id-list-shape` calls "sorted", and the `for`
 * filters that drop members by state.
 */
import type { Expression, ForExpr } from "../../src/hcl/ast.js";
import { constString, walkExpression } from "../../src/hcl/walk.js";

/**
 * True when `expr` is written so that its order is fixed by `sort()` in the
 * expression itself: a `sort(...)` call; parentheses, `"${...}"` or a
 * single-argument `tolist`/`distinct` around a sorted expression; a `concat`
 * of sorted expressions only; a conditional whose branches are both sorted.
 * A bare `local.x` is not sorted, even when the local is: the contract asks
 * for the `sort()` in the output's own expression.
 */
export function isSortedExpression(expr: Expression): boolean {
  switch (expr.kind) {
    case "Parentheses":
      return isSortedExpression(expr.expr);
    case "TemplateWrap":
      return isSortedExpression(expr.wrapped);
    case "Conditional":
      return isSortedExpression(expr.trueResult) && isSortedExpression(expr.falseResult);
    case "FunctionCall": {
      if (expr.name === "sort") return true;
      if (expr.expandFinal) return false;
      if (expr.name === "tolist" || expr.name === "distinct") {
        return expr.args.length === 1 && isSortedExpression(expr.args[0]!);
      }
      if (expr.name === "concat") {
        return expr.args.length > 0 && expr.args.every(isSortedExpression);
      }
      return false;
    }
    default:
      return false;
  }
}

const STATE_WORDS = new Set(["running", "healthy"]);

/**
 * Where a `for` condition tests a running/healthy state: a string literal
 * equal to "running"/"healthy" (any case), or an attribute/index step with
 * that name. Returns the word found, or null.
 */
export function stateFilterWord(condition: Expression): string | null {
  let word: string | null = null;
  walkExpression(condition, (e) => {
    if (word) return;
    const s = constString(e);
    if (s !== null && STATE_WORDS.has(s.toLowerCase())) {
      word = s;
      return;
    }
    if (e.kind === "ScopeTraversal" || e.kind === "RelativeTraversal") {
      for (const step of e.traversal) {
        const name =
          step.kind === "TraverseAttr" ? step.name : step.kind === "TraverseIndex" && typeof step.key === "string" ? step.key : null;
        if (name !== null && STATE_WORDS.has(name.toLowerCase())) {
          word = name;
          return;
        }
      }
    }
  }, false);
  return word;
}

/** Every `for` expression in `expr` whose `if` filters on running/healthy. */
export function stateFilteredFors(expr: Expression): { node: ForExpr; condition: Expression; word: string }[] {
  const out: { node: ForExpr; condition: Expression; word: string }[] = [];
  walkExpression(expr, (e) => {
    if (e.kind !== "For" || !e.condition) return;
    const word = stateFilterWord(e.condition);
    if (word !== null) out.push({ node: e, condition: e.condition, word });
  }, false);
  return out;
}

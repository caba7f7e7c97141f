/**
 * What `output/provider-id-list-shape` calls "sorted", and the `for`
 * filters that drop members by state.
 */
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Expression, ForExpr } from "../../src/hcl/ast.js";
import type { Module, Output } from "../../src/terraform/module-types.js";
import { wrapInCallFix } from "../../src/lint/fix-builders.js";
import { defineRule } from "../../src/lint/types.js";
import { localNameOf, viaText } from "../../src/analysis/references.js";
import { constString, unwrap, walkExpression } from "../../src/hcl/walk.js";
import { joinHops, localHops, outputHop } from "../../src/analysis/paths.js";

/**
 * True when `expr` is written so that its order is fixed by `sort()` in the
 * expression itself: a `sort(...)` call; parentheses, `"${...}"` or a
 * single-argument `tolist`/`distinct` around a sorted expression; a `concat`
 * of sorted expressions only; a conditional whose branches are both sorted.
 * A bare `local.x` is not sorted, even when the local is: the contract asks
 * for the `sort()` in the output's own expression.
 */
export function isSortedExpression(expr: Expression): boolean {
  // Every expression on the stack must be sorted (an explicit stack rather
  // than recursion, so any nesting depth is checked on the main thread).
  const pending: Expression[] = [expr];
  while (pending.length > 0) {
    const e = unwrap(pending.pop()!);
    switch (e.kind) {
      case "Conditional":
        pending.push(e.falseResult, e.trueResult);
        break;
      case "FunctionCall": {
        if (e.name === "sort") break;
        if (e.expandFinal) return false;
        if ((e.name === "tolist" || e.name === "distinct") && e.args.length === 1) {
          pending.push(e.args[0]!);
          break;
        }
        if (e.name === "concat" && e.args.length > 0) {
          for (let i = e.args.length - 1; i >= 0; i--) pending.push(e.args[i]!);
          break;
        }
        return false;
      }
      default:
        return false;
    }
  }
  return true;
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

const OUTPUT = "provider_id_list";

/** Why a value is not sorted, in words that say what to change. */
function unsortedReason(value: Expression): string {
  const e = unwrap(value);
  const local = localNameOf(e);
  if (local) return `local.${local} is used as is; write sort(local.${local}) (a sort() inside the local does not count)`;
  if (e.kind === "FunctionCall" && e.name === "distinct") return "distinct() keeps the input order; write sort(distinct(...))";
  if (e.kind === "FunctionCall" && e.name === "toset") return "toset() gives a set, not a sorted list; use sort(), with distinct() to drop duplicates";
  if (e.kind === "FunctionCall" && e.name === "try") return "try() may return its fallback unsorted; put sort() around the try()";
  if (e.kind === "For") return "a for expression keeps the source order; wrap it in sort()";
  if (e.kind === "Conditional") return "a branch of the conditional is not sorted; wrap the whole value in sort()";
  if (e.kind === "FunctionCall" && e.name === "concat") return "not every list passed to concat() is sorted; wrap the value in sort()";
  return "wrap the value in sort()";
}

/**
 * The locals `expr` reads, transitively, breadth first. Each entry names the
 * entry it was reached through (`from`, an index into the result; -1 for
 * `expr` itself), so that a long chain of locals is not copied per local:
 * `viaOf` spells one chain out when a message needs it.
 */
function localsReached(module: Module, expr: Expression): { name: string; from: number }[] {
  const out: { name: string; from: number }[] = [];
  const seen = new Set<string>();
  // Expressions to scan: the output's value (-1), then each reached local's (its index in `out`).
  for (let next = -1; next < out.length; next++) {
    const e = next < 0 ? expr : module.locals.get(out[next]!.name)!.value;
    walkExpression(e, (sub) => {
      if (sub.kind !== "ScopeTraversal" || sub.traversal.length < 2) return;
      const [root, attr] = sub.traversal;
      if (root!.kind !== "TraverseRoot" || root!.name !== "local" || attr!.kind !== "TraverseAttr") return;
      const name = attr!.name;
      if (seen.has(name)) return;
      seen.add(name);
      if (!module.locals.has(name)) return;
      out.push({ name, from: next });
    }, false);
  }
  return out;
}

/** The chain of locals from the output's value to `reached[i]`, that local last. */
function viaOf(reached: readonly { name: string; from: number }[], i: number): string[] {
  const via: string[] = [];
  for (let at = i; at >= 0; at = reached[at]!.from) via.push(reached[at]!.name);
  return via.reverse();
}

export default defineRule({
  id: "output/provider-id-list-shape",
  provenance: "reference",
  severity: "warning",
  roles: ["machinepool"],
  summary: "provider_id_list is declared, wrapped in sort(), and not filtered to running/healthy members",
  scope: "root",
  fixable: true,
  // Safe: an output is no infrastructure; sort() only fixes the order of its value.
  fixKinds: ["safe"],
  tags: ["contract", "outputs", "machinepool"],
  check(ctx) {
    if (!ctx.declarations.outputs.has(OUTPUT)) {
      // A file that failed to parse may hold the declaration: do not guess.
      if (!ctx.unit.hasParseErrors) {
        ctx.report({
          severity: "error",
          message:
            'Output "provider_id_list" is not declared; the machinepool contract needs it to list every member\'s provider ID, e.g. value = sort(local.raw_ids)',
          subject: "output.provider_id_list",
        });
      }
    }

    const output: Output | undefined = ctx.expressions.outputs.get(OUTPUT);
    if (!output || !output.value || !output.valueAttr) return;
    const value = output.value;
    const file = fileOf(output, output.valueAttr);

    if (value.kind !== "Invalid" && !isSortedExpression(value)) {
      const fix = wrapInCallFix(file, value, "sort", "Wrap the value in sort()", "safe");
      ctx.report({
        message: `provider_id_list is not sorted, so its order can change between refreshes: ${unsortedReason(value)}`,
        file: file.path,
        range: value.range,
        // A bare local: where its value is written (the locals it passes on to).
        related: localHops(ctx.expressions, ctx.graph.resolveLocals(value).via),
        ...(fix ? { fix } : {}),
      });
    }

    const filterMessage = (word: string, via: string[]): string =>
      `provider_id_list is filtered on "${word}"${viaText(via)}; it must list every non-terminated member (pending and unhealthy ones too), so filter on terminated states only or drop the condition`;

    for (const f of stateFilteredFors(value)) {
      ctx.report({ message: filterMessage(f.word, []), file: file.path, range: f.condition.range });
    }
    const reached = localsReached(ctx.expressions, value);
    for (let i = 0; i < reached.length; i++) {
      const local = ctx.expressions.locals.get(reached[i]!.name)!;
      const filtered = stateFilteredFors(local.value);
      if (filtered.length === 0) continue;
      const via = viaOf(reached, i);
      for (const f of filtered) {
        // From the filter back to the output: the local holding it, the locals that pass it on, the output.
        const related = joinHops(localHops(ctx.expressions, [...via].reverse()), [outputHop(output)]);
        ctx.report({ message: filterMessage(f.word, via), file: local.file.path, range: f.condition.range, related });
      }
    }
  },
});

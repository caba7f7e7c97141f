/**
 * The `control_plane_endpoint` output of a cluster module: the branches the
 * module owns (its alternatives, minus null and the pass-through of
 * `var.control_plane_endpoint`), the conditions that select each one, and
 * the managed resources the output is built from.
 */
import type { Expression } from "../hcl/ast.js";
import { constantValue, isNullLiteral, unwrap } from "../hcl/walk.js";
import type { ChainStep, DependencyGraph } from "../terraform/graph-api.js";
import type { Local, Module, Output, Resource, SourceFile } from "../terraform/module-types.js";
import { fileOf } from "../terraform/module-builder.js";
import { localNameOf, traversalPath } from "./references.js";

/** A condition on the way to a branch, with the file it is written in. */
export interface BranchCondition {
  expr: Expression;
  file: SourceFile;
  /** The branch is taken when the condition evaluates to this. */
  holds: boolean;
  /** The locals followed to reach the condition, outermost first. */
  via: readonly Local[];
}

/**
 * One value the endpoint output may take that the module itself builds,
 * with the conditions that select it (api-lb.ts `endpointBranches` gives
 * the same branches as objects with a host, without the conditions).
 */
export interface EndpointChoice {
  expr: Expression;
  file: SourceFile;
  /** The conditions that select this branch, outermost first. */
  conditions: readonly BranchCondition[];
  /** The locals followed to reach it, outermost first. */
  via: readonly Local[];
}

const PICK_ONE = new Set(["try", "coalesce"]);
const MAX_DEPTH = 64;
const MAX_BRANCHES = 256;

/** The `control_plane_endpoint` output of `module`, when it has a value. */
export function endpointOutput(module: Module): (Output & { value: Expression }) | null {
  const out = module.outputs.get("control_plane_endpoint");
  return out && out.value ? (out as Output & { value: Expression }) : null;
}

/** The file an output's value is written in (an override file may supply it). */
export function outputValueFile(output: Output): SourceFile {
  return output.valueAttr ? fileOf(output, output.valueAttr) : output.file;
}

/** The input pass-through: exactly `var.control_plane_endpoint`. */
export function isInputPassThrough(e: Expression): boolean {
  return traversalPath(e) === "var.control_plane_endpoint";
}

/**
 * The module-owned branches of the endpoint output: its value expanded
 * through locals, conditionals (a constant condition keeps its live branch),
 * `try` and `coalesce`; null literals and `var.control_plane_endpoint` itself
 * are dropped.
 */
export function endpointChoices(module: Module, output: Output & { value: Expression }): EndpointChoice[] {
  const out: EndpointChoice[] = [];
  const visit = (expr: Expression, file: SourceFile, conditions: BranchCondition[], via: Local[], depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_BRANCHES) return;
    const e = unwrap(expr);
    const name = localNameOf(e);
    if (name !== null) {
      const l = module.locals.get(name);
      if (l && !via.includes(l)) visit(l.value, l.file, conditions, [...via, l], depth + 1);
      else out.push({ expr: e, file, conditions, via });
      return;
    }
    if (isNullLiteral(e) || isInputPassThrough(e)) return;
    if (e.kind === "Conditional") {
      const c = constantValue(e.condition);
      if (c.known && typeof c.value === "boolean") {
        visit(c.value ? e.trueResult : e.falseResult, file, conditions, via, depth + 1);
        return;
      }
      visit(e.trueResult, file, [...conditions, { expr: e.condition, file, holds: true, via }], via, depth + 1);
      visit(e.falseResult, file, [...conditions, { expr: e.condition, file, holds: false, via }], via, depth + 1);
      return;
    }
    if (e.kind === "FunctionCall" && PICK_ONE.has(e.name) && !e.expandFinal && e.args.length > 0) {
      for (const a of e.args) {
        visit(a, file, conditions, via, depth + 1);
        if (constantValue(a).known) break;
      }
      return;
    }
    out.push({ expr: e, file, conditions, via });
  };
  visit(output.value, outputValueFile(output), [], [], 0);
  return out;
}

/** A managed resource the endpoint output reads, with the chain from the output to it. */
export interface EndpointResource {
  resource: Resource;
  chain: ChainStep[];
}

/**
 * The managed resources the endpoint output reads directly or through
 * locals (not through other resources' arguments), in the order the graph
 * reaches them.
 */
export function resourcesBehindEndpoint(graph: DependencyGraph, output: Output & { value: Expression }): EndpointResource[] {
  const out: EndpointResource[] = [];
  for (const [address, chain] of graph.dependencies(output.value)) {
    const r = graph.module.resources.get(address);
    if (r) out.push({ resource: r, chain });
  }
  return out;
}

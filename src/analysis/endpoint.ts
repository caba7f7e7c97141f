/**
 * The `control_plane_endpoint` output of a cluster module: the branches the
 * module owns (its alternatives as the value analysis gives them, minus null
 * and the pass-through of `var.control_plane_endpoint`), the conditions that
 * select each one, and the managed resources the output is built from.
 * api-lb.ts builds the API load balancer on these branches.
 */
import type { Expression } from "../hcl/ast.js";
import { isNullLiteral, unwrap } from "../hcl/walk.js";
import type { ChainStep, DependencyGraph } from "../terraform/graph-api.js";
import type { Local, Module, Output, Resource, SourceFile } from "../terraform/module-types.js";
import { fileOf } from "../terraform/module-builder.js";
import { traversalPath } from "./references.js";
import type { Site } from "./sites.js";
import { alternatives } from "./values.js";

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
 * with the conditions that select it (api-lb.ts `endpointBranches` reads
 * the objects with a host among them).
 */
export interface EndpointChoice {
  expr: Expression;
  file: SourceFile;
  /** The conditions that select this branch, outermost first. */
  conditions: readonly BranchCondition[];
  /** The locals followed to reach it, outermost first. */
  via: readonly Local[];
  /** The branch as the value analysis gives it (to evaluate it further). */
  site: Site;
}

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
 * The module-owned branches of the endpoint output: its alternatives
 * (values.ts: through locals, conditionals — a constant condition keeps its
 * live branch —, `try`, `coalesce`, ...) with the conditions that select
 * each; null literals and `var.control_plane_endpoint` itself are dropped.
 */
export function endpointChoices(module: Module, output: Output & { value: Expression }): EndpointChoice[] {
  const out: EndpointChoice[] = [];
  for (const alt of alternatives(module, { expr: output.value, file: outputValueFile(output), via: [], conditions: [] })) {
    const e = unwrap(alt.expr);
    if (isNullLiteral(e) || isInputPassThrough(e)) continue;
    const conditions = (alt.conditions ?? []).map((c) => ({ expr: c.expr, file: c.file, holds: c.holds, via: localsOf(module, c.via) }));
    out.push({ expr: e, file: alt.file, conditions, via: localsOf(module, alt.via), site: alt });
  }
  return out;
}

/** The locals of a site's `via` (`local.a`, ...), in order. */
function localsOf(module: Module, via: readonly string[]): Local[] {
  const out: Local[] = [];
  for (const address of via) {
    const l = module.locals.get(address.slice("local.".length));
    if (l) out.push(l);
  }
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

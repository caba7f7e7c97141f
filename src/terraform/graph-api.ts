/**
 * The dependency-graph API rules use (implemented in graph.ts). Answers
 * "what does this expression depend on", directly and transitively through
 * locals and through resource/data arguments, with the chain that proves it.
 */
import type { Expression, Range } from "../hcl/ast.js";
import type { Local, Module, Resource } from "./module-types.js";

export type RefKind =
  | "var" | "local" | "resource" | "data" | "module"
  | "each" | "count" | "self" | "path" | "terraform" | "iterator";

/** One reference found in an expression. */
export interface Reference {
  kind: RefKind;
  /**
   * The referenced object's address: `var.x`, `local.y`,
   * `aws_instance.web`, `data.aws_ami.ubuntu`, `module.net`, `each.value`...
   */
  address: string;
  /** The attribute path after the address as text (`.id`, `[0].id`, `.enabled`). */
  path: string;
  /** The full traversal as text (`var.autoscaling.enabled`). */
  text: string;
  range: Range;
  /** The ScopeTraversal (or Splat/Index/RelativeTraversal root) expression. */
  expr: Expression;
}

/** A step in a dependency chain: the object reached and where it was referenced. */
export interface ChainStep {
  address: string;
  range: Range;
}

/**
 * Answers are computed once per graph (one graph per module and run) and
 * shared: callers must not change the maps and arrays they get.
 */
export interface DependencyGraph {
  module: Module;
  /**
   * References made directly in `expr` (not following locals). Variables
   * bound by `for` expressions and `dynamic` iterators are excluded.
   */
  directRefs(expr: Expression): Reference[];
  /**
   * Every object `expr` depends on, following locals transitively and, when
   * `throughResources` is set, the arguments of referenced resources/data.
   * Each address maps to the shortest chain that reaches it (first step is
   * the direct reference in `expr`).
   */
  dependencies(expr: Expression, opts?: { throughResources?: boolean }): Map<string, ChainStep[]>;
  /**
   * Whether `expr` reaches `target` (an address, `var.failure_domain`, or an
   * address with a path prefix, `var.autoscaling.enabled`); returns the chain
   * or null.
   */
  reaches(expr: Expression, target: string, opts?: { throughResources?: boolean }): ChainStep[] | null;
  /** All expressions of a resource (arguments, nested blocks, count/for_each). */
  resourceExpressions(resource: Resource): Expression[];
  /** `local.x` -> its definition. */
  local(name: string): Local | undefined;
  /**
   * Follow a chain of locals: if `expr` is exactly `local.a` (possibly in
   * parentheses) return local a's value, repeatedly. Returns the final
   * expression and the locals passed through (for "via local.a" messages).
   */
  resolveLocals(expr: Expression): { expr: Expression; via: string[] };
  /** Is `address` (var.x, local.y, resource) referenced anywhere in the module, outside module blocks when `excludeModuleCalls`? */
  isReferenced(address: string, opts?: { excludeModuleCalls?: boolean }): boolean;
  /** Every reference in the module (all expressions of every declaration). */
  allReferences(): { ref: Reference; owner: string }[];
}

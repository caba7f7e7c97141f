/**
 * The values the value analysis passes around: a `Site` (an expression in
 * its context), its iteration scope, what a name bound by iteration stands
 * for, and the hooks through which the per-instance evaluation
 * (iteration.ts) lends itself to the expansion (values.ts).
 *
 * The two files call each other: the expansion meets `each.key` and asks
 * the iteration, the iteration reads an argument and asks the expansion.
 * iteration.ts imports values.ts; values.ts imports neither: it finds the
 * iteration's hooks on the site it expands (`site.iter.resolver`), set by
 * whichever function of iteration.ts made the scope. A site without `iter`
 * never reaches them.
 */
import type { Block, Expression, Range, ScopeTraversal } from "../hcl/ast.js";
import type { Module, Resource, SourceFile } from "../terraform/module-types.js";
import type { Facts } from "./guards.js";

/** An expression with the file it is in and the locals passed to reach it. */
export interface Site {
  expr: Expression;
  file: SourceFile;
  /** `local.a`, `local.b`: the locals followed, outermost first. */
  via: readonly string[];
  /**
   * Names bound by enclosing `for` expressions: the value variable maps to
   * the collection it iterates (its elements are the values it takes), a
   * key variable to null (not followed).
   */
  scope?: ReadonlyMap<string, Binding | null>;
  /** What the conditions guarding this expression tell (`x != null ? <here> : ...`). */
  facts?: Facts;
  /**
   * Iteration (iteration.ts): set on sites made by `resourceSite`, and kept
   * on everything reached from them. Binds `each`, `count`, `dynamic`
   * iterators and `for` variables fixed to one element, and turns on the
   * per-instance evaluation (traversals into locals and resources, indexes,
   * splats, templates, `format`). Sites without it are evaluated as before.
   */
  iter?: IterScope;
  /**
   * Iteration mode only: every hop taken to reach this expression, in order
   * (locals followed, `for_each`/`count`/`dynamic` expressions and the entry
   * an iteration name stood for, arguments of other resource instances), in
   * the shape `ctx.report({ related })` takes.
   */
  trail?: readonly TrailHop[];
  /**
   * Set (to `[]`) by a caller that wants to know which conditions select
   * each alternative (endpoint.ts): the conditionals whose branch was taken
   * to reach this expression, outermost first. Carried along the expansion;
   * a condition that is a constant selects nothing (its dead branch is not
   * taken).
   */
  conditions?: readonly SiteCondition[];
}

/** A condition on the way to an alternative: the branch is taken when `expr` evaluates to `holds`. */
export interface SiteCondition {
  expr: Expression;
  file: SourceFile;
  holds: boolean;
  /** The locals followed to reach the condition (`local.a`), outermost first. */
  via: readonly string[];
}

/** One hop of a site's trail: where it is and a short label (`local.api_ports`, `aws_lb_target_group.tg for_each`). */
export interface TrailHop {
  file: SourceFile;
  range: Range;
  message: string;
}

/** A `for` value variable: the collection it iterates and the `if` clause that filters it. */
export interface Binding {
  collection: Site;
  name: string;
  condition: Expression | null;
  /** Set on the key variable of a `for` (`k` of `for k, v in ...`): the name of its value variable. */
  keyOf?: string;
}

/** Shared by one question's expansions (values.ts and iteration.ts). */
export interface Budget {
  steps: number;
  /** Set when a traversal certainly fails (an attribute or key an object certainly lacks). */
  missing?: boolean;
}

export interface ExpandOptions {
  /**
   * Scalar mode: also look into `lookup(map, key, default)` and
   * `map[key]` when the map is a literal object (every value of the map
   * is a possible result).
   */
  scalar?: boolean;
}

/** An element a list value may hold. */
export interface Element {
  site: Site;
  /** The element is the result of a `for` expression (stands for every iteration). */
  fromFor: boolean;
}

// -------------------------------------------------------------- iteration

/**
 * A value an iteration name stands for: an expression in its context, a
 * tuple of values (an element of `setproduct`), or resource instances.
 */
export type IterValue =
  | { kind: "site"; site: Site }
  | { kind: "tuple"; items: IterValue[]; site: Site }
  | { kind: "instance"; resource: Resource; instance: Instance; site: Site }
  | { kind: "resource"; resource: Resource; site: Site }
  | { kind: "blocks"; blocks: BlockSite[]; complete: boolean; site: Site; ref?: ScopeTraversal };

/**
 * What one name is bound to: `each` / a dynamic iterator (`.key`, `.value`),
 * `count` (`.index` is `key`), or a `for` variable fixed to one element
 * (`value`). A null key or value is unknown.
 */
export interface IterBinding {
  role: "entry" | "count" | "var";
  key: IterValue | null;
  value: IterValue | null;
  /** The hop of the iterated expression (`for_each`, `count`, a dynamic block's `for_each`). */
  origin?: TrailHop;
  /** The hop of the entry this binding stands for (`local.api_ports["kube_apiserver"]`). */
  entry?: TrailHop;
}

/** What is still to be split into instances (sites made by `resourceSite`). */
export interface PendingIteration {
  resource: Resource;
  /** One instance, or null for every instance of the resource. */
  instance: Instance | null;
  /** The `dynamic` blocks around the expression, outermost first. */
  dynamics: readonly Block[];
}

/** The iteration part of a `Site`. */
export interface IterScope {
  readonly names: ReadonlyMap<string, IterBinding>;
  readonly pending?: PendingIteration;
  /** The per-instance evaluation that made this scope (iteration.ts), which the expansion calls back. */
  readonly resolver: IterationResolver;
}

/**
 * One instance of a resource. `key` is the `for_each` key or `count`
 * index; null when it is unknown, and for a resource with neither (mode
 * "single"). `value` is `each.value` when it is an expression.
 */
export interface Instance {
  key: string | number | null;
  certain: boolean;
  value: Site | null;
  /** What the iteration names are bound to in this instance (null for a single resource). */
  binding: IterBinding | null;
}

/** One nested block of a resource instance, literal or one entry of a `dynamic` block. */
export interface BlockSite {
  resource: Resource;
  instance: Instance;
  /** The literal block, or the dynamic block's `content` block. */
  block: Block;
  /** The `dynamic` block it comes from, or null for a literal block. */
  dynamic: Block | null;
  /** False when the block exists only on some evaluations (`if`, a conditional collection, an uncertain instance). */
  certain: boolean;
  /** The iteration names bound inside the block (the instance's and the iterators'). */
  iter: IterScope;
}

/**
 * What iteration.ts lends the expansion of values.ts, for sites in
 * iteration mode (`site.iter` set); each hook is the iteration function
 * named in its comment.
 */
export interface IterationResolver {
  /** `iterationExpand`: the iteration-mode forms of the expansion; true when it handled `site`, false to let the ordinary expansion go on. */
  expand(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean;
  /** `tryFirstSucceeds`: the first argument of `try` that certainly succeeds with known constants; true when it pushed them. */
  tryFirstSucceeds(module: Module, site: Site, opts: ExpandOptions, out: Site[], depth: number, budget: Budget): boolean;
  /** `iterationElements`: the elements of a list value, one per entry with its variables bound. */
  elements(module: Module, alt: Site, depth: number, budget: Budget): Element[];
  /** `splitInstances`: `site` once per instance of its pending resource (and dynamic entry), with the names bound. */
  split(module: Module, site: Site, budget: Budget): Site[];
  /** Iteration mode with nothing bound (a local reached from an iteration site). */
  readonly empty: IterScope;
}

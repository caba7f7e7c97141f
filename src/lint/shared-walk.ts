/**
 * The shared walk (ESLint's selector model): rules whose `check` returned
 * visitors subscribe to node kinds, and each module's expressions are walked
 * once for all of them. The engine (engine.ts) collects the visitors, calls
 * `walkModule` once per module unit, and turns a throwing handler into that
 * rule's failure.
 *
 * Order: every file of the module in order, every top-level block of a file
 * in source order; for a block, the `Block` handlers, then each attribute of
 * its body (`Attribute`, then the attribute's expression pre-order: a node
 * before its children, children in source order, bare object keys left
 * out), then its nested blocks the same way, then `Block:exit`. A kind's
 * handlers run in rule order. `Module:exit` handlers run once at the end,
 * in rule order. Top-level attributes of a file (not valid Terraform) are
 * not walked. Iterative throughout: nesting depth costs heap, not stack.
 */
import type { Attribute, Block, Expression } from "../hcl/ast.js";
import { chainBlocks, type BlockChain } from "../hcl/blocks.js";
import { pushChildren } from "../hcl/walk.js";
import type { Module, SourceFile } from "../terraform/module-types.js";
import type { NodeKind, RuleVisitors, WalkSite } from "./types.js";

const EXPRESSION_KINDS = [
  "LiteralValue", "Template", "TemplateWrap", "ScopeTraversal", "RelativeTraversal", "Index", "Splat", "FunctionCall",
  "Conditional", "BinaryOp", "UnaryOp", "TupleCons", "ObjectCons", "For", "Parentheses", "AnonSymbol", "Invalid",
] as const satisfies readonly Expression["kind"][];

// A kind missing above fails the type check here.
type MissingKinds = Exclude<Expression["kind"], (typeof EXPRESSION_KINDS)[number]>;
const NO_MISSING_KINDS: MissingKinds extends never ? true : MissingKinds = true;
void NO_MISSING_KINDS;

/** Every node kind a visitor may name. */
export const NODE_KINDS: readonly NodeKind[] = [...EXPRESSION_KINDS, "Attribute", "Block"];

const EXPRESSION_KIND_SET: ReadonlySet<string> = new Set(EXPRESSION_KINDS);
const VISITOR_KEYS: ReadonlySet<string> = new Set([...NODE_KINDS, ...NODE_KINDS.map((k) => `${k}:exit`), "Module:exit"]);

/** Counts for tests: walks made and expression nodes visited (since the process started). */
export const walkStats = { modules: 0, nodes: 0 };

/**
 * The visitors a `check` returned, or null when it returned none. Only a
 * plain object counts (a check written as `(ctx) => cond && ctx.report(...)`
 * returns false or undefined, an async one a promise: as before, nothing).
 * Throws, with a message for the rule's author, on an unknown key or a
 * handler that is not a function.
 */
export function visitorsOf(value: unknown): RuleVisitors | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  if (typeof (value as { then?: unknown }).then === "function") return null;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return null;
  for (const key of Object.keys(value)) {
    if (!VISITOR_KEYS.has(key)) {
      throw new Error(`check() returned a visitor for "${key}", which is no node kind (use ${NODE_KINDS.slice(0, 4).map((k) => `"${k}"`).join(", ")}, ... "<Kind>:exit" or "Module:exit")`);
    }
    const fn = (value as Record<string, unknown>)[key];
    if (fn !== undefined && typeof fn !== "function") throw new Error(`check() returned a visitor "${key}" that is not a function`);
  }
  return value as RuleVisitors;
}

/** One rule's visitors in one module, and what to do when one of them throws. */
export interface Subscriber {
  visitors: RuleVisitors;
  /** Called once, with what a handler threw; the rule's later handlers are not called. */
  onError(err: unknown): void;
}

type AnyHandler = (node: unknown, site: WalkSite) => void;

interface Entry {
  state: { failed: boolean; sub: Subscriber };
  fn: AnyHandler;
}

type Table = Map<string, Entry[]>;

function call(list: readonly Entry[], node: unknown, site: WalkSite): void {
  for (let i = 0; i < list.length; i++) {
    const h = list[i]!;
    if (h.state.failed) continue;
    try {
      h.fn.call(h.state.sub.visitors, node, site);
    } catch (err) {
      h.state.failed = true;
      h.state.sub.onError(err);
    }
  }
}

/** Walk `mod` once for every subscriber (in their order), then call their `Module:exit`. */
export function walkModule(mod: Module, subscribers: readonly Subscriber[]): void {
  const enter: Table = new Map();
  const exit: Table = new Map();
  const states = subscribers.map((sub) => ({ failed: false, sub }));
  let wantsExpressions = false;
  for (const state of states) {
    for (const key of Object.keys(state.sub.visitors)) {
      const fn = (state.sub.visitors as Record<string, unknown>)[key];
      if (typeof fn !== "function" || key === "Module:exit") continue;
      const isExit = key.endsWith(":exit");
      const kind = isExit ? key.slice(0, -5) : key;
      if (EXPRESSION_KIND_SET.has(kind)) wantsExpressions = true;
      const table = isExit ? exit : enter;
      const list = table.get(kind);
      const entry: Entry = { state, fn: fn as AnyHandler };
      if (list) list.push(entry);
      else table.set(kind, [entry]);
    }
  }
  walkStats.modules++;

  const blockEnter = enter.get("Block");
  const blockExit = exit.get("Block");
  const attrEnter = enter.get("Attribute");
  const attrExit = exit.get("Attribute");
  const exprExits = [...exit.keys()].some((k) => EXPRESSION_KIND_SET.has(k));
  // Expression walk: an explicit stack; `null` above a node marks its exit.
  const stack: (Expression | null)[] = [];
  const walkExpr = (root: Expression, site: WalkSite): void => {
    stack.push(root);
    while (stack.length > 0) {
      let e = stack.pop()!;
      if (e === null) {
        e = stack.pop()!;
        call(exit.get(e.kind)!, e, site);
        continue;
      }
      walkStats.nodes++;
      const handlers = enter.get(e.kind);
      if (handlers !== undefined) call(handlers, e, site);
      if (exprExits && exit.has(e.kind)) stack.push(e, null);
      pushChildren(e, stack, false);
    }
  };
  const visitAttribute = (attr: Attribute, site: WalkSite): void => {
    if (attrEnter) call(attrEnter, attr, site);
    if (wantsExpressions) walkExpr(attr.expr, site);
    if (attrExit) call(attrExit, attr, site);
  };

  // Blocks: an explicit stack of (block, its chain, whether this entry is its exit).
  const blocks: Block[] = [];
  const chains: Chain[] = [];
  const exits: boolean[] = [];
  for (const file of mod.files) {
    for (const top of file.hcl.body.blocks) {
      blocks.push(top);
      chains.push(chainOf(top, null));
      exits.push(false);
      while (blocks.length > 0) {
        const block = blocks.pop()!;
        const chain = chains.pop()!;
        if (exits.pop()!) {
          call(blockExit!, block, site(file, chain, null));
          continue;
        }
        if (blockEnter) call(blockEnter, block, site(file, chain, null));
        if (blockExit) {
          blocks.push(block);
          chains.push(chain);
          exits.push(true);
        }
        for (const attr of block.body.attributes) visitAttribute(attr, site(file, chain, attr));
        const nested = block.body.blocks;
        for (let i = nested.length - 1; i >= 0; i--) {
          const child = nested[i]!;
          blocks.push(child);
          chains.push(chainOf(child, chain));
          exits.push(false);
        }
      }
    }
  }

  for (const state of states) {
    const fn = state.sub.visitors["Module:exit"];
    if (typeof fn !== "function" || state.failed) continue;
    try {
      fn.call(state.sub.visitors);
    } catch (err) {
      state.failed = true;
      state.sub.onError(err);
    }
  }
}

/**
 * The blocks around a node, innermost last: a link to the chain of the block
 * around it. Near the top (where every real module's blocks are) the list
 * is made at once; deeper, only when a handler reads `site.blocks` (a copy
 * per level would be quadratic in the nesting depth).
 */
interface Chain extends BlockChain {
  readonly top: Block;
  readonly parent: Chain | null;
  readonly depth: number;
  list: readonly Block[] | null;
}

const EAGER_CHAIN_DEPTH = 64;

function chainOf(block: Block, parent: Chain | null): Chain {
  const depth = parent === null ? 1 : parent.depth + 1;
  const list = parent === null ? [block] : depth <= EAGER_CHAIN_DEPTH ? [...parent.list!, block] : null;
  return { block, top: parent === null ? block : parent.top, parent, depth, list };
}

function chainList(chain: Chain): readonly Block[] {
  return (chain.list ??= chainBlocks(chain));
}

function site(file: SourceFile, chain: Chain, attribute: Attribute | null): WalkSite {
  if (chain.list !== null) return { file, block: chain.top, blocks: chain.list, attribute };
  return {
    file,
    block: chain.top,
    get blocks(): readonly Block[] {
      return chainList(chain);
    },
    attribute,
  };
}

/**
 * What encoding the bootstrap data has when it reaches an argument, branch
 * by branch, for bootstrap/encoding. `var.bootstrap_data` is base64 text:
 * passed unchanged it is "raw" (base64), wrapped in base64encode/base64gzip
 * it is "double" (base64 of base64), base64decode'd it is "decoded" (the
 * plain payload). Anything we cannot be sure about is "other" and is never
 * reported.
 */
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Attribute, Expression } from "../../src/hcl/ast.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import type { LoadResult, Module, ModuleUnit, Resource } from "../../src/terraform/module-types.js";
import { type UserDataArgument, userDataArguments } from "../../src/contract/providers.js";
import { attributesAt } from "../../src/analysis/attributes.js";
import { localNameOf, traversalPath, viaText } from "../../src/analysis/references.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import { objectKeyName, unwrap } from "../../src/hcl/walk.js";
import { type Hop, joinHops, localHops, moduleArgumentHop, variableHop } from "../../src/analysis/paths.js";

export const BOOTSTRAP_VAR = "var.bootstrap_data";

export type EncodingState = "raw" | "double" | "decoded" | "other";

export interface EncodingLeaf {
  state: EncodingState;
  /** The function that double-encoded it (`base64encode`, `base64gzip`). */
  encoder?: string;
  /** Locals passed through to reach this branch. */
  via: string[];
  /** How many conditional/try/coalesce alternatives were crossed. */
  branched: boolean;
}

/** Functions that return their (first) argument's value unchanged for our purpose. */
const PASS_THROUGH = new Set(["nonsensitive", "sensitive", "tostring", "trimspace"]);
/** Functions whose result is one of their arguments. */
const ONE_OF_ARGS = new Set(["try", "coalesce"]);
const ENCODERS = new Set(["base64encode", "base64gzip"]);
/**
 * How many functions, conditionals and locals `encodingLeaves` and `mapEntry`
 * follow from the argument. The recursion never goes deeper than this, so any
 * input depth is safe on the main thread; a value nested deeper is "other"
 * (or no map entry): unknown, never reported. Module calls are followed up to
 * 16 levels of local child modules (a file-system depth, not the syntax tree's).
 */
const MAX_DEPTH = 48;

/**
 * At most this many branches are told apart per argument: locals that pick
 * between the same locals again and again (`local.a = c ? local.b : local.b`)
 * double the branches at every level. Past it one "other" branch stands for
 * the rest (unknown: a wrong branch found before it is still certain).
 */
const MAX_LEAVES = 1024;

/** What an encoder (`base64encode`, `base64gzip`, `base64decode`) makes of a branch's encoding. */
function encoded(leaf: EncodingLeaf, fn: string): EncodingLeaf {
  if (leaf.state !== "raw") return { ...leaf, state: "other" };
  if (fn === "base64decode") return { ...leaf, state: "decoded" };
  return { ...leaf, state: "double", encoder: fn };
}

/**
 * The encoding branches of `expr` relative to `source` (the variable that
 * holds the base64 bootstrap data: `var.bootstrap_data`, or in a local child
 * module the variable the parent passed it to), in source order. An explicit
 * stack of branches to read, each with the encoders around it (outermost
 * first), rather than recursion.
 */
export function encodingLeaves(graph: DependencyGraph, expr: Expression, source: string = BOOTSTRAP_VAR): EncodingLeaf[] {
  const out: EncodingLeaf[] = [];
  type Branch = { x: Expression; via: string[]; branched: boolean; depth: number; encoders: readonly string[] };
  const pending: Branch[] = [{ x: expr, via: [], branched: false, depth: 0, encoders: [] }];
  const leaf = (b: Branch, state: EncodingState): void => {
    let l: EncodingLeaf = { state, via: b.via, branched: b.branched };
    for (let i = b.encoders.length - 1; i >= 0; i--) l = encoded(l, b.encoders[i]!);
    out.push(l);
  };
  while (pending.length > 0) {
    if (out.length >= MAX_LEAVES) {
      out.push({ state: "other", via: [], branched: true });
      break;
    }
    const b = pending.pop()!;
    const next = (x: Expression, branched: boolean, extra?: { via?: string[]; encoder?: string }): Branch => ({
      x,
      via: extra?.via ?? b.via,
      branched,
      depth: b.depth + 1,
      encoders: extra?.encoder ? [...b.encoders, extra.encoder] : b.encoders,
    });
    if (b.depth > MAX_DEPTH) {
      leaf(b, "other");
      continue;
    }
    const e = unwrap(b.x);
    if (e.kind === "ScopeTraversal") {
      if (traversalPath(e) === source) {
        leaf(b, "raw");
        continue;
      }
      const name = localNameOf(e);
      const l = name !== null && !b.via.includes(`local.${name}`) ? graph.local(name) : undefined;
      if (l) pending.push(next(l.value, b.branched, { via: [...b.via, `local.${name!}`] }));
      else leaf(b, "other");
      continue;
    }
    if (e.kind === "Conditional") {
      // A condition that inspects the payload itself (gzip detection,
      // `can(base64decode(...))`) means the author handles both encodings.
      if (graph.reaches(e.condition, source) !== null) leaf(b, "other");
      else pending.push(next(e.falseResult, true), next(e.trueResult, true));
      continue;
    }
    if (e.kind === "FunctionCall" && !e.expandFinal) {
      if (PASS_THROUGH.has(e.name) && e.args.length >= 1) {
        pending.push(next(e.args[0]!, b.branched));
        continue;
      }
      if (ONE_OF_ARGS.has(e.name) && e.args.length >= 1) {
        const alt = e.args.length > 1 || b.branched;
        for (let i = e.args.length - 1; i >= 0; i--) pending.push(next(e.args[i]!, alt));
        continue;
      }
      if ((ENCODERS.has(e.name) || e.name === "base64decode") && e.args.length === 1) {
        pending.push(next(e.args[0]!, b.branched, { encoder: e.name }));
        continue;
      }
    }
    leaf(b, "other");
  }
  return out;
}

/**
 * The value stored under `key` in a map-valued argument (`metadata`):
 * through locals, object constructors and `merge(...)`. Null when it cannot
 * be told for certain.
 */
export function mapEntry(graph: DependencyGraph, expr: Expression, key: string, depth = 0): { value: Expression; via: string[] } | null {
  if (depth > MAX_DEPTH) return null;
  const resolved = graph.resolveLocals(expr);
  const e = unwrap(resolved.expr);
  if (e.kind === "ObjectCons") {
    // The last item with the key wins.
    for (let i = e.items.length - 1; i >= 0; i--) {
      const item = e.items[i]!;
      const name = objectKeyName(item);
      if (name === key) return { value: item.value, via: resolved.via };
      if (name === null) return null;
    }
    return null;
  }
  if (e.kind === "FunctionCall" && e.name === "merge" && !e.expandFinal) {
    for (let i = e.args.length - 1; i >= 0; i--) {
      const arg = unwrap(graph.resolveLocals(e.args[i]!).expr);
      if (arg.kind !== "ObjectCons") return null;
      const hit = mapEntry(graph, e.args[i]!, key, depth + 1);
      if (hit) return { value: hit.value, via: [...resolved.via, ...hit.via] };
      if (arg.items.some((it) => objectKeyName(it) === null)) return null;
    }
  }
  return null;
}

/**
 * The variables of `unit` that certainly hold the bootstrap data unchanged:
 * `bootstrap_data` in the root module; in a local child module, each
 * argument of its call whose every branch is one of the parent's bootstrap
 * variables passed unchanged (`user_data = var.bootstrap_data`).
 */
export function bootstrapVariables(load: LoadResult, unit: ModuleUnit, graphOf: (m: Module) => DependencyGraph, depth = 0): string[] {
  if (unit === load.root) return unit.expressions.variables.has("bootstrap_data") ? ["bootstrap_data"] : [];
  if (depth > 16) return [];
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return [];
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const sources = bootstrapVariables(load, parent, graphOf, depth + 1);
  if (sources.length === 0) return [];
  const graph = graphOf(parent.expressions);
  const out: string[] = [];
  for (const [name, attr] of call.args) {
    if (!unit.expressions.variables.has(name)) continue;
    const raw = sources.some((src) => {
      const leaves = encodingLeaves(graph, attr.expr, `var.${src}`);
      return leaves.length > 0 && leaves.every((l) => l.state === "raw");
    });
    if (raw) out.push(name);
  }
  return out;
}

/**
 * Where the bootstrap variable `source` of `unit` comes from, as hops: its
 * declaration and, in a local child module, the calling module's argument
 * (with the locals it passed) up to the root's var.bootstrap_data.
 */
export function bootstrapOriginHops(load: LoadResult, unit: ModuleUnit, source: string, graphOf: (m: Module) => DependencyGraph, depth = 0): Hop[] {
  const own = variableHop(unit.expressions, source);
  if (unit === load.root || depth > 16) return joinHops([own]);
  const parent = load.units.find((u) => u.children.some((c) => c.unit === unit));
  if (!parent) return joinHops([own]);
  const call = parent.children.find((c) => c.unit === unit)!.call;
  const attr = call.args.get(source);
  if (!attr) return joinHops([own]);
  const graph = graphOf(parent.expressions);
  for (const src of bootstrapVariables(load, parent, graphOf, depth + 1)) {
    const leaves = encodingLeaves(graph, attr.expr, `var.${src}`);
    if (leaves.length === 0 || !leaves.every((l) => l.state === "raw")) continue;
    return joinHops(
      [own, moduleArgumentHop(call, source)],
      localHops(parent.expressions, leaves[0]!.via),
      bootstrapOriginHops(load, parent, src, graphOf, depth + 1),
    );
  }
  return joinHops([own]);
}

function argumentText(arg: UserDataArgument): string {
  const path = arg.path.join(".");
  return arg.key ? `${path}["${arg.key}"]` : path;
}

/** The values an argument stores (for map arguments, the value under the table's key). */
function argumentSites(ctx: RuleContext, attr: Attribute, arg: UserDataArgument): { value: Expression; via: string[] }[] {
  if (!arg.key) return [{ value: attr.expr, via: [] }];
  const entry = mapEntry(ctx.graph, attr.expr, arg.key);
  return entry ? [entry] : [];
}

function isWrong(leaf: EncodingLeaf, arg: UserDataArgument): boolean {
  return arg.encoding === "base64" ? leaf.state === "double" : leaf.state === "raw";
}

function message(r: Resource, arg: UserDataArgument, source: string, leaf: EncodingLeaf, via: string[]): string {
  const where = `${r.address} ${argumentText(arg)}`;
  const what = source === "bootstrap_data" ? "var.bootstrap_data" : `var.${source} (the bootstrap data, passed in by the calling module)`;
  const branch = leaf.branched ? " in one branch" : "";
  const chain = viaText([...via, ...leaf.via]);
  if (arg.encoding === "base64") {
    return `${where} takes base64, but ${what} is already base64 and is wrapped in ${leaf.encoder ?? "base64encode"}(...)${branch}${chain}: the instance gets its bootstrap payload still encoded and never joins; pass it unchanged`;
  }
  return `${where} takes plain text, but ${what} is passed unchanged${branch}${chain}: the instance gets base64 text instead of its bootstrap payload and never joins; use base64decode(var.${source}) or the argument's base64 variant`;
}

export default defineRule({
  id: "bootstrap/encoding",
  provenance: "contract-depth",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "bootstrap_data (base64) reaches user-data arguments in the encoding they expect",
  // Local child modules too: the bootstrap data often reaches the launch
  // template through a module argument.
  scope: "all",
  fixable: false,
  tags: ["contract", "bootstrap"],
  check(ctx) {
    const module = ctx.expressions;
    const sources = bootstrapVariables(ctx.load, ctx.unit, (m) => ctx.graphOf(m));
    if (sources.length === 0) return;
    for (const r of [...module.resources.values(), ...module.dataSources.values()]) {
      for (const arg of userDataArguments(r.type)) {
        for (const attr of attributesAt(r.body, arg.path)) {
          for (const site of argumentSites(ctx, attr, arg)) {
            for (const source of sources) {
              const bad = encodingLeaves(ctx.graph, site.value, `var.${source}`).find((l) => isWrong(l, arg));
              if (!bad) continue;
              const related = joinHops(
                localHops(module, [...site.via, ...bad.via]),
                bootstrapOriginHops(ctx.load, ctx.unit, source, (m) => ctx.graphOf(m)),
              );
              ctx.report({ message: message(r, arg, source, bad, site.via), file: fileOf(r, attr).path, range: site.value.range, related });
              break;
            }
          }
        }
      }
    }
  },
});

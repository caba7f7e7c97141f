/**
 * Volatile values for drift/non-idempotent: calls whose result changes on
 * every evaluation (timestamp(), uuid()...), found in resource arguments
 * with the argument path they sit under (for ignore_changes coverage),
 * following locals. A set of "tainted" variables can be treated like such
 * a call, to follow a volatile value into a nested module.
 */
import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Module, ModuleUnit, Resource, SourceFile } from "../../src/terraform/module-types.js";
import type { Body, Expression, Range } from "../../src/hcl/ast.js";
import { isPrefix, parseIgnorePath } from "../../src/analysis/attributes.js";
import { localsInDependencyOrder } from "../../src/analysis/locals.js";
import { isRefTo, localName, localRefs } from "../../src/analysis/references.js";
import { children, objectKeyName } from "../../src/hcl/walk.js";

/** Functions whose result differs on every evaluation, with a stable alternative. */
export const VOLATILE: Record<string, string> = {
  timestamp: "a time_static resource",
  plantimestamp: "a time_static resource",
  uuid: "a random_uuid resource",
  bcrypt: "the bcrypt_hash of a random_password resource",
};

/** Resource arguments and blocks that are not compared on plan. */
const SKIPPED_ARGS = new Set(["count", "for_each", "depends_on", "provider"]);
const SKIPPED_BLOCKS = new Set(["lifecycle", "provisioner", "connection"]);

export interface Hit {
  /** The function name, or `var.x` for a tainted variable. */
  fn: string;
  /** Where to report: the call, or the `local.x` reference that carries it. */
  range: Range;
  node: object;
  via: string | null;
  /** Argument path (nested block types, object keys; indices dropped). */
  path: string[];
}

/** Hits in a resource's arguments that its ignore_changes does not cover. */
export function uncoveredHits(scanner: Scanner, resource: Resource): Hit[] {
  const ignored = resource.lifecycle.ignoreChanges;
  if (ignored === "all") return [];
  const ignorePaths = ignored.map((i) => parseIgnorePath(i.path));
  const hits: Hit[] = [];
  scanner.body(resource.body, [], hits);
  return hits.filter((h) => !ignorePaths.some((p) => isPrefix(p, h.path)));
}

/**
 * An argument path as a link to its parent path: a path extended at every
 * level of a deep object or block nesting shares its prefix instead of
 * copying it. Spelled out (`pathOf`) only for a hit.
 */
type PathLink = { name: string; up: PathLink } | null;

function linkOf(path: readonly string[]): PathLink {
  let link: PathLink = null;
  for (const name of path) link = { name, up: link };
  return link;
}

function pathOf(link: PathLink): string[] {
  const out: string[] = [];
  for (let l = link; l !== null; l = l.up) out.push(l.name);
  return out.reverse();
}

/** What is left to scan: a body (arguments, then nested blocks), or an expression. */
type Task = { kind: "body"; body: Body; path: PathLink } | { kind: "expr"; e: Expression; path: PathLink; open: boolean };

/**
 * Locals followed at once while the memo is being filled: only a cycle of
 * locals (invalid in Terraform) nests them; past this many the rest of the
 * cycle contributes nothing, so that a long one cannot exhaust the stack.
 */
const MAX_LOCALS_IN_FLIGHT = 64;

/** Finds volatile calls in one module's resources, following locals (memoized). */
export class Scanner {
  private readonly memo = new Map<string, { fn: string; suffix: string[] }[]>();
  private prepared = false;
  private inFlight = 0;

  constructor(
    private readonly mod: Module,
    /** Variables whose value counts as volatile (passed in by a parent). */
    private readonly taintedVars: ReadonlySet<string> = new Set(),
  ) {}

  body(body: Body, path: string[], hits: Hit[]): void {
    this.run([{ kind: "body", body, path: linkOf(path) }], hits);
  }

  /**
   * Find volatile calls in `expr`. `open` says whether object keys still
   * extend the path (inside object constructors, merge() and conditional
   * branches; not inside other calls, where the value's shape is unknown).
   */
  expr(e: Expression, path: string[], open: boolean, hits: Hit[]): void {
    this.run([{ kind: "expr", e, path: linkOf(path), open }], hits);
  }

  /**
   * The scan, in source order (a node before its children, arguments before
   * nested blocks), over an explicit stack of tasks pushed in reverse: any
   * nesting depth is scanned on the main thread.
   */
  private run(pending: Task[], hits: Hit[]): void {
    while (pending.length > 0) {
      const task = pending.pop()!;
      if (task.kind === "body") this.pushBody(task.body, task.path, pending);
      else this.scanExpr(task.e, task.path, task.open, hits, pending);
    }
  }

  /** Pushes a body's arguments and nested blocks (reversed: the first is scanned first). */
  private pushBody(body: Body, path: PathLink, pending: Task[]): void {
    const tasks: Task[] = [];
    for (const attr of body.attributes) {
      if (path === null && SKIPPED_ARGS.has(attr.name)) continue;
      tasks.push({ kind: "expr", e: attr.expr, path: { name: attr.name, up: path }, open: true });
    }
    for (const block of body.blocks) {
      if (SKIPPED_BLOCKS.has(block.type)) continue;
      if (block.type === "dynamic") {
        const inside: PathLink = { name: block.labels[0] ?? "dynamic", up: path };
        for (const inner of block.body.blocks) {
          if (inner.type === "content") tasks.push({ kind: "body", body: inner.body, path: inside });
        }
        for (const attr of block.body.attributes) {
          if (attr.name === "content") tasks.push({ kind: "expr", e: attr.expr, path: inside, open: true });
        }
        continue;
      }
      tasks.push({ kind: "body", body: block.body, path: { name: block.type, up: path } });
    }
    for (let i = tasks.length - 1; i >= 0; i--) pending.push(tasks[i]!);
  }

  /** Scans one expression node and pushes its children (reversed). */
  private scanExpr(e: Expression, path: PathLink, open: boolean, hits: Hit[], pending: Task[]): void {
    if (e.kind === "FunctionCall" && Object.hasOwn(VOLATILE, e.name)) {
      hits.push({ fn: e.name, range: e.range, node: e, via: null, path: pathOf(path) });
    }
    for (const name of this.taintedVars) {
      if (isRefTo(e, "var", name)) {
        hits.push({ fn: `var.${name}`, range: e.range, node: e, via: null, path: pathOf(path) });
        return;
      }
    }
    const local = localName(e);
    if (local !== null) {
      const keepOpen = open && e.kind === "ScopeTraversal" && e.traversal.length === 2;
      const found = this.localHits(local, keepOpen);
      const prefix = found.length > 0 ? pathOf(path) : [];
      for (const h of found) {
        hits.push({ fn: h.fn, range: e.range, node: e, via: local, path: [...prefix, ...h.suffix] });
      }
      return;
    }
    if (e.kind === "ObjectCons") {
      for (let i = e.items.length - 1; i >= 0; i--) {
        const item = e.items[i]!;
        const key = objectKeyName(item);
        const extend = open && key !== null;
        pending.push({ kind: "expr", e: item.value, path: extend ? { name: key, up: path } : path, open: extend });
        pending.push({ kind: "expr", e: item.key, path, open: false });
      }
      return;
    }
    const passesShape = e.kind === "Parentheses" || (e.kind === "FunctionCall" && e.name === "merge") || e.kind === "Conditional";
    const kids = children(e);
    for (let i = kids.length - 1; i >= 0; i--) {
      const child = kids[i]!;
      const isCondition = e.kind === "Conditional" && child === e.condition;
      pending.push({ kind: "expr", e: child, path, open: open && passesShape && !isCondition });
    }
  }

  /** Volatile calls a local's value holds, with their path inside the value. */
  private localHits(name: string, open: boolean): { fn: string; suffix: string[] }[] {
    const key = `${open ? "o" : "c"}:${name}`;
    const known = this.memo.get(key);
    if (known) return known;
    if (!this.prepared) {
      // Fill the memo bottom-up so that following a chain of locals never
      // recurses deeper than one local.
      this.prepared = true;
      for (const n of localsInDependencyOrder(this.mod, (l) => localRefs(l.value).map((r) => r.name))) {
        this.localHits(n, true);
        this.localHits(n, false);
      }
      return this.localHits(name, open);
    }
    // Only a cycle gets here with locals in flight (see MAX_LOCALS_IN_FLIGHT).
    if (this.inFlight >= MAX_LOCALS_IN_FLIGHT) return [];
    this.memo.set(key, []); // a cycle (invalid in Terraform) contributes nothing
    const def = this.mod.locals.get(name);
    const raw: Hit[] = [];
    this.inFlight++;
    try {
      if (def) this.expr(def.value, [], open, raw);
    } finally {
      this.inFlight--;
    }
    const result = distinctHits(raw);
    this.memo.set(key, result);
    return result;
  }
}

/** At most this many distinct (function, path) pairs are kept per local. */
const MAX_LOCAL_HITS = 32;

/**
 * Distinct hits of a local's value. Past the cap, paths are dropped (only
 * the whole argument can then cover them): conservative, and it keeps
 * locals that combine each other many times from growing without bound.
 */
function distinctHits(raw: Hit[]): { fn: string; suffix: string[] }[] {
  const byKey = new Map<string, { fn: string; suffix: string[] }>();
  for (const h of raw) byKey.set(`${h.fn}\u0000${h.path.join("\u0000")}`, { fn: h.fn, suffix: h.path });
  if (byKey.size <= MAX_LOCAL_HITS) return [...byKey.values()];
  return [...new Set(raw.map((h) => h.fn))].map((fn) => ({ fn, suffix: [] }));
}

export default defineRule({
  id: "drift/non-idempotent",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "Resource arguments do not call timestamp(), uuid(), bcrypt() or plantimestamp() outside ignore_changes",
  scope: "all",
  fixable: false,
  tags: ["drift", "idempotency"],
  check(ctx) {
    // Every finding starts at a call of a VOLATILE function in this module:
    // skip the scan when no file spells one of their names (cheap; most
    // modules call none of them).
    if (!ctx.unit.allFiles.some(mayCallVolatile)) return;
    const scanner = new Scanner(ctx.expressions);
    const seen = new Set<string>();
    const report = (file: string, hit: Hit, message: string): void => {
      const at = `${file}:${hit.range.start.offset}`;
      if (seen.has(at)) return;
      seen.add(at);
      ctx.report({ message, file, range: hit.range });
    };

    for (const resource of ctx.expressions.resources.values()) {
      for (const hit of uncoveredHits(scanner, resource)) {
        report(fileOf(resource, hit.node).path, hit, resourceMessage(resource, hit));
      }
    }

    // A volatile value passed to a local nested module that puts it in a
    // resource there: reported at the call, where the value is made.
    for (const call of ctx.expressions.moduleCalls.values()) {
      const child = call.isLocal ? ctx.unit.children.find((c) => c.call.name === call.name) : undefined;
      if (!child) continue;
      for (const [argName, attr] of call.args) {
        const hits: Hit[] = [];
        scanner.expr(attr.expr, [argName], true, hits);
        if (hits.length === 0) continue;
        const target = volatileUse(child.unit, argName, new Set());
        if (!target) continue;
        for (const hit of hits) {
          report(fileOf(call, hit.node).path, hit, moduleMessage(call.name, argName, target, hit));
        }
      }
    }
  },
});

const VOLATILE_NAMES = Object.keys(VOLATILE);

/** Whether the file's text may hold a volatile call (JSON strings may spell names with \u escapes). */
function mayCallVolatile(file: SourceFile): boolean {
  const text = file.hcl.text;
  if (file.hcl.syntax === "json" && text.includes("\\u")) return true;
  return VOLATILE_NAMES.some((name) => text.includes(name));
}

/** The resource (`modules/x` `aws_s3_object.marker`) where `unit` puts its variable `name` outside ignore_changes. */
function volatileUse(unit: ModuleUnit, name: string, visiting: Set<string>): string | null {
  const key = `${unit.dir}\u0000${name}`;
  if (visiting.has(key)) return null;
  visiting.add(key);
  const scanner = new Scanner(unit.expressions, new Set([name]));
  for (const resource of unit.expressions.resources.values()) {
    if (uncoveredHits(scanner, resource).length > 0) return `${resource.address} in ${unit.relDir}`;
  }
  for (const call of unit.expressions.moduleCalls.values()) {
    const child = call.isLocal ? unit.children.find((c) => c.call.name === call.name) : undefined;
    if (!child) continue;
    for (const [argName, attr] of call.args) {
      const hits: Hit[] = [];
      scanner.expr(attr.expr, [argName], true, hits);
      if (hits.length === 0) continue;
      const found = volatileUse(child.unit, argName, visiting);
      if (found) return found;
    }
  }
  return null;
}

function via(hit: Hit): string {
  return hit.via ? ` (through local.${hit.via})` : "";
}

function resourceMessage(resource: Resource, hit: Hit): string {
  const arg = hit.path.join(".");
  return `${hit.fn}()${via(hit)} gives ${resource.address} "${arg}" a new value on every plan, so drift checks always fire: use ${VOLATILE[hit.fn]} instead, or add ${hit.path[0]} to lifecycle ignore_changes.`;
}

function moduleMessage(callName: string, argName: string, target: string, hit: Hit): string {
  return `${hit.fn}()${via(hit)} is passed to module "${callName}" as "${argName}" and reaches ${target}, which then changes on every plan, so drift checks always fire: use ${VOLATILE[hit.fn]} instead.`;
}

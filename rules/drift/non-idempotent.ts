import { defineRule } from "../../src/lint/types.js";
import type { Body, Expression, FunctionCall, Range } from "../../src/hcl/ast.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module.js";
import type { Module, Resource } from "../../src/terraform/model.js";
import { childExpressions, localName, objectKey } from "../_lib/inputs-expr.js";

/** Functions whose result differs on every evaluation, with a stable alternative. */
const VOLATILE: Record<string, string> = {
  timestamp: "a time_static resource",
  plantimestamp: "a time_static resource",
  uuid: "a random_uuid resource",
  bcrypt: "the bcrypt_hash of a random_password resource",
};

/** Resource arguments and blocks that are not compared on plan. */
const SKIPPED_ARGS = new Set(["count", "for_each", "depends_on", "provider"]);
const SKIPPED_BLOCKS = new Set(["lifecycle", "provisioner", "connection"]);

interface Hit {
  fn: string;
  /** Where to report: the call, or the `local.x` reference that carries it. */
  range: Range;
  node: object;
  via: string | null;
  /** Argument path (nested block types, object keys; indices dropped). */
  path: string[];
}

export default defineRule({
  id: "drift/non-idempotent",
  severity: "warning",
  roles: ROLES,
  summary: "Resource arguments do not call timestamp(), uuid(), bcrypt() or plantimestamp() outside ignore_changes",
  scope: "all",
  fixable: false,
  tags: ["drift", "idempotency"],
  check(ctx) {
    for (const resource of ctx.expressions.resources.values()) {
      const ignored = resource.lifecycle.ignoreChanges;
      if (ignored === "all") continue;
      const ignorePaths = ignored.map((i) => parseIgnorePath(i.path));
      const hits: Hit[] = [];
      scanBody(ctx.expressions, resource.body, [], hits);
      const seen = new Set<number>();
      for (const hit of hits) {
        if (ignorePaths.some((p) => isPrefix(p, hit.path))) continue;
        if (seen.has(hit.range.start.offset)) continue;
        seen.add(hit.range.start.offset);
        ctx.report({
          message: message(resource, hit),
          file: fileOf(resource, hit.node).path,
          range: hit.range,
        });
      }
    }
  },
});

function message(resource: Resource, hit: Hit): string {
  const arg = hit.path.join(".");
  const via = hit.via ? ` (through local.${hit.via})` : "";
  return `${hit.fn}()${via} gives ${resource.address} "${arg}" a new value on every plan, so drift checks always fire: use ${VOLATILE[hit.fn]} instead, or add ${hit.path[0]} to lifecycle ignore_changes.`;
}

/** `tags["Created"]`, `root_block_device[0].tags` -> name/key segments without numeric indices. */
export function parseIgnorePath(text: string): string[] {
  const segs: string[] = [];
  const re = /([A-Za-z_][A-Za-z0-9_-]*)|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*\d+\s*\]|\[\s*\*\s*\]/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) segs.push(m[1]);
    else if (m[2] !== undefined) segs.push(m[2]);
  }
  return segs;
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > path.length) return false;
  return prefix.every((s, i) => path[i] === s);
}

function scanBody(mod: Module, body: Body, path: string[], hits: Hit[]): void {
  for (const attr of body.attributes) {
    if (path.length === 0 && SKIPPED_ARGS.has(attr.name)) continue;
    scanExpr(mod, attr.expr, [...path, attr.name], true, null, hits, new Set());
  }
  for (const block of body.blocks) {
    if (SKIPPED_BLOCKS.has(block.type)) continue;
    if (block.type === "dynamic") {
      const name = block.labels[0] ?? "dynamic";
      for (const inner of block.body.blocks) {
        if (inner.type === "content") scanBody(mod, inner.body, [...path, name], hits);
      }
      for (const attr of block.body.attributes) {
        if (attr.name === "content") scanExpr(mod, attr.expr, [...path, name], true, null, hits, new Set());
      }
      continue;
    }
    scanBody(mod, block.body, [...path, block.type], hits);
  }
}

/**
 * Find volatile calls in `expr`. `open` says whether object keys still extend
 * the path (inside object constructors and merge(); not inside other calls,
 * where the value's shape is unknown).
 */
function scanExpr(
  mod: Module,
  expr: Expression,
  path: string[],
  open: boolean,
  via: { name: string; range: Range; node: object } | null,
  hits: Hit[],
  visiting: Set<string>,
): void {
  const e = expr;
  if (e.kind === "FunctionCall" && e.name in VOLATILE) {
    hits.push(hitFor(e, path, via));
  }
  const local = localName(e);
  if (local !== null) {
    const def = mod.locals.get(local);
    if (def && !visiting.has(local)) {
      visiting.add(local);
      const carrier = via ?? { name: local, range: e.range, node: e };
      const keepOpen = open && e.kind === "ScopeTraversal" && e.traversal.length === 2;
      scanExpr(mod, def.value, path, keepOpen, carrier, hits, visiting);
      visiting.delete(local);
    }
    return;
  }
  if (e.kind === "ObjectCons") {
    for (const item of e.items) {
      const key = objectKey(item);
      scanExpr(mod, item.key, path, false, via, hits, visiting);
      scanExpr(mod, item.value, open && key !== null ? [...path, key] : path, open && key !== null, via, hits, visiting);
    }
    return;
  }
  const passesShape = e.kind === "Parentheses" || (e.kind === "FunctionCall" && e.name === "merge") || e.kind === "Conditional";
  for (const child of childExpressions(e)) {
    const isCondition = e.kind === "Conditional" && child === e.condition;
    scanExpr(mod, child, path, open && passesShape && !isCondition, via, hits, visiting);
  }
}

function hitFor(call: FunctionCall, path: string[], via: { name: string; range: Range; node: object } | null): Hit {
  if (via) return { fn: call.name, range: via.range, node: via.node, via: via.name, path };
  return { fn: call.name, range: call.range, node: call, via: null, path };
}

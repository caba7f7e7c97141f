import { defineRule } from "../../src/lint/types.js";
import type { Attribute, Body, Expression, ObjectConsItem, Range } from "../../src/hcl/ast.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { ProviderConfig } from "../../src/terraform/module-types.js";
import { constString, objectKeyName, unwrap } from "../../src/hcl/walk.js";

/** Argument names (lower-cased) that hold a credential. */
const CREDENTIAL_NAMES = new Set([
  "access_key",
  "secret_key",
  "secret_access_key",
  "session_token",
  "token",
  "access_token",
  "auth_token",
  "bearer_token",
  "api_token",
  "api_key",
  "apikey",
  "password",
  "passphrase",
  "client_secret",
  "client_certificate",
  "client_certificate_password",
  "client_key",
  "private_key",
  "private_key_password",
  "ssh_private_key",
  "secret",
]);

export interface Hit {
  name: string;
  range: Range;
  node: object;
}

export default defineRule({
  id: "module/provider-config",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "Provider blocks do not hard-code credentials (they come from the identity)",
  scope: "all",
  fixable: false,
  tags: ["module", "security", "credentials"],
  check(ctx) {
    for (const provider of ctx.expressions.providers) {
      const hits: Hit[] = [];
      scanBody(provider.body, hits);
      for (const hit of hits) {
        ctx.report({
          message: `Provider "${providerLabel(provider)}" sets the credential "${hit.name}" to a literal string: remove it and let the provider read credentials from the identity the controller mounts.`,
          file: fileOf(provider, hit.node).path,
          range: hit.range,
        });
      }
    }
  },
});

function providerLabel(provider: ProviderConfig): string {
  return provider.alias ? `${provider.name}.${provider.alias}` : provider.name;
}

/** What is left to scan: a body, an argument of one, a value, an item of an object value. */
type Task =
  | { kind: "body"; body: Body }
  | { kind: "attr"; attr: Attribute }
  | { kind: "value"; expr: Expression }
  | { kind: "item"; item: ObjectConsItem };

/**
 * Credential-named arguments and object keys in a body, its nested blocks
 * and its object and list values, in source order: each argument, then what
 * its value holds, then the nested blocks. An explicit stack (tasks pushed in
 * reverse) instead of recursion, so any nesting depth scans on the main thread.
 */
export function scanBody(root: Body, hits: Hit[]): void {
  const pending: Task[] = [{ kind: "body", body: root }];
  while (pending.length > 0) {
    const task = pending.pop()!;
    switch (task.kind) {
      case "body": {
        const { attributes, blocks } = task.body;
        for (let i = blocks.length - 1; i >= 0; i--) pending.push({ kind: "body", body: blocks[i]!.body });
        for (let i = attributes.length - 1; i >= 0; i--) pending.push({ kind: "attr", attr: attributes[i]! });
        break;
      }
      case "attr":
        check(task.attr.name, task.attr.expr, task.attr.range, task.attr, hits);
        pending.push({ kind: "value", expr: task.attr.expr });
        break;
      case "item": {
        const key = objectKeyName(task.item);
        if (key !== null) check(key, task.item.value, task.item.range, task.item.value, hits);
        pending.push({ kind: "value", expr: task.item.value });
        break;
      }
      case "value": {
        // Look through object and list values for credential-named keys.
        const e = unwrap(task.expr);
        if (e.kind === "ObjectCons") {
          for (let i = e.items.length - 1; i >= 0; i--) pending.push({ kind: "item", item: e.items[i]! });
        } else if (e.kind === "TupleCons") {
          for (let i = e.exprs.length - 1; i >= 0; i--) pending.push({ kind: "value", expr: e.exprs[i]! });
        }
        break;
      }
    }
  }
}

function check(name: string, value: Expression, range: Range, node: object, hits: Hit[]): void {
  if (!CREDENTIAL_NAMES.has(name.toLowerCase())) return;
  // An object or a list is never a string; the scan looks inside it anyway
  // (and folding it here would fold a deep value once per level).
  const kind = unwrap(value).kind;
  if (kind === "ObjectCons" || kind === "TupleCons") return;
  const s = constString(value);
  if (s === null || s === "") return;
  hits.push({ name, range, node });
}

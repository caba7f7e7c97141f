import { defineRule } from "../../src/lint/types.js";
import type { Body, Expression, Range } from "../../src/hcl/ast.js";
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

interface Hit {
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

function scanBody(body: Body, hits: Hit[]): void {
  for (const attr of body.attributes) {
    check(attr.name, attr.expr, attr.range, attr, hits);
    scanValue(attr.expr, hits);
  }
  for (const block of body.blocks) scanBody(block.body, hits);
}

/** Look through object and list values for credential-named keys. */
function scanValue(expr: Expression, hits: Hit[]): void {
  const e = unwrap(expr);
  if (e.kind === "ObjectCons") {
    for (const item of e.items) {
      const key = objectKeyName(item);
      if (key !== null) check(key, item.value, item.range, item.value, hits);
      scanValue(item.value, hits);
    }
  } else if (e.kind === "TupleCons") {
    for (const el of e.exprs) scanValue(el, hits);
  }
}

function check(name: string, value: Expression, range: Range, node: object, hits: Hit[]): void {
  if (!CREDENTIAL_NAMES.has(name.toLowerCase())) return;
  const s = constString(value);
  if (s === null || s === "") return;
  hits.push({ name, range, node });
}

import type { Expression, ObjectConsItem, Range } from "../../src/hcl/ast.js";
import { constantValue, objectKeyName, walkExpression } from "../../src/hcl/walk.js";
import { defineRule } from "../../src/lint/types.js";
import type { Module } from "../../src/terraform/model.js";
import { accesses, isCredentialName, secretOf, type SecretHit } from "../_lib/shapes-secrets.js";
import { fileOfAttribute } from "../../src/analysis/references.js";

interface Hit extends SecretHit {
  /** Locals passed through from the exports value to the secret. */
  via: string[];
}

/** Secrets `expr` reads, directly and through locals (each local visited once). */
function secretsIn(module: Module, expr: Expression): { range: Range; hits: Hit[] }[] {
  const out: { range: Range; hits: Hit[] }[] = [];
  const seenLocals = new Set<string>();
  for (const first of accesses(expr)) {
    const hits: Hit[] = [];
    const queue: { access: typeof first; via: string[] }[] = [{ access: first, via: [] }];
    while (queue.length > 0) {
      const { access, via } = queue.shift()!;
      const hit = secretOf(module, access);
      if (hit) {
        hits.push({ ...hit, via });
        continue;
      }
      if (access.names[0] !== "local" || access.names.length < 2) continue;
      const name = access.names[1]!;
      const local = module.locals.get(name);
      if (!local || seenLocals.has(name)) continue;
      seenLocals.add(name);
      for (const next of accesses(local.value)) queue.push({ access: next, via: [...via, `local.${name}`] });
    }
    if (hits.length > 0) out.push({ range: (first.expr ?? first.root).range, hits });
  }
  return out;
}

function within(inner: Range, outer: Range): boolean {
  return inner.start.offset >= outer.start.offset && inner.end.offset <= outer.end.offset;
}

/**
 * Attributes of objects written in the exports value whose key is named
 * like a credential and whose value is not null or "" (a literal password
 * is as public as a referenced one). Items whose value already holds a
 * reported reference are skipped.
 */
function credentialKeys(expr: Expression, reported: readonly Range[]): ObjectConsItem[] {
  const out: ObjectConsItem[] = [];
  walkExpression(expr, (e) => {
    if (e.kind !== "ObjectCons") return;
    for (const item of e.items) {
      const name = objectKeyName(item);
      if (name === null || !isCredentialName(name)) continue;
      const c = constantValue(item.value);
      if (c.known && (c.value === null || c.value === "")) continue;
      if (reported.some((r) => within(r, item.value.range))) continue;
      out.push(item);
    }
  });
  return out;
}

function describe(hit: Hit): string {
  const via = hit.via.length > 0 ? ` via ${hit.via.join(", ")}` : "";
  return `${hit.text}${via} (${hit.why})`;
}

export default defineRule({
  id: "output/exports-secret",
  severity: "warning",
  roles: ["cluster"],
  summary: "exports carries no secrets and is not marked sensitive",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "security"],
  check(ctx) {
    const output = ctx.expressions.outputs.get("exports");
    if (!output) return;
    if (output.sensitive && output.sensitiveAttr) {
      ctx.report({
        file: fileOfAttribute(output, output.sensitiveAttr).path,
        range: output.sensitiveAttr.range,
        message:
          "exports is marked sensitive; it is stored in cluster state and copied into every machine and pool module in clear text anyway, so keep secrets out of it (hand them to nodes through the identity or a secret store) and drop sensitive = true",
      });
    }
    if (!output.value || !output.valueAttr) return;
    const file = fileOfAttribute(output, output.valueAttr);
    const found = secretsIn(ctx.expressions, output.value);
    for (const item of credentialKeys(output.value, found.map((f) => f.range))) {
      ctx.report({
        file: file.path,
        range: item.key.range,
        message: `exports publishes "${objectKeyName(item)}", named like a credential; exports is stored and copied in clear text, so publish where the secret lives (e.g. a secret's ARN) instead and let nodes fetch it with their identity`,
      });
    }
    for (const { range, hits } of found) {
      const shown = hits.slice(0, 3).map(describe).join("; ");
      const more = hits.length > 3 ? `; and ${hits.length - 3} more` : "";
      ctx.report({
        file: file.path,
        range,
        message: `exports publishes a secret: ${shown}${more}; exports is stored and copied in clear text, so pass only ids and names (e.g. a secret's ARN) and let nodes fetch the secret with their identity`,
      });
    }
  },
});

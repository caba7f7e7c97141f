/**
 * TEMPORARY minimal stand-in (helper h-image) for h-schema's
 * src/schema/variables-schema.ts, written against the same signature so the
 * image command builds before the merge. The lead keeps h-schema's file.
 * Reads primitive, list/set/map and missing types; anything else is `{}`.
 */
import { CONTRACT } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import type { Expression } from "../hcl/ast.js";
import type { LoadResult, ModuleUnit } from "../terraform/model.js";

export const SCHEMA_LIMIT_BYTES = 32 * 1024;

function cmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function typeSchema(e: Expression | null): string {
  if (e === null) return "{}";
  if (e.kind === "ScopeTraversal" && e.traversal.length === 1) {
    const name = (e.traversal[0] as { name?: string }).name;
    if (name === "string") return '{"type":"string"}';
    if (name === "number") return '{"type":"number"}';
    if (name === "bool") return '{"type":"boolean"}';
    return "{}";
  }
  if (e.kind === "FunctionCall" && e.args.length === 1) {
    const inner = typeSchema(e.args[0]!);
    if (e.name === "list" || e.name === "set") return `{"type":"array","items":${inner}}`;
    if (e.name === "map") return `{"type":"object","additionalProperties":${inner}}`;
  }
  return "{}";
}

export function variablesSchema(module: ModuleUnit | LoadResult, role: Role): string {
  const unit = "root" in module ? module.root : module;
  const contract = new Set(CONTRACT.inputs[role].map((i) => i.name));
  const vars = [...unit.declarations.variables.values()]
    .filter((v) => !v.name.startsWith("captf_") && !contract.has(v.name))
    .sort((a, b) => cmp(a.name, b.name));
  let out = '{"type":"object"';
  if (vars.length > 0) out += `,"properties":{${vars.map((v) => `${JSON.stringify(v.name)}:${typeSchema(v.typeExpr)}`).join(",")}}`;
  const required = vars.filter((v) => v.defaultAttr === null).map((v) => JSON.stringify(v.name));
  if (required.length > 0) out += `,"required":[${required.join(",")}]`;
  return `${out},"additionalProperties":false}`;
}

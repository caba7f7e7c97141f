/**
 * The machinery of the differential test (test/hcl/differential.test.ts):
 * running HashiCorp's HCL (hcl2json) and our parsers on one text and
 * describing every disagreement, and the seeded case generator.
 */

import { createRequire } from "node:module";
import type { Body } from "../../src/hcl/ast.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { parseJson as parseJsonWith } from "../../src/hcl/json.js";
import { TERRAFORM_FILE_SCHEMA } from "../../src/terraform/block-schema.js";
import type { BlockSchema } from "../../src/hcl/json-shape.js";
import { generateProgram } from "./hcl-generator.js";
import { compareBodyShape } from "./hcl2json-shape.js";
import { mutate } from "./mutations.js";
import { Rng } from "./rng.js";

/** A Terraform module file in the JSON syntax. */
const parseJson = (text: string, filename: string) => parseJsonWith(text, filename, TERRAFORM_FILE_SCHEMA);

const require = createRequire(import.meta.url);
export const hcl2json = require("@cdktn/hcl2json") as { parse(filename: string, text: string): Promise<Record<string, unknown>> };


type Verdict = { ok: true; json: Record<string, unknown> | null } | { ok: false; message: string };

async function hashicorp(filename: string, text: string): Promise<Verdict> {
  try {
    return { ok: true, json: await hcl2json.parse(filename, text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.startsWith("convert to HCL")) return { ok: true, json: null };
    return { ok: false, message };
  }
}

/** Compares both parsers on one text; returns a description of each disagreement. */
export async function differences(filename: string, text: string, roundTrip: boolean): Promise<{ problems: string[]; weReject: boolean }> {
  const theirs = await hashicorp(filename, text);
  const ours = parseHcl(text, filename);
  const errors = ours.diagnostics.filter((d) => d.severity === "error");
  const problems: string[] = [];
  if (theirs.ok && errors.length > 0) {
    const d = errors[0];
    problems.push(`HCL accepts, we report ${d.summary} at ${d.subject.start.line}:${d.subject.start.column}`);
  } else if (!theirs.ok && errors.length === 0) {
    problems.push(`HCL rejects (${theirs.message.slice(0, 300)}), we accept`);
  } else if (theirs.ok && theirs.json !== null) {
    compareBodyShape(ours.file.body, theirs.json, "", problems);
    if (roundTrip && problems.length === 0) problems.push(...jsonRoundTripProblems(ours.file.body, theirs.json));
  }
  return { problems, weReject: errors.length > 0 };
}

/**
 * The structure Terraform's JSON syntax can express: attribute names, and
 * blocks the schema knows (with their labels and per-label instance index).
 * Blocks the schema does not know are arguments in JSON, so only their type
 * name is kept.
 */
function schemaShape(body: Body, schema: BlockSchema | undefined, prefix: string, out: Set<string>): Set<string> {
  const counters = new Map<string, number>();
  for (const a of body.attributes) out.add(prefix + a.name);
  for (const b of body.blocks) {
    const child = schema?.blocks !== undefined && Object.hasOwn(schema.blocks, b.type) ? schema.blocks[b.type] : undefined;
    if (child === undefined || child.labels !== b.labels.length) {
      out.add(prefix + b.type);
      continue;
    }
    const key = [b.type, ...b.labels].join(" ");
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    out.add(`${prefix}${key}#${n}`);
    schemaShape(b.body, child, `${prefix}${key}#${n}/`, out);
  }
  return out;
}

/**
 * JSON round trip: hcl2json's JSON rendering of a valid program, read back
 * by parseJson, must hold the same Terraform structure as the native parse.
 * (String values are hcl2json's re-rendering of expressions, so diagnostics
 * from templates inside them are not compared; JSON-level ones must not occur.)
 */
function jsonRoundTripProblems(native: Body, json: Record<string, unknown>): string[] {
  const res = parseJson(JSON.stringify(json, null, 2), "main.tf.json");
  const problems = res.diagnostics
    .filter((d) => d.code === "json-syntax" || d.code === "json-structure")
    .map((d) => `JSON round trip: ${d.summary} at ${d.subject.start.line}:${d.subject.start.column}`);
  const want = schemaShape(native, TERRAFORM_FILE_SCHEMA, "", new Set());
  const got = schemaShape(res.file.body, TERRAFORM_FILE_SCHEMA, "", new Set());
  for (const k of want) if (!got.has(k)) problems.push(`JSON round trip lacks ${k}`);
  for (const k of got) if (!want.has(k)) problems.push(`JSON round trip has extra ${k}`);
  return problems;
}

/**
 * Case i: a generated program (sometimes with CRLF line endings or a BOM),
 * mutated for two cases out of three.
 */
export function makeCase(seed: number, i: number): { text: string; kind: string } {
  const rng = new Rng(seed + i * 7919);
  let program = generateProgram(rng, { minItems: 2, maxItems: 5 });
  // Some files use Windows line endings or start with a byte order mark.
  if (rng.chance(0.1)) program = program.replace(/\n/g, "\r\n");
  if (rng.chance(0.03)) program = "\ufeff" + program;
  if (i % 3 === 0) return { text: program, kind: "valid" };
  const m = mutate(rng, program);
  return { text: m.text, kind: m.kind };
}


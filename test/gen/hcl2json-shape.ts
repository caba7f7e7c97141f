/**
 * Compares the structure of one of our bodies with hcl2json's JSON for it.
 *
 * hcl2json's output format: a body is a JSON object; an attribute `a = x`
 * becomes the property "a" (its value converted); a block `t "l1" "l2" {}`
 * becomes "t": {"l1": {"l2": [ body, ... ]}}: one object level per label and,
 * at the end, an array with the bodies of every block of that type and those
 * labels in source order. Keys are sorted (Go maps), so only sets and the
 * per-label block order can be compared.
 *
 * Only block types, labels and attribute names are compared, as the
 * differential test requires; attribute values are hcl2json's rendering of
 * expressions and are not compared.
 */

import type { Block, Body } from "../../src/hcl/ast.js";

export function compareBodyShape(body: Body, json: unknown, path: string, out: string[]): void {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    out.push(`${path}: hcl2json body is not an object: ${JSON.stringify(json)?.slice(0, 80)}`);
    return;
  }
  const obj = json as Record<string, unknown>;
  const attrNames = new Set(body.attributes.map((a) => a.name));
  const blockTypes = new Map<string, Block[]>();
  for (const b of body.blocks) {
    const list = blockTypes.get(b.type) ?? [];
    list.push(b);
    blockTypes.set(b.type, list);
  }
  const ours = new Set([...attrNames, ...blockTypes.keys()]);
  const theirs = new Set(Object.keys(obj));
  for (const k of ours) if (!theirs.has(k)) out.push(`${path}: we have "${k}", hcl2json does not`);
  for (const k of theirs) if (!ours.has(k)) out.push(`${path}: hcl2json has "${k}", we do not`);
  for (const [type, blocks] of blockTypes) {
    // An attribute and a block of the same name overwrite each other in
    // hcl2json's output; nothing to compare then.
    if (attrNames.has(type) || !theirs.has(type)) continue;
    compareBlocks(blocks, 0, obj[type], `${path}/${type}`, out);
  }
}

function compareBlocks(blocks: Block[], depth: number, json: unknown, path: string, out: string[]): void {
  const labelCounts = new Set(blocks.map((b) => b.labels.length));
  // Blocks of one type with different label counts (valid HCL, which a
  // mutation can produce) have no faithful rendering in hcl2json's format.
  if (labelCounts.size !== 1) return;
  const labelCount = blocks[0].labels.length;
  if (depth === labelCount) {
    if (!Array.isArray(json)) {
      out.push(`${path}: expected hcl2json to list ${blocks.length} block bodies, got ${JSON.stringify(json)?.slice(0, 80)}`);
      return;
    }
    if (json.length !== blocks.length) {
      out.push(`${path}: we have ${blocks.length} blocks, hcl2json has ${json.length}`);
      return;
    }
    blocks.forEach((b, i) => compareBodyShape(b.body, json[i], `${path}[${i}]`, out));
    return;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    out.push(`${path}: expected hcl2json labels object, got ${JSON.stringify(json)?.slice(0, 80)}`);
    return;
  }
  const obj = json as Record<string, unknown>;
  const byLabel = new Map<string, Block[]>();
  for (const b of blocks) {
    const l = b.labels[depth];
    const list = byLabel.get(l) ?? [];
    list.push(b);
    byLabel.set(l, list);
  }
  for (const l of byLabel.keys()) if (!(l in obj)) out.push(`${path}: we have label "${l}", hcl2json does not`);
  for (const l of Object.keys(obj)) if (!byLabel.has(l)) out.push(`${path}: hcl2json has label "${l}", we do not`);
  for (const [l, list] of byLabel) if (l in obj) compareBlocks(list, depth + 1, obj[l], `${path}/"${l}"`, out);
}

/**
 * Readers of blocks and bodies: a block's header range, its attributes by
 * name, and every attribute of a body with the path of blocks around it.
 */
import type { Attribute, Block, Body, Range } from "./ast.js";
import { rangeBetween } from "./source.js";

/**
 * The range of a block's header: from its type keyword to the end of its
 * last label. In JSON syntax the type and labels are nested property names
 * (often on different lines), so the header is the labels alone, or the
 * type's property name when there are no labels.
 */
export function blockHeaderRange(block: Block, syntax: "native" | "json" = "native"): Range {
  const first = block.labelRanges[0];
  const last = block.labelRanges[block.labelRanges.length - 1];
  if (!first || !last) return block.typeRange;
  return rangeBetween(syntax === "json" ? first : block.typeRange, last);
}

/** The range of a block's first label (the declared name), or its header. */
export function blockNameRange(block: Block): Range {
  return block.labelRanges[0] ?? blockHeaderRange(block);
}

/** The attribute `name` of a body, or null. */
export function findAttr(body: Body, name: string): Attribute | null {
  for (const a of body.attributes) if (a.name === name) return a;
  return null;
}

/** Every attribute of a body and of its nested blocks, with the path (block types, labels, name) and the blocks around it. */
export function bodyAttributes(body: Body, path: string[] = []): { attr: Attribute; path: string[]; blocks: Block[] }[] {
  const out: { attr: Attribute; path: string[]; blocks: Block[] }[] = [];
  const walk = (b: Body, p: string[], blocks: Block[]): void => {
    for (const attr of b.attributes) out.push({ attr, path: [...p, attr.name], blocks });
    for (const block of b.blocks) walk(block.body, [...p, block.type, ...block.labels], [...blocks, block]);
  };
  walk(body, path, []);
  return out;
}

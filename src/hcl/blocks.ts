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

/**
 * A nested block and the chain of blocks around it (the outermost has parent
 * null): a walk links each level to the one above instead of copying the
 * list of blocks at every level, which would be quadratic in the depth.
 */
export interface BlockChain {
  readonly block: Block;
  readonly parent: BlockChain | null;
}

/** The blocks of a chain, outermost first. */
export function chainBlocks(chain: BlockChain | null): Block[] {
  const blocks: Block[] = [];
  for (let c = chain; c !== null; c = c.parent) blocks.push(c.block);
  return blocks.reverse();
}

/** The blocks of a chain, outermost first, and the path they make after `prefix`. */
function placeOf(chain: BlockChain | null, prefix: readonly string[]): { path: string[]; blocks: Block[] } {
  const blocks = chainBlocks(chain);
  const path = [...prefix];
  for (const block of blocks) path.push(block.type, ...block.labels);
  return { path, blocks };
}

/**
 * Every attribute of a body and of its nested blocks, with the path (block
 * types, labels, name) and the blocks around it, in source order (a body's
 * attributes, then each nested block's). Blocks nest without limit: an
 * explicit stack, and a body's path and blocks are made from the chain
 * around it when first read, so a caller that reads only the attributes
 * stays linear when every level holds one (dynamic blocks: for_each at each
 * level), where making them all would cost the square of the depth.
 */
export function bodyAttributes(body: Body, path: string[] = []): { attr: Attribute; path: string[]; blocks: Block[] }[] {
  const out: { attr: Attribute; path: string[]; blocks: Block[] }[] = [];
  const prefix = [...path];
  const stack: { body: Body; chain: BlockChain | null }[] = [{ body, chain: null }];
  while (stack.length > 0) {
    const { body: b, chain } = stack.pop()!;
    if (b.attributes.length > 0) {
      let place: { path: string[]; blocks: Block[] } | null = null;
      const made = (): { path: string[]; blocks: Block[] } => (place ??= placeOf(chain, prefix));
      for (const attr of b.attributes) {
        let own: string[] | null = null;
        out.push({
          attr,
          get path(): string[] {
            return (own ??= [...made().path, attr.name]);
          },
          get blocks(): Block[] {
            return made().blocks;
          },
        });
      }
    }
    for (let i = b.blocks.length - 1; i >= 0; i--) stack.push({ body: b.blocks[i]!.body, chain: { block: b.blocks[i]!, parent: chain } });
  }
  return out;
}

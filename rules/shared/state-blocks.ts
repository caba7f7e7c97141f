/**
 * The state settings a module run by the controller must not carry: its
 * generated root owns state, so module/backend and module/cloud report every
 * `backend` or `cloud` block of the module's terraform blocks, at the
 * block's header.
 */
import type { Block } from "../../src/hcl/ast.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import type { RuleContext } from "../../src/lint/types.js";
import { fileOf } from "../../src/terraform/module-builder.js";

export function reportStateBlocks(ctx: RuleContext, kind: "backends" | "clouds", message: (block: Block) => string): void {
  for (const settings of ctx.expressions.terraformBlocks) {
    for (const block of settings[kind]) {
      const file = fileOf(settings, block);
      ctx.report({ message: message(block), file: file.path, range: blockHeaderRange(block, file.hcl.syntax) });
    }
  }
}

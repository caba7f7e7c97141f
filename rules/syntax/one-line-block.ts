import type { Block } from "../../src/hcl/ast.js";
import { defineRule, type Fix } from "../../src/lint/types.js";
import type { SourceFile } from "../../src/terraform/model.js";
import { expandBlockBody } from "../_lib/outputs-format.js";
import { ONE_LINE_BLOCK_CODE } from "./parse.js";

function blockName(block: Block): string {
  return [block.type, ...block.labels.map((l) => JSON.stringify(l))].join(" ");
}

function contents(block: Block): string {
  const parts: string[] = [];
  const attrs = block.body.attributes.length;
  const blocks = block.body.blocks.length;
  if (attrs > 0) parts.push(`${attrs} argument${attrs === 1 ? "" : "s"}`);
  if (blocks > 0) parts.push(`${blocks} nested block${blocks === 1 ? "" : "s"}`);
  return parts.join(" and ");
}

function expandFix(file: SourceFile, block: Block): Fix | null {
  const replacement = expandBlockBody(file.hcl, block);
  if (replacement === null) return null;
  return {
    description: "Expand the block to one argument per line",
    edits: [
      {
        file: file.path,
        start: block.openBraceRange.start.offset,
        end: block.closeBraceRange.end.offset,
        text: replacement,
      },
    ],
  };
}

export default defineRule({
  id: "syntax/one-line-block",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "A block written on one line holds at most one argument and no nested block",
  scope: "all",
  fixable: true,
  tags: ["syntax"],
  check(ctx) {
    for (const file of ctx.unit.allFiles) {
      for (const d of file.diagnostics) {
        if (d.code !== ONE_LINE_BLOCK_CODE) continue;
        const block = d.block;
        const what = block ? `${blockName(block)} is written on one line with ${contents(block)}` : "This one-line block holds more than one argument or a nested block";
        const fix = block ? expandFix(file, block) : null;
        ctx.report({
          message: `${what}, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line`,
          file: file.path,
          range: d.subject,
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});

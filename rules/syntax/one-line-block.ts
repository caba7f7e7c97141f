import type { Block, Diagnostic } from "../../src/hcl/ast.js";
import { defineRule, type Fix } from "../../src/lint/types.js";
import type { SourceFile } from "../../src/terraform/model.js";
import { expandOneLineBlock } from "../_lib/outputs-format.js";
import { findInvalidOneLineBlocks, splitOneLineBody } from "../_lib/outputs-oneline.js";
import { ONE_LINE_BLOCK_CODE } from "./parse.js";

function blockName(block: Block): string {
  return [block.type, ...block.labels.map((l) => JSON.stringify(l))].join(" ");
}

function contents(attrs: number, blocks: number): string {
  const parts: string[] = [];
  if (attrs > 0) parts.push(`${attrs} argument${attrs === 1 ? "" : "s"}`);
  if (blocks > 0) parts.push(`${blocks} nested block${blocks === 1 ? "" : "s"}`);
  // The parser stops reading a one-line block at a nested block.
  return parts.length > 0 ? parts.join(" and ") : "a nested block";
}

/** What the block holds: re-read from its text, since the parser may have dropped items. */
function describe(file: SourceFile, block: Block): string {
  const split = splitOneLineBody(file.hcl, block);
  if (split) return contents(split.wrapper.body.attributes.length, split.wrapper.body.blocks.length);
  return contents(block.body.attributes.length, block.body.blocks.length);
}

function expandFix(file: SourceFile, block: Block): Fix | null {
  const r = expandOneLineBlock(file.hcl, block);
  if (r === null) return null;
  return {
    description: "Expand the block to one argument per line",
    edits: [{ file: file.path, start: r.start, end: r.end, text: r.text }],
  };
}

function contains(block: Block, d: Diagnostic): boolean {
  return block.range.start.offset <= d.subject.start.offset && d.subject.start.offset < Math.max(block.range.end.offset, block.range.start.offset + 1);
}

function message(what: string): string {
  return `${what}, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line`;
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
      const diags = file.diagnostics.filter((d) => d.code === ONE_LINE_BLOCK_CODE);
      const reportedLines = new Set<number>();
      for (const d of diags) {
        const block = d.block;
        // A follow-on diagnostic inside a block already reported (the parser
        // recovers after the nested block and complains again) adds nothing.
        if (!block && diags.some((o) => o !== d && o.block && contains(o.block, d))) continue;
        const what = block ? `${blockName(block)} is written on one line with ${describe(file, block)}` : "This one-line block holds more than one argument or a nested block";
        const fix = block ? expandFix(file, block) : null;
        reportedLines.add(d.subject.start.line);
        ctx.report({ message: message(what), file: file.path, range: d.subject, ...(fix ? { fix } : {}) });
      }
      // The parser reports only the first such block of a file; find the rest.
      for (const found of findInvalidOneLineBlocks(file.hcl)) {
        if (reportedLines.has(found.block.openBraceRange.start.line)) continue;
        const fix = expandFix(file, found.block);
        ctx.report({
          message: message(`${blockName(found.block)} is written on one line with ${contents(found.attributes, found.blocks)}`),
          file: file.path,
          range: found.subject,
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});

import type { Block, Diagnostic } from "../../src/hcl/ast.js";
import { splitOneLineBlockFix } from "../../src/lint/fix-builders.js";
import { defineRule, type Fix } from "../../src/lint/types.js";
import type { SourceFile } from "../../src/terraform/module-types.js";
import { findInvalidOneLineBlocks, splitOneLineBody } from "../../src/hcl/one-line-blocks.js";
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

/** True when the block's first item starts on the line of its `{` but its `}` is on a later line. */
function closesLater(block: Block): boolean {
  if (block.singleLine) return false;
  const starts = [...block.body.attributes.map((a) => a.range.start), ...block.body.blocks.map((b) => b.range.start)];
  return starts.some((s) => s.line === block.openBraceRange.end.line);
}

/** What is wrong with the block, re-read from its text (the parser may have dropped items). */
function describe(file: SourceFile, block: Block): string {
  const name = blockName(block);
  if (closesLater(block)) {
    return `${name} has an argument on the line of its "{" but closes on a later line, which Terraform rejects (a block that holds an argument on its first line must close on that line); put the argument on its own line`;
  }
  const split = splitOneLineBody(file.hcl, block);
  const attrs = split ? split.wrapper.body.attributes.length : block.body.attributes.length;
  const blocks = split ? split.wrapper.body.blocks.length : block.body.blocks.length;
  if (split && split.commas > 0 && blocks === 0) {
    return `${name} is written on one line with ${attrs} arguments separated by ${split.commas === 1 ? "a comma" : "commas"}, which Terraform rejects (a one-line block may hold a single argument, and arguments are separated by line breaks, not commas); put each argument on its own line`;
  }
  return message(`${name} is written on one line with ${contents(attrs, blocks)}`);
}

function expandFix(file: SourceFile, block: Block): Fix | null {
  return splitOneLineBlockFix(file, block, splitOneLineBody);
}

function contains(block: Block, d: Diagnostic): boolean {
  return block.range.start.offset <= d.subject.start.offset && d.subject.start.offset < Math.max(block.range.end.offset, block.range.start.offset + 1);
}

function message(what: string): string {
  return `${what}, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line`;
}

export default defineRule({
  id: "syntax/one-line-block",
  provenance: "syntax",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "A block written on one line holds at most one argument and no nested block",
  scope: "all",
  fixable: true,
  // Safe: the same arguments and blocks, one per line.
  fixKinds: ["safe"],
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
        const text = block ? describe(file, block) : message("This one-line block holds more than one argument or a nested block");
        const fix = block ? expandFix(file, block) : null;
        reportedLines.add(d.subject.start.line);
        ctx.report({ message: text, file: file.path, range: d.subject, ...(fix ? { fix } : {}) });
      }
      // The parser reports only the first such block of a file; find the rest.
      for (const found of findInvalidOneLineBlocks(file.hcl)) {
        if (reportedLines.has(found.block.openBraceRange.start.line)) continue;
        const fix = expandFix(file, found.block);
        ctx.report({
          message: describe(file, found.block),
          file: file.path,
          range: found.subject,
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});

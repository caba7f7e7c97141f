/**
 * A plugin with two fixable rules on examples/machinepool-aws's launch
 * template: loop/described, whose fix settles after one pass, and
 * loop/stamp, whose fix adds its line again on every pass (it never settles).
 * Both fixes only add a comment, and say so: they are declared safe, so
 * --fix and the editors' fix-all apply them.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO } from "../e2e/helpers.js";

/** Two fixable rules on the launch template: one that settles after one pass, one that never does. */
export const LOOP_PLUGIN = `
const templates = (ctx) => [...ctx.expressions.resources.values()].filter((r) => r.type === "aws_launch_template");

export default {
  name: "loop",
  rules: [
    {
      id: "loop/described",
      severity: "warning",
      roles: ["machinepool"],
      summary: "Launch templates have a comment that says what they are for",
      fixable: true,
      fixKinds: ["safe"],
      check(ctx) {
        for (const r of templates(ctx)) {
          if (r.file.hcl.text.slice(r.block.range.start.offset, r.block.range.end.offset).includes("# for: pool nodes")) continue;
          const at = r.block.closeBraceRange.start.offset;
          ctx.report({
            message: r.address + " has no description; add one",
            file: r.file,
            range: r.block.labelRanges[1],
            fix: { description: "add a description", kind: "safe", edits: [{ file: r.file.path, start: at, end: at, text: "  # for: pool nodes\\n" }] },
          });
        }
      },
    },
    {
      id: "loop/stamp",
      severity: "warning",
      roles: ["machinepool"],
      summary: "Stamps every launch template, again and again",
      fixable: true,
      fixKinds: ["safe"],
      check(ctx) {
        for (const r of templates(ctx)) {
          const at = r.block.openBraceRange.end.offset;
          ctx.report({
            message: r.address + " is not stamped",
            file: r.file,
            range: r.block.labelRanges[1],
            fix: { description: "stamp it", kind: "safe", edits: [{ file: r.file.path, start: at, end: at, text: "\\n  # stamped" }] },
          });
        }
      },
    },
  ],
};
`;

export const ORIGINAL = readFileSync(path.join(REPO, "examples", "machinepool-aws", "main.tf"), "utf8");
/** main.tf with loop/described's fix, the one that settles. */
export const DESCRIBED = ORIGINAL.replace(
  /(resource "aws_launch_template" "node" \{[\s\S]*?\n)(\}\n)/,
  (_m, body: string, close: string) => `${body}  # for: pool nodes\n${close}`,
);


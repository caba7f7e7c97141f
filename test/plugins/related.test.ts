/**
 * A plugin rule that reports a path (`related`): `lintFixture` returns it as
 * `{ file, line, column, message }` hops, an empty list is no path, and a
 * malformed one fails the rule with a clear message (never a crash in a
 * formatter).
 */
import { describe, expect, it } from "vitest";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintFixture } from "../../src/testing.js";
import type { RuleContext } from "../../src/lint/types.js";

const POOL = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../examples/machinepool-aws");

/** A plugin whose one rule reports the launch template's user_data with the hops `related(ctx)` gives. */
function plugin(related: (ctx: RuleContext) => unknown) {
  return {
    name: "acme",
    rules: [
      {
        id: "acme/user-data-path",
        severity: "warning",
        roles: ["machinepool"],
        summary: "Shows where user_data comes from",
        check(ctx: RuleContext) {
          const r = ctx.expressions.resources.get("aws_launch_template.node")!;
          const attr = r.body.attributes.find((a) => a.name === "user_data")!;
          ctx.report({ message: "user_data comes from a local", file: r.file, range: attr.expr.range, related: related(ctx) as never });
        },
      },
    ],
  };
}

describe("related in a plugin rule", () => {
  it("lintFixture returns the hops, a SourceFile or a path naming the file", () => {
    const found = lintFixture(POOL, {
      role: "machinepool",
      plugin: plugin((ctx) => {
        const local = ctx.expressions.locals.get("launch_user_data")!;
        const v = ctx.expressions.variables.get("bootstrap_data")!;
        return [
          { file: local.file, range: local.value.range, message: "local.launch_user_data" },
          { file: v.file.path, range: v.block.labelRanges[0]!, message: "var.bootstrap_data (variable)" },
        ];
      }),
    });
    expect(found).toEqual([
      {
        ruleId: "acme/user-data-path",
        severity: "warning",
        file: "main.tf",
        line: 38,
        column: 15,
        endLine: 38,
        endColumn: 37,
        message: "user_data comes from a local",
        related: [
          { file: "userdata.tf", line: 50, column: 22, message: "local.launch_user_data" },
          { file: "variables.tf", line: 40, column: 10, message: "var.bootstrap_data (variable)" },
        ],
      },
    ]);
  });

  it("an empty list is no path: the finding has no related key", () => {
    const [f] = lintFixture(POOL, { role: "machinepool", plugin: plugin(() => []) });
    expect(f).toBeDefined();
    expect("related" in f!).toBe(false);
  });

  it.each([
    ["not a list", () => ({ file: "main.tf" }), "report(): related must be an array of { file, range, message }"],
    ["an unknown file", (ctx: RuleContext) => [{ file: "nope.tf", range: ctx.expressions.locals.get("name")!.value.range, message: "x" }], 'report(): related file "nope.tf" is not a file of this module'],
    ["no range", () => [{ file: "main.tf", message: "x" }], "report(): a related range must be { start, end } positions"],
    ["an empty label", (ctx: RuleContext) => [{ file: "main.tf", range: ctx.expressions.locals.get("name")!.value.range, message: "" }], "report(): a related location needs a non-empty message"],
  ])("a path with %s fails the rule with a clear message", (_what, related, message) => {
    expect(() => lintFixture(POOL, { role: "machinepool", plugin: plugin(related) })).toThrow(`rule acme/user-data-path of plugin acme failed on .: ${message}`);
  });
});

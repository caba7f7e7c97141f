/**
 * The context a rule's check gets (src/lint/engine.ts `Context`): every
 * documented member, `report` callable detached, `graph` built once per
 * module and shared by the rules, `graphOf` for any module.
 */
import { describe, expect, it } from "vitest";
import { lintModule } from "../helpers/lint.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import { CONTRACT } from "../../src/contract/roles.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

function module(): string {
  const root = tempDir();
  writeTree(root, {
    "m/main.tf": `variable "replicas" {\n  type = number\n}\n\nlocals {\n  n = var.replicas\n}\n\nmodule "child" {\n  source = "./child"\n}\n`,
    "m/child/main.tf": `variable "x" {}\n`,
  });
  return `${root}/m`;
}

describe("the rule context", () => {
  it("has every member of RuleContext; report works detached; graph is one per module", () => {
    const seen: RuleContext[] = [];
    const graphs: unknown[] = [];
    const rule = defineRule({
      id: "test/context",
      severity: "warning",
      roles: ["machine"],
      scope: "all",
      fixable: false,
      summary: "reports through a detached report",
      check(ctx) {
        seen.push(ctx);
        graphs.push(ctx.graph, ctx.graph, ctx.graphOf(ctx.expressions));
        const { report } = ctx;
        const local = ctx.expressions.locals.get("n");
        if (local) report({ message: "detached report works", file: local.file, range: local.attr.nameRange });
      },
    });
    const out = lintModule(module(), { ruleSet: [rule], role: "machine" });
    expect(out.kind).toBe("report");
    if (out.kind !== "report") return;
    expect(out.report.findings.map((f) => [f.ruleId, f.file, f.range.start.line, f.range.start.column, f.message])).toEqual([
      ["test/context", "main.tf", 6, 3, "detached report works"],
    ]);
    expect(seen.map((c) => [c.unit.relDir, c.isRoot, c.role, c.contract === CONTRACT])).toEqual([
      ["", true, "machine", true],
      ["child", false, "machine", true],
    ]);
    for (const c of seen) {
      expect(c.load).toBe(out.load);
      expect(c.declarations).toBe(c.unit.declarations);
      expect(c.expressions).toBe(c.unit.expressions);
    }
    // ctx.graph, read twice, and graphOf of the same module: one graph per module.
    expect(graphs[0]).toBe(graphs[1]);
    expect(graphs[0]).toBe(graphs[2]);
    expect(graphs[3]).not.toBe(graphs[0]);
    expect(graphs[3]).toBe(graphs[5]);
  });
});

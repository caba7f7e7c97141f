/**
 * The shared walk (src/lint/shared-walk.ts): rules that return visitors
 * from check() subscribe to node kinds, and each module unit's expressions
 * are walked once for all of them, in rule order.
 */
import { describe, expect, it } from "vitest";
import { type LintOutcome } from "../../src/lint/engine.js";
import { lintModule, lintSteps } from "../helpers/lint.js";
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { NODE_KINDS, walkStats } from "../../src/lint/shared-walk.js";
import { checkPlugin } from "../../src/lint/plugins.js";
import { defineRule, type RuleDefinition, type RuleVisitors, type WalkSite } from "../../src/lint/types.js";
import { traversalText, walkExpression } from "../../src/hcl/walk.js";
import { bodyAttributes } from "../../src/hcl/blocks.js";
import type { Expression } from "../../src/hcl/ast.js";
import { lintFixture } from "../../src/testing.js";
import { REPO, tempDir, writeTree } from "../e2e/helpers.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

const ROOT_TF = `variable "replicas" {
  type = number
}

locals {
  name = "pool-\${var.replicas}"
}

resource "aws_instance" "a" {
  count = var.replicas
  tags  = { Name = local.name }
  lifecycle {
    ignore_changes = [tags]
  }
}

module "child" {
  source = "./child"
  size   = var.replicas
}

output "replicas" {
  value = var.replicas
}
`;

const CHILD_TF = `variable "size" {}

resource "null_resource" "n" {
  triggers = { s = var.size }
  provisioner "local-exec" {
    command = "echo \${var.size}"
  }
  lifecycle {
    ignore_changes = [triggers]
  }
}
`;

function pool(): string {
  const root = tempDir();
  writeTree(root, { "pool/main.tf": ROOT_TF, "pool/child/main.tf": CHILD_TF });
  return `${root}/pool`;
}

function lint(dir: string, rules: readonly RuleDefinition[]): Extract<LintOutcome, { kind: "report" }> {
  const out = lintModule(dir, { ruleSet: rules, role: "machinepool" });
  if (out.kind !== "report") throw new Error(`not linted: ${out.message}`);
  return out;
}

const where = (site: WalkSite): string =>
  `${site.file.path} ${site.blocks.map((b) => [b.type, ...b.labels].join(":")).join("/")} ${site.attribute?.name ?? "-"}`;

const text = (e: Expression): string => (e.kind === "ScopeTraversal" ? traversalText(e.traversal) : e.kind);

/** A rule that logs every reference it is shown, as `<tag> <text> @ <where>`. */
function logging(tag: string, log: string[], scope: "root" | "all" = "all", extra: RuleVisitors = {}): RuleDefinition {
  return defineRule({
    id: `test/${tag}`,
    severity: "warning",
    roles: ["machinepool"],
    scope,
    fixable: false,
    summary: "logs what the shared walk shows it",
    check(ctx) {
      log.push(`${tag} check ${ctx.unit.relDir || "."}`);
      return {
        ScopeTraversal(node, site) {
          log.push(`${tag} ${text(node)} @ ${where(site)}`);
        },
        "Module:exit"() {
          log.push(`${tag} exit ${ctx.unit.relDir || "."}`);
        },
        ...extra,
      };
    },
  });
}

/** The expression nodes of the module's files, counted independently of the walk (bare object keys excluded). */
function countNodes(exprs: Expression[]): number {
  let n = 0;
  const stack = [...exprs];
  while (stack.length > 0) {
    const e = stack.pop()!;
    n++;
    switch (e.kind) {
      case "Template":
        for (const p of e.parts) if (p.kind === "TemplateInterp") stack.push(p.expr);
        break;
      case "ObjectCons":
        for (const it of e.items) {
          if (!it.keyIsBareIdent) stack.push(it.key);
          stack.push(it.value);
        }
        break;
      case "TupleCons":
        stack.push(...e.exprs);
        break;
      case "Parentheses":
        stack.push(e.expr);
        break;
      default:
        break;
    }
  }
  return n;
}

describe("the shared walk", () => {
  it("shows each reference once, in source order, with where it is; root first, then the child", () => {
    const log: string[] = [];
    lint(pool(), [logging("a", log)]);
    expect(log).toEqual([
      "a check .",
      "a check child",
      "a number @ main.tf variable:replicas type",
      "a var.replicas @ main.tf locals name",
      "a var.replicas @ main.tf resource:aws_instance:a count",
      "a local.name @ main.tf resource:aws_instance:a tags",
      "a tags @ main.tf resource:aws_instance:a/lifecycle ignore_changes",
      "a var.replicas @ main.tf module:child size",
      "a var.replicas @ main.tf output:replicas value",
      "a exit .",
      "a var.size @ child/main.tf resource:null_resource:n triggers",
      "a var.size @ child/main.tf resource:null_resource:n/provisioner:local-exec command",
      "a triggers @ child/main.tf resource:null_resource:n/lifecycle ignore_changes",
      "a exit child",
    ]);
  });

  it("walks each module once however many rules subscribe, dispatching to them in rule order", () => {
    const log: string[] = [];
    const rules = [logging("a", log), logging("b", log), logging("c", log)];
    const before = { ...walkStats };
    const out = lint(pool(), rules);
    // Two units (the root and its child), each walked once.
    expect(walkStats.modules - before.modules).toBe(2);
    const exprs = out.load.units.flatMap((u) => u.expressions.files.flatMap((f) => f.hcl.body.blocks)).flatMap(function attrs(b): Expression[] {
      return [...b.body.attributes.map((a) => a.expr), ...b.body.blocks.flatMap(attrs)];
    });
    expect(walkStats.nodes - before.nodes).toBe(countNodes(exprs));
    expect(walkStats.nodes - before.nodes).toBe(17);
    // One walk: the rules see each node in turn, a before b before c.
    const walked = log.filter((l) => !l.includes(" check "));
    expect(walked.slice(0, 6)).toEqual([
      "a number @ main.tf variable:replicas type",
      "b number @ main.tf variable:replicas type",
      "c number @ main.tf variable:replicas type",
      "a var.replicas @ main.tf locals name",
      "b var.replicas @ main.tf locals name",
      "c var.replicas @ main.tf locals name",
    ]);
    expect(walked.slice(-15)).toEqual([
      "a exit .",
      "b exit .",
      "c exit .",
      "a var.size @ child/main.tf resource:null_resource:n triggers",
      "b var.size @ child/main.tf resource:null_resource:n triggers",
      "c var.size @ child/main.tf resource:null_resource:n triggers",
      "a var.size @ child/main.tf resource:null_resource:n/provisioner:local-exec command",
      "b var.size @ child/main.tf resource:null_resource:n/provisioner:local-exec command",
      "c var.size @ child/main.tf resource:null_resource:n/provisioner:local-exec command",
      "a triggers @ child/main.tf resource:null_resource:n/lifecycle ignore_changes",
      "b triggers @ child/main.tf resource:null_resource:n/lifecycle ignore_changes",
      "c triggers @ child/main.tf resource:null_resource:n/lifecycle ignore_changes",
      "a exit child",
      "b exit child",
      "c exit child",
    ]);
    expect(walked.length).toBe(3 * 12);
    // Every check runs before the walk.
    expect(log.slice(0, 6)).toEqual(["a check .", "a check child", "b check .", "b check child", "c check .", "c check child"]);
  });

  it("is deterministic, and follows the order of the rule set", () => {
    const run = (order: string[]): string[] => {
      const log: string[] = [];
      lint(pool(), order.map((t) => logging(t, log)));
      return log;
    };
    const first = run(["a", "b"]);
    expect(run(["a", "b"])).toEqual(first);
    const reversed = run(["b", "a"]);
    expect(reversed.filter((l) => l.includes(" @ ")).slice(0, 2)).toEqual(["b number @ main.tf variable:replicas type", "a number @ main.tf variable:replicas type"]);
    expect(reversed.length).toBe(first.length);
  });

  it("calls Block before a block's attributes, <Kind>:exit after a node's children, Module:exit last", () => {
    const log: string[] = [];
    const rule = defineRule({
      id: "test/order",
      severity: "info",
      roles: ["machinepool"],
      scope: "root",
      fixable: false,
      summary: "logs enter and exit",
      check() {
        return {
          Block: (b, site) => log.push(`block ${b.type} (${site.blocks.length})`),
          "Block:exit": (b) => log.push(`/block ${b.type}`),
          Attribute: (a, site) => log.push(`attr ${a.name}${site.attribute === a ? "" : " ?"}`),
          "Attribute:exit": (a) => log.push(`/attr ${a.name}`),
          ObjectCons: () => log.push("object"),
          "ObjectCons:exit": () => log.push("/object"),
          ScopeTraversal: (n) => log.push(text(n)),
          "Module:exit": () => log.push("module done"),
        };
      },
    });
    lint(pool(), [rule]);
    const resource = log.indexOf("block resource (1)");
    expect(log.slice(resource, resource + 12)).toEqual([
      "block resource (1)",
      "attr count",
      "var.replicas",
      "/attr count",
      "attr tags",
      "object",
      "local.name",
      "/object",
      "/attr tags",
      "block lifecycle (2)",
      "attr ignore_changes",
      "tags",
    ]);
    expect(log.slice(resource + 12, resource + 15)).toEqual(["/attr ignore_changes", "/block lifecycle", "/block resource"]);
    expect(log.at(-1)).toBe("module done");
    expect(log.filter((l) => l === "module done")).toHaveLength(1);
  });

  it("respects scope: a root rule sees only the root module, an all rule every unit", () => {
    const log: string[] = [];
    lint(pool(), [logging("r", log, "root"), logging("a", log, "all")]);
    expect(log.filter((l) => l.includes("var.size"))).toEqual([
      "a var.size @ child/main.tf resource:null_resource:n triggers",
      "a var.size @ child/main.tf resource:null_resource:n/provisioner:local-exec command",
    ]);
    expect(log.filter((l) => l.includes(" exit "))).toEqual(["r exit .", "a exit .", "a exit child"]);
    expect(log.filter((l) => l.startsWith("r ")).length).toBe(1 + 7 + 1);
  });

  it("reports a throwing visitor as that rule's failure; its later handlers are not called, other findings stay", () => {
    const calls: string[] = [];
    const throwing = defineRule({
      id: "test/throws",
      severity: "error",
      roles: ["machinepool"],
      scope: "all",
      fixable: false,
      summary: "throws on the second reference",
      check(ctx) {
        let seen = 0;
        return {
          ScopeTraversal(node) {
            calls.push(`${ctx.unit.relDir || "."} ${text(node)}`);
            if (ctx.isRoot && ++seen === 2) throw new TypeError(`cannot follow ${text(node)}`);
          },
          "Module:exit"() {
            calls.push(`exit ${ctx.unit.relDir || "."}`);
          },
        };
      },
    });
    const reporting = defineRule({
      id: "test/reports",
      severity: "warning",
      roles: ["machinepool"],
      scope: "root",
      fixable: false,
      summary: "reports var.replicas",
      check(ctx) {
        return {
          ScopeTraversal(node, site) {
            if (text(node) === "var.replicas") ctx.report({ message: `var.replicas in ${site.block.type}`, file: site.file, range: node.range });
          },
        };
      },
    });
    const out = lint(pool(), [throwing, reporting]);
    expect(out.readErrors).toEqual([
      { file: "", kind: "rule-failed", ruleId: "test/throws", message: "rule test/throws failed on .: cannot follow var.replicas (this is a bug in tfcapi-lint, please report it)" },
    ]);
    // Root: stopped after the throw, no Module:exit; the child is a unit of its own and runs.
    expect(calls).toEqual([". number", ". var.replicas", "child var.size", "child var.size", "child triggers", "exit child"]);
    expect(out.report.findings.map((f) => `${f.ruleId} ${f.file}:${f.range.start.line}:${f.range.start.column} ${f.message}`)).toEqual([
      "test/reports main.tf:6:18 var.replicas in locals",
      "test/reports main.tf:10:11 var.replicas in resource",
      "test/reports main.tf:19:12 var.replicas in module",
      "test/reports main.tf:23:11 var.replicas in output",
    ]);
  });

  it("words a plugin's throwing visitor and Module:exit exactly like a throwing check", () => {
    const plugin = checkPlugin(
      {
        name: "boom",
        rules: [
          { id: "boom/in-check", severity: "error", summary: "throws in check", check() { throw new Error("no moon"); } },
          { id: "boom/in-visitor", severity: "error", summary: "throws in a visitor", check: () => ({ Block() { throw new Error("no moon"); } }) },
          { id: "boom/at-exit", severity: "error", summary: "throws at the end", check: () => ({ "Module:exit"() { throw new Error("no moon"); } }) },
        ],
      },
      "plugin boom",
      "about:blank",
    );
    const out = lint(pool(), plugin.rules);
    expect(out.readErrors.map((e) => e.message)).toEqual([
      "rule boom/in-check of plugin boom failed on .: no moon (report it to the plugin's authors)",
      "rule boom/in-visitor of plugin boom failed on .: no moon (report it to the plugin's authors)",
      "rule boom/at-exit of plugin boom failed on .: no moon (report it to the plugin's authors)",
    ]);
    expect(out.readErrors.every((e) => e.kind === "rule-failed")).toBe(true);
  });

  it("refuses an unknown node kind or a handler that is not a function, as the rule's failure", () => {
    const bad = (id: string, visitors: unknown): RuleDefinition =>
      defineRule({ id, severity: "error", roles: ["machinepool"], scope: "root", fixable: false, summary: "bad visitors", check: () => visitors as RuleVisitors });
    const out = lint(pool(), [bad("test/typo", { FunctionCal() {} }), bad("test/not-fn", { Block: 3 })]);
    expect(out.readErrors.map((e) => e.message)).toEqual([
      'rule test/typo failed on .: check() returned a visitor for "FunctionCal", which is no node kind (use "LiteralValue", "Template", "TemplateWrap", "ScopeTraversal", ... "<Kind>:exit" or "Module:exit") (this is a bug in tfcapi-lint, please report it)',
      'rule test/not-fn failed on .: check() returned a visitor "Block" that is not a function (this is a bug in tfcapi-lint, please report it)',
    ]);
  });

  it("keeps checks that return nothing (or false, or a promise) working as before", () => {
    const plain = (id: string, ret: unknown): RuleDefinition =>
      defineRule({
        id,
        severity: "warning",
        roles: ["machinepool"],
        scope: "root",
        fixable: false,
        summary: "a declaration check",
        check(ctx) {
          ctx.report({ message: `${id} ran` });
          return ret as void;
        },
      });
    const before = walkStats.modules;
    const out = lint(pool(), [plain("test/none", undefined), plain("test/false", false), plain("test/promise", Promise.resolve())]);
    expect(out.readErrors).toEqual([]);
    expect(out.report.findings.map((f) => f.message)).toEqual(["test/false ran", "test/none ran", "test/promise ran"]);
    // Nobody subscribed: no walk at all.
    expect(walkStats.modules).toBe(before);
  });

  it("lintSteps yields after loading, after each rule's checks, and after each unit's walk", () => {
    const log: string[] = [];
    const plain = defineRule({ id: "test/plain", severity: "info", roles: ["machinepool"], scope: "root", fixable: false, summary: "nothing", check() {} });
    const steps = lintSteps(pool(), { ruleSet: [logging("a", log), plain, logging("b", log)], role: "machinepool" });
    let yields = 0;
    const seen: number[] = [];
    for (let r = steps.next(); !r.done; r = steps.next()) {
      yields++;
      seen.push(log.length);
    }
    // 1 (load) + 3 rules + 2 walks (root, child).
    expect(yields).toBe(6);
    // Nothing is walked before the last check; the root's walk ends before the child's starts.
    expect(seen).toEqual([0, 2, 2, 4, 4 + 2 * 8, 4 + 2 * 8 + 2 * 4]);
  });

  it("stays iterative on deeply nested expressions and blocks", () => {
    const root = tempDir();
    const depth = 200;
    const deepList = `${"[".repeat(depth)}var.replicas${"]".repeat(depth)}`;
    const deepBlocks = `${"dynamic \"x\" {\n".repeat(depth)}v = var.replicas\n${"}\n".repeat(depth)}`;
    writeTree(root, { "m/main.tf": `variable "replicas" {}\nlocals {\n  deep = ${deepList}\n}\nresource "aws_instance" "a" {\n${deepBlocks}}\n` });
    const log: string[] = [];
    let maxChain = 0;
    const rule = defineRule({
      id: "test/deep",
      severity: "info",
      roles: ["machinepool"],
      scope: "root",
      fixable: false,
      summary: "counts",
      check: () => ({
        TupleCons: () => log.push("["),
        ScopeTraversal: (n, site) => {
          log.push(text(n));
          maxChain = Math.max(maxChain, site.blocks.length);
        },
      }),
    });
    const out = lint(`${root}/m`, [rule]);
    expect(out.readErrors).toEqual([]);
    expect(log.filter((l) => l === "[")).toHaveLength(depth);
    expect(log.filter((l) => l === "var.replicas")).toHaveLength(2);
    expect(maxChain).toBe(depth + 1);
  });
});

describe("visitor rules through tfcapi-lint/testing", () => {
  const replicasRule = defineRule({
    id: "acme/replicas-read",
    severity: "warning",
    roles: ["machinepool"],
    scope: "all",
    fixable: false,
    summary: "reports where var.replicas or var.size is read",
    check(ctx) {
      return {
        ScopeTraversal(node, site) {
          const t = text(node);
          if (t === "var.replicas" || t === "var.size") ctx.report({ message: `${t} read by ${site.attribute?.name}`, file: site.file, range: node.range });
        },
      };
    },
  });

  it("lintFixture runs a visitor rule given as rules", () => {
    expect(lintFixture(pool(), { rules: [replicasRule], role: "machinepool" }).map((f) => `${f.file}:${f.line}:${f.column}-${f.endColumn} ${f.message}`)).toEqual([
      "child/main.tf:4:20-28 var.size read by triggers",
      "child/main.tf:6:23-31 var.size read by command",
      "main.tf:6:18-30 var.replicas read by name",
      "main.tf:10:11-23 var.replicas read by count",
      "main.tf:19:12-24 var.replicas read by size",
      "main.tf:23:11-23 var.replicas read by value",
    ]);
  });

  it("lintFixture runs a visitor rule of a plugin object, and throws on its failure", () => {
    const plugin = { name: "acme", rules: [replicasRule] };
    expect(lintFixture(pool(), { plugin, role: "machinepool" })).toHaveLength(6);
    const broken = { name: "acme", rules: [{ ...replicasRule, check: () => ({ Attribute() { throw new Error("lost"); } }) }] };
    const dir = pool();
    expect(() => lintFixture(dir, { plugin: broken, role: "machinepool" })).toThrow(`${dir}: rule acme/replicas-read of plugin acme failed on .: lost (report it to the plugin's authors)`);
  });
});

describe("what the shared walk visits", () => {
  it("is, for every attribute of the example and realistic modules, exactly what walkExpression visits without bare keys, in the same order", () => {
    const dirs = [
      ...["machinepool-aws", "machine-aws", "cluster-aws"].map((d) => path.join(REPO, "examples", d)),
      ...readdirSync(path.join(REPO, "fixtures", "realistic")).map((d) => moduleDirOf(path.join(REPO, "fixtures", "realistic", d))),
    ];
    let compared = 0;
    for (const dir of dirs) {
      const seen: Expression[] = [];
      const all = (visit: (e: Expression) => void): RuleVisitors => Object.fromEntries(NODE_KINDS.filter((k) => k !== "Attribute" && k !== "Block").map((k) => [k, visit]));
      const rule = defineRule({ id: "test/all", severity: "info", roles: ["cluster", "machine", "machinepool"], scope: "all", fixable: false, summary: "every node", check: () => all((e) => seen.push(e)) });
      const out = lintModule(dir, { ruleSet: [rule], role: "machinepool" });
      if (out.kind !== "report") throw new Error(`${dir}: ${out.kind}`);
      const expected: Expression[] = [];
      for (const unit of out.load.units) {
        for (const file of unit.expressions.files) {
          for (const block of file.hcl.body.blocks) {
            for (const { attr } of bodyAttributes(block.body)) walkExpression(attr.expr, (e) => void expected.push(e), false);
          }
        }
      }
      expect(seen.length).toBe(expected.length);
      expect(seen.every((e, i) => e === expected[i])).toBe(true);
      compared += seen.length;
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

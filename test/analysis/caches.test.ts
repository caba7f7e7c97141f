/**
 * Per-module caches (issue 13 item 2): the dependency graph keeps its
 * answers, and variableUsage keeps its answer per unit, so rules asking the
 * same question again get the same (shared) result at no cost.
 */
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import { buildGraph } from "../../src/terraform/graph.js";
import { variableUsage } from "../../src/analysis/usage.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

const MAIN = `variable "autoscaling" {}
variable "captf_tags" {}

locals {
  as   = var.autoscaling
  tags = merge(var.captf_tags, { team = "core" })
}

resource "aws_autoscaling_group" "pool" {
  count = local.as.enabled ? 1 : 0
  tags  = local.tags
}

module "child" {
  source = "./child"
  labels = var.captf_tags
}
`;

function load() {
  const root = tempDir();
  writeTree(root, { "m/main.tf": MAIN, "m/child/main.tf": 'variable "labels" {}\n' });
  return loadModule(`${root}/m`);
}

describe("caches per module", () => {
  it("reaches: a path search is answered once, the same chain on every later ask", () => {
    const unit = load().root;
    const graph = buildGraph(unit.expressions);
    const count = unit.expressions.resources.get("aws_autoscaling_group.pool")!.count!.expr;
    const first = graph.reaches(count, "var.autoscaling.enabled");
    expect(first?.map((s) => `${s.address}@${s.range.start.line}:${s.range.start.column}`)).toEqual(["local.as@10:11", "var.autoscaling@5:10"]);
    expect(graph.reaches(count, "var.autoscaling.enabled")).toBe(first);
    // Another target, or through resources, is another question.
    expect(graph.reaches(count, "var.autoscaling.min")).toBeNull();
    expect(graph.reaches(count, "var.autoscaling.enabled", { throughResources: true })).toEqual(first);
    expect(graph.reaches(count, "var.autoscaling.enabled", { throughResources: true })).not.toBe(first);
  });

  it("resolveLocals: one answer per expression", () => {
    const unit = load().root;
    const graph = buildGraph(unit.expressions);
    const tags = unit.expressions.resources.get("aws_autoscaling_group.pool")!.body.attributes.find((a) => a.name === "tags")!.expr;
    const first = graph.resolveLocals(tags);
    expect(first.via).toEqual(["local.tags"]);
    expect(first.expr.kind).toBe("FunctionCall");
    expect(graph.resolveLocals(tags)).toBe(first);
  });

  it("variableUsage: one answer per unit and name", () => {
    const l = load();
    const used = variableUsage(l.root, "captf_tags");
    expect(used).toEqual({ used: true, passedTo: [] });
    expect(variableUsage(l.root, "captf_tags")).toBe(used);
    // The child never applies what it is given.
    const child = l.root.children[0]!.unit;
    const unused = variableUsage(child, "labels");
    expect(unused).toEqual({ used: false, passedTo: [] });
    expect(variableUsage(child, "labels")).toBe(unused);
    // A fresh load is a fresh model: answered again.
    expect(variableUsage(load().root, "captf_tags")).not.toBe(used);
  });
});

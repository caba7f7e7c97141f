/**
 * Iteration in the value analysis (src/analysis/iteration.ts): each.key /
 * each.value over for_each collections, count.index, dynamic blocks and
 * their iterators, per-instance evaluation, and the unknown cases that must
 * stay unknown.
 */
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import type { Module, Resource } from "../../src/terraform/model.js";
import { findArgument } from "../../src/terraform/module.js";
import { alternatives, literalAlternatives, type Site } from "../../src/analysis/values.js";
import {
  blockArgument,
  collectionEntries,
  dynamicBlocks,
  instanceArgument,
  instanceByKey,
  instanceSite,
  instancesOf,
  resourceSite,
} from "../../src/analysis/iteration.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

function mod(main: string): Module {
  const root = tempDir();
  writeTree(root, { "m/main.tf": main });
  return loadModule(`${root}/m`).root.expressions;
}

function res(m: Module, address: string): Resource {
  const r = m.resources.get(address);
  if (!r) throw new Error(`no resource ${address}`);
  return r;
}

/** The argument at `path` of `address` as a resource site. */
function arg(m: Module, address: string, path: string[]): Site {
  const r = res(m, address);
  const a = findArgument(r.body, path);
  if (!a) throw new Error(`no argument ${path.join(".")} in ${address}`);
  return resourceSite(m, r, a.expr);
}

/** The known literal values, sorted for comparison; unknown leaves dropped. */
function known(m: Module, site: Site): (string | number | boolean | null)[] {
  return literalAlternatives(m, site)
    .filter((c) => c.value !== undefined)
    .map((c) => c.value!)
    .sort((a, b) => String(a).localeCompare(String(b)));
}

/** Every literal alternative rendered, unknown ones as their kind. */
function lits(m: Module, site: Site): string[] {
  return literalAlternatives(m, site)
    .map((c) => (c.value !== undefined ? JSON.stringify(c.value) : `<${c.kind}>`))
    .sort();
}

const VARS = `variable "cluster_network" { default = { api_server_port = 6443 } }
variable "ssh_cidrs" { default = ["10.0.0.0/8"] }
variable "ports" { default = { api = 6443 } }
variable "n" { default = 2 }
variable "rke2" { default = false }
`;

describe("for_each over literal maps and objects", () => {
  const m = mod(`${VARS}
locals {
  api_ports = {
    kube_apiserver = { port = 6443, protocol = "TCP" }
    supervisor     = { port = 9345, protocol = "TCP" }
  }
}
resource "aws_lb_target_group" "tg" {
  for_each = local.api_ports
  name     = "cp-\${each.key}"
  port     = each.value.port
  protocol = each.value.protocol
  health_check {
    port     = each.value.port
    protocol = each.key == "supervisor" ? "HTTPS" : "TCP"
  }
}
resource "aws_lb_listener" "l" {
  for_each          = local.api_ports
  port              = aws_lb_target_group.tg[each.key].port
  default_action {
    target_group_arn = aws_lb_target_group.tg[each.key].arn
  }
}
`);

  it("each.value.port takes every entry's port; each.key every key", () => {
    expect(known(m, arg(m, "aws_lb_target_group.tg", ["port"]))).toEqual([6443, 9345]);
    // One alternative per map entry (each its own literal in the source).
    expect(known(m, arg(m, "aws_lb_target_group.tg", ["protocol"]))).toEqual(["TCP", "TCP"]);
    expect(known(m, arg(m, "aws_lb_target_group.tg", ["name"]))).toEqual(["cp-kube_apiserver", "cp-supervisor"]);
  });

  it("instances: keys, certainty and each.value per key", () => {
    const inst = instancesOf(m, res(m, "aws_lb_target_group.tg"));
    expect(inst.mode).toBe("for_each");
    expect(inst.complete).toBe(true);
    expect(inst.instances.map((i) => [i.key, i.certain])).toEqual([
      ["kube_apiserver", true],
      ["supervisor", true],
    ]);
  });

  it("per instance: the condition on each.key picks one branch", () => {
    const r = res(m, "aws_lb_target_group.tg");
    const sup = instanceByKey(m, r, "supervisor")!;
    const api = instanceByKey(m, r, "kube_apiserver")!;
    expect(instanceArgument(m, r, sup, ["health_check", "protocol"]).flatMap((s) => known(m, s))).toEqual(["HTTPS"]);
    expect(instanceArgument(m, r, api, ["health_check", "protocol"]).flatMap((s) => known(m, s))).toEqual(["TCP"]);
    expect(instanceArgument(m, r, "supervisor", ["health_check", "port"]).flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, r, "supervisor", "port").flatMap((s) => known(m, s))).toEqual([9345]);
  });

  it("another resource indexed by each.key reads that key's argument", () => {
    const l = res(m, "aws_lb_listener.l");
    const a = instanceByKey(m, l, "kube_apiserver")!;
    expect(instanceArgument(m, l, a, "port").flatMap((s) => known(m, s))).toEqual([6443]);
    expect(known(m, arg(m, "aws_lb_listener.l", ["port"]))).toEqual([6443, 9345]);
  });

  it("a computed attribute of another resource is unknown, named by instance", () => {
    const l = res(m, "aws_lb_listener.l");
    const a = instanceByKey(m, l, "supervisor")!;
    const [s] = instanceArgument(m, l, a, ["default_action", "target_group_arn"]);
    const alts = alternatives(m, s!);
    expect(alts.map((x) => x.expr.kind)).toEqual(["ScopeTraversal"]);
    const t = alts[0]!.expr;
    expect(t.kind === "ScopeTraversal" ? t.traversal.map((x) => ("name" in x ? x.name : "key" in x ? `[${x.key}]` : "*")) : []).toEqual([
      "aws_lb_target_group",
      "tg",
      "[supervisor]",
      "arn",
    ]);
  });
});

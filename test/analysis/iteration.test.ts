/**
 * Iteration in the value analysis (src/analysis/iteration.ts): each.key /
 * each.value over for_each collections, count.index, dynamic blocks and
 * their iterators, per-instance evaluation, and the unknown cases that must
 * stay unknown.
 */
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import type { Module, Resource } from "../../src/terraform/module-types.js";
import { findArgument } from "../../src/terraform/module-builder.js";
import { alternatives, listElements, literalAlternatives, type Site } from "../../src/analysis/values.js";
import {
  blockArgument,
  collectionEntries,
  dynamicBlocks,
  instanceArgument,
  instanceByKey,
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

  it("the trail: every hop from the argument to the value (for_each, locals, the entry, other resources' arguments)", () => {
    const tg = res(m, "aws_lb_target_group.tg");
    const [port] = instanceArgument(m, tg, "supervisor", "port");
    const [alt] = alternatives(m, port!);
    const hops = (s: Site) => (s.trail ?? []).map((h) => `${h.message} @${h.file.path}:${h.range.start.line}:${h.range.start.column}`);
    expect(hops(alt!)).toEqual([
      "aws_lb_target_group.tg for_each @main.tf:14:14",
      "local.api_ports @main.tf:8:15",
      'local.api_ports["supervisor"] @main.tf:10:22',
    ]);
    const l = res(m, "aws_lb_listener.l");
    const [lport] = instanceArgument(m, l, "supervisor", "port");
    const [lalt] = alternatives(m, lport!);
    expect(hops(lalt!)).toEqual([
      'aws_lb_target_group.tg["supervisor"].port @main.tf:16:14',
      "aws_lb_target_group.tg for_each @main.tf:14:14",
      "local.api_ports @main.tf:8:15",
      'local.api_ports["supervisor"] @main.tf:10:22',
    ]);
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

describe("for_each collections", () => {
  const m = mod(`${VARS}
locals {
  base     = { a = { port = 1 }, b = { port = 2 } }
  override = { b = { port = 20 }, c = { port = 3 } }
  merged   = merge(local.base, local.override)
  list     = [for p in [10, 11, 12] : { port = p } ]
  filtered = { for k, v in local.base : k => v if v.port > 1 }
  maybe    = { for k, v in local.base : k => v if var.rke2 }
}
resource "x_set" "s" {
  for_each = toset(["6443", "9345"])
  name     = each.key
  value    = each.value
}
resource "x_list" "l" {
  for_each = ["p", "q"]
  name     = "\${each.key}/\${each.value}"
}
resource "x_merge" "m" {
  for_each = local.merged
  port     = each.value.port
}
resource "x_for" "f" {
  for_each = { for o in local.list : tostring(o.port) => o }
  port     = each.value.port
  name     = each.key
}
resource "x_if" "i" {
  for_each = local.filtered
  port     = each.value.port
}
resource "x_maybe" "i" {
  for_each = local.maybe
  port     = each.value.port
}
resource "x_cond" "c" {
  for_each = var.rke2 ? { sup = 9345 } : { api = 6443 }
  port     = each.value
}
resource "x_product" "p" {
  for_each = { for pair in setproduct(["a", "b"], [1, 2]) : "\${pair[0]}-\${pair[1]}" => pair }
  name     = each.value[0]
  port     = each.value[1]
}
resource "x_unknown_for" "u" {
  for_each = { for c in var.ssh_cidrs : c => { port = 22, cidr = c } }
  port     = each.value.port
  cidr     = each.value.cidr
}
resource "x_var" "v" {
  for_each = var.ports
  port     = each.value
  name     = each.key
  fixed    = 7
}
`);
  const keys = (address: string) =>
    ((i) => ({ complete: i.complete, keys: i.instances.map((x) => [x.key, x.certain]) }))(instancesOf(m, res(m, address)));

  it("toset: key = value = element", () => {
    expect(keys("x_set.s")).toEqual({ complete: true, keys: [["6443", true], ["9345", true]] });
    expect(known(m, arg(m, "x_set.s", ["name"]))).toEqual(["6443", "9345"]);
    expect(known(m, arg(m, "x_set.s", ["value"]))).toEqual(["6443", "9345"]);
  });

  it("a list: key = value = element", () => {
    expect(keys("x_list.l")).toEqual({ complete: true, keys: [["p", true], ["q", true]] });
    expect(known(m, arg(m, "x_list.l", ["name"]))).toEqual(["p/p", "q/q"]);
  });

  it("merge: a later constant key replaces the earlier entry", () => {
    expect(keys("x_merge.m")).toEqual({ complete: true, keys: [["a", true], ["b", true], ["c", true]] });
    expect(known(m, arg(m, "x_merge.m", ["port"]))).toEqual([1, 20, 3]);
    const r = res(m, "x_merge.m");
    expect(instanceArgument(m, r, "b", "port").flatMap((s) => known(m, s))).toEqual([20]);
  });

  it("for: one entry per element, key and value evaluated per element", () => {
    expect(keys("x_for.f")).toEqual({ complete: true, keys: [["10", true], ["11", true], ["12", true]] });
    expect(known(m, arg(m, "x_for.f", ["port"]))).toEqual([10, 11, 12]);
    expect(known(m, arg(m, "x_for.f", ["name"]))).toEqual(["10", "11", "12"]);
  });

  it("for ... if: a condition that folds drops or keeps the element; an unknown one makes it possible", () => {
    expect(keys("x_if.i")).toEqual({ complete: true, keys: [["b", true]] });
    expect(known(m, arg(m, "x_if.i", ["port"]))).toEqual([2]);
    expect(keys("x_maybe.i")).toEqual({ complete: true, keys: [["a", false], ["b", false]] });
    expect(known(m, arg(m, "x_maybe.i", ["port"]))).toEqual([1, 2]);
  });

  it("a conditional: both branches' entries, possible", () => {
    expect(keys("x_cond.c")).toEqual({ complete: true, keys: [["sup", false], ["api", false]] });
    expect(known(m, arg(m, "x_cond.c", ["port"]))).toEqual([6443, 9345]);
  });

  it("setproduct: tuples, their elements read by index", () => {
    expect(keys("x_product.p")).toEqual({ complete: true, keys: [["a-1", true], ["a-2", true], ["b-1", true], ["b-2", true]] });
    const r = res(m, "x_product.p");
    expect(instanceArgument(m, r, "b-2", "name").flatMap((s) => known(m, s))).toEqual(["b"]);
    expect(instanceArgument(m, r, "b-2", "port").flatMap((s) => known(m, s))).toEqual([2]);
  });

  it("a for over an unknown collection: known attributes evaluated, number and keys unknown", () => {
    expect(keys("x_unknown_for.u")).toEqual({ complete: false, keys: [[null, false]] });
    expect(known(m, arg(m, "x_unknown_for.u", ["port"]))).toEqual([22]);
    expect(lits(m, arg(m, "x_unknown_for.u", ["cidr"]))).toEqual([]);
  });

  it("a variable is unknown whatever its default: one unknown instance, only constants that do not depend on it", () => {
    expect(keys("x_var.v")).toEqual({ complete: false, keys: [[null, false]] });
    expect(lits(m, arg(m, "x_var.v", ["port"]))).toEqual([]);
    expect(lits(m, arg(m, "x_var.v", ["name"]))).toEqual([]);
    expect(known(m, arg(m, "x_var.v", ["fixed"]))).toEqual([7]);
  });

  it("collectionEntries reads any collection site (a local here)", () => {
    const l = m.locals.get("merged")!;
    const r = collectionEntries(m, { expr: l.value, file: l.file, via: [] }, true);
    expect(r.complete).toBe(true);
    expect(r.entries.map((e) => e.keyConst)).toEqual(["a", "b", "c"]);
  });
});

describe("per-instance evaluation", () => {
  const m = mod(`${VARS}
locals {
  ports = { api = { port = 6443 }, sup = { port = 9345 } }
  names = toset(["api", "sup"])
}
resource "x_idx" "i" {
  for_each = local.names
  port     = local.ports[each.key].port
  lookup   = lookup(local.ports, each.key, { port = 1 }).port
}
resource "x_unknown_key" "u" {
  port = local.ports[var.cluster_network.name].port
}
resource "aws_lb_target_group" "tg" {
  for_each = local.ports
  port     = each.value.port
  protocol = "TCP"
}
resource "aws_lb_target_group_attachment" "a" {
  for_each         = aws_lb_target_group.tg
  port             = each.value.port
  protocol         = each.value.protocol
  target_group_arn = each.value.arn
}
resource "x_for_res" "f" {
  ports = [for tg in aws_lb_target_group.tg : tg.port]
  first = one([for k, tg in aws_lb_target_group.tg : tg.port if k == "sup"])
}
`);

  it("local.m[each.key].port is the entry of that key", () => {
    const r = res(m, "x_idx.i");
    expect(instanceArgument(m, r, "api", "port").flatMap((s) => known(m, s))).toEqual([6443]);
    expect(instanceArgument(m, r, "sup", "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, r, "sup", "lookup").flatMap((s) => known(m, s))).toEqual([9345]);
  });

  it("a known map indexed by an unknown key: every entry's value (possible)", () => {
    expect(known(m, arg(m, "x_unknown_key.u", ["port"]))).toEqual([6443, 9345]);
  });

  it("for_each over a resource: same keys; each.value.<arg> is that instance's argument, computed attributes unknown", () => {
    const r = res(m, "aws_lb_target_group_attachment.a");
    expect(instancesOf(m, r).instances.map((i) => i.key)).toEqual(["api", "sup"]);
    expect(instanceArgument(m, r, "sup", "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, r, "api", "protocol").flatMap((s) => known(m, s))).toEqual(["TCP"]);
    expect(instanceArgument(m, r, "api", "target_group_arn").flatMap((s) => lits(m, s))).toEqual([]);
  });

  it("for i in <resource>: i.<arg> over its instances; if over the key", () => {
    const r = res(m, "x_for_res.f");
    const ports = findArgument(r.body, ["ports"])!.expr;
    const els = literalAlternatives(m, resourceSite(m, r, ports));
    expect(els.map((e) => e.kind)).toEqual(["list"]);
    expect(known(m, arg(m, "x_for_res.f", ["first"]))).toEqual([9345]);
  });

  it("two resources iterating the same collection compared key by key", () => {
    const tg = res(m, "aws_lb_target_group.tg");
    const att = res(m, "aws_lb_target_group_attachment.a");
    const pairs = instancesOf(m, att).instances.map((i) => {
      const other = instanceByKey(m, tg, i.key!)!;
      return [i.key, instanceArgument(m, att, i, "port").flatMap((s) => known(m, s)), instanceArgument(m, tg, other, "port").flatMap((s) => known(m, s))];
    });
    expect(pairs).toEqual([
      ["api", [6443], [6443]],
      ["sup", [9345], [9345]],
    ]);
  });
});

describe("count", () => {
  const m = mod(`${VARS}
resource "x_count" "c" {
  count = 2
  port  = [6443, 9345][count.index]
  name  = "node-\${count.index}"
}
resource "x_cond_count" "c" {
  count = var.rke2 ? 2 : 1
  port  = [6443, 9345][count.index]
}
resource "x_element" "e" {
  count = 3
  port  = element([6443, 9345], count.index)
}
resource "x_zero" "z" {
  count = 0
  port  = 1
}
resource "x_unknown_count" "u" {
  count = var.n
  port  = [6443, 9345][count.index]
  fixed = "TCP"
}
resource "aws_instance" "cp" {
  count         = 1
  instance_type = "m5.large"
}
resource "aws_instance" "one" {
  instance_type = "t3.small"
}
resource "x_reads" "r" {
  first  = aws_instance.cp[0].instance_type
  splat  = one(aws_instance.cp[*].instance_type)
  single = aws_instance.one.instance_type
  splat1 = one(aws_instance.one[*].instance_type)
  id     = aws_instance.cp[0].id
  zone   = aws_instance.cp[2].instance_type
}
`);
  const keys = (address: string) =>
    ((i) => ({ mode: i.mode, complete: i.complete, keys: i.instances.map((x) => [x.key, x.certain]) }))(instancesOf(m, res(m, address)));

  it("a constant count: instances 0..n-1, count.index takes each", () => {
    expect(keys("x_count.c")).toEqual({ mode: "count", complete: true, keys: [[0, true], [1, true]] });
    expect(known(m, arg(m, "x_count.c", ["port"]))).toEqual([6443, 9345]);
    expect(known(m, arg(m, "x_count.c", ["name"]))).toEqual(["node-0", "node-1"]);
  });

  it("a conditional of constants: up to the largest, those above the smallest possible", () => {
    expect(keys("x_cond_count.c")).toEqual({ mode: "count", complete: true, keys: [[0, true], [1, false]] });
    expect(known(m, arg(m, "x_cond_count.c", ["port"]))).toEqual([6443, 9345]);
  });

  it("element() wraps around the list", () => {
    const r = res(m, "x_element.e");
    expect([0, 1, 2].map((i) => instanceArgument(m, r, i, "port").flatMap((s) => known(m, s)))).toEqual([[6443], [9345], [6443]]);
  });

  it("count = 0: no instance, no value", () => {
    expect(keys("x_zero.z")).toEqual({ mode: "count", complete: true, keys: [] });
    expect(lits(m, arg(m, "x_zero.z", ["port"]))).toEqual([]);
  });

  it("an unknown count: one instance of unknown index; an unknown index selects every element", () => {
    expect(keys("x_unknown_count.u")).toEqual({ mode: "count", complete: false, keys: [[null, false]] });
    expect(known(m, arg(m, "x_unknown_count.u", ["port"]))).toEqual([6443, 9345]);
    expect(known(m, arg(m, "x_unknown_count.u", ["fixed"]))).toEqual(["TCP"]);
  });

  it("x[0], one(x[*].a) and a single resource read the instance argument; computed and missing ones are unknown", () => {
    expect(known(m, arg(m, "x_reads.r", ["first"]))).toEqual(["m5.large"]);
    expect(known(m, arg(m, "x_reads.r", ["splat"]))).toEqual(["m5.large"]);
    expect(known(m, arg(m, "x_reads.r", ["single"]))).toEqual(["t3.small"]);
    expect(known(m, arg(m, "x_reads.r", ["splat1"]))).toEqual(["t3.small"]);
    expect(lits(m, arg(m, "x_reads.r", ["id"]))).toEqual([]);
    expect(lits(m, arg(m, "x_reads.r", ["zone"]))).toEqual([]);
  });

  it("single resources: mode single, one certain instance", () => {
    expect(keys("aws_instance.one")).toEqual({ mode: "single", complete: true, keys: [[null, true]] });
  });
});

describe("format with a constant format is a template", () => {
  const m = mod(`${VARS}
resource "aws_instance" "this" {
  availability_zone = "eu-west-1a"
}
resource "x_fmt" "f" {
  for_each = toset(["a", "b"])
  known    = format("aws:///%s/%s", aws_instance.this.availability_zone, each.key)
  unknown  = format("aws:///%s/%s", aws_instance.this.availability_zone, aws_instance.this.id)
  percent  = format("%d%%", 50)
  other    = format("%5d", 1)
  dynfmt   = format(var.cluster_network.fmt, 1)
}
`);

  it("constant arguments fold; unknown ones leave a string template with the arguments as interpolations", () => {
    expect(known(m, arg(m, "x_fmt.f", ["known"]))).toEqual(["aws:///eu-west-1a/a", "aws:///eu-west-1a/b"]);
    const alts = alternatives(m, arg(m, "x_fmt.f", ["unknown"]));
    expect(alts.map((a) => a.expr.kind)).toEqual(["Template"]);
    const t = alts[0]!.expr;
    expect(t.kind === "Template" ? t.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : p.kind)) : []).toEqual([
      "aws:///",
      "TemplateInterp",
      "/",
      "TemplateInterp",
    ]);
    expect(lits(m, arg(m, "x_fmt.f", ["unknown"]))).toEqual(["<string>"]);
    expect(known(m, arg(m, "x_fmt.f", ["percent"]))).toEqual(["50%"]);
  });

  it("widths or a format that is not constant: unknown", () => {
    expect(lits(m, arg(m, "x_fmt.f", ["other"]))).toEqual([]);
    expect(lits(m, arg(m, "x_fmt.f", ["dynfmt"]))).toEqual([]);
  });
});

describe("dynamic blocks", () => {
  const m = mod(`${VARS}
locals {
  rules = [
    { from = 6443, to = 6443 },
    { from = 2379, to = 2380 },
  ]
  listeners = {
    api = { port = 6443, checks = [{ path = "/readyz" }] }
    sup = { port = 9345, checks = [{ path = "/ping" }, { path = "/healthz" }] }
  }
}
resource "aws_security_group" "cp" {
  ingress {
    from_port = 10250
    to_port   = 10250
  }
  dynamic "ingress" {
    for_each = local.rules
    content {
      from_port = ingress.value.from
      to_port   = ingress.value.to
      index     = ingress.key
    }
  }
  dynamic "ingress" {
    for_each = var.ssh_cidrs
    iterator = cidr
    content {
      from_port = 22
      cidr      = cidr.value
    }
  }
}
resource "x_lb" "l" {
  for_each = local.listeners
  port     = each.value.port
  dynamic "check" {
    for_each = each.value.checks
    iterator = c
    content {
      path = c.value.path
      dynamic "inner" {
        for_each = toset([c.value.path, "/x"])
        content {
          both = "\${c.value.path}+\${inner.value}"
        }
      }
    }
  }
}
resource "x_empty" "e" {
  dynamic "check" {
    for_each = []
    content {
      path = "/never"
    }
  }
}
`);

  it("literal and dynamic blocks alike: one per entry; an unknown collection gives a possible block", () => {
    const r = res(m, "aws_security_group.cp");
    const set = dynamicBlocks(m, r, "ingress");
    expect(set.complete).toBe(false);
    expect(set.blocks.map((b) => [b.dynamic === null ? "literal" : "dynamic", b.certain, blockArgument(b, "from_port") ? known(m, blockArgument(b, "from_port")!) : null])).toEqual([
      ["literal", true, [10250]],
      ["dynamic", true, [6443]],
      ["dynamic", true, [2379]],
      ["dynamic", false, [22]],
    ]);
    expect(set.blocks.map((b) => (blockArgument(b, "to_port") ? known(m, blockArgument(b, "to_port")!) : null))).toEqual([[10250], [6443], [2380], null]);
    expect(set.blocks.map((b) => (blockArgument(b, "index") ? known(m, blockArgument(b, "index")!) : null))).toEqual([null, [0], [1], null]);
    expect(lits(m, blockArgument(set.blocks[3]!, "cidr")!)).toEqual([]);
  });

  it("a resourceSite inside a dynamic content takes every entry", () => {
    expect(known(m, arg(m, "aws_security_group.cp", ["ingress", "to_port"]))).toEqual([10250]);
    const r = res(m, "aws_security_group.cp");
    const dyn = r.body.blocks.filter((b) => b.type === "dynamic")[0]!;
    const to = dyn.body.blocks[0]!.body.attributes.find((a) => a.name === "to_port")!;
    expect(known(m, resourceSite(m, r, to.expr))).toEqual([2380, 6443]);
  });

  it("dynamic over each.value, nested dynamic using the outer iterator, per instance", () => {
    const r = res(m, "x_lb.l");
    const sup = instanceByKey(m, r, "sup")!;
    expect(instanceArgument(m, r, sup, ["check", "path"]).map((s) => known(m, s))).toEqual([["/ping"], ["/healthz"]]);
    expect(instanceArgument(m, r, "api", ["check", "path"]).map((s) => known(m, s))).toEqual([["/readyz"]]);
    expect(instanceArgument(m, r, "api", ["check", "inner", "both"]).map((s) => known(m, s))).toEqual([["/readyz+/readyz"], ["/readyz+/x"]]);
    expect(dynamicBlocks(m, r, "check").blocks.length).toBe(3);
    expect(dynamicBlocks(m, r, "check").complete).toBe(true);
  });

  it("an empty collection: no block", () => {
    const set = dynamicBlocks(m, res(m, "x_empty.e"), "check");
    expect(set).toEqual({ complete: true, blocks: [] });
  });
});

describe("robustness", () => {
  it("self-referencing for_each and resources reading each other stay unknown without blowing up", () => {
    const m = mod(`
resource "x_a" "a" {
  for_each = x_b.b
  port     = x_b.b[each.key].port
}
resource "x_b" "b" {
  for_each = x_a.a
  port     = x_a.a[each.key].port
}
resource "x_self" "s" {
  count = length(x_self.s)
  port  = x_self.s[0].port
}
`);
    expect(lits(m, arg(m, "x_a.a", ["port"]))).toEqual([]);
    expect(lits(m, arg(m, "x_self.s", ["port"]))).toEqual([]);
  });

  it("resources iterating each other in a chain: a short chain is followed, a very long one stops without a stack overflow", () => {
    const locals = ["l0 = { a = { port = 1 } }"];
    for (let i = 1; i < 3000; i++) locals.push(`l${i} = { a = local.l${i - 1}.a }`);
    const chain = ['resource "x_r" "r0" {\n  for_each = { a = { port = 1 } }\n  port = each.value.port\n}'];
    for (let i = 1; i < 5000; i++) chain.push(`resource "x_r" "r${i}" {\n  for_each = x_r.r${i - 1}\n  port = each.value.port\n}`);
    const m = mod(`locals {\n${locals.join("\n")}\n}\n${chain.join("\n")}\nresource "x_deep" "d" {\n  for_each = local.l2999\n  port = each.value.port\n}\n`);
    expect(known(m, arg(m, "x_r.r5", ["port"]))).toEqual([1]);
    expect(instancesOf(m, res(m, "x_r.r5")).instances.map((i) => i.key)).toEqual(["a"]);
    expect(lits(m, arg(m, "x_r.r4999", ["port"]))).toEqual([]);
    expect(lits(m, arg(m, "x_deep.d", ["port"]))).toEqual([]);
  });

  it("exponential local chains and huge collections stop within the budget", () => {
    const locals = ["l0 = { a = 1, b = 2 }"];
    for (let i = 1; i < 60; i++) locals.push(`l${i} = merge(local.l${i - 1}, { for k, v in local.l${i - 1} : k => local.l${i - 1}[k] })`);
    const m = mod(`locals {\n${locals.join("\n")}\n}
resource "x_big" "b" {
  for_each = toset([for i in range(100000) : tostring(i)])
  port     = local.l59[each.key]
}
resource "x_prod" "p" {
  for_each = { for t in setproduct(local.l59, local.l59, local.l59, local.l59) : t[0] => t }
  port     = each.value[1]
}
`);
    const start = Date.now();
    literalAlternatives(m, arg(m, "x_big.b", ["port"]));
    literalAlternatives(m, arg(m, "x_prod.p", ["port"]));
    expect(Date.now() - start).toBeLessThan(5000);
  });
});

describe("more collection forms", () => {
  const m = mod(`${VARS}
locals {
  base  = { a = 1, b = 2 }
  ports = [6443, 9345]
}
resource "x_merge_maybe" "m" {
  for_each = merge(local.base, var.rke2 ? { b = 20 } : {})
  port     = each.value
}
resource "x_range" "r" {
  for_each = toset([for i in range(3) : "n\${i}"])
  name     = each.key
}
resource "x_zip" "z" {
  for_each = zipmap(["api", "sup"], local.ports)
  port     = each.value
}
resource "x_len" "l" {
  count = length(local.ports)
  port  = local.ports[count.index]
}
resource "x_json" "j" {
  for_each = jsondecode(jsonencode(local.base))
  port     = each.value
  same     = jsondecode(jsonencode(local.base)).b
}
resource "aws_instance" "cp" {
  count         = 2
  instance_type = count.index == 0 ? "m5.large" : "m5.xlarge"
}
resource "x_splat" "s" {
  types = aws_instance.cp[*].instance_type
  ids   = [for i in aws_instance.cp : i.id]
}
`);
  const keys = (address: string) =>
    ((i) => ({ complete: i.complete, keys: i.instances.map((x) => [x.key, x.certain]) }))(instancesOf(m, res(m, address)));

  it("merge: a later key that may be there makes the earlier entry possible", () => {
    expect(keys("x_merge_maybe.m")).toEqual({ complete: true, keys: [["a", true], ["b", false], ["b", false]] });
    const r = res(m, "x_merge_maybe.m");
    expect(instanceArgument(m, r, "b", "port").flatMap((s) => known(m, s))).toEqual([2, 20]);
    expect(instanceArgument(m, r, instanceByKey(m, r, "b")!, "port").flatMap((s) => known(m, s))).toEqual([2]);
    expect(known(m, arg(m, "x_merge_maybe.m", ["port"]))).toEqual([1, 2, 20]);
  });

  it("range, zipmap, length and jsondecode(jsonencode(x))", () => {
    expect(keys("x_range.r")).toEqual({ complete: true, keys: [["n0", true], ["n1", true], ["n2", true]] });
    expect(keys("x_zip.z")).toEqual({ complete: true, keys: [["api", true], ["sup", true]] });
    expect(instanceArgument(m, res(m, "x_zip.z"), "sup", "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(keys("x_len.l")).toEqual({ complete: true, keys: [[0, true], [1, true]] });
    expect(instanceArgument(m, res(m, "x_len.l"), 1, "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(keys("x_json.j")).toEqual({ complete: true, keys: [["a", true], ["b", true]] });
    expect(known(m, arg(m, "x_json.j", ["same"]))).toEqual([2]);
  });

  it("listElements of a splat and of a for over a resource: one element per instance", () => {
    const types = listElements(m, arg(m, "x_splat.s", ["types"]));
    expect(types.map((e) => [known(m, e.site), e.fromFor])).toEqual([
      [["m5.large"], false],
      [["m5.xlarge"], false],
    ]);
    const ids = listElements(m, arg(m, "x_splat.s", ["ids"]));
    expect(ids.map((e) => alternatives(m, e.site).map((a) => (a.expr.kind === "ScopeTraversal" ? a.expr.traversal.map((t) => ("name" in t ? t.name : "key" in t ? t.key : "*")).join(".") : a.expr.kind)))).toEqual([
      ["aws_instance.cp.0.id"],
      ["aws_instance.cp.1.id"],
    ]);
  });
});

describe("alternatives across instances", () => {
  const m = mod(`
resource "aws_instance" "cp" {
  for_each          = { a = "eu-west-1a", b = "eu-west-1b" }
  availability_zone = each.value
}
resource "x_pid" "p" {
  for_each    = aws_instance.cp
  provider_id = format("aws:///%s/%s", each.value.availability_zone, each.value.id)
  protocol    = "TCP"
}
`);

  it("a template left unfolded is kept once per instance, each with its own bindings", () => {
    const alts = alternatives(m, arg(m, "x_pid.p", ["provider_id"]));
    expect(alts.map((a) => a.expr.kind)).toEqual(["Template", "Template"]);
    const zones = alts.map((a) => {
      const t = a.expr;
      const interp = t.kind === "Template" ? t.parts.find((p) => p.kind === "TemplateInterp") : undefined;
      return interp && interp.kind === "TemplateInterp" ? known(m, { ...a, expr: interp.expr }) : [];
    });
    expect(zones).toEqual([["eu-west-1a"], ["eu-west-1b"]]);
  });

  it("the same literal reached from every instance is one alternative", () => {
    expect(lits(m, arg(m, "x_pid.p", ["protocol"]))).toEqual(['"TCP"']);
  });
});

describe("string functions and contains under iteration", () => {
  const m = mod(`
variable "extra" {}
locals {
  listeners = { api = { protocol = "tcp" }, sup = { protocol = " Tcp " } }
}
resource "x_str" "s" {
  for_each = local.listeners
  protocol = upper(trimspace(each.value.protocol))
  lower    = lower(each.key)
}
resource "x_contains" "c" {
  for_each = { for k, v in local.listeners : k => v if contains(["sup"], k) }
  name     = each.key
}
resource "x_contains_unknown" "c" {
  for_each = { for k, v in local.listeners : k => v if contains(var.extra, k) }
  name     = each.key
}
`);
  it("lower, upper, trimspace fold per instance", () => {
    expect(known(m, arg(m, "x_str.s", ["protocol"]))).toEqual(["TCP"]);
    expect(known(m, arg(m, "x_str.s", ["lower"]))).toEqual(["api", "sup"]);
  });
  it("contains over a known list decides a for's if; over an unknown list the entries are possible", () => {
    expect(instancesOf(m, res(m, "x_contains.c")).instances.map((i) => [i.key, i.certain])).toEqual([["sup", true]]);
    expect(instancesOf(m, res(m, "x_contains_unknown.c")).instances.map((i) => [i.key, i.certain])).toEqual([
      ["api", false],
      ["sup", false],
    ]);
  });
});

describe("trails through for expressions and counts", () => {
  const m = mod(`locals {
  ports = [
    { name = "api", port = 6443 },
    { name = "sup", port = 9345 },
  ]
}
resource "x_for" "f" {
  for_each = { for p in local.ports : p.name => p }
  port     = each.value.port
}
resource "x_count" "c" {
  count = 2
  port  = local.ports[count.index].port
}
`);
  const hops = (s: Site) => (s.trail ?? []).map((h) => `${h.message} @${h.range.start.line}:${h.range.start.column}`);

  it("each.value from a for over a local: the for_each, the local, the entry", () => {
    const [s] = instanceArgument(m, res(m, "x_for.f"), "sup", "port");
    const alts = alternatives(m, s!);
    expect(alts.map((a) => [a.expr.kind === "LiteralValue" ? a.expr.value : a.expr.kind, hops(a)])).toEqual([
      [9345, ["x_for.f for_each @8:14", 'x_for.f for_each["sup"] @8:49', "local.ports @2:11"]],
    ]);
  });

  it("count.index: the count expression and the local indexed", () => {
    const [s] = instanceArgument(m, res(m, "x_count.c"), 1, "port");
    const alts = alternatives(m, s!);
    expect(alts.map((a) => [a.expr.kind === "LiteralValue" ? a.expr.value : a.expr.kind, hops(a)])).toEqual([[9345, ["local.ports @2:11"]]]);
  });
});

describe("JSON syntax", () => {
  it("for_each, each.value and dynamic blocks with an iterator read the same as native syntax", () => {
    const root = tempDir();
    const json = {
      locals: { rules: { api: { port: 6443 }, sup: { port: 9345 } } },
      resource: {
        x_sg: {
          s: {
            for_each: "${local.rules}",
            port: "${each.value.port}",
            dynamic: { ingress: { for_each: "${[each.value.port, 10250]}", iterator: "it", content: { from_port: "${it.value}" } } },
          },
        },
      },
    };
    writeTree(root, { "m/main.tf.json": JSON.stringify(json, null, 2) });
    const m = loadModule(`${root}/m`).root.expressions;
    const r = res(m, "x_sg.s");
    expect(instancesOf(m, r).instances.map((i) => i.key)).toEqual(["api", "sup"]);
    expect(instanceArgument(m, r, "sup", "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, r, "sup", ["ingress", "from_port"]).map((s) => known(m, s))).toEqual([[9345], [10250]]);
  });
});

describe("nested blocks of another resource", () => {
  const m = mod(`
locals {
  ports = { api = 6443, sup = 9345 }
}
resource "aws_lb_target_group" "tg" {
  for_each = local.ports
  port     = each.value
  health_check {
    port     = each.key == "sup" ? 9345 : "traffic-port"
    protocol = "TCP"
  }
}
resource "x_probe" "p" {
  for_each = local.ports
  port     = aws_lb_target_group.tg[each.key].health_check[0].port
  proto    = one(aws_lb_target_group.tg[each.key].health_check[*].protocol)
  missing  = aws_lb_target_group.tg[each.key].health_check[3].port
  ports    = aws_lb_target_group.tg[each.key].health_check[*].port
}
resource "aws_lb" "single" {
  dynamic "subnet_mapping" {
    for_each = ["a", "b"]
    content {
      subnet_id = "subnet-\${subnet_mapping.value}"
    }
  }
}
resource "x_single" "s" {
  subnets = aws_lb.single.subnet_mapping[*].subnet_id
}
`);
  it("x.block[0].arg reads the block's argument in the same instance", () => {
    const r = res(m, "x_probe.p");
    expect(instanceArgument(m, r, "sup", "port").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, r, "api", "port").flatMap((s) => known(m, s))).toEqual(["traffic-port"]);
    expect(lits(m, arg(m, "x_probe.p", ["missing"]))).toEqual([]);
  });

  it("x.block[*].arg and one(...) over another instance's blocks, literal or dynamic", () => {
    const r = res(m, "x_probe.p");
    expect(instanceArgument(m, r, "sup", "proto").flatMap((s) => known(m, s))).toEqual(["TCP"]);
    const [ports] = instanceArgument(m, r, "sup", "ports");
    expect(listElements(m, ports!).map((e) => known(m, e.site))).toEqual([[9345]]);
    expect(listElements(m, arg(m, "x_single.s", ["subnets"])).map((e) => known(m, e.site))).toEqual([["subnet-a"], ["subnet-b"]]);
  });
});

describe("missing keys and try", () => {
  const m = mod(`
locals {
  listeners = {
    api = { port = 6443, health_port = 6443 }
    sup = { port = 9345 }
  }
}
resource "aws_lb_target_group" "tg" {
  for_each = local.listeners
  port     = each.value.port
  check    = try(each.value.health_port, each.value.port)
  fallback = lookup(each.value, "health_port", 1)
}
resource "x_other" "o" {
  for_each = toset(["api", "gone"])
  port     = aws_lb_target_group.tg[each.key].port
}
`);
  const tg = res(m, "aws_lb_target_group.tg");

  it("try: the first argument when the entry has it, the fallback when it certainly lacks it", () => {
    expect(instanceArgument(m, tg, "api", "check").flatMap((s) => known(m, s))).toEqual([6443]);
    expect(instanceArgument(m, tg, "sup", "check").flatMap((s) => known(m, s))).toEqual([9345]);
    expect(instanceArgument(m, tg, "api", "fallback").flatMap((s) => known(m, s))).toEqual([6443]);
    expect(instanceArgument(m, tg, "sup", "fallback").flatMap((s) => known(m, s))).toEqual([1]);
  });

  it("a key the other resource certainly lacks gives nothing; a key it has, its value", () => {
    const o = res(m, "x_other.o");
    expect(instanceByKey(m, tg, "gone")).toBeNull();
    expect(instanceArgument(m, o, "gone", "port").flatMap((s) => lits(m, s))).toEqual([]);
    expect(instanceArgument(m, o, "api", "port").flatMap((s) => known(m, s))).toEqual([6443]);
  });
});

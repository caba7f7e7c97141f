import { describe, expect, it } from "vitest";
import type { Expression } from "../../src/hcl/ast.js";
import { buildGraph } from "../../src/terraform/graph.js";
import type { ChainStep, Reference } from "../../src/terraform/graph-api.js";
import { loadModule } from "../../src/terraform/load.js";
import { findArgument } from "../../src/terraform/module-builder.js";
import { at, fixture } from "./helpers.js";

const load = loadModule(fixture("graph"));
const mod = load.root.expressions;
const graph = buildGraph(mod);
const src = mod.files[0]!.hcl.text;

const local = (name: string) => mod.locals.get(name)!.value;
const scaleSet = mod.resources.get("azurerm_linux_virtual_machine_scale_set.pool")!;
const arg = (...path: string[]): Expression => findArgument(scaleSet.body, path)!.expr;
const output = (name: string) => mod.outputs.get(name)!.value!;

function refs(list: Reference[]): [string, string, string, string, string | null][] {
  return list.map((r) => [r.kind, r.address, r.path, r.text, at(r.range)]);
}
function chain(c: ChainStep[] | null | undefined): [string, string | null][] | null {
  return c ? c.map((s) => [s.address, at(s.range)]) : null;
}
function deps(m: Map<string, ChainStep[]>): Record<string, [string, string | null][] | null> {
  return Object.fromEntries([...m].map(([k, v]) => [k, chain(v)]));
}

describe("directRefs", () => {
  it("loads the fixture cleanly", () => {
    expect(load.problems).toEqual([]);
    expect(mod.files[0]!.diagnostics).toEqual([]);
  });

  it("classifies references with exact ranges and paths", () => {
    expect(refs(graph.directRefs(local("tags")))).toEqual([
      ["var", "var.captf_tags", "", "var.captf_tags", "6:24-6:38"],
      ["local", "local.cluster_name", "", "local.cluster_name", "6:49-6:67"],
    ]);
    expect(refs(graph.directRefs(local("cluster_name")))).toEqual([
      ["var", "var.captf_cluster", ".name", "var.captf_cluster.name", "2:18-2:40"],
    ]);
    expect(refs(graph.directRefs(arg("subnet_id")))).toEqual([["local", "local.subnet_ids", "[0]", "local.subnet_ids[0]", "25:20-25:39"]]);
    const image = mod.dataSources.get("data.azurerm_image.node")!;
    expect(refs(graph.directRefs(findArgument(image.body, ["resource_group_name"])!.expr))).toEqual([
      ["path", "path.module", "", "path.module", "60:25-60:36"],
    ]);
    expect(refs(graph.directRefs(output("failure_domain")))).toEqual([
      ["data", "data.azurerm_image.node", ".location", "data.azurerm_image.node.location", "68:11-68:43"],
    ]);
    expect(refs(graph.directRefs(output("module_tags")))).toEqual([["module", "module.tags", ".rendered", "module.tags.rendered", "82:11-82:31"]]);
  });

  it("excludes names bound by for expressions, in the whole expression and in its parts", () => {
    const inst = output("instances");
    expect(refs(graph.directRefs(inst))).toEqual([
      [
        "resource",
        "azurerm_linux_virtual_machine_scale_set.pool",
        ".instances",
        "azurerm_linux_virtual_machine_scale_set.pool.instances",
        "64:27-64:81",
      ],
      ["terraform", "terraform.workspace", "", "terraform.workspace", "64:116-64:135"],
    ]);
    // Asking about the body of the for expression alone is still scoped.
    const body = (inst as Extract<Expression, { kind: "For" }>).valExpr;
    expect(refs(graph.directRefs(body))).toEqual([["terraform", "terraform.workspace", "", "terraform.workspace", "64:116-64:135"]]);
    expect(refs(graph.directRefs(local("subnet_ids")))).toEqual([["var", "var.subnets", "", "var.subnets", "7:28-7:39"]]);
    expect(refs(graph.directRefs(local("by_zone")))).toEqual([["var", "var.subnet_map", "", "var.subnet_map", "8:40-8:54"]]);
    expect(refs(graph.directRefs(local("user_data")))).toEqual([
      ["var", "var.extra_lines", "", "var.extra_lines", "13:21-13:36"],
      ["var", "var.cloud_config", "", "var.cloud_config", "16:7-16:23"],
    ]);
  });

  it("excludes dynamic block iterators inside their content only", () => {
    expect(refs(graph.directRefs(arg("extension", "name")))).toEqual([]);
    expect(refs(graph.directRefs(arg("extension", "settings")))).toEqual([["each", "each.value", "", "each.value", "34:19-34:29"]]);
    expect(refs(graph.directRefs(arg("data_disk", "lun")))).toEqual([]);
    // With `iterator = disk` the block label is not bound.
    expect(refs(graph.directRefs(arg("data_disk", "caching")))).toEqual([["resource", "data_disk.value", "", "data_disk.value", "44:22-44:37"]]);
    const disks = scaleSet.body.blocks.find((b) => b.labels[0] === "data_disk")!.body.attributes[0]!;
    expect(disks.name).toBe("for_each");
    expect(refs(graph.directRefs(disks.expr))).toEqual([["var", "var.disks", "", "var.disks", "39:16-39:25"]]);
  });
});

describe("dependencies", () => {
  it("follows locals transitively with the shortest chain", () => {
    expect(deps(graph.dependencies(arg("custom_data")))).toEqual({
      "local.custom_data": [["local.custom_data", "23:20-23:37"]],
      "local.bootstrap": [
        ["local.custom_data", "23:20-23:37"],
        ["local.bootstrap", "4:18-4:33"],
      ],
      "var.bootstrap_data": [
        ["local.custom_data", "23:20-23:37"],
        ["local.bootstrap", "4:18-4:33"],
        ["var.bootstrap_data", "3:18-3:36"],
      ],
    });
  });

  it("follows dynamic iterators to the block's for_each", () => {
    expect(deps(graph.dependencies(arg("extension", "publisher")))).toEqual({ "var.extensions": [["var.extensions", "30:16-30:30"]] });
    expect(deps(graph.dependencies(arg("data_disk", "disk_size_gb")))).toEqual({ "var.disks": [["var.disks", "39:16-39:25"]] });
  });

  it("goes through resources and data sources only when asked", () => {
    expect(Object.keys(deps(graph.dependencies(output("failure_domain"))))).toEqual(["data.azurerm_image.node"]);
    expect(deps(graph.dependencies(output("failure_domain"), { throughResources: true }))).toEqual({
      "data.azurerm_image.node": [["data.azurerm_image.node", "68:11-68:43"]],
      "var.kubernetes_version": [
        ["data.azurerm_image.node", "68:11-68:43"],
        ["var.kubernetes_version", "59:33-59:55"],
      ],
      "path.module": [
        ["data.azurerm_image.node", "68:11-68:43"],
        ["path.module", "60:25-60:36"],
      ],
    });
    // Module outputs depend on the call's arguments.
    expect(Object.keys(deps(graph.dependencies(output("module_tags"), { throughResources: true })))).toEqual([
      "module.tags",
      "var.captf_tags",
      "var.module_only",
    ]);
  });

  it("does not treat depends_on, provider or lifecycle as data flow", () => {
    const through = graph.dependencies(output("instances"), { throughResources: true });
    expect([...through.keys()]).toEqual([
      "azurerm_linux_virtual_machine_scale_set.pool",
      "terraform.workspace",
      "local.cluster_name",
      "local.autoscaling",
      "var.replicas",
      "local.custom_data",
      "var.vm_size",
      "local.subnet_ids",
      "var.extensions",
      "each.value",
      "var.disks",
      "data_disk.value",
      "var.captf_cluster",
      "var.autoscaling",
      "local.bootstrap",
      "var.subnets",
      "var.bootstrap_data",
    ]);
    expect(graph.resourceExpressions(scaleSet).map((e) => src.slice(e.range.start.offset, e.range.end.offset))).toEqual([
      "local.cluster_name",
      "local.autoscaling.enabled ? null : var.replicas",
      "local.custom_data",
      "var.vm_size",
      "local.subnet_ids[0]",
      "var.extensions",
      "extension.value.name",
      "extension.value.publisher",
      "each.value",
      "var.disks",
      "disk.key",
      "disk.value.size",
      "data_disk.value",
    ]);
  });

  it("terminates on cycles between locals", () => {
    expect(deps(graph.dependencies(output("cycle")))).toEqual({
      "local.ping": [["local.ping", "72:11-72:21"]],
      "local.pong": [
        ["local.ping", "72:11-72:21"],
        ["local.pong", "9:18-9:28"],
      ],
    });
    expect(deps(graph.dependencies(local("self_ref")))).toEqual({ "local.self_ref": [["local.self_ref", "11:18-11:32"]] });
  });

  it("caches results per expression", () => {
    const e = arg("custom_data");
    expect(graph.dependencies(e)).toBe(graph.dependencies(e));
    expect(graph.directRefs(e)).toBe(graph.directRefs(e));
  });
});

describe("reaches", () => {
  const instances = arg("instances");

  it("matches a path prefix, following a local that is a plain traversal", () => {
    expect(chain(graph.reaches(instances, "var.autoscaling.enabled"))).toEqual([
      ["local.autoscaling", "22:20-22:45"],
      ["var.autoscaling", "5:18-5:33"],
    ]);
    expect(chain(graph.reaches(instances, "var.autoscaling"))).toEqual([
      ["local.autoscaling", "22:20-22:45"],
      ["var.autoscaling", "5:18-5:33"],
    ]);
    expect(graph.reaches(instances, "var.autoscaling.min")).toBeNull();
    expect(graph.reaches(instances, "var.autoscaling.enabledx")).toBeNull();
    expect(chain(graph.reaches(instances, "var.replicas"))).toEqual([["var.replicas", "22:55-22:67"]]);
  });

  it("matches index spellings of a path and addresses without paths", () => {
    expect(chain(graph.reaches(local("cluster_name"), 'var.captf_cluster["name"]'))).toEqual([["var.captf_cluster", "2:18-2:40"]]);
    expect(graph.reaches(local("cluster_name"), "var.captf_cluster.namespace")).toBeNull();
    expect(chain(graph.reaches(arg("custom_data"), "var.bootstrap_data"))).toEqual([
      ["local.custom_data", "23:20-23:37"],
      ["local.bootstrap", "4:18-4:33"],
      ["var.bootstrap_data", "3:18-3:36"],
    ]);
    expect(graph.reaches(output("failure_domain"), "var.kubernetes_version")).toBeNull();
    expect(chain(graph.reaches(output("failure_domain"), "var.kubernetes_version", { throughResources: true }))).toEqual([
      ["data.azurerm_image.node", "68:11-68:43"],
      ["var.kubernetes_version", "59:33-59:55"],
    ]);
  });
});

describe("locals and references", () => {
  it("resolves chains of locals", () => {
    const r = graph.resolveLocals(arg("custom_data"));
    expect([src.slice(r.expr.range.start.offset, r.expr.range.end.offset), r.via]).toEqual([
      "var.bootstrap_data",
      ["local.custom_data", "local.bootstrap"],
    ]);
    const c = graph.resolveLocals(output("cycle"));
    expect([at(c.expr.range), c.via]).toEqual(["10:18-10:28", ["local.ping", "local.pong"]]);
    const none = graph.resolveLocals(arg("sku"));
    expect([none.expr, none.via]).toEqual([arg("sku"), []]);
    expect(graph.local("bootstrap")!.name).toBe("bootstrap");
    expect(graph.local("nope")).toBeUndefined();
  });

  it("answers isReferenced, excluding a variable's own validation and optionally module calls", () => {
    expect(graph.isReferenced("var.captf_tags")).toBe(true);
    expect(graph.isReferenced("var.captf_tags", { excludeModuleCalls: true })).toBe(true);
    expect(graph.isReferenced("var.module_only")).toBe(true);
    expect(graph.isReferenced("var.module_only", { excludeModuleCalls: true })).toBe(false);
    expect(graph.isReferenced("var.only_validated")).toBe(false);
    expect(graph.isReferenced("local.tags")).toBe(false);
    expect(graph.isReferenced("local.by_zone")).toBe(false);
    expect(graph.isReferenced("local.subnet_ids")).toBe(true);
    expect(graph.isReferenced("terraform_data.marker")).toBe(true);
    expect(graph.isReferenced("module.tags")).toBe(true);
    expect(graph.isReferenced("var.autoscaling.enabled")).toBe(false);
    expect(graph.isReferenced("var.captf_cluster.name")).toBe(true);
    expect(graph.isReferenced("azurerm.pool")).toBe(false);
  });

  it("lists every reference with its owner", () => {
    const owners = new Map<string, string[]>();
    for (const { ref, owner } of graph.allReferences()) owners.set(owner, [...(owners.get(owner) ?? []), ref.address]);
    expect(Object.fromEntries(owners)).toEqual({
      "variable.only_validated": ["var.only_validated"],
      "local.cluster_name": ["var.captf_cluster"],
      "local.bootstrap": ["var.bootstrap_data"],
      "local.custom_data": ["local.bootstrap"],
      "local.autoscaling": ["var.autoscaling"],
      "local.tags": ["var.captf_tags", "local.cluster_name"],
      "local.subnet_ids": ["var.subnets"],
      "local.by_zone": ["var.subnet_map"],
      "local.ping": ["local.pong"],
      "local.pong": ["local.ping"],
      "local.self_ref": ["local.self_ref"],
      "local.user_data": ["var.extra_lines", "var.cloud_config"],
      "output.instances": ["azurerm_linux_virtual_machine_scale_set.pool", "terraform.workspace"],
      "output.failure_domain": ["data.azurerm_image.node"],
      "output.cycle": ["local.ping"],
      "output.module_tags": ["module.tags"],
      "azurerm_linux_virtual_machine_scale_set.pool": [
        "local.cluster_name",
        "local.autoscaling",
        "var.replicas",
        "local.custom_data",
        "var.vm_size",
        "local.subnet_ids",
        "terraform_data.marker",
        "var.extensions",
        "each.value",
        "var.disks",
        "data_disk.value",
        "terraform_data.marker",
      ],
      "terraform_data.marker": ["var.kubernetes_version"],
      "data.azurerm_image.node": ["var.kubernetes_version", "path.module"],
      "module.tags": ["var.captf_tags", "var.module_only"],
    });
  });
});

describe("JSON syntax", () => {
  const json = loadModule(fixture("model-json")).root.expressions;
  const g = buildGraph(json);

  it("reaches through locals written in JSON templates", () => {
    const ng = json.resources.get("aws_eks_node_group.pool")!;
    const desired = findArgument(ng.body, ["scaling_config", "desired_size"])!.expr;
    expect(chain(g.reaches(desired, "var.autoscaling.enabled"))).toEqual([
      ["local.desired", "33:30-33:43"],
      ["var.autoscaling", "26:19-26:42"],
    ]);
    expect(g.isReferenced("var.node_labels")).toBe(true);
    expect(g.isReferenced("var.bootstrap_data")).toBe(false);
  });
});

describe("self, count and each", () => {
  const native = loadModule(fixture("model-native")).root.expressions;
  const g = buildGraph(native);

  it("classifies self in postconditions and each in module arguments", () => {
    const asg = native.resources.get("aws_autoscaling_group.pool")!;
    const post = asg.lifecycle.postconditions[0]!.body.attributes[0]!;
    expect(refs(g.directRefs(post.expr))).toEqual([
      ["self", "self", ".max_size", "self.max_size", "47:23-47:36"],
      ["self", "self", ".min_size", "self.min_size", "47:40-47:53"],
    ]);
    const vpc = native.moduleCalls.get("vpc")!;
    expect(refs(g.directRefs(vpc.args.get("name")!.expr))).toEqual([["each", "each.key", "", "each.key", "67:14-67:22"]]);
    // provider references (`aws.pool`) and depends_on are not values.
    expect(g.isReferenced("aws.pool")).toBe(false);
    expect(g.isReferenced("aws_launch_template.pool")).toBe(true);
  });
});

describe("path-aware reaches through aliasing locals", () => {
  const m = loadModule(fixture("graph-alias")).root.expressions;
  const g = buildGraph(m);
  const igm = m.resources.get("google_compute_region_instance_group_manager.pool")!;
  const autoscaler = m.resources.get("google_compute_region_autoscaler.pool")!;

  it("follows conditionals whose branches are plain traversals, through several locals", () => {
    const target = findArgument(igm.body, ["target_size"])!.expr;
    expect(chain(g.reaches(target, "var.autoscaling.enabled"))).toEqual([
      ["local.scaling_alias", "27:24-27:51"],
      ["local.scaling", "17:21-17:34"],
      ["var.autoscaling", "16:47-16:62"],
    ]);
    expect(g.reaches(target, "var.autoscaling.min")).toBeNull();
  });

  it("does not pretend a computed object keeps the variable's attributes", () => {
    const min = findArgument(autoscaler.body, ["autoscaling_policy", "min_replicas"])!.expr;
    expect(g.reaches(min, "var.autoscaling.min")).toBeNull();
    expect(chain(g.reaches(min, "var.autoscaling"))).toEqual([
      ["local.merged", "35:20-35:36"],
      ["var.autoscaling", "18:27-18:42"],
    ]);
  });

  it("terminates on a cycle of aliasing locals and still finds the way out", () => {
    const max = findArgument(autoscaler.body, ["autoscaling_policy", "max_replicas"])!.expr;
    expect(chain(g.reaches(max, "var.autoscaling.max"))).toEqual([
      ["local.loop_b", "36:20-36:36"],
      ["local.loop_a", "20:21-20:33"],
      ["var.autoscaling", "19:39-19:54"],
    ]);
  });
});

describe("dependency maps", () => {
  it("keep breadth-first order however they are read, and tolerate mutation", () => {
    const m = graph.dependencies(arg("custom_data"));
    const copy = graph.dependencies(arg("custom_data"), { throughResources: true });
    expect(chain(copy.get("var.bootstrap_data"))!.length).toBe(3);
    expect([...copy.keys()]).toEqual(["local.custom_data", "local.bootstrap", "var.bootstrap_data"]);
    expect([...copy.entries()].map(([k]) => k)).toEqual(["local.custom_data", "local.bootstrap", "var.bootstrap_data"]);
    expect(m.size).toBe(3);
    copy.delete("local.bootstrap");
    expect([...copy.keys()]).toEqual(["local.custom_data", "var.bootstrap_data"]);
    expect(copy.size).toBe(2);
    const seen: string[] = [];
    copy.forEach((_v, k) => seen.push(k));
    expect(seen).toEqual(["local.custom_data", "var.bootstrap_data"]);
  });
});

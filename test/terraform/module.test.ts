import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import { fileOf, findArgument, findArguments } from "../../src/terraform/module-builder.js";
import { parseTypeExpr, typeToString } from "../../src/terraform/types.js";
import type { Module } from "../../src/terraform/module-types.js";
import { at, fixture } from "./helpers.js";

function text(mod: Module, node: { range: { start: { offset: number }; end: { offset: number } } }, file = "main.tf"): string {
  const f = mod.files.find((x) => x.path === file)!;
  return f.hcl.text.slice(node.range.start.offset, node.range.end.offset);
}

describe("module model (native syntax)", () => {
  const load = loadModule(fixture("model-native"));
  const mod = load.root.terraform;

  it("loads without problems or diagnostics", () => {
    expect(load.problems).toEqual([]);
    expect(mod.diagnostics).toEqual([]);
    expect(mod.files.map((f) => f.path)).toEqual(["main.tf", "outputs.tf", "variables.tf", "versions.tf"]);
  });

  it("reads variables: type, default, nullable, sensitive, validations", () => {
    expect(
      [...mod.variables.values()].map((v) => ({
        name: v.name,
        file: v.file.path,
        range: at(v.range),
        type: v.typeText,
        default: v.defaultAttr ? at(v.defaultAttr.range) : null,
        nullable: v.nullable,
        nullableAttr: at(v.nullableAttr?.range),
        sensitive: v.sensitive,
        validations: v.validations.map((b) => at(b.range)),
      })),
    ).toEqual([
      { name: "captf_tags", file: "variables.tf", range: "1:1-4:2", type: "map(string)", default: null, nullable: true, nullableAttr: null, sensitive: false, validations: [] },
      { name: "replicas", file: "variables.tf", range: "6:1-9:2", type: "number", default: null, nullable: false, nullableAttr: "8:3-8:19", sensitive: false, validations: [] },
      { name: "bootstrap_data", file: "variables.tf", range: "11:1-14:2", type: "string", default: null, nullable: true, nullableAttr: null, sensitive: true, validations: [] },
      {
        name: "autoscaling",
        file: "variables.tf",
        range: "16:1-27:2",
        type: "object({\n    enabled = bool\n    min     = number\n    max     = number\n  })",
        default: null,
        nullable: true,
        nullableAttr: null,
        sensitive: false,
        validations: ["23:3-26:4"],
      },
      { name: "instance_type", file: "variables.tf", range: "29:1-32:2", type: "string", default: "31:3-31:24", nullable: true, nullableAttr: null, sensitive: false, validations: [] },
      { name: "subnet_ids", file: "variables.tf", range: "34:1-37:2", type: "list(string)", default: "36:3-36:15", nullable: true, nullableAttr: null, sensitive: false, validations: [] },
    ]);
    const t = parseTypeExpr(mod.variables.get("autoscaling")!.typeExpr!);
    expect(t.ok && typeToString(t.type)).toBe("object({enabled=bool, min=number, max=number})");
  });

  it("reads outputs", () => {
    expect(
      [...mod.outputs.values()].map((o) => ({
        name: o.name,
        value: o.value ? text(mod, o.value, "outputs.tf") : null,
        sensitive: o.sensitive,
        sensitiveAttr: at(o.sensitiveAttr?.range),
        preconditions: o.preconditions.map((b) => at(b.range)),
      })),
    ).toEqual([
      { name: "provider_id_list", value: "sort(data.aws_instances.pool.ids)", sensitive: false, sensitiveAttr: null, preconditions: [] },
      { name: "replicas", value: "aws_autoscaling_group.pool.desired_capacity", sensitive: false, sensitiveAttr: "8:3-8:22", preconditions: ["10:3-13:4"] },
      { name: "bootstrap_hash", value: "sha256(var.bootstrap_data)", sensitive: true, sensitiveAttr: "18:3-18:19", preconditions: [] },
    ]);
  });

  it("reads locals", () => {
    expect([...mod.locals.values()].map((l) => [l.name, l.file.path, at(l.range), text(mod, l.value)])).toEqual([
      ["name_prefix", "main.tf", "2:3-2:61", '"${var.captf_tags["captf.io/cluster"]}-pool"'],
      ["desired", "main.tf", "3:3-3:62", "var.autoscaling.enabled ? null : var.replicas"],
    ]);
  });

  it("reads resources and data sources with meta-arguments", () => {
    expect([...mod.resources.keys()]).toEqual(["aws_launch_template.pool", "aws_autoscaling_group.pool"]);
    expect([...mod.dataSources.keys()]).toEqual(["data.aws_ami.node", "data.aws_instances.pool"]);
    const ami = mod.dataSources.get("data.aws_ami.node")!;
    expect([ami.mode, ami.type, ami.name, ami.address, at(ami.range)]).toEqual(["data", "aws_ami", "node", "data.aws_ami.node", "6:1-9:2"]);
    const asg = mod.resources.get("aws_autoscaling_group.pool")!;
    expect([asg.mode, asg.type, asg.name, at(asg.range)]).toEqual(["managed", "aws_autoscaling_group", "pool", "20:1-51:2"]);
    expect(text(mod, asg.providerAttr!.expr)).toBe("aws.pool");
    expect(text(mod, asg.dependsOn!.expr)).toBe("[aws_launch_template.pool]");
    expect(asg.count).toBeNull();
    expect(asg.forEach).toBeNull();
    expect(asg.body.blocks.map((b) => b.type)).toEqual(["launch_template", "lifecycle"]);
  });

  it("reads lifecycle settings", () => {
    const lc = mod.resources.get("aws_autoscaling_group.pool")!.lifecycle;
    expect(at(lc.block!.range)).toBe("35:3-50:4");
    expect(lc.ignoreChanges).not.toBe("all");
    expect((lc.ignoreChanges as { path: string; range: unknown }[]).map((p) => [p.path, at(p.range as never)])).toEqual([
      ["desired_capacity", "36:30-36:46"],
      ['tag["captf.io/template"]', "36:48-36:72"],
      ["launch_template[0].version", "36:74-36:100"],
    ]);
    expect(at(lc.ignoreChangesAttr!.range)).toBe("36:5-36:101");
    expect(lc.replaceTriggeredBy.map((e) => text(mod, e))).toEqual(["aws_launch_template.pool.id"]);
    expect(at(lc.replaceTriggeredByAttr!.range)).toBe("37:5-37:58");
    expect(lc.createBeforeDestroy).toBe(true);
    expect(lc.preventDestroy).toBe(false);
    expect(at(lc.preventDestroyAttr!.range)).toBe("39:5-39:34");
    expect(lc.preconditions.map((b) => at(b.range))).toEqual(["41:5-44:6"]);
    expect(lc.postconditions.map((b) => at(b.range))).toEqual(["46:5-49:6"]);

    const lt = mod.resources.get("aws_launch_template.pool")!.lifecycle;
    expect(lt).toEqual({
      block: null,
      ignoreChanges: [],
      ignoreChangesAttr: null,
      replaceTriggeredBy: [],
      replaceTriggeredByAttr: null,
      preventDestroy: null,
      preventDestroyAttr: null,
      createBeforeDestroy: null,
      preconditions: [],
      postconditions: [],
    });
  });

  it("reads providers with aliases", () => {
    expect(mod.providers.map((p) => [p.name, p.alias, p.file.path, at(p.range)])).toEqual([
      ["aws", null, "versions.tf", "17:1-19:2"],
      ["aws", "pool", "versions.tf", "21:1-24:2"],
    ]);
  });

  it("reads module calls", () => {
    expect(
      [...mod.moduleCalls.values()].map((m) => ({
        name: m.name,
        source: m.source,
        isLocal: m.isLocal,
        sourceAttr: at(m.sourceAttr?.range),
        args: [...m.args.keys()],
        count: m.count ? text(mod, m.count.expr) : null,
        forEach: m.forEach ? text(mod, m.forEach.expr) : null,
      })),
    ).toEqual([
      { name: "labels", source: "./modules/labels", isLocal: true, sourceAttr: "54:3-54:31", args: ["tags"], count: "1", forEach: null },
      { name: "vpc", source: "terraform-aws-modules/vpc/aws", isLocal: false, sourceAttr: "65:3-65:45", args: ["name"], count: null, forEach: 'toset(["a"])' },
    ]);
  });

  it("reads terraform settings", () => {
    expect(
      mod.terraformBlocks.map((t) => ({
        file: t.file.path,
        requiredVersion: at(t.requiredVersion?.range),
        requiredProviders: t.requiredProviders.map((b) => b.body.attributes.map((a) => a.name)),
        backends: t.backends.map((b) => [b.labels[0], at(b.range)]),
        clouds: t.clouds.length,
      })),
    ).toEqual([
      { file: "versions.tf", requiredVersion: "2:3-2:32", requiredProviders: [["aws"]], backends: [["s3", "11:3-14:4"]], clouds: 0 },
    ]);
  });

  it("finds nested arguments through blocks", () => {
    const asg = mod.resources.get("aws_autoscaling_group.pool")!;
    const v = findArgument(asg.body, ["launch_template", "version"])!;
    expect([at(v.range), at(v.nameRange), text(mod, v.expr), v.attr?.name, v.viaDynamic]).toEqual([
      "30:5-30:54",
      "30:5-30:12",
      "aws_launch_template.pool.latest_version",
      "version",
      false,
    ]);
    expect(at(findArgument(asg.body, ["launch_template", "0", "id"])!.range)).toBe("29:5-29:42");
    expect(findArgument(asg.body, ["launch_template", "1", "id"])).toBeNull();
    expect(findArgument(asg.body, ["desired_capacity"])!.attr!.name).toBe("desired_capacity");
    expect(findArgument(asg.body, ["lifecycle", "prevent_destroy"])!.attr!.name).toBe("prevent_destroy");
    expect(findArguments(asg.body, ["nothing", "here"])).toEqual([]);
  });
});

describe("module model (JSON syntax)", () => {
  const load = loadModule(fixture("model-json"));
  const mod = load.root.terraform;

  it("loads the same kinds of declarations", () => {
    expect(load.problems).toEqual([]);
    expect(mod.files.map((f) => f.path)).toEqual(["main.tf.json"]);
    expect(mod.files[0]!.diagnostics).toEqual([]);
    expect(mod.diagnostics).toEqual([]);
    expect([...mod.variables.keys()]).toEqual(["autoscaling", "bootstrap_data", "node_labels"]);
    expect([...mod.locals.keys()]).toEqual(["desired"]);
    expect([...mod.resources.keys()]).toEqual(["aws_eks_node_group.pool", "aws_autoscaling_group.all"]);
    expect([...mod.outputs.keys()]).toEqual(["replicas"]);
    expect(mod.providers.map((p) => [p.name, p.alias])).toEqual([
      ["aws", null],
      ["aws", "east"],
    ]);
  });

  it("reads variable types, nullable and sensitive", () => {
    const as = mod.variables.get("autoscaling")!;
    expect(as.typeText).toBe("object({enabled = bool, min = number, max = number})");
    const t = parseTypeExpr(as.typeExpr!);
    expect(t.ok && typeToString(t.type)).toBe("object({enabled=bool, min=number, max=number})");
    expect(as.nullable).toBe(false);
    expect(mod.variables.get("bootstrap_data")!.sensitive).toBe(true);
    expect(at(mod.variables.get("node_labels")!.defaultAttr!.range)).toBe("22:7-22:20");
  });

  it("reads lifecycle from JSON, including ignore_changes paths and all", () => {
    const ng = mod.resources.get("aws_eks_node_group.pool")!;
    expect(ng.lifecycle.ignoreChanges).not.toBe("all");
    expect((ng.lifecycle.ignoreChanges as { path: string }[]).map((p) => p.path)).toEqual(["scaling_config[0].desired_size"]);
    expect(ng.lifecycle.createBeforeDestroy).toBe(true);
    expect(mod.resources.get("aws_autoscaling_group.all")!.lifecycle.ignoreChanges).toBe("all");
  });

  it("finds nested arguments held in object-valued attributes", () => {
    const ng = mod.resources.get("aws_eks_node_group.pool")!;
    const m = findArgument(ng.body, ["scaling_config", "desired_size"])!;
    expect([m.attr, at(m.range), at(m.nameRange)]).toEqual([null, "33:11-33:45", "33:11-33:25"]);
    expect(m.expr.kind).toBe("TemplateWrap");
    // `scaling_config[0]` of a block written as one JSON object is that object.
    expect(at(findArgument(ng.body, ["scaling_config", "0", "min_size"])!.range)).toBe("34:11-34:47");
    expect(findArgument(ng.body, ["scaling_config", "1", "min_size"])).toBeNull();
  });

  it("reads module calls and terraform settings", () => {
    const net = mod.moduleCalls.get("net")!;
    expect([net.source, net.isLocal, [...net.args.keys()]]).toEqual(["./net", true, ["cidr"]]);
    expect(mod.terraformBlocks.map((t) => [at(t.requiredVersion?.range), t.requiredProviders.length, t.backends.length, t.clouds.length])).toEqual([
      ["3:5-3:35", 1, 0, 1],
    ]);
  });
});

describe("override files", () => {
  const load = loadModule(fixture("override"));
  const mod = load.root.terraform;

  it("marks override files and reports overrides without a base", () => {
    expect(mod.files.map((f) => [f.path, f.isOverride])).toEqual([
      ["main.tf", false],
      ["override.tf", true],
      ["pool_override.tf", true],
    ]);
    expect(mod.diagnostics.map((d) => [d.code, d.file, at(d.subject), d.summary])).toEqual([
      ["override-without-base", "pool_override.tf", "13:10-13:22", "Missing base variable to override"],
      ["override-without-base", "pool_override.tf", "18:3-18:10", "Missing base local value definition to override"],
    ]);
  });

  it("merges variable attributes by name", () => {
    const v = mod.variables.get("machine_type")!;
    expect(v.file.path).toBe("main.tf");
    expect(at(v.range)).toBe("19:1-22:2");
    expect(v.typeText).toBe("string");
    expect(fileOf(v, v.defaultAttr!).path).toBe("override.tf");
    expect(at(v.defaultAttr!.range)).toBe("17:3-17:28");
    expect(fileOf(v, v.typeExpr!).path).toBe("main.tf");
    expect(v.overriddenBy!.map((o) => o.file.path)).toEqual(["override.tf"]);
  });

  it("replaces locals one name at a time", () => {
    expect([...mod.locals.values()].map((l) => [l.name, l.file.path, at(l.range)])).toEqual([
      ["zone", "override.tf", "21:3-21:26"],
      ["label", "main.tf", "30:3-30:17"],
    ]);
  });

  it("merges resources: attributes by name, nested blocks by type, lifecycle per argument", () => {
    const r = mod.resources.get("google_compute_instance_group_manager.pool")!;
    expect(r.body.attributes.map((a) => [a.name, fileOf(r, a).path])).toEqual([
      ["name", "main.tf"],
      ["base_instance_name", "main.tf"],
      ["zone", "main.tf"],
      ["target_size", "override.tf"],
    ]);
    const versions = r.body.blocks.filter((b) => b.type === "version");
    expect(versions.map((b) => [fileOf(r, b).path, b.body.attributes.map((a) => a.name)])).toEqual([
      ["override.tf", ["instance_template", "name"]],
    ]);
    expect(r.lifecycle.createBeforeDestroy).toBe(true);
    expect((r.lifecycle.ignoreChanges as { path: string }[]).map((p) => p.path)).toEqual(["target_size"]);
    expect(fileOf(r, r.lifecycle.ignoreChangesAttr!).path).toBe("override.tf");
  });

  it("merges outputs, module calls and providers", () => {
    const o = mod.outputs.get("replicas")!;
    expect([o.sensitive, o.value !== null, fileOf(o, o.sensitiveAttr!).path]).toEqual([true, true, "pool_override.tf"]);
    const m = mod.moduleCalls.get("firewall")!;
    expect([m.source, fileOf(m, m.args.get("network")!).path]).toEqual(["./firewall", "pool_override.tf"]);
    expect(mod.providers.length).toBe(1);
    const p = mod.providers[0]!;
    expect(fileOf(p, p.body.attributes[0]!).path).toBe("pool_override.tf");
  });

  it("merges terraform settings: required_version, backend and required_providers entries", () => {
    expect(
      mod.terraformBlocks.map((t) => ({
        file: t.file.path,
        requiredVersion: t.requiredVersion ? at(t.requiredVersion.range) : null,
        providers: t.requiredProviders.flatMap((b) => b.body.attributes.map((a) => a.name)),
        backends: t.backends.map((b) => b.labels[0]),
      })),
    ).toEqual([
      { file: "main.tf", requiredVersion: null, providers: ["random"], backends: [] },
      { file: "override.tf", requiredVersion: "2:3-2:32", providers: ["google"], backends: ["local"] },
    ]);
  });
});

describe("duplicate declarations", () => {
  const mod = loadModule(fixture("duplicates")).root.terraform;

  it("keeps the first declaration and reports the others", () => {
    expect(mod.variables.get("region")!.file.path).toBe("a.tf");
    expect(mod.locals.get("name")!.file.path).toBe("a.tf");
    expect(mod.diagnostics.map((d) => [d.code, d.file, at(d.subject), d.summary, d.detail])).toEqual([
      [
        "duplicate-declaration",
        "b.tf",
        "1:10-1:18",
        "Duplicate variable",
        'A variable named "region" is already declared at a.tf:1; names must be unique within a module. Rename or remove one of them.',
      ],
      [
        "duplicate-declaration",
        "b.tf",
        "7:3-7:7",
        "Duplicate local value",
        'A local value named "name" is already declared at a.tf:6; names must be unique within a module. Rename or remove one of them.',
      ],
      [
        "duplicate-declaration",
        "b.tf",
        "10:26-10:32",
        "Duplicate resource",
        'A resource named "aws_s3_bucket.logs" is already declared at a.tf:9; names must be unique within a module. Rename or remove one of them.',
      ],
      [
        "duplicate-declaration",
        "b.tf",
        "14:10-14:15",
        "Duplicate provider configuration",
        'A provider configuration named "aws" is already declared at a.tf:13; names must be unique within a module. Rename or remove one of them.',
      ],
      [
        "duplicate-declaration",
        "b.tf",
        "22:8-22:14",
        "Duplicate output value",
        'An output value named "name" is already declared at b.tf:18; names must be unique within a module. Rename or remove one of them.',
      ],
    ]);
  });
});

describe("ignore_changes forms", () => {
  it("accepts legacy quoted entries and quoted all", async () => {
    const { parseModuleFile: parseHcl } = await import("../../src/terraform/parse.js");
    const { buildModule } = await import("../../src/terraform/module-builder.js");
    const text = [
      'resource "aws_autoscaling_group" "legacy" {',
      "  lifecycle {",
      '    ignore_changes = ["desired_capacity", tags]',
      "  }",
      "}",
      'resource "aws_autoscaling_group" "quoted_all" {',
      "  lifecycle {",
      '    ignore_changes = ["all"]',
      "  }",
      "}",
      'resource "aws_autoscaling_group" "bare_all" {',
      "  lifecycle {",
      "    ignore_changes = all",
      "  }",
      "}",
      "",
    ].join("\n");
    const parsed = parseHcl(text, "main.tf");
    const file = { path: "main.tf", absPath: "/m/main.tf", name: "main.tf", extension: ".tf" as const, hcl: parsed.file, diagnostics: parsed.diagnostics, isOverride: false };
    const mod = buildModule([file], { dir: "/m", relDir: "", fileSet: "terraform" });
    const legacy = mod.resources.get("aws_autoscaling_group.legacy")!.lifecycle.ignoreChanges as { path: string; range: never }[];
    expect(legacy.map((p) => [p.path, at(p.range)])).toEqual([
      ["desired_capacity", "3:23-3:41"],
      ["tags", "3:43-3:47"],
    ]);
    expect(mod.resources.get("aws_autoscaling_group.quoted_all")!.lifecycle.ignoreChanges).toBe("all");
    expect(mod.resources.get("aws_autoscaling_group.bare_all")!.lifecycle.ignoreChanges).toBe("all");
  });
});

/**
 * The rollout questions of src/analysis/rollouts.ts (settings per instance,
 * launch configurations referenced through locals, provider switches,
 * replacement on a value change) and the consistency of the rollout table
 * (src/contract/rollouts.ts) with the other provider tables.
 */
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import type { Module, Resource } from "../../src/terraform/module-types.js";
import { buildGraph } from "../../src/terraform/graph.js";
import {
  alwaysIs,
  launchConfigsReferenced,
  mayBe,
  providerConfigFor,
  providerFlag,
  replacedOn,
  settingValues,
} from "../../src/analysis/rollouts.js";
import {
  AZURE_REIMAGE_ON_MANUAL_UPGRADE,
  AZURE_ROLL_INSTANCES,
  LAUNCH_CONFIG_TYPES,
  ROLLOUT_GROUP_TYPES,
  rolloutGroupType,
} from "../../src/contract/rollouts.js";
import { NOT_SCALING_GROUPS, SCALING_GROUP_TYPES } from "../../src/contract/scaling-groups.js";
import { USER_DATA_ARGUMENTS } from "../../src/contract/providers.js";
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

const values = (m: Module, address: string, path: string[]): (string | number | boolean | null)[] =>
  settingValues(m, res(m, address), path)
    .literals.map((l) => l.value)
    .sort((a, b) => String(a).localeCompare(String(b)));

describe("rollout table", () => {
  it("names only scaling groups and launch configurations the other tables know", () => {
    const groups = new Set(SCALING_GROUP_TYPES.map((t) => t.type));
    for (const row of ROLLOUT_GROUP_TYPES) expect(groups.has(row.type), row.type).toBe(true);
    for (const row of LAUNCH_CONFIG_TYPES) expect(NOT_SCALING_GROUPS.has(row.type), row.type).toBe(true);
    expect(ROLLOUT_GROUP_TYPES.map((r) => [r.type, r.rollout])).toEqual([
      ["aws_autoscaling_group", "instance-refresh"],
      ["google_compute_instance_group_manager", "update-policy"],
      ["google_compute_region_instance_group_manager", "update-policy"],
      ["azurerm_linux_virtual_machine_scale_set", "model"],
      ["azurerm_windows_virtual_machine_scale_set", "model"],
      ["oci_core_instance_pool", "new-members-only"],
    ]);
  });

  it("keeps the user-data arguments of launch configurations in line with bootstrap/encoding's table", () => {
    for (const row of LAUNCH_CONFIG_TYPES) {
      const known = USER_DATA_ARGUMENTS.filter((a) => a.type === row.type).map((a) => a.path.join("."));
      for (const p of row.userData) expect(known, `${row.type} ${p.join(".")}`).toContain(p.join("."));
    }
    expect(rolloutGroupType("aws_autoscaling_group")?.fixedVersions).toEqual(["$Latest", "$Default"]);
    expect(rolloutGroupType("azurerm_linux_virtual_machine_scale_set")?.upgradeMode?.unsetMeans).toBe("Manual");
    expect(rolloutGroupType("aws_eks_node_group")).toBeUndefined();
  });
});

describe("settingValues", () => {
  const m = mod(`
locals {
  proactive = var.fast ? "PROACTIVE" : "OPPORTUNISTIC"
  policies  = { a = { type = "PROACTIVE" }, b = { type = "OPPORTUNISTIC" } }
}

resource "google_compute_region_instance_group_manager" "literal" {
  update_policy {
    type           = "OPPORTUNISTIC"
    minimal_action = "REPLACE"
  }
}

resource "google_compute_region_instance_group_manager" "branches" {
  update_policy {
    type           = local.proactive
    minimal_action = var.action
  }
}

resource "google_compute_region_instance_group_manager" "each" {
  for_each = local.policies
  update_policy {
    type           = each.value.type
    minimal_action = "RESTART"
  }
}

resource "google_compute_region_instance_group_manager" "dyn" {
  dynamic "update_policy" {
    for_each = [{ t = "PROACTIVE" }]
    content {
      type           = update_policy.value.t
      minimal_action = "REPLACE"
    }
  }
}

resource "google_compute_region_instance_group_manager" "none" {
  name = "x"
}
`);

  it("reads literals, locals with conditionals, for_each entries and dynamic iterators", () => {
    expect(values(m, "google_compute_region_instance_group_manager.literal", ["update_policy", "type"])).toEqual(["OPPORTUNISTIC"]);
    expect(values(m, "google_compute_region_instance_group_manager.branches", ["update_policy", "type"])).toEqual(["OPPORTUNISTIC", "PROACTIVE"]);
    expect(values(m, "google_compute_region_instance_group_manager.each", ["update_policy", "type"])).toEqual(["OPPORTUNISTIC", "PROACTIVE"]);
    expect(values(m, "google_compute_region_instance_group_manager.dyn", ["update_policy", "type"])).toEqual(["PROACTIVE"]);
  });

  it("tells a possible value from a certain one, and unknown or unset from both", () => {
    const get = (a: string, p: string[]) => settingValues(m, res(m, `google_compute_region_instance_group_manager.${a}`), p);
    const literal = get("literal", ["update_policy", "type"]);
    expect(alwaysIs(literal, ["OPPORTUNISTIC"], null)).toBe(true);
    expect(mayBe(literal, ["PROACTIVE"], null)).toBe(false);
    const branches = get("branches", ["update_policy", "type"]);
    expect(mayBe(branches, ["PROACTIVE"], null)).toBe(true);
    expect(alwaysIs(branches, ["OPPORTUNISTIC"], null)).toBe(false);
    const action = get("branches", ["update_policy", "minimal_action"]);
    expect(action.unknown).toBe(true);
    expect(mayBe(action, ["REPLACE"], null)).toBe(false);
    const unset = get("none", ["update_policy", "type"]);
    expect(unset.unset).toBe(true);
    expect(mayBe(unset, ["PROACTIVE"], null)).toBe(false);
    expect(mayBe(unset, ["Manual"], "Manual")).toBe(true);
    expect(alwaysIs(unset, ["Manual"], "Manual")).toBe(true);
  });
});

describe("launch configurations, providers and replacement", () => {
  const m = mod(`
provider "azurerm" {
  features {}
}

provider "azurerm" {
  alias = "norolls"
  features {
    virtual_machine_scale_set {
      roll_instances_when_required = false
      reimage_on_manual_upgrade    = var.reimage
    }
  }
}

locals {
  template_version = aws_launch_template.node.latest_version
}

resource "aws_launch_template" "node" {
  user_data = var.bootstrap_data
}

resource "terraform_data" "version" {
  input = var.kubernetes_version
}

resource "aws_autoscaling_group" "pool" {
  launch_template {
    id      = aws_launch_template.node.id
    version = local.template_version
  }
  lifecycle {
    replace_triggered_by = [terraform_data.version]
  }
}

resource "aws_autoscaling_group" "named" {
  name = "pool-\${var.kubernetes_version}"
}

resource "azurerm_linux_virtual_machine_scale_set" "default" {
  name = "a"
}

resource "azurerm_linux_virtual_machine_scale_set" "aliased" {
  provider = azurerm.norolls
  name     = "b"
}

resource "azurerm_linux_virtual_machine_scale_set" "elsewhere" {
  provider = azurerm.other
  name     = "c"
}
`);
  const graph = buildGraph(m);

  it("finds the launch template a version references through a local, with the attribute read", () => {
    const group = res(m, "aws_autoscaling_group.pool");
    const version = group.body.blocks[0]!.body.attributes.find((a) => a.name === "version")!;
    const found = launchConfigsReferenced(graph, version.expr);
    expect(found.map((f) => [f.resource.address, f.attribute, f.steps.map((s) => s.address)])).toEqual([
      ["aws_launch_template.node", "latest_version", ["local.template_version", "aws_launch_template.node"]],
    ]);
  });

  it("picks the provider block a resource uses and reads its switches", () => {
    const dflt = providerConfigFor(m, res(m, "azurerm_linux_virtual_machine_scale_set.default"), "azurerm")!;
    expect(dflt.alias).toBeNull();
    expect(providerFlag(dflt, AZURE_ROLL_INSTANCES).state).toBe("unset");
    const aliased = providerConfigFor(m, res(m, "azurerm_linux_virtual_machine_scale_set.aliased"), "azurerm")!;
    expect(aliased.alias).toBe("norolls");
    expect(providerFlag(aliased, AZURE_ROLL_INSTANCES).state).toBe("false");
    expect(providerFlag(aliased, AZURE_REIMAGE_ON_MANUAL_UPGRADE).state).toBe("unknown");
    expect(providerConfigFor(m, res(m, "azurerm_linux_virtual_machine_scale_set.elsewhere"), "azurerm")).toBeNull();
  });

  it("knows a group is replaced when its trigger or a replacing argument follows the value", () => {
    expect(replacedOn(graph, res(m, "aws_autoscaling_group.pool"), ["name", "name_prefix"], "var.kubernetes_version")).toBe(true);
    expect(replacedOn(graph, res(m, "aws_autoscaling_group.named"), ["name", "name_prefix"], "var.kubernetes_version")).toBe(true);
    expect(replacedOn(graph, res(m, "aws_autoscaling_group.named"), [], "var.kubernetes_version")).toBe(false);
    expect(replacedOn(graph, res(m, "aws_autoscaling_group.pool"), ["name"], "var.bootstrap_data")).toBe(false);
  });
});

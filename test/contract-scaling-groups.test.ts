import { describe, expect, it } from "vitest";
import {
  FALLBACK_DESIRED_NAMES,
  NOT_SCALING_GROUPS,
  SCALING_GROUP_TYPES,
  parseAttributePath,
  pathCovers,
  scalingGroupType,
} from "../src/contract/scaling-groups.js";

describe("scaling-group table", () => {
  it("knows the desired-count attribute of every group type the catalogue names", () => {
    const table = Object.fromEntries(SCALING_GROUP_TYPES.map((t) => [t.type, t.desired]));
    expect(table).toEqual({
      aws_autoscaling_group: "desired_capacity",
      aws_eks_node_group: "scaling_config[0].desired_size",
      google_compute_instance_group_manager: "target_size",
      google_compute_region_instance_group_manager: "target_size",
      azurerm_linux_virtual_machine_scale_set: "instances",
      azurerm_windows_virtual_machine_scale_set: "instances",
      azurerm_orchestrated_virtual_machine_scale_set: "instances",
      azurerm_virtual_machine_scale_set: "sku[0].capacity",
      oci_core_instance_pool: "size",
      oci_autoscaling_auto_scaling_configuration: "policies[*].capacity[*].initial",
      alicloud_ess_scaling_group: "desired_capacity",
      huaweicloud_as_group: "desired_instance_number",
      tencentcloud_as_scaling_group: "desired_capacity",
      digitalocean_kubernetes_node_pool: "node_count",
    });
    expect(FALLBACK_DESIRED_NAMES).toEqual(["desired_capacity", "desired_size", "target_size", "instance_count", "instances", "size", "capacity"]);
  });

  it("has parseable paths and no type that is both a group and a non-group", () => {
    for (const t of SCALING_GROUP_TYPES) {
      expect(parseAttributePath(t.desired), t.type).not.toBeNull();
      expect(parseAttributePath(t.ignorePath), t.type).not.toBeNull();
      expect(NOT_SCALING_GROUPS.has(t.type), t.type).toBe(false);
    }
    expect(scalingGroupType("oci_core_instance_pool")?.ignorePath).toBe("size");
    expect(scalingGroupType("oci_autoscaling_auto_scaling_configuration")?.ignorePath).toBe("policies");
    expect(scalingGroupType("aws_instance")).toBeUndefined();
  });
});

describe("parseAttributePath", () => {
  it("reads attribute, index, splat, quoted-key and legacy forms", () => {
    expect(parseAttributePath("desired_capacity")).toEqual([{ kind: "attr", name: "desired_capacity" }]);
    expect(parseAttributePath("scaling_config[0].desired_size")).toEqual([
      { kind: "attr", name: "scaling_config" },
      { kind: "index", index: 0 },
      { kind: "attr", name: "desired_size" },
    ]);
    expect(parseAttributePath("scaling_config.0.desired_size")).toEqual(parseAttributePath("scaling_config[0].desired_size"));
    expect(parseAttributePath("policies[*].capacity[*].initial")).toEqual([
      { kind: "attr", name: "policies" },
      { kind: "index", index: "*" },
      { kind: "attr", name: "capacity" },
      { kind: "index", index: "*" },
      { kind: "attr", name: "initial" },
    ]);
    expect(parseAttributePath('tags["Name"]')).toEqual([
      { kind: "attr", name: "tags" },
      { kind: "attr", name: "Name" },
    ]);
    expect(parseAttributePath(" sku [ 0 ] . capacity ")).toEqual(parseAttributePath("sku[0].capacity"));
  });

  it("rejects text that is not a path", () => {
    expect(parseAttributePath("")).toBeNull();
    expect(parseAttributePath(".size")).toBeNull();
    expect(parseAttributePath("[0]")).toBeNull();
    expect(parseAttributePath("a[b]")).toBeNull();
    expect(parseAttributePath("a[0")).toBeNull();
    expect(parseAttributePath("1abc")).toBeNull();
  });
});

describe("pathCovers", () => {
  const p = (s: string) => parseAttributePath(s)!;
  it("covers the attribute itself and everything under an ignored block", () => {
    expect(pathCovers(p("desired_capacity"), p("desired_capacity"))).toBe(true);
    expect(pathCovers(p("scaling_config"), p("scaling_config[0].desired_size"))).toBe(true);
    expect(pathCovers(p("scaling_config[0].desired_size"), p("scaling_config[0].desired_size"))).toBe(true);
    expect(pathCovers(p("policies"), p("policies[*].capacity[*].initial"))).toBe(true);
    expect(pathCovers(p("policies[0].capacity[0].initial"), p("policies[*].capacity[*].initial"))).toBe(true);
  });

  it("does not cover other attributes, deeper paths or other elements", () => {
    expect(pathCovers(p("min_size"), p("desired_capacity"))).toBe(false);
    expect(pathCovers(p("scaling_config[0].min_size"), p("scaling_config[0].desired_size"))).toBe(false);
    expect(pathCovers(p("desired_capacity.x"), p("desired_capacity"))).toBe(false);
    expect(pathCovers(p("scaling_config[1].desired_size"), p("scaling_config[0].desired_size"))).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import {
  FALLBACK_DESIRED_NAMES,
  NOT_SCALING_GROUPS,
  SCALING_GROUP_TYPES,
  scalingGroupType,
} from "../src/contract/scaling-groups.js";
import { parseAttributePath } from "../src/terraform/attribute-path.js";

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

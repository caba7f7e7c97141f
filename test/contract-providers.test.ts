/**
 * The provider tables behind bootstrap/encoding and pool/min-max-unpinned:
 * every user-data argument the rule catalogue names is present with the
 * right encoding, and the min/max table covers the catalogue's examples.
 */
import { describe, expect, it } from "vitest";
import { MIN_MAX_ATTRIBUTES, USER_DATA_ARGUMENTS, minMaxAttributes, userDataArguments } from "../src/contract/providers.js";

function row(type: string, path: string, key?: string): string | undefined {
  return userDataArguments(type).find((a) => a.path.join(".") === path && a.key === key)?.encoding;
}

describe("user-data argument table", () => {
  it("has every catalogue row with its encoding", () => {
    const expected: [string, string, string | undefined, "base64" | "text"][] = [
      ["aws_launch_template", "user_data", undefined, "base64"],
      ["aws_instance", "user_data", undefined, "text"],
      ["aws_instance", "user_data_base64", undefined, "base64"],
      ["aws_launch_configuration", "user_data", undefined, "text"],
      ["aws_launch_configuration", "user_data_base64", undefined, "base64"],
      ["aws_s3_object", "content_base64", undefined, "base64"],
      ["aws_s3_object", "content", undefined, "text"],
      ["azurerm_orchestrated_virtual_machine_scale_set", "user_data_base64", undefined, "base64"],
      ["azurerm_orchestrated_virtual_machine_scale_set", "os_profile.custom_data", undefined, "base64"],
      ["oci_core_instance", "metadata", "user_data", "base64"],
      ["oci_core_instance_configuration", "instance_details.launch_details.metadata", "user_data", "base64"],
      ["hcloud_server", "user_data", undefined, "text"],
      ["digitalocean_droplet", "user_data", undefined, "text"],
      ["cloudinit_config", "part.content", undefined, "text"],
    ];
    for (const t of [
      "azurerm_linux_virtual_machine",
      "azurerm_windows_virtual_machine",
      "azurerm_linux_virtual_machine_scale_set",
      "azurerm_windows_virtual_machine_scale_set",
    ]) {
      expected.push([t, "custom_data", undefined, "base64"], [t, "user_data", undefined, "base64"]);
    }
    for (const t of ["google_compute_instance", "google_compute_instance_template", "google_compute_region_instance_template"]) {
      expected.push([t, "metadata", "user-data", "text"], [t, "metadata_startup_script", undefined, "text"]);
    }
    for (const [type, path, key, encoding] of expected) {
      expect(row(type, path, key), `${type} ${path}${key ? `["${key}"]` : ""}`).toBe(encoding);
    }
  });

  it("never lists an argument twice and knows nothing about OpenStack (it accepts both encodings)", () => {
    const keys = USER_DATA_ARGUMENTS.map((a) => `${a.type} ${a.path.join(".")} ${a.key ?? ""}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(userDataArguments("openstack_compute_instance_v2")).toEqual([]);
  });
});

describe("min/max table", () => {
  it("covers the catalogue's scaling groups and autoscalers", () => {
    expect(minMaxAttributes("aws_autoscaling_group")?.bounds).toEqual([["min_size"], ["max_size"]]);
    expect(minMaxAttributes("google_compute_autoscaler")?.bounds).toEqual([
      ["autoscaling_policy", "min_replicas"],
      ["autoscaling_policy", "max_replicas"],
    ]);
    expect(minMaxAttributes("google_compute_region_autoscaler")?.bounds).toEqual([
      ["autoscaling_policy", "min_replicas"],
      ["autoscaling_policy", "max_replicas"],
    ]);
    expect(minMaxAttributes("azurerm_monitor_autoscale_setting")?.bounds).toEqual([
      ["profile", "capacity", "minimum"],
      ["profile", "capacity", "maximum"],
      ["profile", "capacity", "default"],
    ]);
    expect(minMaxAttributes("oci_autoscaling_auto_scaling_configuration")?.bounds).toEqual([
      ["policies", "capacity", "min"],
      ["policies", "capacity", "max"],
    ]);
    expect(new Set(MIN_MAX_ATTRIBUTES.map((m) => m.type)).size).toBe(MIN_MAX_ATTRIBUTES.length);
  });
});

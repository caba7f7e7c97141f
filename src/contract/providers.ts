/**
 * Provider knowledge as data, for the contract-depth rules:
 *
 * - which arguments carry instance user data, and whether the provider
 *   expects that argument base64-encoded or as plain text (`bootstrap/encoding`);
 * - which arguments of a scaling group or its autoscaler hold the group's
 *   minimum and maximum size (`pool/min-max-unpinned`).
 *
 * The desired-count attribute of scaling groups lives in scaling-groups.ts
 * (re-exported here so rules have one import for provider tables). A new
 * cloud is a new row, not new code.
 */
export {
  SCALING_GROUP_TYPES,
  scalingGroupType,
  type ScalingGroupType,
} from "./scaling-groups.js";

export type UserDataEncoding = "base64" | "text";

export interface UserDataArgument {
  /** Resource (or data source) type, e.g. `aws_launch_template`. */
  type: string;
  /**
   * Argument path inside the body: nested block types then the argument
   * name (`["part", "content"]` is `part[*].content`).
   */
  path: readonly string[];
  /**
   * For map-valued arguments (`metadata`), the key that holds the user data
   * (`metadata["user-data"]`).
   */
  key?: string;
  encoding: UserDataEncoding;
}

const AZURE_VM_TYPES = [
  "azurerm_linux_virtual_machine",
  "azurerm_windows_virtual_machine",
  "azurerm_linux_virtual_machine_scale_set",
  "azurerm_windows_virtual_machine_scale_set",
];

const GOOGLE_INSTANCE_TYPES = [
  "google_compute_instance",
  "google_compute_instance_template",
  "google_compute_region_instance_template",
];

export const USER_DATA_ARGUMENTS: readonly UserDataArgument[] = [
  { type: "aws_launch_template", path: ["user_data"], encoding: "base64" },
  { type: "aws_instance", path: ["user_data"], encoding: "text" },
  { type: "aws_instance", path: ["user_data_base64"], encoding: "base64" },
  { type: "aws_launch_configuration", path: ["user_data"], encoding: "text" },
  { type: "aws_launch_configuration", path: ["user_data_base64"], encoding: "base64" },
  { type: "aws_spot_instance_request", path: ["user_data"], encoding: "text" },
  { type: "aws_spot_instance_request", path: ["user_data_base64"], encoding: "base64" },
  { type: "aws_s3_object", path: ["content_base64"], encoding: "base64" },
  { type: "aws_s3_object", path: ["content"], encoding: "text" },
  ...AZURE_VM_TYPES.flatMap((type): UserDataArgument[] => [
    { type, path: ["custom_data"], encoding: "base64" },
    { type, path: ["user_data"], encoding: "base64" },
  ]),
  { type: "azurerm_orchestrated_virtual_machine_scale_set", path: ["user_data_base64"], encoding: "base64" },
  { type: "azurerm_orchestrated_virtual_machine_scale_set", path: ["os_profile", "custom_data"], encoding: "base64" },
  {
    type: "azurerm_orchestrated_virtual_machine_scale_set",
    path: ["os_profile", "linux_configuration", "custom_data"],
    encoding: "base64",
  },
  ...GOOGLE_INSTANCE_TYPES.flatMap((type): UserDataArgument[] => [
    { type, path: ["metadata"], key: "user-data", encoding: "text" },
    { type, path: ["metadata_startup_script"], encoding: "text" },
  ]),
  { type: "oci_core_instance", path: ["metadata"], key: "user_data", encoding: "base64" },
  {
    type: "oci_core_instance_configuration",
    path: ["instance_details", "launch_details", "metadata"],
    key: "user_data",
    encoding: "base64",
  },
  { type: "hcloud_server", path: ["user_data"], encoding: "text" },
  { type: "digitalocean_droplet", path: ["user_data"], encoding: "text" },
  { type: "cloudinit_config", path: ["part", "content"], encoding: "text" },
];

export function userDataArguments(type: string): UserDataArgument[] {
  return USER_DATA_ARGUMENTS.filter((a) => a.type === type);
}

/** Where a scaling group (or the autoscaler attached to one) keeps its size bounds. */
export interface MinMaxAttributes {
  type: string;
  /** Paths (nested block types then argument name) of the min/max/default size arguments. */
  bounds: readonly (readonly string[])[];
  /**
   * Arguments that switch the autoscaler itself on and off (a condition on
   * `var.autoscaling.enabled` there makes the bounds irrelevant when
   * autoscaling is disabled).
   */
  switches?: readonly (readonly string[])[];
}

export const MIN_MAX_ATTRIBUTES: readonly MinMaxAttributes[] = [
  { type: "aws_autoscaling_group", bounds: [["min_size"], ["max_size"]] },
  { type: "aws_eks_node_group", bounds: [["scaling_config", "min_size"], ["scaling_config", "max_size"]] },
  {
    type: "google_compute_autoscaler",
    bounds: [["autoscaling_policy", "min_replicas"], ["autoscaling_policy", "max_replicas"]],
    switches: [["autoscaling_policy", "mode"]],
  },
  {
    type: "google_compute_region_autoscaler",
    bounds: [["autoscaling_policy", "min_replicas"], ["autoscaling_policy", "max_replicas"]],
    switches: [["autoscaling_policy", "mode"]],
  },
  {
    type: "azurerm_monitor_autoscale_setting",
    bounds: [
      ["profile", "capacity", "minimum"],
      ["profile", "capacity", "maximum"],
      ["profile", "capacity", "default"],
    ],
    switches: [["enabled"]],
  },
  {
    type: "oci_autoscaling_auto_scaling_configuration",
    bounds: [["policies", "capacity", "min"], ["policies", "capacity", "max"]],
    switches: [["is_enabled"]],
  },
  { type: "alicloud_ess_scaling_group", bounds: [["min_size"], ["max_size"]] },
  { type: "huaweicloud_as_group", bounds: [["min_instance_number"], ["max_instance_number"]] },
  { type: "tencentcloud_as_scaling_group", bounds: [["min_size"], ["max_size"]] },
  {
    type: "digitalocean_kubernetes_node_pool",
    bounds: [["min_nodes"], ["max_nodes"]],
    switches: [["auto_scale"]],
  },
];

export function minMaxAttributes(type: string): MinMaxAttributes | undefined {
  return MIN_MAX_ATTRIBUTES.find((m) => m.type === type);
}

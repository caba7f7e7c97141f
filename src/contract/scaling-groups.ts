/**
 * Scaling-group knowledge as data: for each resource type that runs a group
 * of instances whose size a cloud autoscaler may change, the attribute that
 * holds the desired count. `pool/autoscaling-ignore-changes` reads this table;
 * a new cloud is a new row, not new code.
 */

export interface ScalingGroupType {
  /** Terraform resource type, e.g. `aws_autoscaling_group`. */
  type: string;
  /**
   * Where the desired count lives, as Terraform writes it in `ignore_changes`
   * (`desired_capacity`, `scaling_config[0].desired_size`). `[*]` means "in
   * every nested block of that type".
   */
  desired: string;
  /**
   * What to add to `ignore_changes` to keep the desired count out of
   * Terraform's hands (differs from `desired` where Terraform cannot name a
   * single element, e.g. OCI's `policies[*]...`).
   */
  ignorePath: string;
  /**
   * True when leaving the attribute out lets the cloud keep whatever count
   * it has (Optional + Computed in the provider schema). False when an
   * absent attribute means a fixed default (Azure scale sets default
   * `instances` to 0) or is required.
   */
  absentIsSafe: boolean;
  /**
   * A scaling configuration attached to a group of another type (OCI's
   * auto-scaling configuration drives an instance pool): it can keep the
   * count out of Terraform's hands, but the finding belongs at the group.
   */
  attached?: boolean;
}

export const SCALING_GROUP_TYPES: readonly ScalingGroupType[] = [
  { type: "aws_autoscaling_group", desired: "desired_capacity", ignorePath: "desired_capacity", absentIsSafe: true },
  { type: "aws_eks_node_group", desired: "scaling_config[0].desired_size", ignorePath: "scaling_config[0].desired_size", absentIsSafe: false },
  { type: "google_compute_instance_group_manager", desired: "target_size", ignorePath: "target_size", absentIsSafe: true },
  { type: "google_compute_region_instance_group_manager", desired: "target_size", ignorePath: "target_size", absentIsSafe: true },
  { type: "azurerm_linux_virtual_machine_scale_set", desired: "instances", ignorePath: "instances", absentIsSafe: false },
  { type: "azurerm_windows_virtual_machine_scale_set", desired: "instances", ignorePath: "instances", absentIsSafe: false },
  { type: "azurerm_orchestrated_virtual_machine_scale_set", desired: "instances", ignorePath: "instances", absentIsSafe: false },
  { type: "azurerm_virtual_machine_scale_set", desired: "sku[0].capacity", ignorePath: "sku[0].capacity", absentIsSafe: false },
  { type: "oci_core_instance_pool", desired: "size", ignorePath: "size", absentIsSafe: false },
  {
    type: "oci_autoscaling_auto_scaling_configuration",
    desired: "policies[*].capacity[*].initial",
    ignorePath: "policies",
    absentIsSafe: true,
    attached: true,
  },
  { type: "alicloud_ess_scaling_group", desired: "desired_capacity", ignorePath: "desired_capacity", absentIsSafe: true },
  { type: "huaweicloud_as_group", desired: "desired_instance_number", ignorePath: "desired_instance_number", absentIsSafe: true },
  { type: "tencentcloud_as_scaling_group", desired: "desired_capacity", ignorePath: "desired_capacity", absentIsSafe: true },
  { type: "digitalocean_kubernetes_node_pool", desired: "node_count", ignorePath: "node_count", absentIsSafe: false },
];

/**
 * Attribute names that usually hold a desired count, tried (in this order) on
 * resource types the table does not know.
 */
export const FALLBACK_DESIRED_NAMES: readonly string[] = [
  "desired_capacity",
  "desired_size",
  "target_size",
  "instance_count",
  "instances",
  "size",
  "capacity",
];

/**
 * Types that commonly reference `var.autoscaling`/`var.replicas` but are not
 * groups themselves: autoscalers, policies, schedules, launch templates and
 * bookkeeping resources. They are never treated as scaling groups, even when
 * an argument happens to have a fallback name (a schedule's
 * `desired_capacity` is a one-off target, not the group's count).
 */
export const NOT_SCALING_GROUPS: ReadonlySet<string> = new Set([
  "aws_autoscaling_policy",
  "aws_autoscaling_schedule",
  "aws_autoscaling_lifecycle_hook",
  "aws_autoscaling_notification",
  "aws_autoscaling_attachment",
  "aws_autoscaling_traffic_source_attachment",
  "aws_appautoscaling_target",
  "aws_appautoscaling_policy",
  "aws_launch_template",
  "aws_launch_configuration",
  "aws_cloudwatch_metric_alarm",
  "google_compute_autoscaler",
  "google_compute_region_autoscaler",
  "google_compute_instance_template",
  "google_compute_region_instance_template",
  "azurerm_monitor_autoscale_setting",
  "oci_core_instance_configuration",
  "alicloud_ess_scaling_rule",
  "alicloud_ess_scaling_configuration",
  "huaweicloud_as_policy",
  "huaweicloud_as_configuration",
  "tencentcloud_as_scaling_policy",
  "tencentcloud_as_scaling_config",
  "terraform_data",
  "null_resource",
  "random_id",
  "random_string",
  "random_pet",
  "random_shuffle",
  "time_sleep",
  "time_static",
]);

export function scalingGroupType(type: string): ScalingGroupType | undefined {
  return SCALING_GROUP_TYPES.find((t) => t.type === type);
}

/**
 * Resources that change a group's size when they exist (autoscalers and
 * scaling policies). A desired count that is null whenever such a resource
 * for the group exists is what the contract needs, whatever condition
 * gates both.
 */
export const AUTOSCALER_TYPES: ReadonlySet<string> = new Set([
  "google_compute_autoscaler",
  "google_compute_region_autoscaler",
  "azurerm_monitor_autoscale_setting",
  "aws_autoscaling_policy",
  "oci_autoscaling_auto_scaling_configuration",
  "alicloud_ess_scaling_rule",
  "huaweicloud_as_policy",
  "tencentcloud_as_scaling_policy",
]);

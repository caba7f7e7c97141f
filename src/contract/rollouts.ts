/**
 * How each cloud's scaling groups roll their instances, as data: where a
 * group names its launch configuration (launch template, instance
 * template, instance configuration, or its own model), which settings start
 * an in-place rollout of the existing members, which arguments replace the
 * whole group, and where the configuration carries the instances' user data.
 * `pool/bootstrap-rolls-instances` and `pool/version-no-roll` ask these
 * rows their questions; a new cloud or group type is a new row.
 *
 * Attribute names and defaults follow the providers' documented schemas
 * (hashicorp/aws `aws_autoscaling_group`, `aws_launch_template`,
 * `aws_launch_configuration`; hashicorp/google instance group managers and
 * instance templates; hashicorp/azurerm scale sets and the provider's
 * `features` block; oracle/oci `oci_core_instance_pool`).
 */

import type { ArgPath } from "./cloud/common.js";
export type { ArgPath } from "./cloud/common.js";

/** A resource type that holds the instances' launch configuration for a group. */
export interface LaunchConfigType {
  type: string;
  /** Where the user data (or boot metadata) lives. */
  userData: readonly ArgPath[];
  /**
   * Computed attributes that name a new version of the configuration each
   * time it changes in place (AWS launch templates), so that a group
   * following them sees every change.
   */
  versionAttributes: readonly string[];
  /**
   * True when every change of an argument replaces the resource (an AWS
   * launch configuration, a GCE instance template): whatever reaches the
   * group through it is a new configuration, under a new id and name.
   */
  immutable: boolean;
  /** Arguments whose change replaces the configuration (a new name = a new object the group points at). */
  replacing: readonly string[];
}

export const LAUNCH_CONFIG_TYPES: readonly LaunchConfigType[] = [
  {
    type: "aws_launch_template",
    userData: [["user_data"]],
    versionAttributes: ["latest_version", "default_version"],
    immutable: false,
    replacing: ["name", "name_prefix"],
  },
  {
    type: "aws_launch_configuration",
    userData: [["user_data"], ["user_data_base64"]],
    versionAttributes: [],
    immutable: true,
    replacing: [],
  },
  {
    type: "google_compute_instance_template",
    userData: [["metadata"], ["metadata_startup_script"]],
    versionAttributes: [],
    immutable: true,
    replacing: [],
  },
  {
    type: "google_compute_region_instance_template",
    userData: [["metadata"], ["metadata_startup_script"]],
    versionAttributes: [],
    immutable: true,
    replacing: [],
  },
  {
    type: "oci_core_instance_configuration",
    userData: [["instance_details", "launch_details", "metadata"]],
    versionAttributes: [],
    // Updatable only in its tags and names: a new launch configuration is a new resource.
    immutable: true,
    replacing: [],
  },
];

export function launchConfigType(type: string): LaunchConfigType | undefined {
  return LAUNCH_CONFIG_TYPES.find((t) => t.type === type);
}

/**
 * A literal setting of a group: the argument path, the values that select
 * a behaviour, and the provider's value when the argument is unset.
 */
export interface Setting {
  path: ArgPath;
  values: readonly string[];
  /** The value the provider uses when the argument is not set (null: the setting has no default we rely on). */
  unsetMeans: string | null;
}

/** How a group type rolls. */
export type RolloutKind =
  /** AWS: instance refresh replaces members when the launch template reference or configuration changes. */
  | "instance-refresh"
  /** GCP: the manager's update policy replaces or restarts members when its version's template changes. */
  | "update-policy"
  /** Azure: the scale set's own model (custom data, image); the provider's `features` decide what an update does. */
  | "model"
  /** OCI: an instance pool's new instance configuration reaches new members only. */
  | "new-members-only";

export interface RolloutGroupType {
  type: string;
  rollout: RolloutKind;
  /** Arguments holding a reference to the launch configuration (`launch_template.id`, `version.instance_template`). */
  configRefs: readonly ArgPath[];
  /**
   * Arguments selecting which version of a launch template the group uses
   * (AWS), with the values that stay the same whatever the template holds.
   */
  versionRefs?: readonly ArgPath[];
  fixedVersions?: readonly string[];
  /** Arguments whose change replaces the whole group (and so every member). */
  replacing: readonly string[];
  /** The group's own user data (Azure scale sets, GCP `all_instances_config`). */
  userData?: readonly ArgPath[];
  /** The argument naming an immutable launch configuration (AWS `launch_configuration`): a new one on every change. */
  launchConfigurationRef?: ArgPath;
  /** The nested block whose presence turns the rollout on (AWS `instance_refresh`). */
  rolloutBlock?: string;
  /** The argument listing further group arguments whose change starts a rollout (AWS `instance_refresh.triggers`). */
  rolloutTriggers?: ArgPath;
  /** GCP: the update policy type, and the minimal actions that touch existing members. */
  policyType?: Setting & { proactive: string; opportunistic: string };
  minimalAction?: Setting;
  /** Azure: the upgrade mode, and the image version setting of the Automatic case. */
  upgradeMode?: Setting & { manual: string; automatic: string };
  imageVersion?: Setting & { latest: string };
}

const AWS_TEMPLATE_SPECS: readonly ArgPath[] = [
  ["launch_template"],
  ["mixed_instances_policy", "launch_template", "launch_template_specification"],
];

const GCP_MANAGER: Omit<RolloutGroupType, "type"> = {
  rollout: "update-policy",
  configRefs: [["version", "instance_template"]],
  replacing: ["name"],
  userData: [["all_instances_config", "metadata"]],
  policyType: { path: ["update_policy", "type"], values: ["PROACTIVE"], unsetMeans: null, proactive: "PROACTIVE", opportunistic: "OPPORTUNISTIC" },
  minimalAction: { path: ["update_policy", "minimal_action"], values: ["REPLACE", "RESTART"], unsetMeans: null },
};

const AZURE_SCALE_SET: Omit<RolloutGroupType, "type"> = {
  rollout: "model",
  configRefs: [],
  replacing: ["name"],
  userData: [["custom_data"], ["user_data"]],
  // The provider's default upgrade mode is Manual.
  upgradeMode: { path: ["upgrade_mode"], values: ["Manual"], unsetMeans: "Manual", manual: "Manual", automatic: "Automatic" },
  imageVersion: { path: ["source_image_reference", "version"], values: ["latest"], unsetMeans: null, latest: "latest" },
};

export const ROLLOUT_GROUP_TYPES: readonly RolloutGroupType[] = [
  {
    type: "aws_autoscaling_group",
    rollout: "instance-refresh",
    configRefs: [
      ...AWS_TEMPLATE_SPECS.flatMap((p) => [[...p, "id"], [...p, "name"], [...p, "launch_template_id"], [...p, "launch_template_name"]]),
      ["launch_configuration"],
    ],
    launchConfigurationRef: ["launch_configuration"],
    versionRefs: AWS_TEMPLATE_SPECS.map((p) => [...p, "version"]),
    // "$Latest" and "$Default" name whatever the template holds: the
    // reference itself does not change when the template does.
    fixedVersions: ["$Latest", "$Default"],
    replacing: ["name", "name_prefix"],
    rolloutBlock: "instance_refresh",
    rolloutTriggers: ["instance_refresh", "triggers"],
  },
  { type: "google_compute_instance_group_manager", ...GCP_MANAGER },
  { type: "google_compute_region_instance_group_manager", ...GCP_MANAGER },
  { type: "azurerm_linux_virtual_machine_scale_set", ...AZURE_SCALE_SET },
  { type: "azurerm_windows_virtual_machine_scale_set", ...AZURE_SCALE_SET },
  {
    type: "oci_core_instance_pool",
    rollout: "new-members-only",
    configRefs: [["instance_configuration_id"]],
    // display_name and the other pool arguments update in place.
    replacing: [],
  },
];

export function rolloutGroupType(type: string): RolloutGroupType | undefined {
  return ROLLOUT_GROUP_TYPES.find((t) => t.type === type);
}

/**
 * The provider-level switches of a cloud that decide what an update of a
 * group's model does to its members (azurerm `features`), with the
 * provider's defaults.
 */
export interface ProviderRolloutFlag {
  provider: string;
  /** Path inside the provider block (`features`, `virtual_machine_scale_set`, the flag). */
  path: ArgPath;
  default: boolean;
}

/** azurerm: roll the instances when the model requires it (image, SKU...). */
export const AZURE_ROLL_INSTANCES: ProviderRolloutFlag = {
  provider: "azurerm",
  path: ["features", "virtual_machine_scale_set", "roll_instances_when_required"],
  default: true,
};

/** azurerm: reimage the instances of a Manual scale set when an update requires it. */
export const AZURE_REIMAGE_ON_MANUAL_UPGRADE: ProviderRolloutFlag = {
  provider: "azurerm",
  path: ["features", "virtual_machine_scale_set", "reimage_on_manual_upgrade"],
  default: true,
};

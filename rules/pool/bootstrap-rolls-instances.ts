import { defineRule, type RuleContext } from "../../src/lint/types.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Resource } from "../../src/terraform/module-types.js";
import { carries, carrierText, type Carried } from "../../src/analysis/carriers.js";
import { joinHops, type Hop } from "../../src/analysis/paths.js";
import {
  argumentsAt,
  hasNestedBlock,
  launchConfigsReferenced,
  mayBe,
  providerConfigFor,
  providerFlag,
  reachedHops,
  settingHops,
  settingValues,
} from "../../src/analysis/rollouts.js";
import {
  AZURE_REIMAGE_ON_MANUAL_UPGRADE,
  AZURE_ROLL_INSTANCES,
  rolloutGroupType,
  type ArgPath,
  type RolloutGroupType,
} from "../../src/contract/rollouts.js";

const BOOTSTRAP = "bootstrap_data";
/** The Azure half is a warning (the spec's severity): the reimage depends on provider switches, not on the scale set alone. */
const AZURE_SEVERITY = "warning" as const;

/** The first argument at one of `paths` of `resource` that carries the bootstrap data, with its hop. */
function bootstrapIn(ctx: RuleContext, resource: Resource, paths: readonly ArgPath[]): { carried: Carried; path: string; hop: Hop } | null {
  for (const path of paths) {
    for (const a of argumentsAt(resource, path)) {
      const carried = carries(ctx, a.expr, BOOTSTRAP, resource);
      if (!carried) continue;
      const name = `${resource.address}.${path.join(".")}`;
      return { carried, path: name, hop: { file: fileOf(resource, a.expr), range: a.expr.range, message: name } };
    }
  }
  return null;
}


function checkInstanceRefresh(ctx: RuleContext, group: Resource, row: RolloutGroupType): void {
  if (!row.rolloutBlock || !hasNestedBlock(group, row.rolloutBlock)) return;
  const module = ctx.expressions;
  // A launch template version that names each new version of a template holding the bootstrap data.
  for (const path of row.versionRefs ?? []) {
    for (const a of argumentsAt(group, path)) {
      for (const reached of launchConfigsReferenced(ctx.graph, a.expr)) {
        if (reached.attribute === null || !reached.config.versionAttributes.includes(reached.attribute)) continue;
        const found = bootstrapIn(ctx, reached.resource, reached.config.userData);
        if (!found) continue;
        const template = reached.resource.address;
        ctx.report({
          message: `${group.address} has an instance_refresh, and its launch template ${path[path.length - 1]} follows ${template}.${reached.attribute}, which changes whenever ${found.path} (carrying ${carrierText(BOOTSTRAP, found.carried.carrier)}) does: every bootstrap token rotation refreshes (replaces) every instance; use version = "$Latest" so that only new members get the new token, and start refreshes only on what must roll the instances, such as the Kubernetes version`,
          file: fileOf(group, a.expr),
          range: a.expr.range,
          related: joinHops(reachedHops(module, group, reached), [found.hop], found.carried.related),
        });
        return;
      }
    }
  }
  // A launch configuration holding the bootstrap data: replaced (new name) on every change.
  for (const a of row.launchConfigurationRef ? argumentsAt(group, row.launchConfigurationRef) : []) {
    for (const reached of launchConfigsReferenced(ctx.graph, a.expr)) {
      if (!reached.config.immutable) continue;
      const found = bootstrapIn(ctx, reached.resource, reached.config.userData);
      if (!found) continue;
      ctx.report({
        message: `${group.address} has an instance_refresh and uses ${reached.resource.address}, whose ${found.path.slice(reached.resource.address.length + 1)} carries ${carrierText(BOOTSTRAP, found.carried.carrier)}: every bootstrap token rotation replaces the launch configuration, and the refresh then replaces every instance; move to a launch template whose new versions the group follows with version = "$Latest"`,
        file: fileOf(group, a.expr),
        range: a.expr.range,
        related: joinHops(reachedHops(module, group, reached), [found.hop], found.carried.related),
      });
      return;
    }
  }
}

function checkUpdatePolicy(ctx: RuleContext, group: Resource, row: RolloutGroupType): void {
  if (!row.policyType || !row.minimalAction) return;
  const module = ctx.expressions;
  const type = settingValues(module, group, row.policyType.path);
  const action = settingValues(module, group, row.minimalAction.path);
  if (!mayBe(type, [row.policyType.proactive], row.policyType.unsetMeans)) return;
  if (!mayBe(action, row.minimalAction.values, row.minimalAction.unsetMeans)) return;
  let found: { carried: Carried; path: string; hop: Hop } | null = null;
  let via: Hop[] = [];
  for (const path of row.configRefs) {
    for (const a of argumentsAt(group, path)) {
      for (const reached of launchConfigsReferenced(ctx.graph, a.expr)) {
        found = bootstrapIn(ctx, reached.resource, reached.config.userData);
        if (found) {
          via = reachedHops(module, group, reached);
          break;
        }
      }
      if (found) break;
    }
    if (found) break;
  }
  found ??= bootstrapIn(ctx, group, row.userData ?? []);
  if (!found) return;
  const at = type.args[0]!;
  const actions = action.literals.filter((l) => l.value !== null && row.minimalAction!.values.includes(String(l.value))).map((l) => String(l.value));
  ctx.report({
    message: `${group.address} has a PROACTIVE update policy (minimal_action ${[...new Set(actions)].join(" or ")}), and ${found.path} carries ${carrierText(BOOTSTRAP, found.carried.carrier)}: every bootstrap token rotation ${via.length > 0 ? "makes a new instance template" : "changes the configuration of every instance"}, and the manager then ${actions.includes("REPLACE") ? "replaces" : "restarts"} every instance; use type = "OPPORTUNISTIC" so that only new members get the new ${via.length > 0 ? "template" : "configuration"}, and roll on a version change by other means (a name or replace_triggered_by that follows the Kubernetes version)`,
    file: fileOf(group, at.expr),
    range: at.expr.range,
    related: joinHops(settingHops(module, type, [row.policyType.proactive]), via, [found.hop], found.carried.related),
  });
}

function checkScaleSetModel(ctx: RuleContext, group: Resource, row: RolloutGroupType): void {
  if (!row.upgradeMode) return;
  const module = ctx.expressions;
  const found = bootstrapIn(ctx, group, row.userData ?? []);
  if (!found) return;
  const config = providerConfigFor(module, group, AZURE_ROLL_INSTANCES.provider);
  if (!config) return;
  const roll = providerFlag(config, AZURE_ROLL_INSTANCES);
  if (roll.state === "false" || roll.state === "unknown") return;
  const mode = settingValues(module, group, row.upgradeMode.path);
  const data = carrierText(BOOTSTRAP, found.carried.carrier);
  const providerHop: Hop = roll.expr
    ? { file: roll.file, range: roll.expr.range, message: `provider "azurerm" ${AZURE_ROLL_INSTANCES.path.join(".")}` }
    : { file: config.file, range: blockHeaderRange(config.block), message: `provider "azurerm" (roll_instances_when_required unset: true)` };
  if (mayBe(mode, [row.upgradeMode.manual], row.upgradeMode.unsetMeans)) {
    const reimage = providerFlag(config, AZURE_REIMAGE_ON_MANUAL_UPGRADE);
    if (reimage.state === "unset" || reimage.state === "true") {
      const at = mode.args[0];
      ctx.report({
        message: `${group.address} has upgrade_mode ${mode.unset ? "unset (Manual)" : '"Manual"'} and ${found.path} carries ${data}, and this module's provider "azurerm" leaves roll_instances_when_required and reimage_on_manual_upgrade on: after every bootstrap token rotation the provider updates and reimages every instance; set features { virtual_machine_scale_set { roll_instances_when_required = false } } in the provider block (or reimage_on_manual_upgrade = false) and roll on a version change by replacing the scale set`,
        severity: AZURE_SEVERITY,
        file: at ? fileOf(group, at.expr) : group.file.path,
        range: at ? at.expr.range : blockHeaderRange(group.block),
        related: joinHops(settingHops(module, mode, [row.upgradeMode.manual]), [providerHop, found.hop], found.carried.related),
      });
      return;
    }
  }
  if (row.imageVersion && mayBe(mode, [row.upgradeMode.automatic], null)) {
    const image = settingValues(module, group, row.imageVersion.path);
    if (!mayBe(image, [row.imageVersion.latest], row.imageVersion.unsetMeans)) return;
    const hit = image.args[0]!;
    ctx.report({
      message: `${group.address} has upgrade_mode "Automatic" with source_image_reference.version = "latest", ${found.path} carries ${data}, and this module's provider "azurerm" leaves roll_instances_when_required on: after every bootstrap token rotation the provider starts an OS upgrade of every instance; pin the image version (for example to the Kubernetes version's image) or set roll_instances_when_required = false`,
      severity: AZURE_SEVERITY,
      file: fileOf(group, hit.expr),
      range: hit.expr.range,
      related: joinHops(settingHops(module, mode, [row.upgradeMode.automatic], group, row.upgradeMode.path), settingHops(module, image, [row.imageVersion.latest]), [providerHop, found.hop], found.carried.related),
    });
  }
}

export default defineRule({
  id: "pool/bootstrap-rolls-instances",
  provenance: "control-plane",
  severity: "error",
  roles: ["machinepool"],
  summary: "A bootstrap data change must not start a rollout of the existing instances (instance refresh, PROACTIVE update policy, scale-set upgrade)",
  // Local child modules too (a group defined in ./modules/group).
  scope: "all",
  fixable: false,
  tags: ["contract", "machinepool", "bootstrap", "lifecycle"],
  check(ctx) {
    for (const group of ctx.expressions.resources.values()) {
      const row = rolloutGroupType(group.type);
      if (!row) continue;
      if (row.rollout === "instance-refresh") checkInstanceRefresh(ctx, group, row);
      else if (row.rollout === "update-policy") checkUpdatePolicy(ctx, group, row);
      else if (row.rollout === "model") checkScaleSetModel(ctx, group, row);
    }
  },
});

/**
 * `pool/version-no-roll`, the extended half: the Kubernetes version reaches
 * a scaling group (through its launch template, instance template, scale
 * set model or instance configuration), but nothing rolls the existing
 * instances when it changes. Per cloud, from the rows of
 * contract/rollouts.ts; silent whenever a value is unknown.
 */
import { constantValue } from "../../src/hcl/walk.js";
import type { Expression } from "../../src/hcl/ast.js";
import type { RuleContext } from "../../src/lint/types.js";
import type { Resource } from "../../src/terraform/module-types.js";
import { chainHops, joinHops, type Hop } from "../../src/analysis/paths.js";
import {
  alwaysIs,
  argumentsAt,
  hasNestedBlock,
  launchConfigsReferenced,
  mayBe,
  namedExpressions,
  providerConfigFor,
  providerFlag,
  reachedHops,
  replacedOn,
  settingHops,
  settingValues,
} from "../../src/analysis/rollouts.js";
import { AZURE_ROLL_INSTANCES, rolloutGroupType, type RolloutGroupType } from "../../src/contract/rollouts.js";

const VERSION = "var.kubernetes_version";

export interface RolloutGap {
  message: string;
  related: Hop[];
}


/** The path from the first of `exprs` that reaches the version to its declaration. */
function versionHops(ctx: RuleContext, owner: Resource, exprs: readonly Expression[]): Hop[] {
  for (const e of exprs) {
    const chain = ctx.graph.reaches(e, VERSION, { throughResources: true });
    if (chain) return chainHops(ctx.expressions, chain, owner);
  }
  return [];
}

function replacingText(row: RolloutGroupType): string {
  const names = [...row.replacing, "replace_triggered_by"];
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} nor ${names[names.length - 1]}` : names[0]!;
}

/** AWS: an ASG without a refresh, or whose refresh no version change starts. */
function awsGap(ctx: RuleContext, group: Resource, row: RolloutGroupType): RolloutGap | null {
  const module = ctx.expressions;
  const launchConfigurations = row.launchConfigurationRef ? argumentsAt(group, row.launchConfigurationRef) : [];
  const notReplaced = `neither its ${replacingText(row)} follows the version`;
  // The version must reach the group through what it launches (a version in a tag alone is another question).
  const launched = row.configRefs.flatMap((p) => argumentsAt(group, p)).map((a) => a.expr);
  const toVersion = versionHops(ctx, group, launched);
  if (toVersion.length === 0) return null;
  if (!row.rolloutBlock || !hasNestedBlock(group, row.rolloutBlock)) {
    return {
      message: `var.kubernetes_version reaches ${group.address} through its ${launchConfigurations.length > 0 ? "launch configuration" : "launch template"}, but the group has no ${row.rolloutBlock} and is not replaced on a version change (${notReplaced}): an upgrade only changes what new instances get, and the existing ones keep the old version; add an instance_refresh that the version change starts (the template version as its latest_version, or a version tag in triggers) or replace the group when the version changes`,
      related: toVersion,
    };
  }
  // A launch configuration is replaced on every change: the refresh follows it.
  if (launchConfigurations.length > 0) return null;
  const refs = row.configRefs.filter((p) => p.join(".") !== row.launchConfigurationRef?.join(".")).flatMap((p) => argumentsAt(group, p));
  if (refs.length === 0) return null;
  const templates = refs.flatMap((a) => launchConfigsReferenced(ctx.graph, a.expr));
  // A template the module does not create (or not one we know) may be replaced: silent.
  if (templates.length === 0 || templates.length < refs.length) return null;
  for (const t of templates) {
    if (t.config.immutable) return null;
    if (replacedOn(ctx.graph, t.resource, t.config.replacing, VERSION)) return null;
  }
  // Every version reference names whatever the template holds (unset: its default version).
  const fixed = row.fixedVersions ?? [];
  const versionHopsList: Hop[] = [];
  const versionValues: string[] = [];
  for (const path of row.versionRefs ?? []) {
    const v = settingValues(module, group, path);
    if (v.unset) continue;
    if (!alwaysIs(v, fixed, "$Default")) return null;
    versionHopsList.push(...settingHops(module, v, fixed, group, path));
    versionValues.push(...v.literals.map((l) => String(l.value)));
  }
  // No argument named in triggers reaches the version.
  const triggers: string[] = [];
  if (row.rolloutTriggers) {
    for (const a of argumentsAt(group, row.rolloutTriggers)) {
      const c = constantValue(a.expr);
      if (!c.known || !Array.isArray(c.value) || !c.value.every((x) => typeof x === "string")) return null;
      triggers.push(...(c.value as string[]));
    }
  }
  for (const name of triggers) {
    if (namedExpressions(group, name).some((e) => ctx.graph.reaches(e, VERSION, { throughResources: true }) !== null)) return null;
  }
  const names = [...new Set(templates.map((t) => t.resource.address))].join(", ");
  return {
    message: `var.kubernetes_version reaches ${group.address} through ${names}, but no version change starts its instance_refresh: the group uses the template version ${versionValues.length > 0 ? [...new Set(versionValues)].map((v) => JSON.stringify(v)).join(" or ") : "unset (the default version)"}, which stays the same when the template gets a new version; neither the template nor the group is replaced on a version change (no name, name_prefix or replace_triggered_by follows the version); and ${triggers.length > 0 ? `no argument in instance_refresh.triggers (${triggers.join(", ")}) follows the version` : "instance_refresh has no triggers"}. Reference the template's latest_version in the group, or add a tag holding the version and "tag" to instance_refresh.triggers`,
    related: joinHops(versionHopsList, templates.flatMap((t) => reachedHops(module, group, t)), toVersion),
  };
}

/** GCP: a manager whose update policy is OPPORTUNISTIC on every branch. */
function gcpGap(ctx: RuleContext, group: Resource, row: RolloutGroupType): RolloutGap | null {
  if (!row.policyType) return null;
  const module = ctx.expressions;
  const type = settingValues(module, group, row.policyType.path);
  if (type.unset || !alwaysIs(type, [row.policyType.opportunistic], null)) return null;
  // Through its instance template or the configuration of all instances.
  const launched = [...row.configRefs.flatMap((p) => argumentsAt(group, p)).map((a) => a.expr), ...namedExpressions(group, "all_instances_config")];
  const toVersion = versionHops(ctx, group, launched);
  if (toVersion.length === 0) return null;
  return {
    message: `var.kubernetes_version reaches ${group.address} through its instance template or all_instances_config, but its update_policy type is "OPPORTUNISTIC" on every branch and the manager is not replaced on a version change (neither its ${replacingText(row)} follows the version): a new template reaches only new instances, and the existing ones keep the old version; use a PROACTIVE update policy for version changes, or a manager name (or replace_triggered_by) that follows the version`,
    related: joinHops(settingHops(module, type, [row.policyType.opportunistic], group, row.policyType.path), toVersion),
  };
}

/** Azure: a Manual scale set in a module whose provider does not roll instances. */
function azureGap(ctx: RuleContext, group: Resource, row: RolloutGroupType): RolloutGap | null {
  if (!row.upgradeMode) return null;
  const module = ctx.expressions;
  const mode = settingValues(module, group, row.upgradeMode.path);
  if (!mayBe(mode, [row.upgradeMode.manual], row.upgradeMode.unsetMeans)) return null;
  const config = providerConfigFor(module, group, AZURE_ROLL_INSTANCES.provider);
  if (!config) return null;
  const roll = providerFlag(config, AZURE_ROLL_INSTANCES);
  if (roll.state !== "false" || !roll.expr) return null;
  const flagHop: Hop = { file: roll.file, range: roll.expr.range, message: `provider "azurerm" ${AZURE_ROLL_INSTANCES.path.join(".")}` };
  return {
    message: `var.kubernetes_version reaches ${group.address} through its model, but its upgrade_mode is ${mode.unset ? "unset (Manual)" : '"Manual"'}, this module's provider "azurerm" sets roll_instances_when_required = false, and the scale set is not replaced on a version change (neither its ${replacingText(row)} follows the version): the new image reaches only new instances; put the version in the scale set's name (a new scale set per version) or in its replace_triggered_by`,
    related: joinHops(settingHops(module, mode, [row.upgradeMode.manual], group, row.upgradeMode.path), [flagHop], versionHops(ctx, group, ctx.graph.resourceExpressions(group))),
  };
}

/** OCI: an instance pool whose instance configuration carries the version. */
function ociGap(ctx: RuleContext, group: Resource, row: RolloutGroupType): RolloutGap | null {
  const module = ctx.expressions;
  for (const path of row.configRefs) {
    for (const a of argumentsAt(group, path)) {
      for (const reached of launchConfigsReferenced(ctx.graph, a.expr)) {
        const hops = versionHops(ctx, reached.resource, ctx.graph.resourceExpressions(reached.resource));
        if (hops.length === 0) continue;
        return {
          message: `var.kubernetes_version reaches ${group.address} through ${reached.resource.address}, but a new instance configuration reaches only new instances of a pool, and the pool is not replaced on a version change (its replace_triggered_by does not follow the version): the existing instances keep the old version; add the version (a terraform_data holding it) to the pool's replace_triggered_by`,
          related: joinHops(reachedHops(module, group, reached), hops),
        };
      }
    }
  }
  return null;
}

/** What leaves the existing instances of `group` on the old version, or null when something rolls them (or it is unknown). */
export function rolloutGap(ctx: RuleContext, group: Resource): RolloutGap | null {
  const row = rolloutGroupType(group.type);
  if (!row) return null;
  if (replacedOn(ctx.graph, group, row.replacing, VERSION)) return null;
  switch (row.rollout) {
    case "instance-refresh":
      return awsGap(ctx, group, row);
    case "update-policy":
      return gcpGap(ctx, group, row);
    case "model":
      return azureGap(ctx, group, row);
    case "new-members-only":
      return ociGap(ctx, group, row);
  }
}

import type { ChainStep } from "../../src/terraform/graph-api.js";
import type { Module, Resource } from "../../src/terraform/module-types.js";
import { ignoreChangesFix } from "../../src/lint/fix-builders.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import {
  AUTOSCALER_TYPES,
  FALLBACK_DESIRED_NAMES,
  NOT_SCALING_GROUPS,
  scalingGroupType,
} from "../../src/contract/scaling-groups.js";
import { parseAttributePath, type PathStep } from "../../src/terraform/attribute-path.js";
import { attributesAt, findNamedAttributes, isIgnored } from "../../src/analysis/attributes.js";
import { absentWhenEnabled, existenceCondition, nullWhenEnabled, type KnownCondition } from "../../src/analysis/autoscaling.js";
import { chainLocals, viaText } from "../../src/analysis/references.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { chainHops, holdingArgumentHop, joinHops } from "../../src/analysis/paths.js";

interface Candidate {
  resource: Resource;
  /** Desired-count paths (one for a known type; the name matches for others). */
  desired: { path: string; ignorePath: string; steps: PathStep[]; absentIsSafe: boolean }[];
  known: boolean;
  /** Attached to another group (reported only when no other group exists). */
  attached: boolean;
  /** What made it a scaling group. */
  reason: { variable: string; chain: ChainStep[] };
}

function reachesVariable(ctx: RuleContext, resource: Resource, variable: string): ChainStep[] | null {
  for (const expr of ctx.graph.resourceExpressions(resource)) {
    const chain = ctx.graph.reaches(expr, variable);
    if (chain) return chain;
  }
  return null;
}

function candidateOf(ctx: RuleContext, resource: Resource): Candidate | null {
  if (resource.mode !== "managed" || NOT_SCALING_GROUPS.has(resource.type)) return null;
  let reason: Candidate["reason"] | null = null;
  for (const variable of ["var.autoscaling", "var.replicas"]) {
    const chain = reachesVariable(ctx, resource, variable);
    if (chain) {
      reason = { variable, chain };
      break;
    }
  }
  if (!reason) return null;
  const known = scalingGroupType(resource.type);
  if (known) {
    const steps = parseAttributePath(known.desired);
    if (!steps) return null;
    return {
      resource,
      known: true,
      attached: known.attached ?? false,
      reason,
      desired: [{ path: known.desired, ignorePath: known.ignorePath, steps, absentIsSafe: known.absentIsSafe }],
    };
  }
  const found = findNamedAttributes(resource.body, FALLBACK_DESIRED_NAMES);
  if (found.length === 0) return null;
  const paths = [...new Set(found.map((f) => f.path))];
  return {
    resource,
    known: false,
    attached: false,
    reason,
    desired: paths.map((p) => ({ path: p, ignorePath: p, steps: parseAttributePath(p)!, absentIsSafe: false })),
  };
}

/**
 * The conditions under which an autoscaler of `group` exists
 * (`count = local.scaler_on ? 1 : 0` on a resource that targets it).
 */
function autoscalerConditions(ctx: RuleContext, group: Resource): KnownCondition[] {
  const out: KnownCondition[] = [];
  for (const r of ctx.expressions.resources.values()) {
    if (r === group || r.mode !== "managed" || !AUTOSCALER_TYPES.has(r.type)) continue;
    const exists = existenceCondition(ctx.expressions, r);
    if (!exists) continue;
    if (ctx.graph.resourceExpressions(r).some((e) => ctx.graph.reaches(e, group.address) !== null)) out.push(exists);
  }
  return out;
}

/**
 * Does this desired-count path stay out of Terraform's hands when autoscaling
 * is on: ignored, or null whenever autoscaling is enabled or whenever an
 * autoscaler of the group exists?
 */
function pathKeptOut(module: Module, resource: Resource, d: Candidate["desired"][number], autoscalers: readonly KnownCondition[]): boolean {
  if (isIgnored(resource, d.steps)) return true;
  const names = d.steps.filter((s): s is { kind: "attr"; name: string } => s.kind === "attr").map((s) => s.name);
  const attrs = attributesAt(resource.body, names);
  if (attrs.length === 0) return d.absentIsSafe;
  return attrs.every((a) => nullWhenEnabled(module, a.expr) || autoscalers.some((k) => nullWhenEnabled(module, a.expr, 0, k)));
}

export default defineRule({
  id: "pool/autoscaling-ignore-changes",
  provenance: "reference",
  severity: "warning",
  roles: ["machinepool"],
  summary: "With autoscaling, the scaling group's desired count is ignored by Terraform (ignore_changes or null)",
  scope: "all",
  fixable: true,
  // Unsafe: ignore_changes takes the attribute out of Terraform's hands.
  fixKinds: ["unsafe"],
  tags: ["contract", "machinepool", "autoscaling", "drift"],
  check(ctx) {
    const module = ctx.expressions;
    if (!ctx.graph.isReferenced("var.autoscaling", { excludeModuleCalls: true })) return;

    const candidates: Candidate[] = [];
    for (const resource of module.resources.values()) {
      const c = candidateOf(ctx, resource);
      if (c) candidates.push(c);
    }
    const knownGroups = candidates.filter((c) => c.known);
    const groups = knownGroups.length > 0 ? knownGroups : candidates;

    if (groups.length === 0) {
      // The group may live in a module this one calls (checked on its own).
      for (const call of module.moduleCalls.values()) {
        for (const arg of call.args.values()) {
          if (ctx.graph.reaches(arg.expr, "var.autoscaling")) return;
        }
      }
      const declared = module.variables.get("autoscaling");
      const where = ctx.isRoot || !declared ? {} : { file: declared.file.path, range: blockHeaderRange(declared.block) };
      ctx.report({
        message:
          "The module reads var.autoscaling but no scaling-group resource references var.autoscaling or var.replicas; size the group from var.replicas and put its desired-count attribute under lifecycle { ignore_changes }",
        ...where,
      });
      return;
    }

    // One group that keeps the count out of Terraform's hands is enough (a
    // module may switch between a fixed and an autoscaled group); a group
    // that does not exist while autoscaling is enabled does not matter.
    const live = groups.filter((c) => !absentWhenEnabled(module, c.resource));
    if (live.some((c) => c.desired.some((d) => pathKeptOut(module, c.resource, d, autoscalerConditions(ctx, c.resource))))) return;
    const primary = live.filter((c) => !c.attached);
    for (const c of primary.length > 0 ? primary : live) {
      const r = c.resource;
      const names = c.desired.map((d) => d.path).join(" or ");
      const origin =
        c.reason.variable === "var.autoscaling"
          ? `reads var.autoscaling${viaText(chainLocals(c.reason.chain))}`
          : `is sized from var.replicas${viaText(chainLocals(c.reason.chain))}`;
      const fix = c.desired.length === 1 ? ignoreChangesFix(r, c.desired[0]!.ignorePath) : null;
      const what = c.desired.length === 1 ? c.desired[0]!.ignorePath : "the desired-count attribute";
      // Why it is a scaling group: the argument that reads the input, and on to the variable.
      const first = c.reason.chain[0];
      const related = joinHops([first ? holdingArgumentHop(r, first.range) : null], chainHops(module, c.reason.chain, r));
      ctx.report({
        related,
        message: `${r.address} ${origin}, but Terraform still manages ${names}, so every cloud-side scale shows as drift and the next apply resets it; add ${what} to lifecycle { ignore_changes } or set it to null while var.autoscaling.enabled is true`,
        file: r.file.path,
        range: blockHeaderRange(r.block),
        ...(fix ? { fix } : {}),
      });
    }
  },
});

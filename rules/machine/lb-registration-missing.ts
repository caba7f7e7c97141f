/**
 * `machine/lb-registration-missing`: a machine module that is handed a
 * backend group by the cluster module must register (and on destroy
 * deregister) its machine there, in its own state.
 */
import type { Attribute, Block, Expression, Range, TemplatePart } from "../../src/hcl/ast.js";
import { bodyAttributes } from "../../src/hcl/blocks.js";
import { constantValue, exprText, unwrap, walkExpression } from "../../src/hcl/walk.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Module, SourceFile } from "../../src/terraform/module-types.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import { isBackendIdStep, MEMBERSHIP_TYPES, SCRIPTED_REGISTRATION } from "../../src/contract/cloud/memberships.js";
import { isStubModule, membershipsOf } from "../../src/analysis/memberships.js";
import { localHop } from "../../src/analysis/paths.js";
import { resourceSite } from "../../src/analysis/iteration.js";
import { alternatives, classify, type Site } from "../../src/analysis/values.js";
import { argumentExpressions } from "../shared/backend-groups.js";

const OUTPUTS = "var.captf_cluster_outputs";

/** One place an expression of the module sits. */
interface Holder {
  /** `local.x`, a resource address, `module.x`, `output.x`. */
  owner: string;
  file: SourceFile;
  expr: Expression;
  /** The attribute (for hops and consumers). */
  attr: Attribute;
}

function holders(m: Module): Holder[] {
  const out: Holder[] = [];
  for (const l of m.locals.values()) out.push({ owner: `local.${l.name}`, file: l.file, expr: l.value, attr: l.attr });
  for (const r of [...m.resources.values(), ...m.dataSources.values()]) {
    for (const { attr } of bodyAttributes(r.body)) out.push({ owner: r.address, file: fileOf(r, attr), expr: attr.expr, attr });
  }
  for (const c of m.moduleCalls.values()) {
    for (const attr of c.args.values()) out.push({ owner: `module.${c.name}`, file: fileOf(c, attr), expr: attr.expr, attr });
  }
  for (const o of m.outputs.values()) {
    if (o.valueAttr) out.push({ owner: `output.${o.name}`, file: fileOf(o, o.valueAttr), expr: o.valueAttr.expr, attr: o.valueAttr });
  }
  return out;
}

/** A read of a backend id out of the cluster outputs. */
interface Read {
  holder: Holder;
  node: Expression;
  step: string;
}

/** Does `e` (a collection being traversed) come from the cluster outputs (directly or through locals, try, jsondecode(jsonencode(...)))? */
function fromOutputs(graph: DependencyGraph, e: Expression): boolean {
  return graph.reaches(e, OUTPUTS) !== null;
}

function stepNames(steps: readonly { kind: string; name?: string; key?: string | number }[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    if (s.kind === "TraverseAttr" && s.name) out.push(s.name);
    else if (s.kind === "TraverseIndex" && typeof s.key === "string") out.push(s.key);
  }
  return out;
}

function readsIn(graph: DependencyGraph, holder: Holder, out: Read[]): void {
  walkExpression(holder.expr, (e) => {
    let step: string | undefined;
    if (e.kind === "ScopeTraversal") {
      const [root, name] = e.traversal;
      if (root?.kind !== "TraverseRoot" || name?.kind !== "TraverseAttr") return;
      // The step first: asking where a local comes from costs a walk of what
      // it depends on, and most references read no backend id at all.
      step = stepNames(e.traversal.slice(2)).find(isBackendIdStep);
      if (step === undefined) return;
      const base = `${root.name}.${name.name}`;
      const origin = base === OUTPUTS || (root.name === "local" && (() => {
        const l = graph.local(name.name);
        return l !== undefined && fromOutputs(graph, l.value);
      })());
      if (!origin) return;
    } else if (e.kind === "RelativeTraversal") {
      step = stepNames(e.traversal).find(isBackendIdStep);
      if (step === undefined || !fromOutputs(graph, e.source)) return;
    } else if (e.kind === "Index") {
      const k = constantValue(unwrap(e.key));
      if (!k.known || typeof k.value !== "string" || !isBackendIdStep(k.value) || !fromOutputs(graph, e.collection)) return;
      step = k.value;
    } else if (e.kind === "FunctionCall" && e.name === "lookup" && e.args.length >= 2) {
      const k = constantValue(unwrap(e.args[1]!));
      if (!k.known || typeof k.value !== "string" || !isBackendIdStep(k.value) || !fromOutputs(graph, e.args[0]!)) return;
      step = k.value;
    }
    if (step !== undefined) out.push({ holder, node: e, step });
  }, false);
}

function inside(node: { range: Range }, outer: { range: Range }): boolean {
  return node.range.start.offset >= outer.range.start.offset && node.range.end.offset <= outer.range.end.offset;
}

/** The text of a provisioner command: its literal parts (interpolations dropped). */
export function commandText(e: Expression): string {
  const x = unwrap(e);
  const c = constantValue(x);
  if (c.known && typeof c.value === "string") return c.value;
  if (x.kind !== "Template") return "";
  // The parts in source order through %{ if } and %{ for } directives at any
  // depth: an explicit stack, parts pushed in reverse.
  let text = "";
  const pending: TemplatePart[] = [...x.parts].reverse();
  const pushAll = (ps: readonly TemplatePart[]): void => {
    for (let i = ps.length - 1; i >= 0; i--) pending.push(ps[i]!);
  };
  while (pending.length > 0) {
    const p = pending.pop()!;
    if (p.kind === "TemplateLiteral") text += p.value;
    else if (p.kind === "TemplateIf") {
      if (p.else) pushAll(p.else);
      pushAll(p.then);
    } else if (p.kind === "TemplateFor") pushAll(p.body);
    else text += " ";
  }
  return text;
}

interface Provisioner {
  /** The resource the provisioner belongs to. */
  owner: string;
  block: Block;
  command: Attribute;
  file: SourceFile;
  text: string;
  atDestroy: boolean;
}

function provisioners(m: Module): Provisioner[] {
  const out: Provisioner[] = [];
  for (const r of m.resources.values()) {
    for (const block of r.body.blocks) {
      if (block.type !== "provisioner" || block.labels[0] !== "local-exec") continue;
      const command = block.body.attributes.find((a) => a.name === "command");
      if (!command) continue;
      const when = block.body.attributes.find((a) => a.name === "when");
      const w = when ? unwrap(when.expr) : null;
      const atDestroy = w !== null && w.kind === "ScopeTraversal" && w.traversal.length === 1 && w.traversal[0]!.kind === "TraverseRoot" && w.traversal[0].name === "destroy";
      out.push({ owner: r.address, block, command, file: fileOf(r, command), text: commandText(command.expr), atDestroy });
    }
  }
  return out;
}

/** The membership resource to suggest, by the cloud of the module's own resources. */
function suggestion(m: Module): string {
  const prefixes: Record<string, string> = { aws: "aws_", azure: "azurerm_", gcp: "google_", openstack: "openstack_", oci: "oci_" };
  for (const r of m.resources.values()) {
    const row = MEMBERSHIP_TYPES.find((t) => t.kind === "member" && r.type.startsWith(prefixes[t.cloud]!));
    if (row) return `${/^[aeio]/.test(row.type) ? "an" : "a"} ${row.type} whose ${row.group[0]!.join(".")} is this value`;
  }
  return "a membership resource (aws_lb_target_group_attachment, azurerm_network_interface_backend_address_pool_association, google_compute_instance_group_membership, openstack_lb_member_v2, oci_network_load_balancer_backend) whose group argument is this value";
}

function checkReads(ctx: RuleContext, provs: readonly Provisioner[]): void {
  const m = ctx.expressions;
  const graph = ctx.graph;
  const all = holders(m);
  const reads: Read[] = [];
  for (const h of all) readsIn(graph, h, reads);
  if (reads.length === 0) return;
  const memberships = membershipsOf(m);
  // A resource whose provisioner registers (it may pass the id through `self.input`) consumes what it reads.
  const registering = new Set(provs.filter((p) => SCRIPTED_REGISTRATION.some((s) => s.register.test(p.text))).map((p) => p.owner));
  const consumingResources = new Set([...memberships.map((x) => x.resource.address), ...registering]);
  const consumers: Expression[] = [
    ...memberships.flatMap((x) => x.group.flatMap((a) => argumentExpressions(graph, x.resource, a.expr))),
    ...[...m.moduleCalls.values()].flatMap((c) => [...c.args.values()].map((a) => a.expr)),
    ...[...registering].flatMap((address) => graph.resourceExpressions(m.resources.get(address)!)),
  ];
  const consumed = (r: Read): boolean => {
    if (consumingResources.has(r.holder.owner) || r.holder.owner.startsWith("module.")) return true;
    if (consumers.some((c) => inside(r.node, c))) return true;
    return r.holder.owner.startsWith("local.") && consumers.some((c) => graph.reaches(c, r.holder.owner) !== null);
  };
  const done = new Set<string>();
  for (const r of reads) if (consumed(r)) done.add(r.step);
  for (const r of reads) {
    if (done.has(r.step)) continue;
    done.add(r.step);
    const text = exprText(r.holder.file.hcl, r.node);
    const hop = r.holder.owner.startsWith("local.") ? localHop(m, r.holder.owner) : null;
    const related = hop ? [hop] : [];
    ctx.report({
      message: `This machine module reads the backend group id ${text} from captf_cluster_outputs, but nothing registers the machine in it (no membership resource's group argument, module call or registering provisioner uses it): a control-plane machine never joins the API load balancer, so the control plane is unreachable through its endpoint; add ${suggestion(m)}, counted on var.control_plane`,
      file: r.holder.file,
      range: r.node.range,
      ...(related.length > 0 ? { related } : {}),
    });
  }
}

function checkFixedGroups(ctx: RuleContext): void {
  const m = ctx.expressions;
  for (const { resource, group } of membershipsOf(m, ["member"])) {
    if (group.length === 0) continue;
    const values = new Map<Attribute, Site>();
    const kinds = group.map((a) => {
      // Evaluated per instance: `each.value` over a literal map of ARNs is a constant.
      const alts = alternatives(m, resourceSite(m, resource, a.expr), { scalar: true });
      if (alts.length > 0 && alts.every((x) => {
        const c = classify(x.expr);
        return c.kind === "string" && typeof c.value === "string";
      })) {
        if (unwrap(alts[0]!.expr) !== unwrap(a.expr)) values.set(a, alts[0]!);
        return "constant";
      }
      const deps = argumentExpressions(ctx.graph, resource, a.expr)
        .flatMap((e) => [...ctx.graph.dependencies(e).keys()])
        .filter((k) => !k.startsWith("local.") && !k.startsWith("each.") && !k.startsWith("count."));
      if (deps.length === 0) return "constant";
      return deps.every((k) => k.startsWith("data.")) ? "data" : "input";
    });
    if (kinds.includes("input")) continue;
    const attr = group[0]!;
    const what = group
      .map((a, i) => {
        if (kinds[i] !== "constant") return `${a.name} from a data source`;
        const v = values.get(a);
        const written = `${a.name} = ${exprText(fileOf(resource, a).hcl, a.expr)}`;
        return v ? `${written}, which is ${exprText(v.file.hcl, v.expr)}` : written;
      })
      .join(", ");
    const how = kinds.every((k) => k === "constant") ? "a constant" : kinds.every((k) => k === "data") ? "a data-source lookup" : "constants and data-source lookups only";
    ctx.report({
      message: `${resource.address} names its backend group with ${how} (${what}), not with the id the cluster module publishes in captf_cluster_outputs: the machine registers in whatever that finds, not in its own cluster's API backend; read the group id from var.captf_cluster_outputs`,
      file: fileOf(resource, attr),
      range: attr.expr.range,
      ...(values.get(attr)?.trail?.length ? { related: values.get(attr)!.trail! } : {}),
    });
  }
}

function checkScripts(ctx: RuleContext, provs: readonly Provisioner[]): void {
  for (const p of provs) {
    if (p.atDestroy) continue;
    const i = SCRIPTED_REGISTRATION.findIndex((s) => s.register.test(p.text));
    if (i < 0) continue;
    const undo = SCRIPTED_REGISTRATION[i]!.deregister;
    if (provs.some((q) => q.atDestroy && undo.test(q.text))) continue;
    ctx.report({
      message: `This local-exec registers the machine in a load-balancer backend, but no provisioner with when = destroy deregisters it: deleting the Machine leaves a dead backend behind the API endpoint; add a destroy-time provisioner that removes it, or use a membership resource, which Terraform deletes with the machine`,
      file: p.file,
      range: p.command.expr.range,
    });
  }
}

export default defineRule({
  id: "machine/lb-registration-missing",
  provenance: "control-plane",
  severity: "warning",
  roles: ["machine"],
  summary: "A machine handed a backend group id by the cluster module registers in it (and a scripted registration also deregisters on destroy)",
  scope: "root",
  fixable: false,
  tags: ["contract", "machine", "control-plane", "load-balancer"],
  check(ctx) {
    if (isStubModule(ctx.expressions)) return;
    const provs = provisioners(ctx.expressions);
    checkReads(ctx, provs);
    checkFixedGroups(ctx);
    checkScripts(ctx, provs);
  },
});

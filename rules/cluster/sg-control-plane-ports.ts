import { defineRule } from "../../src/lint/types.js";
import type { Body, Expression } from "../../src/hcl/ast.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";
import { unwrap } from "../../src/hcl/walk.js";
import type { DependencyGraph } from "../../src/terraform/graph-api.js";
import type { Module, Resource } from "../../src/terraform/module-types.js";
import { blocksOf, fileOf } from "../../src/terraform/module-builder.js";
import { alternatives, objectViews, type Site } from "../../src/analysis/values.js";
import { dynamicBlocks, instanceSite, instancesOf, type Instance, type IterScope } from "../../src/analysis/iteration.js";
import { apiLoadBalancer, backendPortSite, isRke2Aware, portValues, stringValues, type PortValue } from "../../src/analysis/api-lb.js";
import { chainHops, joinHops, type Hop } from "../../src/analysis/paths.js";
import {
  ingressRuleRows,
  securityGroupRow,
  SECURITY_GROUP_EXPORT_NAME,
  type IngressRuleRow,
} from "../../src/contract/cloud/security-groups.js";

/** What a rule instance lets in: every TCP port, a TCP range, the API port, or nothing TCP. */
type Coverage = { kind: "all" } | { kind: "range"; from: number; to: number } | { kind: "api" };

/** A required port: a constant, or the kube-apiserver port when it is not a known constant. */
type Required = ({ port: number } | { port: "api" }) & { label: string; why: string; origin?: Hop[] };

/** Ports the API port never is (control-plane.md, "API port"). */
function neverApiPort(port: number): boolean {
  return port === 9345 || port === 10250 || (port >= 2379 && port <= 2381);
}

function mayCover(c: Coverage, need: Required): boolean {
  if (c.kind === "all") return true;
  if (need.port === "api") return c.kind === "api" || (c.from <= 6443 && 6443 <= c.to);
  if (c.kind === "api") return !neverApiPort(need.port);
  return c.from <= need.port && need.port <= c.to;
}

/**
 * The sites of the argument at `path` in a rule body (recursing once per
 * step of `path`, a short path of the contract's table, never the input's depth), through literal nested
 * blocks (one per block that sets it; none when unset), evaluated for one
 * resource instance or within a block's iteration scope; "dynamic" when a
 * nested block on the way is written with `dynamic` (not followed).
 */
function nestedSites(resource: Resource, body: Body, path: readonly string[], iter: IterScope | undefined, module: Module, inst: Instance | null): Site[] | "dynamic" {
  const [head, ...rest] = path;
  if (head === undefined) return [];
  if (rest.length === 0) {
    const attr = body.attributes.find((a) => a.name === head);
    if (!attr) return [];
    const file = fileOf(resource, attr.expr);
    if (inst) return [instanceSite(module, resource, inst, attr.expr, file)];
    return [{ expr: attr.expr, file, via: [], ...(iter ? { iter } : {}) }];
  }
  if (body.blocks.some((b) => b.type === "dynamic" && b.labels[0] === head)) return "dynamic";
  const out: Site[] = [];
  for (const b of blocksOf(body, head)) {
    const inner = nestedSites(resource, b.body, rest, iter, module, inst);
    if (inner === "dynamic") return "dynamic";
    out.push(...inner);
  }
  return out;
}

/** One rule (one instance, one block) with its argument reader. */
interface RuleInstance {
  resource: Resource;
  row: IngressRuleRow;
  arg(path: readonly string[]): Site[] | "dynamic";
}

function ruleInstances(module: Module, resource: Resource, row: IngressRuleRow): RuleInstance[] | null {
  const out: RuleInstance[] = [];
  if (row.block) {
    // Attribute syntax (`ingress = [...]`) that is not a literal list of objects: unknown rules.
    for (const a of resource.body.attributes) {
      if (a.name !== row.block) continue;
      const e = unwrap(a.expr);
      if (e.kind !== "ObjectCons" && !(e.kind === "TupleCons" && e.exprs.every((x) => unwrap(x).kind === "ObjectCons"))) return null;
    }
    for (const b of dynamicBlocks(module, resource, row.block).blocks) {
      out.push({ resource, row, arg: (path) => nestedSites(resource, b.block.body, path, b.iter, module, null) });
    }
    return out;
  }
  for (const inst of instancesOf(module, resource).instances) {
    out.push({ resource, row, arg: (path) => nestedSites(resource, resource.body, path, undefined, module, inst) });
  }
  return out;
}

function lower(values: { value: string | null }[]): (string | null)[] {
  return values.map((v) => (v.value === null ? null : v.value.toLowerCase()));
}

/** Whether a rule instance is ingress: true, false, or null (unknown). */
function isIngress(module: Module, rule: RuleInstance): boolean | null {
  const d = rule.row.direction;
  if (!d) return true;
  const sites = rule.arg(d.path);
  if (sites === "dynamic" || sites.length !== 1) return null;
  const values = lower(stringValues(module, sites[0]!));
  if (values.length === 0 || values.includes(null)) return null;
  const ingress = d.ingress.map((x) => x.toLowerCase());
  return values.some((v) => ingress.includes(v!)) ? true : false;
}

/** A port bound's values: constants or the API port; null when unknown. */
function boundValues(module: Module, rule: RuleInstance, path: readonly string[]): (number | "api")[] | "unset" | null {
  const sites = rule.arg(path);
  if (sites === "dynamic") return null;
  if (sites.length === 0) return "unset";
  if (sites.length > 1) return null;
  const out: (number | "api")[] = [];
  for (const p of portValues(module, sites[0]!) as PortValue[]) {
    if (p.kind === "const") out.push(p.value);
    else if (p.kind === "api") out.push("api");
    else return null;
  }
  return out.length > 0 ? out : null;
}

/** Everything a rule instance may let in (null: unknown, the rule must stay silent). */
function coverages(module: Module, rule: RuleInstance): Coverage[] | null {
  const proto = rule.row.protocol;
  const sites = rule.arg(proto.path);
  if (sites === "dynamic" || sites.length > 1) return null;
  let protocols: (string | null)[];
  if (sites.length === 0) {
    if (proto.unset === "unknown") return null;
    protocols = ["\u0000all"];
  } else {
    protocols = lower(stringValues(module, sites[0]!));
  }
  if (protocols.length === 0 || protocols.includes(null)) return null;
  const all = proto.all.map((x) => x.toLowerCase());
  const tcp = proto.tcp.map((x) => x.toLowerCase());
  const out: Coverage[] = [];
  if (protocols.some((p) => p === "\u0000all" || all.includes(p!))) out.push({ kind: "all" });
  if (!protocols.some((p) => tcp.includes(p!))) return out;
  const min = boundValues(module, rule, rule.row.ports.min);
  const max = boundValues(module, rule, rule.row.ports.max);
  if (min === null || max === null) return null;
  if (min === "unset" || max === "unset") {
    if (min === "unset" && max === "unset" && rule.row.ports.unset === "all") {
      out.push({ kind: "all" });
      return out;
    }
    return null;
  }
  for (const a of min) {
    for (const b of max) {
      if (a === "api" && b === "api") out.push({ kind: "api" });
      else if (typeof a === "number" && typeof b === "number") out.push({ kind: "range", from: a, to: b });
      // A range from a constant to the API port (or back) holds what the input decides.
      else return null;
    }
  }
  return out;
}

/**
 * The managed resources, variables and data sources an expression's value
 * comes from (no resource arguments followed); null when the value nests
 * lists deeper than the budget (unknown: the rule stays silent).
 */
function valueSources(module: Module, graph: DependencyGraph, site: Site): string[] | null {
  const out: string[] = [];
  // A budget of 32 nested lists, calls and `for`s, each level asking
  // `alternatives` afresh: it bounds the recursion (any input depth is safe
  // on the main thread) and the work; deeper values are unknown.
  let unknown = false;
  const leaf = (e: Expression, s: Site, depth: number): void => {
    if (depth > 32) {
      unknown = true;
      return;
    }
    const x = unwrap(e);
    if (x.kind === "FunctionCall" && !x.expandFinal && ["concat", "one", "tolist", "toset", "flatten", "compact", "distinct", "coalescelist", "values"].includes(x.name)) {
      for (const a of x.args) for (const alt of alternatives(module, { ...s, expr: a })) leaf(alt.expr, alt, depth + 1);
      return;
    }
    if (x.kind === "TupleCons") {
      for (const el of x.exprs) for (const alt of alternatives(module, { ...s, expr: el })) leaf(alt.expr, alt, depth + 1);
      return;
    }
    if (x.kind === "For") {
      for (const alt of alternatives(module, { ...s, expr: x.collection })) leaf(alt.expr, alt, depth + 1);
      for (const alt of alternatives(module, { ...s, expr: x.valExpr })) leaf(alt.expr, alt, depth + 1);
      return;
    }
    for (const address of graph.dependencies(x).keys()) out.push(address);
  };
  for (const alt of alternatives(module, site)) leaf(alt.expr, alt, 0);
  return unknown ? null : out;
}

/** What each required port carries, for messages. */
const PORT_USES: Record<number, { label: string; why: string }> = {
  2379: { label: "etcd client", why: "the API servers reach etcd on it" },
  2380: { label: "etcd peer", why: "etcd members on the control-plane nodes replicate over it" },
  2381: { label: "etcd metrics and health", why: "RKE2 checks etcd health on it" },
  10250: { label: "kubelet API", why: "the API server reaches every kubelet on it (logs, exec, metrics)" },
  9345: { label: "RKE2 supervisor", why: "joining RKE2 servers and agents register through it" },
};

export default defineRule({
  id: "cluster/sg-control-plane-ports",
  provenance: "control-plane",
  severity: "warning",
  roles: ["cluster"],
  summary: "The exported security groups (AWS, OpenStack, OCI), with every rule known, open no path for a control-plane port",
  scope: "root",
  fixable: false,
  tags: ["contract", "cluster", "network"],
  check(ctx) {
    const module = ctx.expressions;
    const graph = ctx.graph;
    const exportsOut = module.outputs.get("exports");
    if (!exportsOut?.value) return;
    const exportsFile = exportsOut.valueAttr ? fileOf(exportsOut, exportsOut.valueAttr) : exportsOut.file;

    // The groups the module creates whose id reaches exports, in the order exports reaches them.
    const exportDeps = graph.dependencies(exportsOut.value);
    const groups: { resource: Resource; hops: Hop[] }[] = [];
    for (const address of exportDeps.keys()) {
      const r = module.resources.get(address);
      if (!r || !securityGroupRow(r.type)) continue;
      // Only a group's chain is spelled out (all of them would cost the square of a long chain of locals).
      const chain = exportDeps.get(address)!;
      const read: Hop = { file: exportsFile, range: chain[0]!.range, message: `exports reads ${chain[0]!.address}` };
      groups.push({ resource: r, hops: joinHops([read], chainHops(module, chain)) });
    }
    if (groups.length === 0) return;
    const groupAddresses = new Set(groups.map((g) => g.resource.address));

    // Security groups published from an input or a data source: rules may live elsewhere.
    const views = objectViews(module, { expr: exportsOut.value, file: exportsFile, via: [] });
    if (views.length === 0 || views.some((v) => !v.complete)) return;
    for (const view of views) {
      for (const [name, site] of view.attrs) {
        if (!SECURITY_GROUP_EXPORT_NAME.test(name)) continue;
        const sources = valueSources(module, graph, site);
        if (sources === null || sources.some((a) => a.startsWith("var.") || a.startsWith("data."))) return;
      }
    }

    // A group handed to a module call may get its rules there.
    for (const call of module.moduleCalls.values()) {
      for (const attr of call.args.values()) {
        for (const address of graph.dependencies(attr.expr).keys()) if (groupAddresses.has(address)) return;
      }
    }

    // Every ingress rule instance of the checked groups.
    const covers: Coverage[] = [];
    let rules = 0;
    for (const r of module.resources.values()) {
      for (const row of ingressRuleRows(r.type)) {
        if (row.block && !groupAddresses.has(r.address)) continue;
        const instances = ruleInstances(module, r, row);
        if (instances === null) return;
        for (const rule of instances) {
          const ingress = isIngress(module, rule);
          if (ingress === false) continue;
          if (!row.block) {
            const owner = ruleGroup(module, graph, rule, groupAddresses);
            if (owner === "other") continue;
            if (owner === "unknown") return;
          }
          if (ingress === null) return;
          const c = coverages(module, rule);
          if (c === null) return;
          rules++;
          covers.push(...c);
        }
      }
    }
    if (rules === 0) return;

    const rke2 = isRke2Aware(module);
    const ports = [2379, 2380, 10250, ...(rke2 ? [9345, 2381] : [])];
    const required: Required[] = [apiRequirement(module, graph), ...ports.map((port) => ({ port, ...PORT_USES[port]! }))];

    const first = groups[0]!;
    const names = groups.map((g) => g.resource.address).join(", ");
    for (const need of required) {
      if (covers.some((c) => mayCover(c, need))) continue;
      const what = need.port === "api" ? "the kube-apiserver port (6443, or cluster_network.api_server_port)" : `TCP ${need.port} (${need.label})`;
      ctx.report({
        message: `No ingress rule of the exported security group${groups.length > 1 ? "s" : ""} (${names}) lets in ${what}: ${need.why}, and without it the cluster hangs instead of failing. Open it, for example with a rule for every protocol from the group itself`,
        file: first.resource.file,
        range: blockHeaderRange(first.resource.block, first.resource.file.hcl.syntax),
        related: joinHops(...groups.map((g) => g.hops), need.origin ?? []),
      });
    }
  },
});

/** Which group a stand-alone rule instance belongs to: a checked one, another one, or unknown. */
function ruleGroup(module: Module, graph: DependencyGraph, rule: RuleInstance, groups: Set<string>): "checked" | "other" | "unknown" {
  const sites = rule.row.groupArg ? rule.arg(rule.row.groupArg) : [];
  if (sites === "dynamic" || sites.length !== 1) return "unknown";
  let other = false;
  for (const alt of alternatives(module, sites[0]!)) {
    const deps = [...graph.dependencies(alt.expr).keys()];
    if (deps.some((a) => groups.has(a))) return "checked";
    if (deps.some((a) => a.startsWith("var.") || a.startsWith("data.") || a.startsWith("module.") || module.resources.has(a))) other = true;
    else return "unknown";
  }
  return other ? "other" : "unknown";
}

/**
 * The kube-apiserver backend port: the constant every API backend group
 * (other than a 9345 one) delivers to, when the API LB topology knows it;
 * else the API port (met by a rule holding 6443 or using the API port).
 */
function apiRequirement(module: Module, graph: DependencyGraph): Required {
  const why = "the load balancer's health checks and traffic reach the API servers on it";
  const fallback: Required = { port: "api", label: "kube-apiserver", why };
  const topo = apiLoadBalancer(module, graph);
  if (!topo) return fallback;
  const ports = new Set<number | "api" | "other">();
  const origin: Hop[] = [];
  for (const path of topo.paths) {
    const site = backendPortSite(path);
    if (!site) {
      ports.add("other");
      continue;
    }
    for (const p of portValues(module, site)) {
      if (p.kind === "const" && p.value === 9345) continue;
      ports.add(p.kind === "const" ? p.value : p.kind === "api" ? "api" : "other");
      if (p.kind === "const") origin.push({ file: site.file, range: site.expr.range, message: `API backend port ${p.value}${path.group ? ` of ${path.group.resource.address}` : ""}` });
    }
  }
  if (ports.size !== 1) return fallback;
  const only = [...ports][0]!;
  if (typeof only !== "number") return fallback;
  return { port: only, label: "kube-apiserver backend port", why, origin };
}


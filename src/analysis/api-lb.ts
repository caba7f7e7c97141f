/**
 * The API load balancer of a cluster module: from the `control_plane_endpoint`
 * output's module-owned branches, through the host to an address, DNS record
 * or load balancer, then to the frontends on that LB (or, on GCP, the
 * forwarding rules on that address), their backend groups and the groups'
 * probes. Everything the `cluster/lb-*` rules check is reached from here;
 * load balancers not reached from the endpoint are never looked at.
 *
 * What counts as an LB, a frontend, a group or a probe, and which arguments
 * link them, comes from the knowledge base (src/contract/cloud/load-balancers.ts):
 * no resource type is named in this file.
 *
 * `apiLoadBalancer` returns null (every rule silent) when the endpoint has no
 * module-owned branch or its host reaches no known LB or address (Pattern C:
 * kube-vip, a variable, a literal IP). Answers are kept per module.
 *
 * Values (ports, protocols, paths, codes) go through the values analysis
 * (values.ts). The symbolic *API port* lives here (`portValues`).
 */
import type { Block, Body, Expression } from "../hcl/ast.js";
import { blockHeaderRange } from "../hcl/blocks.js";
import { constantValue, isNullLiteral, unwrap, walkExpression } from "../hcl/walk.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { Module, Resource, SourceFile } from "../terraform/module-types.js";
import { blocksOf, fileOf, findArguments } from "../terraform/module-builder.js";
import {
  addressRow,
  associationRow,
  backendGroupRow,
  dnsRecordRow,
  frontendRows,
  loadBalancerRow,
  probeRows,
  proxyRow,
  wireProtocol,
  type AddressRow,
  type ArgPath,
  type BackendGroupRow,
  type Cloud,
  type FrontendRow,
  type LoadBalancerRow,
  type ProbeRow,
  type ProxyRow,
  type WireProtocol,
} from "../contract/cloud/load-balancers.js";
import { alternatives, objectViews, type Site } from "./values.js";
import { instanceByKey, instanceSite, instancesOf, resourceSite, type Instance } from "./iteration.js";
import { isRefTo } from "./references.js";
import { localHops, type Hop } from "./paths.js";
import { endpointChoices, endpointOutput } from "./endpoint.js";


/** A module-owned branch of `control_plane_endpoint`: its object, `host` and `port`. */
export interface EndpointBranch {
  site: Site;
  host: Site;
  port: Site | null;
}

export interface LbNode {
  resource: Resource;
  row: LoadBalancerRow;
  hops: Hop[];
}

export interface AddressNode {
  resource: Resource;
  row: AddressRow;
  hops: Hop[];
}

export interface FrontendNode {
  resource: Resource;
  row: FrontendRow;
  /** The body holding the frontend's arguments (the resource's, or the nested block's). */
  body: Body;
  /** The nested block when the frontend is one (`aws_elb` `listener`). */
  block: Block | null;
  /** The API LB it is on (null for a GCP forwarding rule, which sits on the address). */
  lb: LbNode | null;
  /** False when it may or may not be on the API address (Azure rule with an unknown frontend name). */
  certain: boolean;
  hops: Hop[];
}

export interface ProxyNode {
  resource: Resource;
  row: ProxyRow;
}

export interface GroupNode {
  resource: Resource;
  row: BackendGroupRow;
  hops: Hop[];
}

export interface ProbeNode {
  resource: Resource;
  row: ProbeRow;
  /** The body holding the probe's arguments (the resource's, or the nested block's). */
  body: Body;
  /** The nested block when the probe is one (`health_check`, `health_checker`). */
  block: Block | null;
  hops: Hop[];
}

/** One way traffic takes from the endpoint to the backends: frontend → (proxy) → group, with its probes. */
export interface ApiPath {
  /** The module the path is in (its arguments are read in it). */
  module: Module;
  /** The API LB the path runs through (null for GCP, where frontends sit on the address). */
  lb: LbNode | null;
  frontend: FrontendNode | null;
  proxy: ProxyNode | null;
  group: GroupNode | null;
  probes: ProbeNode[];
}

export interface ApiTopology {
  cloud: Cloud;
  endpoints: EndpointBranch[];
  lbs: LbNode[];
  addresses: AddressNode[];
  frontends: FrontendNode[];
  groups: GroupNode[];
  probes: ProbeNode[];
  paths: ApiPath[];
  /** Some expression holds 9345, "9345" or a string equal to rke2 (any case). */
  rke2Aware: boolean;
  /**
   * False when frontends may exist that this analysis does not see: a
   * module call is handed the API LB or its address (a child module may
   * add frontends), or a frontend resource of the cloud names its LB or
   * address only through inputs or data sources. Absence findings need it.
   */
  frontendsComplete: boolean;
}

// --------------------------------------------------------------- helpers

/** The file a node of a resource is in (the resource's, or an override's). */
function fileAt(r: Resource, node: object): SourceFile {
  return fileOf(r, node);
}

function headerHop(r: Resource, message: string): Hop {
  return { file: r.file, range: blockHeaderRange(r.block, r.file.hcl.syntax), message };
}

/**
 * Every value of an argument path in a body, as sites evaluated per
 * instance of the resource (`each.value`, `count.index`, dynamic iterators
 * bound: iteration.ts), or for one instance when given.
 */
export function argumentSites(module: Module, resource: Resource, body: Body, path: ArgPath, instance?: Instance): Site[] {
  return findArguments(body, path).map((m) => {
    const file = fileAt(resource, m.attr ?? m.expr);
    return instance ? instanceSite(module, resource, instance, m.expr, file) : resourceSite(module, resource, m.expr, file);
  });
}

/** The first value of an argument path, or null when unset. */
export function argumentSite(module: Module, resource: Resource, body: Body, path: ArgPath, instance?: Instance): Site | null {
  return argumentSites(module, resource, body, path, instance)[0] ?? null;
}

/** The resources (managed) an argument names, through locals. */
/**
 * The nested blocks `type` of a body: written literally, or the `content`
 * of a `dynamic "type"` block (its arguments, read through resourceSite,
 * bind the iterator).
 */
function nestedBlocks(body: Body, type: string): Block[] {
  const out = blocksOf(body, type);
  for (const d of body.blocks) {
    if (d.type === "dynamic" && d.labels[0] === type) out.push(...blocksOf(d.body, "content"));
  }
  return out;
}

const namedMemo = new WeakMap<Body, Map<string, Set<string>>>();

function namedResources(module: Module, graph: DependencyGraph, resource: Resource, body: Body, paths: readonly ArgPath[]): Set<string> {
  let byPaths = namedMemo.get(body);
  if (!byPaths) {
    byPaths = new Map();
    namedMemo.set(body, byPaths);
  }
  const key = paths.map((p) => p.join(".")).join(",");
  const known = byPaths.get(key);
  if (known) return known;
  const out = new Set<string>();
  for (const p of paths) {
    for (const m of findArguments(body, p)) {
      for (const address of graph.dependencies(m.expr).keys()) if (module.resources.has(address)) out.add(address);
    }
  }
  byPaths.set(key, out);
  return out;
}

function intersects(a: Set<string>, b: Iterable<string>): boolean {
  for (const x of b) if (a.has(x)) return true;
  return false;
}

// ---------------------------------------------------------------- values

/** A port an expression may hold. */
export type PortValue =
  | { kind: "const"; value: number; site: Site }
  /** The symbolic API port (`var.cluster_network.api_server_port`, alone or with 6443). */
  | { kind: "api"; site: Site }
  /** A range `"a-b"` (GCP `port_range`) with a ≠ b. */
  | { kind: "range"; from: number; to: number; site: Site }
  /** Every port (OCI 0, GCP `all_ports`, Azure `frontend_port = 0`). */
  | { kind: "any"; site: Site }
  | { kind: "unknown"; site: Site };

function isApiPortRef(e: Expression): boolean {
  if (e.kind !== "ScopeTraversal" || e.traversal.length !== 3) return false;
  const last = e.traversal[2]!;
  return isRefTo(e, "var", "cluster_network") && last.kind === "TraverseAttr" && last.name === "api_server_port";
}

function portLeaves(module: Module, site: Site, out: PortValue[], depth: number): void {
  if (depth > 20) {
    out.push({ kind: "unknown", site });
    return;
  }
  for (const alt of alternatives(module, site, { scalar: true })) {
    const e = unwrap(alt.expr);
    if (e.kind === "FunctionCall" && !e.expandFinal && (e.name === "tostring" || e.name === "tonumber") && e.args.length === 1) {
      portLeaves(module, { ...alt, expr: e.args[0]! }, out, depth + 1);
      continue;
    }
    if (e.kind === "TupleCons") {
      for (const x of e.exprs) portLeaves(module, { ...alt, expr: x }, out, depth + 1);
      continue;
    }
    if (isApiPortRef(e)) {
      out.push({ kind: "api", site: alt });
      continue;
    }
    const c = constantValue(e);
    if (c.known && typeof c.value === "number" && Number.isInteger(c.value)) {
      out.push({ kind: "const", value: c.value, site: alt });
      continue;
    }
    if (c.known && typeof c.value === "string") {
      const single = /^\s*(\d+)\s*$/.exec(c.value);
      const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(c.value);
      if (single) out.push({ kind: "const", value: Number(single[1]), site: alt });
      else if (range && range[1] === range[2]) out.push({ kind: "const", value: Number(range[1]), site: alt });
      else if (range) out.push({ kind: "range", from: Number(range[1]), to: Number(range[2]), site: alt });
      else out.push({ kind: "unknown", site: alt });
      continue;
    }
    out.push({ kind: "unknown", site: alt });
  }
}

/**
 * The ports an expression may hold. An expression that resolves only to
 * the API server port input and/or 6443 is one `api` value; a list stands
 * for each of its elements.
 */
export function portValues(module: Module, site: Site): PortValue[] {
  const out: PortValue[] = [];
  portLeaves(module, site, out, 0);
  if (out.some((p) => p.kind === "api") && out.every((p) => p.kind === "api" || (p.kind === "const" && p.value === 6443))) {
    return [{ kind: "api", site }];
  }
  return out;
}

/** A port value as text for messages. */
export function describePort(p: PortValue): string {
  switch (p.kind) {
    case "const":
      return String(p.value);
    case "api":
      return "the API server port";
    case "range":
      return `${p.from}-${p.to}`;
    case "any":
      return "every port";
    default:
      return "an unknown port";
  }
}

/** Whether a port value may be `port` (a constant, or a range or any-port holding it; never the API port for 2379-2381, 9345, 10250). */
export function portMayBe(p: PortValue, port: number): boolean {
  switch (p.kind) {
    case "const":
      return p.value === port;
    case "range":
      return p.from <= port && port <= p.to;
    case "any":
      return true;
    case "api":
      return !(port === 9345 || port === 10250 || (port >= 2379 && port <= 2381));
    default:
      return true;
  }
}

/** A string an expression may hold: its value, or null when unknown. */
export interface StringValue {
  value: string | null;
  site: Site;
}

/** The strings an expression may hold (numbers and bools as text); unknown leaves as null. */
export function stringValues(module: Module, site: Site): StringValue[] {
  return alternatives(module, site, { scalar: true }).map((alt) => {
    const c = constantValue(alt.expr);
    const v = c.known && (typeof c.value === "string" || typeof c.value === "number" || typeof c.value === "boolean") ? String(c.value) : null;
    return { value: v, site: alt };
  });
}

/**
 * Whether a boolean argument may be true: an alternative is `true`, or is
 * built from variables and locals with `!`, `==`, `!=`, `&&`, `||` and
 * conditionals (the caller can choose inputs that make it true). A
 * constant `false` on every branch is not.
 */
export function mayBeTrue(module: Module, site: Site): boolean {
  for (const alt of alternatives(module, site, { scalar: true })) {
    const e = unwrap(alt.expr);
    const c = constantValue(e);
    if (c.known) {
      if (c.value === true || c.value === "true") return true;
      continue;
    }
    if (isNullLiteral(e)) continue;
    if (builtFromInputs(e)) return true;
  }
  return false;
}

function builtFromInputs(e: Expression): boolean {
  let ok = true;
  walkExpression(e, (x) => {
    if (!ok) return false;
    switch (x.kind) {
      case "ScopeTraversal": {
        const root = x.traversal[0];
        if (!root || root.kind !== "TraverseRoot" || (root.name !== "var" && root.name !== "local")) ok = false;
        return false;
      }
      case "UnaryOp":
      case "Conditional":
      case "Parentheses":
      case "LiteralValue":
        return true;
      case "Template":
        // A constant string to compare with (`var.env == "prod"`).
        if (!constantValue(x).known) ok = false;
        return false;
      case "BinaryOp":
        if (!["==", "!=", "&&", "||"].includes(x.op)) ok = false;
        return true;
      default:
        ok = false;
        return false;
    }
  });
  return ok;
}

// ------------------------------------------------------------------ RKE2

const rke2Cache = new WeakMap<Module, boolean>();

/** Whether an expression of `body` or of its nested blocks holds the RKE2 mark (an explicit stack of bodies: blocks nest without limit). */
function bodyHoldsRke2(top: Body): boolean {
  const bodies: Body[] = [top];
  while (bodies.length > 0) {
    const body = bodies.pop()!;
    for (const a of body.attributes) {
      let found = false;
      walkExpression(a.expr, (e) => {
        if (found) return false;
        if (e.kind === "LiteralValue" || e.kind === "Template") {
          const c = constantValue(e);
          if (c.known && (c.value === 9345 || c.value === "9345" || (typeof c.value === "string" && c.value.toLowerCase() === "rke2"))) found = true;
        }
        return true;
      });
      if (found) return true;
    }
    for (let i = body.blocks.length - 1; i >= 0; i--) bodies.push(body.blocks[i]!.body);
  }
  return false;
}

/** RKE2-aware module: some expression holds 9345, "9345" or a string equal to rke2 (any case). */
export function isRke2Aware(module: Module): boolean {
  let known = rke2Cache.get(module);
  if (known === undefined) {
    known = module.files.some((f) => bodyHoldsRke2(f.hcl.body));
    rke2Cache.set(module, known);
  }
  return known;
}

// -------------------------------------------------------------- topology

const cache = new WeakMap<Module, ApiTopology | null>();

/** The API load balancer topology of a cluster module, or null (Pattern C, or nothing known). */
export function apiLoadBalancer(module: Module, graph: DependencyGraph): ApiTopology | null {
  if (cache.has(module)) return cache.get(module)!;
  const t = build(module, graph);
  cache.set(module, t);
  return t;
}

/** The module-owned branches of `control_plane_endpoint` (minus null and the input's pass-through). */
export function endpointBranches(module: Module): EndpointBranch[] {
  const output = endpointOutput(module);
  if (!output) return [];
  const out: EndpointBranch[] = [];
  for (const { site } of endpointChoices(module, output)) {
    for (const view of objectViews(module, site)) {
      const host = view.attrs.get("host");
      if (host) out.push({ site, host, port: view.attrs.get("port") ?? null });
    }
  }
  return out;
}

function build(module: Module, graph: DependencyGraph): ApiTopology | null {
  const endpoints = endpointBranches(module);
  if (endpoints.length === 0) return null;

  const nodes = hostNodes(module, graph, endpoints);
  const { lbs, addresses } = nodes;
  if (lbs.size === 0 && addresses.size === 0 && nodes.directFrontends.size === 0) return null;

  // The resources the steps below look at: every one of them reads only
  // resources of a type with a row in these tables (so the others' instances
  // are never worked out), and a resource that certainly has no instance
  // (`count = 0`) takes no part.
  const resources = [...module.resources.values()].filter((r) => {
    if (!hasTopologyRow(r.type)) return false;
    const inst = instancesOf(module, r);
    return inst.instances.length > 0 || !inst.complete;
  });
  if (addresses.size > 0) linkAddressesToLbs(module, graph, resources, nodes);

  const frontends = collectFrontends(module, graph, resources, nodes);
  // An address in front of no LB is no API LB (an instance's address), unless frontends sit on addresses (GCP).
  if (lbs.size === 0 && frontends.length === 0 && ![...addresses.values()].some((a) => a.row.frontendsOnAddress)) return null;

  const { groups, paths } = collectPaths(module, graph, resources, lbs, frontends);
  const probes = attachProbes(module, graph, resources, paths);

  const childMayAdd = [...module.moduleCalls.values()].some((call) =>
    [...call.args.values()].some((a) => {
      for (const address of graph.dependencies(a.expr).keys()) if (lbs.has(address) || addresses.has(address)) return true;
      return false;
    }),
  );
  // A frontend whose LB or address link names no resource (an input, a data source) may be on the API LB.
  const unlinkedFrontend = resources.some((r) =>
    frontendRows(r.type).some((row) => {
      if (row.block) return false;
      const links = [...row.lbArgs, ...row.addressArgs];
      if (links.length === 0 || !links.some((p) => findArguments(r.body, p).length > 0)) return false;
      return namedResources(module, graph, r, r.body, links).size === 0;
    }),
  );
  const first = lbs.values().next().value?.resource ?? frontends[0]?.resource ?? addresses.values().next().value?.resource;
  const cloud = first ? (loadBalancerRow(first.type)?.cloud ?? frontendRows(first.type)[0]?.cloud ?? addressRow(first.type)?.cloud) : undefined;
  if (!cloud) return null;
  return {
    cloud,
    endpoints,
    lbs: [...lbs.values()],
    addresses: [...addresses.values()],
    frontends,
    groups: [...groups.values()],
    probes: [...probes.values()],
    paths,
    rke2Aware: isRke2Aware(module),
    frontendsComplete: !childMayAdd && !unlinkedFrontend,
  };
}

/** A resource type the topology's steps read: an LB, an address association, a frontend, a backend group or a probe. */
function hasTopologyRow(type: string): boolean {
  return (
    loadBalancerRow(type) !== undefined ||
    associationRow(type) !== undefined ||
    frontendRows(type).length > 0 ||
    backendGroupRow(type) !== undefined ||
    probeRows(type).length > 0
  );
}

/** The API LBs and addresses found so far, by address, in the order found. */
interface ApiNodes {
  readonly lbs: Map<string, LbNode>;
  readonly addresses: Map<string, AddressNode>;
  /** Frontends the host names directly (a GCP forwarding rule's own address). */
  readonly directFrontends: Map<string, Hop[]>;
}

/** Adds r as an API LB (the first way found to it wins). */
function addLb(nodes: ApiNodes, r: Resource, hops: Hop[]): void {
  const row = loadBalancerRow(r.type);
  if (row && !nodes.lbs.has(r.address)) nodes.lbs.set(r.address, { resource: r, row, hops: [...hops, headerHop(r, `API load balancer ${r.address}`)] });
}

/** What the endpoints' hosts name: LBs, addresses, frontends, directly or through a DNS record. */
function hostNodes(module: Module, graph: DependencyGraph, endpoints: EndpointBranch[]): ApiNodes {
  const nodes: ApiNodes = { lbs: new Map(), addresses: new Map(), directFrontends: new Map() };
  const { addresses, directFrontends } = nodes;

  const addAddress = (r: Resource, hops: Hop[]): void => {
    const row = addressRow(r.type);
    if (row && !addresses.has(r.address)) addresses.set(r.address, { resource: r, row, hops: [...hops, headerHop(r, `API address ${r.address}`)] });
  };

  const classify = (r: Resource, hops: Hop[], viaDns: boolean): void => {
    if (loadBalancerRow(r.type)) addLb(nodes, r, hops);
    else if (addressRow(r.type)) addAddress(r, hops);
    else if (!viaDns && dnsRecordRow(r.type)) {
      const row = dnsRecordRow(r.type)!;
      const dnsHops = [...hops, headerHop(r, `DNS record ${r.address}`)];
      for (const address of namedResources(module, graph, r, r.body, row.targetArgs)) classify(module.resources.get(address)!, dnsHops, true);
    } else if (frontendRows(r.type).some((f) => !f.block && f.addressArgs.length > 0)) {
      if (!directFrontends.has(r.address)) directFrontends.set(r.address, hops);
    }
  };

  for (const ep of endpoints) {
    const hostHop: Hop = { file: ep.host.file, range: ep.host.expr.range, message: "control_plane_endpoint host" };
    for (const [address, chain] of graph.dependencies(ep.host.expr)) {
      const r = module.resources.get(address);
      if (r) classify(r, [...localHops(module, ep.host.via), hostHop, ...localHops(module, chain.map((c) => c.address).filter((a) => a.startsWith("local.")))], false);
    }
  }
  return nodes;
}

/** Address → LB: the LB names the address, the address names the LB, or an association binds them. */
function linkAddressesToLbs(module: Module, graph: DependencyGraph, resources: Resource[], nodes: ApiNodes): void {
  const { addresses } = nodes;
  const addressKeys = new Set(addresses.keys());
  for (const r of resources) {
    const row = loadBalancerRow(r.type);
    if (!row) continue;
    const named = namedResources(module, graph, r, r.body, row.addressArgs);
    const via = [...named].find((a) => addressKeys.has(a));
    if (via) addLb(nodes, r, addresses.get(via)!.hops);
  }
  for (const a of addresses.values()) {
    for (const lbAddress of namedResources(module, graph, a.resource, a.resource.body, a.row.lbArgs)) {
      const r = module.resources.get(lbAddress)!;
      addLb(nodes, r, a.hops);
    }
  }
  for (const r of resources) {
    const row = associationRow(r.type);
    if (!row) continue;
    const named = [...namedResources(module, graph, r, r.body, row.addressArgs)].find((a) => addressKeys.has(a));
    if (!named) continue;
    for (const lbAddress of namedResources(module, graph, r, r.body, row.lbArgs)) {
      addLb(nodes, module.resources.get(lbAddress)!, [...addresses.get(named)!.hops, headerHop(r, `address association ${r.address}`)]);
    }
  }
}

/** Frontends: on an API LB, on an API address (GCP), or named by the host. */
function collectFrontends(module: Module, graph: DependencyGraph, resources: Resource[], nodes: ApiNodes): FrontendNode[] {
  const { lbs, addresses, directFrontends } = nodes;
  const frontends: FrontendNode[] = [];
  const lbKeys = new Set(lbs.keys());
  const addressKeys = new Set(addresses.keys());
  for (const r of resources) {
    for (const row of frontendRows(r.type)) {
      if (row.block) {
        const lb = lbs.get(r.address);
        if (!lb) continue;
        for (const b of nestedBlocks(r.body, row.block)) {
          frontends.push({ resource: r, row, body: b.body, block: b, lb, certain: true, hops: [...lb.hops, { file: fileAt(r, b), range: b.typeRange, message: `frontend ${r.address} ${row.block}` }] });
        }
        continue;
      }
      const hop = headerHop(r, `frontend ${r.address}`);
      const onLbs = [...namedResources(module, graph, r, r.body, row.lbArgs)].filter((a) => lbKeys.has(a));
      if (onLbs.length > 0) {
        const lb = lbs.get(onLbs[0]!)!;
        const certain = frontendOnApiAddress(module, graph, lb, r, row, addressKeys);
        if (certain === false) continue;
        frontends.push({ resource: r, row, body: r.body, block: null, lb, certain: certain === true, hops: [...lb.hops, hop] });
        continue;
      }
      const onAddress = [...namedResources(module, graph, r, r.body, row.addressArgs)].find((a) => addressKeys.has(a));
      if (onAddress) {
        frontends.push({ resource: r, row, body: r.body, block: null, lb: null, certain: true, hops: [...addresses.get(onAddress)!.hops, hop] });
        continue;
      }
      const direct = directFrontends.get(r.address);
      if (direct) frontends.push({ resource: r, row, body: r.body, block: null, lb: null, certain: true, hops: [...direct, hop] });
    }
  }
  return frontends;
}

/** Groups and proxies behind each frontend; groups naming a frontend or an LB. */
function collectPaths(
  module: Module,
  graph: DependencyGraph,
  resources: Resource[],
  lbs: Map<string, LbNode>,
  frontends: FrontendNode[],
): { groups: Map<string, GroupNode>; paths: ApiPath[] } {
  const lbKeys = new Set(lbs.keys());
  const groups = new Map<string, GroupNode>();
  const paths: ApiPath[] = [];
  const groupNode = (r: Resource, hops: Hop[]): GroupNode => {
    let g = groups.get(r.address);
    if (!g) {
      g = { resource: r, row: backendGroupRow(r.type)!, hops: [...hops, headerHop(r, `backend group ${r.address}`)] };
      groups.set(r.address, g);
    }
    return g;
  };
  const linked = new Set<string>();
  for (const fe of frontends) {
    let any = false;
    for (const address of namedResources(module, graph, fe.resource, fe.body, fe.row.groupArgs)) {
      const r = module.resources.get(address)!;
      if (backendGroupRow(r.type)) {
        paths.push({ module, lb: fe.lb, frontend: fe, proxy: null, group: groupNode(r, fe.hops), probes: [] });
        linked.add(address);
        any = true;
      } else if (proxyRow(r.type)) {
        const proxy: ProxyNode = { resource: r, row: proxyRow(r.type)! };
        const proxyHops = [...fe.hops, headerHop(r, `proxy ${r.address}`)];
        let behind = false;
        for (const g of namedResources(module, graph, r, r.body, proxy.row.groupArgs)) {
          const gr = module.resources.get(g)!;
          if (!backendGroupRow(gr.type)) continue;
          paths.push({ module, lb: fe.lb, frontend: fe, proxy, group: groupNode(gr, proxyHops), probes: [] });
          linked.add(g);
          behind = true;
        }
        if (!behind) paths.push({ module, lb: fe.lb, frontend: fe, proxy, group: null, probes: [] });
        any = true;
      }
    }
    for (const r of resources) {
      const row = backendGroupRow(r.type);
      if (!row || row.frontendArgs.length === 0) continue;
      const named = namedResources(module, graph, r, r.body, row.frontendArgs);
      if (!named.has(fe.resource.address) || fe.block) continue;
      paths.push({ module, lb: fe.lb, frontend: fe, proxy: null, group: groupNode(r, fe.hops), probes: [] });
      linked.add(r.address);
      any = true;
    }
    if (!any) paths.push({ module, lb: fe.lb, frontend: fe, proxy: null, group: null, probes: [] });
  }
  for (const r of resources) {
    const row = backendGroupRow(r.type);
    if (!row || !row.allOfLb || linked.has(r.address)) continue;
    const onLb = [...namedResources(module, graph, r, r.body, row.lbArgs)].find((a) => lbKeys.has(a));
    if (!onLb) continue;
    paths.push({ module, lb: lbs.get(onLb)!, frontend: null, proxy: null, group: groupNode(r, lbs.get(onLb)!.hops), probes: [] });
  }
  return { groups, paths };
}

/** Probes: nested in a group (or the LB), named by a group or frontend, or naming a group. Fills each path's probes. */
function attachProbes(module: Module, graph: DependencyGraph, resources: Resource[], paths: ApiPath[]): Map<string, ProbeNode> {
  const probes = new Map<string, ProbeNode>();
  const probeResource = (r: Resource, hops: Hop[]): ProbeNode | null => {
    const row = probeRows(r.type).find((p) => !p.block);
    if (!row) return null;
    const key = r.address;
    let p = probes.get(key);
    if (!p) {
      p = { resource: r, row, body: r.body, block: null, hops: [...hops, headerHop(r, `probe ${r.address}`)] };
      probes.set(key, p);
    }
    return p;
  };
  const nestedProbes = (r: Resource, hops: Hop[]): ProbeNode[] => {
    const out: ProbeNode[] = [];
    for (const row of probeRows(r.type)) {
      if (!row.block) continue;
      for (const b of nestedBlocks(r.body, row.block)) {
        const key = `${r.address}#${row.block}@${b.range.start.line}:${b.range.start.column}`;
        let p = probes.get(key);
        if (!p) {
          p = { resource: r, row, body: b.body, block: b, hops: [...hops, { file: fileAt(r, b), range: b.typeRange, message: `probe ${r.address} ${row.block}` }] };
          probes.set(key, p);
        }
        out.push(p);
      }
    }
    return out;
  };
  for (const path of paths) {
    const seen = new Set<ProbeNode>();
    const add = (p: ProbeNode | null): void => {
      if (p && !seen.has(p)) {
        seen.add(p);
        path.probes.push(p);
      }
    };
    if (path.group) {
      const g = path.group;
      for (const p of nestedProbes(g.resource, g.hops)) add(p);
      for (const a of namedResources(module, graph, g.resource, g.resource.body, g.row.probeArgs)) add(probeResource(module.resources.get(a)!, g.hops));
      for (const r of resources) {
        const row = probeRows(r.type).find((p) => !p.block && p.groupArgs.length > 0);
        if (row && namedResources(module, graph, r, r.body, row.groupArgs).has(g.resource.address)) add(probeResource(r, g.hops));
      }
    }
    if (path.frontend) {
      const fe = path.frontend;
      for (const a of namedResources(module, graph, fe.resource, fe.body, fe.row.probeArgs)) add(probeResource(module.resources.get(a)!, fe.hops));
      // Probes nested in the LB itself (classic ELB) serve its inline listeners.
      if (fe.block && fe.lb) for (const p of nestedProbes(fe.lb.resource, fe.lb.hops)) add(p);
    }
  }
  return probes;
}

/**
 * Whether a frontend on the API LB is on the API address: true when the
 * LB has no named frontends or the name is one bound to the API address;
 * false when every name it may take is another frontend; null when unknown.
 */
function frontendOnApiAddress(module: Module, graph: DependencyGraph, lb: LbNode, r: Resource, row: FrontendRow, addressKeys: Set<string>): boolean | null {
  const named = lb.row.namedFrontends;
  if (!named || !row.frontendNameArg || addressKeys.size === 0) return true;
  const apiNames = new Set<string>();
  let unknownName = false;
  for (const b of blocksOf(lb.resource.body, named.block)) {
    const refs = namedResources(module, graph, lb.resource, b.body, named.addressArgs);
    if (!intersects(addressKeys, refs)) continue;
    const nameSite = argumentSite(module, lb.resource, b.body, [named.nameArg]);
    const names = nameSite ? stringValues(module, nameSite) : [];
    if (names.length === 0 || names.some((n) => n.value === null)) unknownName = true;
    for (const n of names) if (n.value !== null) apiNames.add(n.value);
  }
  const site = argumentSite(module, r, r.body, row.frontendNameArg);
  if (!site) return null;
  const values = stringValues(module, site);
  if (values.some((v) => v.value !== null && apiNames.has(v.value))) return values.every((v) => v.value !== null && apiNames.has(v.value)) ? true : null;
  if (unknownName || values.some((v) => v.value === null)) return null;
  return false;
}

// --------------------------------------------------------- node questions

/**
 * One instance of one resource that a question is asked for: arguments of
 * that resource are read in that instance, arguments of another resource
 * iterating the same keys in the instance with the same key (compared key
 * by key), anything else over all its instances.
 */
export interface Focus {
  resource: Resource;
  instance: Instance;
}

/** The instances to ask a path's questions for: the group's (else the frontend's), each as a focus. */
export function pathFoci(module: Module, path: ApiPath): Focus[] {
  const anchor = path.group?.resource ?? path.frontend?.resource;
  if (!anchor) return [];
  const all = instancesOf(module, anchor);
  if (all.instances.length === 0) return [];
  return all.instances.map((instance) => ({ resource: anchor, instance }));
}

/** The instance of `resource` that corresponds to the focus, or undefined (read over every instance). */
export function instanceFor(module: Module, focus: Focus | undefined, resource: Resource): Instance | undefined {
  if (!focus) return undefined;
  if (focus.resource === resource) return focus.instance;
  const key = focus.instance.key;
  if (key === null || (!resource.forEach && !resource.count)) return undefined;
  if (Boolean(resource.forEach) !== Boolean(focus.resource.forEach)) return undefined;
  return instanceByKey(module, resource, key) ?? undefined;
}

/** The ports a frontend listens on (any-port forms included); empty when unset. */
export function frontendPorts(module: Module, fe: FrontendNode, focus?: Focus): PortValue[] {
  const out: PortValue[] = [];
  const inst = instanceFor(module, focus, fe.resource);
  for (const form of fe.row.anyPort) {
    const site = argumentSite(module, fe.resource, fe.body, form.path, inst);
    if (!site) continue;
    for (const alt of alternatives(module, site, { scalar: true })) {
      const c = constantValue(alt.expr);
      if (c.known && (c.value === form.value || (typeof form.value === "boolean" && c.value === String(form.value)))) out.push({ kind: "any", site: alt });
      else if (!c.known && typeof form.value === "boolean") out.push({ kind: "unknown", site: alt });
    }
  }
  for (const p of fe.row.portArgs) {
    const site = argumentSite(module, fe.resource, fe.body, p, inst);
    if (!site) continue;
    for (const v of portValues(module, site)) {
      // An any-port constant was reported above.
      if (v.kind === "const" && fe.row.anyPort.some((f) => f.path.join(".") === p.join(".") && f.value === v.value)) continue;
      out.push(v);
    }
  }
  return out;
}

/** The backend port a path delivers to: the group's, else the frontend's own backend port; null when unset. */
export function backendPortSite(path: ApiPath, focus?: Focus): Site | null {
  const module = path.module;
  const g = path.group;
  if (g?.row.portArg) {
    const s = argumentSite(module, g.resource, g.resource.body, g.row.portArg, instanceFor(module, focus, g.resource));
    if (s) return s;
  }
  const fe = path.frontend;
  if (fe?.row.backendPortArg) return argumentSite(module, fe.resource, fe.body, fe.row.backendPortArg, instanceFor(module, focus, fe.resource));
  return null;
}

/** The protocol of a probe on each branch: a wire protocol, or null when unknown; with where it is written. */
export interface ProbeProtocolValue {
  protocol: WireProtocol | null;
  /** Where it is written (the argument value, or the protocol block's header); null when it is the default. */
  site: Site | null;
  /** The body with the probe's port/path arguments (a GCP protocol block's body). */
  body: Body;
  /** For an ELB target `HTTP:80/path`: the port and path it names. */
  target?: { port: number | null; path: string | null };
}

export function probeProtocols(module: Module, probe: ProbeNode, focus?: Focus): ProbeProtocolValue[] {
  const pr = probe.row.protocol;
  const inst = instanceFor(module, focus, probe.resource);
  switch (pr.kind) {
    case "fixed":
      return [{ protocol: pr.protocol, site: null, body: probe.body }];
    case "blocks": {
      const out: ProbeProtocolValue[] = [];
      for (const [name, protocol] of Object.entries(pr.blocks)) {
        for (const b of nestedBlocks(probe.body, name)) {
          out.push({ protocol, site: { expr: { kind: "LiteralValue", type: "string", value: name, raw: name, range: b.typeRange } as Expression, file: fileAt(probe.resource, b), via: [] }, body: b.body });
        }
      }
      return out;
    }
    case "arg": {
      const site = argumentSite(module, probe.resource, probe.body, pr.path, inst);
      if (!site) return [{ protocol: pr.default === null ? null : wireProtocol(pr.default), site: null, body: probe.body }];
      return stringValues(module, site).map((v) => ({ protocol: v.value === null ? null : wireProtocol(v.value), site: v.site, body: probe.body }));
    }
    case "target": {
      const site = argumentSite(module, probe.resource, probe.body, pr.path, inst);
      if (!site) return [{ protocol: null, site: null, body: probe.body }];
      return stringValues(module, site).map((v) => {
        const m = v.value === null ? null : /^([A-Za-z]+):(\d+)(\/.*)?$/.exec(v.value);
        if (!m) return { protocol: null, site: v.site, body: probe.body };
        return { protocol: wireProtocol(m[1]!), site: v.site, body: probe.body, target: { port: Number(m[2]), path: m[3] ?? null } };
      });
    }
  }
}

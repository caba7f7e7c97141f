/**
 * The cloud knowledge base for load balancers, as data: per cloud and
 * resource type, which arguments link a load balancer to its address, DNS
 * records, frontends (listeners, rules, forwarding rules), backend groups
 * and health probes, and which arguments carry ports, protocols, paths and
 * accepted codes (with the provider's default when unset). Attribute names
 * and defaults follow the providers' documented resource schemas (aws,
 * azurerm, google, openstack, oci).
 *
 * The API-LB topology (src/analysis/api-lb.ts) and the `cluster/lb-*` rules
 * ask questions of these rows; a new cloud or resource type is a new row.
 * An argument path is a list of steps through nested blocks or object
 * values (`["default_action", "target_group_arn"]`).
 */

import type { ArgPath, Cloud } from "./common.js";
export type { ArgPath, Cloud } from "./common.js";

/** A protocol as the rules think of it: what a probe or frontend speaks on the wire. */
export type WireProtocol = "tcp" | "tls" | "http" | "https" | "http2" | "udp" | "any" | "grpc";

/** A load balancer resource (the thing an address or DNS record fronts). */
export interface LoadBalancerRow {
  cloud: Cloud;
  type: string;
  /** The argument that chooses the kind of load balancer, with its default (`aws_lb.load_balancer_type`). */
  kindArg?: { path: ArgPath; default: string };
  /** Kinds (values of `kindArg`) that terminate TLS or speak HTTP on the API path. */
  terminatingKinds?: readonly string[];
  /** The whole resource terminates TLS / speaks HTTP (an application gateway). */
  terminates?: boolean;
  /** Kinds (values of `kindArg`) that pass traffic through with the client's address (hairpin risk); absent = any kind. */
  passthroughKinds?: readonly string[];
  /** The argument that makes it internal (`internal`, `is_private`), with its default. */
  privateArg?: { path: ArgPath; default: boolean };
  /** Arguments that name the address it answers on (`subnet_mapping.allocation_id`, `reserved_ips.id`). */
  addressArgs: readonly ArgPath[];
  /**
   * Named frontends inside the LB (`azurerm_lb.frontend_ip_configuration`):
   * the block, its name argument, and the arguments that name an address.
   */
  namedFrontends?: { block: string; nameArg: string; addressArgs: readonly ArgPath[] };
}

/** An address resource the endpoint host can be (a public IP, a floating IP, an EIP). */
export interface AddressRow {
  cloud: Cloud;
  type: string;
  /** Arguments of the address that name the LB (OpenStack floating IP `port_id` → the LB's `vip_port_id`). */
  lbArgs: readonly ArgPath[];
  /** Frontends sit on the address itself, with no LB resource (GCP forwarding rules). */
  frontendsOnAddress?: boolean;
}

/** A resource that binds an address to a load balancer (`openstack_networking_floatingip_associate_v2`). */
export interface AddressAssociationRow {
  cloud: Cloud;
  type: string;
  addressArgs: readonly ArgPath[];
  lbArgs: readonly ArgPath[];
}

/** A DNS record whose name the endpoint host can be. */
export interface DnsRecordRow {
  cloud: Cloud;
  type: string;
  /** Arguments holding what the record points at (alias target, records, target resource). */
  targetArgs: readonly ArgPath[];
}

/** A value of an argument that means "every port". */
export interface AnyPortForm {
  path: ArgPath;
  value: number | boolean;
}

/** A frontend: a listener, load-balancing rule or forwarding rule, as a resource or as a block inside the LB. */
export interface FrontendRow {
  cloud: Cloud;
  type: string;
  /** Set when the frontend is a nested block of the LB resource itself (`aws_elb` `listener`). */
  block?: string;
  /** Arguments that name the LB (`load_balancer_arn`, `loadbalancer_id`). */
  lbArgs: readonly ArgPath[];
  /** Arguments that name the address directly (GCP `ip_address`). */
  addressArgs: readonly ArgPath[];
  /** The LB frontend it is bound to by name (Azure `frontend_ip_configuration_name`). */
  frontendNameArg?: ArgPath;
  /** Arguments holding the listening port (a range `"6443-6443"` or list counts too). */
  portArgs: readonly ArgPath[];
  /** Argument values meaning "every port" (OCI `port = 0`, GCP `all_ports = true`, Azure `frontend_port = 0`). */
  anyPort: readonly AnyPortForm[];
  /** The protocol argument and its default, as written in the provider. */
  protocolArg?: { path: ArgPath; default: string | null };
  /** Protocol values (any case) that terminate TLS or speak HTTP on this frontend. */
  terminatingProtocols: readonly string[];
  /** Blocks whose presence makes the frontend terminate TLS (OCI `ssl_configuration`). */
  terminatingBlocks?: readonly string[];
  /** The backend port when the frontend carries it (Azure `backend_port`, ELB `instance_port`). */
  backendPortArg?: ArgPath;
  /** Arguments naming backend groups or proxies (`default_action.target_group_arn`, `backend_service`, `target`). */
  groupArgs: readonly ArgPath[];
  /** Arguments naming probes directly (Azure `probe_id`). */
  probeArgs: readonly ArgPath[];
  /**
   * The load-balancing scheme argument, its default, and the schemes that
   * pass traffic through so a backend reaching the frontend answers itself (GCP `INTERNAL`).
   */
  schemeArg?: { path: ArgPath; default: string; hairpinSchemes: readonly string[] };
}

/** A proxy between a frontend and its backend groups (GCP target proxies). */
export interface ProxyRow {
  cloud: Cloud;
  type: string;
  groupArgs: readonly ArgPath[];
  /** The proxy terminates TLS or speaks HTTP (`target_https_proxy`, `target_http_proxy`, `target_ssl_proxy`). */
  terminates: boolean;
}

/** A backend group: target group, backend pool, backend service, backend set, pool. */
export interface BackendGroupRow {
  cloud: Cloud;
  type: string;
  /** Arguments naming the LB (an OCI backend set, an Octavia pool, an Azure pool). */
  lbArgs: readonly ArgPath[];
  /** Arguments naming the frontend (an Octavia pool's `listener_id`). */
  frontendArgs: readonly ArgPath[];
  /** Every group of the LB is an API backend (OCI backend sets on the API NLB). */
  allOfLb?: boolean;
  /** The port backends receive traffic on (`aws_lb_target_group.port`). */
  portArg?: ArgPath;
  /** Arguments naming probes (`health_checks`). */
  probeArgs: readonly ArgPath[];
  /** Whether the group preserves the client's source address, with how the default is decided. */
  preserveSource?: {
    path: ArgPath;
    /** `true`/`false`: the documented default; `"by-target-type"`: AWS (instance targets preserve, ip do not). */
    default: boolean | "by-target-type";
  };
  /** AWS `target_type` (default `instance`). */
  targetTypeArg?: { path: ArgPath; default: string };
}

/** How a probe's protocol is written. */
export type ProbeProtocol =
  | { kind: "arg"; path: ArgPath; default: string | null }
  /** The nested block that exists names the protocol (GCP `tcp_health_check`, ...). */
  | { kind: "blocks"; blocks: Readonly<Record<string, WireProtocol>> }
  /** Fixed by the resource type (GCP legacy `google_compute_http_health_check`). */
  | { kind: "fixed"; protocol: WireProtocol }
  /** One `PROTO:port/path` string (classic ELB `health_check.target`). */
  | { kind: "target"; path: ArgPath };

/** A health probe, as a resource or as a nested block of a backend group or LB. */
export interface ProbeRow {
  cloud: Cloud;
  type: string;
  /** Set when the probe is a nested block of the `type` resource (`health_check`, `health_checker`). */
  block?: string;
  /** Arguments naming the backend group (an Octavia monitor's `pool_id`). */
  groupArgs: readonly ArgPath[];
  protocol: ProbeProtocol;
  /** Port argument (relative to the probe block, or to the protocol block for `blocks`). */
  portArg?: ArgPath;
  /**
   * What an unset port means: `"backend"` = the backend port; a number = that
   * port; `"unknown"` = the provider decides from other settings.
   */
  portDefault: "backend" | number | "unknown";
  /** Constant port values meaning "the backend port" (AWS `"traffic-port"`, OCI `0`). */
  backendPortValues: readonly (string | number)[];
  pathArg?: ArgPath;
  /** The path when unset (`/`), or null when no path applies. */
  pathDefault: string | null;
  codesArg?: ArgPath;
  /** The accepted codes when unset (`"200"`); null when not configurable (Azure/GCP: 200 only). */
  codesDefault: string;
}

// ------------------------------------------------------------------ rows

export const LOAD_BALANCERS: readonly LoadBalancerRow[] = [
  {
    cloud: "aws",
    type: "aws_lb",
    kindArg: { path: ["load_balancer_type"], default: "application" },
    terminatingKinds: ["application"],
    passthroughKinds: ["network"],
    privateArg: { path: ["internal"], default: false },
    addressArgs: [["subnet_mapping", "allocation_id"]],
  },
  { cloud: "aws", type: "aws_elb", privateArg: { path: ["internal"], default: false }, addressArgs: [] },
  {
    cloud: "azure",
    type: "azurerm_lb",
    addressArgs: [["frontend_ip_configuration", "public_ip_address_id"]],
    namedFrontends: { block: "frontend_ip_configuration", nameArg: "name", addressArgs: [["public_ip_address_id"]] },
  },
  {
    cloud: "azure",
    type: "azurerm_application_gateway",
    terminates: true,
    addressArgs: [["frontend_ip_configuration", "public_ip_address_id"]],
  },
  { cloud: "openstack", type: "openstack_lb_loadbalancer_v2", addressArgs: [] },
  ...(["oci_network_load_balancer_network_load_balancer", "oci_load_balancer_load_balancer"] as const).map(
    (type): LoadBalancerRow => ({
      cloud: "oci",
      type,
      privateArg: { path: ["is_private"], default: false },
      addressArgs: [["reserved_ips", "id"]],
    }),
  ),
];

export const ADDRESSES: readonly AddressRow[] = [
  { cloud: "aws", type: "aws_eip", lbArgs: [] },
  { cloud: "azure", type: "azurerm_public_ip", lbArgs: [] },
  { cloud: "gcp", type: "google_compute_address", lbArgs: [], frontendsOnAddress: true },
  { cloud: "gcp", type: "google_compute_global_address", lbArgs: [], frontendsOnAddress: true },
  { cloud: "openstack", type: "openstack_networking_floatingip_v2", lbArgs: [["port_id"]] },
  { cloud: "oci", type: "oci_core_public_ip", lbArgs: [] },
];

export const ADDRESS_ASSOCIATIONS: readonly AddressAssociationRow[] = [
  { cloud: "openstack", type: "openstack_networking_floatingip_associate_v2", addressArgs: [["floating_ip"]], lbArgs: [["port_id"]] },
];

export const DNS_RECORDS: readonly DnsRecordRow[] = [
  { cloud: "aws", type: "aws_route53_record", targetArgs: [["alias", "name"], ["records"]] },
  { cloud: "gcp", type: "google_dns_record_set", targetArgs: [["rrdatas"]] },
  { cloud: "azure", type: "azurerm_dns_a_record", targetArgs: [["records"], ["target_resource_id"]] },
  { cloud: "azure", type: "azurerm_dns_cname_record", targetArgs: [["record"], ["target_resource_id"]] },
];

export const FRONTENDS: readonly FrontendRow[] = [
  {
    cloud: "aws",
    type: "aws_lb_listener",
    lbArgs: [["load_balancer_arn"]],
    addressArgs: [],
    portArgs: [["port"]],
    anyPort: [],
    protocolArg: { path: ["protocol"], default: null },
    terminatingProtocols: ["TLS", "HTTPS", "HTTP"],
    groupArgs: [["default_action", "target_group_arn"], ["default_action", "forward", "target_group", "arn"]],
    probeArgs: [],
  },
  {
    cloud: "aws",
    type: "aws_elb",
    block: "listener",
    lbArgs: [],
    addressArgs: [],
    portArgs: [["lb_port"]],
    anyPort: [],
    protocolArg: { path: ["lb_protocol"], default: null },
    terminatingProtocols: ["HTTP", "HTTPS", "SSL"],
    backendPortArg: ["instance_port"],
    groupArgs: [],
    probeArgs: [],
  },
  {
    cloud: "azure",
    type: "azurerm_lb_rule",
    lbArgs: [["loadbalancer_id"]],
    addressArgs: [],
    frontendNameArg: ["frontend_ip_configuration_name"],
    portArgs: [["frontend_port"]],
    anyPort: [{ path: ["frontend_port"], value: 0 }],
    protocolArg: { path: ["protocol"], default: null },
    terminatingProtocols: [],
    backendPortArg: ["backend_port"],
    groupArgs: [["backend_address_pool_ids"]],
    probeArgs: [["probe_id"]],
  },
  ...(["google_compute_forwarding_rule", "google_compute_global_forwarding_rule"] as const).map(
    (type): FrontendRow => ({
      cloud: "gcp",
      type,
      lbArgs: [],
      addressArgs: [["ip_address"]],
      portArgs: [["port_range"], ["ports"]],
      anyPort: [{ path: ["all_ports"], value: true }],
      terminatingProtocols: [],
      groupArgs: [["backend_service"], ["target"]],
      probeArgs: [],
      schemeArg: { path: ["load_balancing_scheme"], default: "EXTERNAL", hairpinSchemes: ["INTERNAL"] },
    }),
  ),
  {
    cloud: "openstack",
    type: "openstack_lb_listener_v2",
    lbArgs: [["loadbalancer_id"]],
    addressArgs: [],
    portArgs: [["protocol_port"]],
    anyPort: [],
    protocolArg: { path: ["protocol"], default: null },
    terminatingProtocols: ["HTTP", "TERMINATED_HTTPS"],
    groupArgs: [["default_pool_id"]],
    probeArgs: [],
  },
  {
    cloud: "oci",
    type: "oci_network_load_balancer_listener",
    lbArgs: [["network_load_balancer_id"]],
    addressArgs: [],
    portArgs: [["port"]],
    anyPort: [{ path: ["port"], value: 0 }],
    protocolArg: { path: ["protocol"], default: null },
    terminatingProtocols: [],
    groupArgs: [["default_backend_set_name"]],
    probeArgs: [],
  },
  {
    cloud: "oci",
    type: "oci_load_balancer_listener",
    lbArgs: [["load_balancer_id"]],
    addressArgs: [],
    portArgs: [["port"]],
    anyPort: [],
    protocolArg: { path: ["protocol"], default: null },
    terminatingProtocols: ["HTTP", "HTTP2", "GRPC"],
    terminatingBlocks: ["ssl_configuration"],
    groupArgs: [["default_backend_set_name"]],
    probeArgs: [],
  },
];

export const PROXIES: readonly ProxyRow[] = [
  { cloud: "gcp", type: "google_compute_target_tcp_proxy", groupArgs: [["backend_service"]], terminates: false },
  { cloud: "gcp", type: "google_compute_region_target_tcp_proxy", groupArgs: [["backend_service"]], terminates: false },
  { cloud: "gcp", type: "google_compute_target_ssl_proxy", groupArgs: [["backend_service"]], terminates: true },
  { cloud: "gcp", type: "google_compute_target_http_proxy", groupArgs: [["url_map"]], terminates: true },
  { cloud: "gcp", type: "google_compute_region_target_http_proxy", groupArgs: [["url_map"]], terminates: true },
  { cloud: "gcp", type: "google_compute_target_https_proxy", groupArgs: [["url_map"]], terminates: true },
  { cloud: "gcp", type: "google_compute_region_target_https_proxy", groupArgs: [["url_map"]], terminates: true },
];

export const BACKEND_GROUPS: readonly BackendGroupRow[] = [
  {
    cloud: "aws",
    type: "aws_lb_target_group",
    lbArgs: [],
    frontendArgs: [],
    portArg: ["port"],
    probeArgs: [],
    preserveSource: { path: ["preserve_client_ip"], default: "by-target-type" },
    targetTypeArg: { path: ["target_type"], default: "instance" },
  },
  { cloud: "azure", type: "azurerm_lb_backend_address_pool", lbArgs: [], frontendArgs: [], probeArgs: [] },
  ...(["google_compute_backend_service", "google_compute_region_backend_service"] as const).map(
    (type): BackendGroupRow => ({ cloud: "gcp", type, lbArgs: [], frontendArgs: [], probeArgs: [["health_checks"]] }),
  ),
  { cloud: "gcp", type: "google_compute_target_pool", lbArgs: [], frontendArgs: [], probeArgs: [["health_checks"]] },
  {
    cloud: "openstack",
    type: "openstack_lb_pool_v2",
    lbArgs: [["loadbalancer_id"]],
    frontendArgs: [["listener_id"]],
    probeArgs: [],
  },
  {
    cloud: "oci",
    type: "oci_network_load_balancer_backend_set",
    lbArgs: [["network_load_balancer_id"]],
    frontendArgs: [],
    allOfLb: true,
    probeArgs: [],
    preserveSource: { path: ["is_preserve_source"], default: true },
  },
  {
    cloud: "oci",
    type: "oci_load_balancer_backend_set",
    lbArgs: [["load_balancer_id"]],
    frontendArgs: [],
    allOfLb: true,
    probeArgs: [],
  },
];

const GCP_PROBE_BLOCKS: Readonly<Record<string, WireProtocol>> = {
  tcp_health_check: "tcp",
  ssl_health_check: "tls",
  http_health_check: "http",
  http2_health_check: "http2",
  https_health_check: "https",
};

export const PROBES: readonly ProbeRow[] = [
  {
    cloud: "aws",
    type: "aws_lb_target_group",
    block: "health_check",
    groupArgs: [],
    // The provider documents HTTP as the default, but AWS picks TCP for TCP target groups: unknown.
    protocol: { kind: "arg", path: ["protocol"], default: null },
    portArg: ["port"],
    portDefault: "backend",
    backendPortValues: ["traffic-port"],
    pathArg: ["path"],
    pathDefault: "/",
    codesArg: ["matcher"],
    codesDefault: "200",
  },
  {
    cloud: "aws",
    type: "aws_elb",
    block: "health_check",
    groupArgs: [],
    protocol: { kind: "target", path: ["target"] },
    portDefault: "unknown",
    backendPortValues: [],
    pathDefault: "/",
    codesDefault: "200",
  },
  {
    cloud: "azure",
    type: "azurerm_lb_probe",
    groupArgs: [],
    protocol: { kind: "arg", path: ["protocol"], default: "Tcp" },
    portArg: ["port"],
    portDefault: "unknown",
    backendPortValues: [],
    pathArg: ["request_path"],
    pathDefault: "/",
    codesDefault: "200",
  },
  ...(["google_compute_health_check", "google_compute_region_health_check"] as const).map(
    (type): ProbeRow => ({
      cloud: "gcp",
      type,
      groupArgs: [],
      protocol: { kind: "blocks", blocks: GCP_PROBE_BLOCKS },
      portArg: ["port"],
      portDefault: "unknown",
      backendPortValues: [],
      pathArg: ["request_path"],
      pathDefault: "/",
      codesDefault: "200",
    }),
  ),
  // GCP's legacy health checks: the type fixes the protocol, and an unset port is that protocol's own.
  ...(
    [
      ["google_compute_http_health_check", "http", 80],
      ["google_compute_https_health_check", "https", 443],
    ] as const
  ).map(
    ([type, protocol, port]): ProbeRow => ({
      cloud: "gcp",
      type,
      groupArgs: [],
      protocol: { kind: "fixed", protocol },
      portArg: ["port"],
      portDefault: port,
      backendPortValues: [],
      pathArg: ["request_path"],
      pathDefault: "/",
      codesDefault: "200",
    }),
  ),
  {
    cloud: "openstack",
    type: "openstack_lb_monitor_v2",
    groupArgs: [["pool_id"]],
    protocol: { kind: "arg", path: ["type"], default: null },
    portDefault: "backend",
    backendPortValues: [],
    pathArg: ["url_path"],
    pathDefault: "/",
    codesArg: ["expected_codes"],
    codesDefault: "200",
  },
  ...(["oci_network_load_balancer_backend_set", "oci_load_balancer_backend_set"] as const).map(
    (type): ProbeRow => ({
      cloud: "oci",
      type,
      block: "health_checker",
      groupArgs: [],
      protocol: { kind: "arg", path: ["protocol"], default: null },
      portArg: ["port"],
      portDefault: "backend",
      backendPortValues: [0],
      pathArg: ["url_path"],
      pathDefault: "/",
      codesArg: ["return_code"],
      codesDefault: "200",
    }),
  ),
];

// -------------------------------------------------------------- questions

function byType<T extends { type: string }>(rows: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const list = m.get(r.type);
    if (list) list.push(r);
    else m.set(r.type, [r]);
  }
  return m;
}

/** The lookup of a table with one row a type: the row of a resource type, if it has one. */
function rowOfType<T extends { type: string }>(rows: readonly T[]): (type: string) => T | undefined {
  const m = byType(rows);
  return (type) => m.get(type)?.[0];
}

/** The lookup of a table with several rows a type: every row of a resource type, in table order. */
function rowsOfType<T extends { type: string }>(rows: readonly T[]): (type: string) => readonly T[] {
  const m = byType(rows);
  return (type) => m.get(type) ?? [];
}

/** The load-balancer row of a resource type, if it is one. */
export const loadBalancerRow = rowOfType(LOAD_BALANCERS);
export const addressRow = rowOfType(ADDRESSES);
export const associationRow = rowOfType(ADDRESS_ASSOCIATIONS);
export const dnsRecordRow = rowOfType(DNS_RECORDS);
/** Frontend rows of a type: a standalone frontend resource, or nested-block frontends of an LB (`block` set). */
export const frontendRows = rowsOfType(FRONTENDS);
export const proxyRow = rowOfType(PROXIES);
export const backendGroupRow = rowOfType(BACKEND_GROUPS);
/** Probe rows of a type: a probe resource, or nested-block probes of a group or LB (`block` set). */
export const probeRows = rowsOfType(PROBES);

/** The cloud a resource type belongs to in this knowledge base, if any. */
export function cloudOfType(type: string): Cloud | undefined {
  return (
    loadBalancerRow(type)?.cloud ??
    addressRow(type)?.cloud ??
    dnsRecordRow(type)?.cloud ??
    frontendRows(type)[0]?.cloud ??
    proxyRow(type)?.cloud ??
    backendGroupRow(type)?.cloud ??
    probeRows(type)[0]?.cloud
  );
}

/** The canonical protocol of a provider protocol value (any case), or null when not one we know. */
export function wireProtocol(value: string): WireProtocol | null {
  switch (value.toUpperCase()) {
    case "TCP":
      return "tcp";
    case "SSL":
    case "TLS":
    case "TLS-HELLO":
      return "tls";
    case "HTTP":
      return "http";
    case "HTTPS":
    case "TERMINATED_HTTPS":
      return "https";
    case "HTTP2":
      return "http2";
    case "UDP":
    case "UDP-CONNECT":
    case "SCTP":
      return "udp";
    case "ALL":
    case "ANY":
    case "TCP_AND_UDP":
      return "any";
    case "GRPC":
      return "grpc";
    default:
      return null;
  }
}

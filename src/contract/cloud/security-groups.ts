/**
 * Security groups and their ingress rules as data, for the clouds whose
 * groups deny by default (AWS, OpenStack, OCI): which resource is a group,
 * which resources (or nested blocks of the group) are rules, and where a
 * rule keeps its direction, protocol and destination port range, with the
 * values that mean "every protocol" and "TCP" and what an unset argument
 * means. A new cloud or a new rule resource is a new row, not a rule change.
 * Names and defaults follow the providers' documented resource schemas.
 */
import type { ArgPath, Cloud } from "./load-balancers.js";

/** A resource that is a security group (or a list of rules applied as one). */
export interface SecurityGroupRow {
  cloud: Cloud;
  type: string;
}

/** Where an ingress rule keeps one port bound. */
export interface PortBound {
  path: ArgPath;
}

/** An ingress rule: a resource of its own, or a nested block of the group. */
export interface IngressRuleRow {
  cloud: Cloud;
  /** The resource type holding the rule. */
  type: string;
  /** The nested block of `type` (the group itself) that is one rule; absent when the resource is the rule. */
  block?: string;
  /** The argument naming the group a stand-alone rule belongs to. */
  groupArg?: ArgPath;
  /** The argument telling ingress from egress, and its ingress values (compared ignoring case); absent when every rule is ingress. */
  direction?: { path: ArgPath; ingress: readonly string[] };
  /** The protocol argument. */
  protocol: {
    path: ArgPath;
    /** Values meaning every protocol (compared ignoring case). */
    all: readonly string[];
    /** Values meaning TCP (compared ignoring case). */
    tcp: readonly string[];
    /** An unset protocol: every protocol, or unknown (required by the schema). */
    unset: "all" | "unknown";
  };
  /** The destination port range: lowest and highest port. */
  ports: {
    min: ArgPath;
    max: ArgPath;
    /**
     * Both unset: every port, or unknown. For nested paths, an unset
     * enclosing block counts as unset (OCI `tcp_options`).
     */
    unset: "all" | "unknown";
  };
}

export const SECURITY_GROUPS: readonly SecurityGroupRow[] = [
  { cloud: "aws", type: "aws_security_group" },
  { cloud: "openstack", type: "openstack_networking_secgroup_v2" },
  { cloud: "oci", type: "oci_core_network_security_group" },
  { cloud: "oci", type: "oci_core_security_list" },
];

/** AWS: `-1` is every protocol (ports then ignored); protocols by name or number; every rule form requires one. */
const AWS_PROTOCOL = { all: ["-1", "all"], tcp: ["tcp", "6"], unset: "unknown" } as const;

/** AWS: every rule form keeps its port range in `from_port`/`to_port`; an unset range is not taken to mean every port. */
const AWS_PORTS = { min: ["from_port"], max: ["to_port"], unset: "unknown" } as const;

export const INGRESS_RULES: readonly IngressRuleRow[] = [
  // ---------------------------------------------------------------- AWS
  {
    cloud: "aws",
    type: "aws_security_group",
    block: "ingress",
    protocol: { path: ["protocol"], ...AWS_PROTOCOL },
    ports: AWS_PORTS,
  },
  {
    cloud: "aws",
    type: "aws_security_group_rule",
    groupArg: ["security_group_id"],
    direction: { path: ["type"], ingress: ["ingress"] },
    protocol: { path: ["protocol"], ...AWS_PROTOCOL },
    ports: AWS_PORTS,
  },
  {
    cloud: "aws",
    type: "aws_vpc_security_group_ingress_rule",
    groupArg: ["security_group_id"],
    protocol: { path: ["ip_protocol"], ...AWS_PROTOCOL },
    ports: AWS_PORTS,
  },
  // ---------------------------------------------------------- OpenStack
  {
    cloud: "openstack",
    type: "openstack_networking_secgroup_rule_v2",
    groupArg: ["security_group_id"],
    direction: { path: ["direction"], ingress: ["ingress"] },
    // Neutron: no protocol is every protocol; no port range is every port.
    protocol: { path: ["protocol"], all: ["any", "0"], tcp: ["tcp", "6"], unset: "all" },
    ports: { min: ["port_range_min"], max: ["port_range_max"], unset: "all" },
  },
  // ---------------------------------------------------------------- OCI
  {
    cloud: "oci",
    type: "oci_core_network_security_group_security_rule",
    groupArg: ["network_security_group_id"],
    direction: { path: ["direction"], ingress: ["INGRESS"] },
    // TCP without tcp_options (or without a destination range) allows every destination port.
    protocol: { path: ["protocol"], all: ["all"], tcp: ["6"], unset: "unknown" },
    ports: { min: ["tcp_options", "destination_port_range", "min"], max: ["tcp_options", "destination_port_range", "max"], unset: "all" },
  },
  {
    cloud: "oci",
    type: "oci_core_security_list",
    block: "ingress_security_rules",
    protocol: { path: ["protocol"], all: ["all"], tcp: ["6"], unset: "unknown" },
    ports: { min: ["tcp_options", "min"], max: ["tcp_options", "max"], unset: "all" },
  },
];

export function securityGroupRow(type: string): SecurityGroupRow | undefined {
  return SECURITY_GROUPS.find((r) => r.type === type);
}

/** The ingress-rule rows of a resource type (a group type may hold rule blocks). */
export function ingressRuleRows(type: string): readonly IngressRuleRow[] {
  return INGRESS_RULES.filter((r) => r.type === type);
}

/** Names of `exports` attributes that publish security groups (`*security_group*`, `*secgroup*`, `*nsg*`). */
export const SECURITY_GROUP_EXPORT_NAME = /security_group|secgroup|nsg/i;

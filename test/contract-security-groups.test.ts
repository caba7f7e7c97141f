/**
 * The security-group table behind cluster/sg-control-plane-ports: the
 * groups and ingress-rule forms of the three default-deny clouds, with the
 * values that mean "every protocol" and "TCP" and what unset arguments mean.
 */
import { describe, expect, it } from "vitest";
import {
  INGRESS_RULES,
  SECURITY_GROUPS,
  SECURITY_GROUP_EXPORT_NAME,
  ingressRuleRows,
  securityGroupRow,
} from "../src/contract/cloud/security-groups.js";

describe("security-group table", () => {
  it("lists the groups of AWS, OpenStack and OCI only", () => {
    expect(SECURITY_GROUPS.map((g) => `${g.cloud} ${g.type}`)).toEqual([
      "aws aws_security_group",
      "openstack openstack_networking_secgroup_v2",
      "oci oci_core_network_security_group",
      "oci oci_core_security_list",
    ]);
    expect(securityGroupRow("azurerm_network_security_group")).toBeUndefined();
    expect(securityGroupRow("google_compute_firewall")).toBeUndefined();
  });

  it("has every ingress-rule form with its protocol and port arguments", () => {
    const shape = INGRESS_RULES.map((r) => [
      r.type,
      r.block ?? null,
      r.groupArg?.join(".") ?? null,
      r.direction ? `${r.direction.path.join(".")}=${r.direction.ingress.join("|")}` : null,
      `${r.protocol.path.join(".")} all=${r.protocol.all.join("|")} tcp=${r.protocol.tcp.join("|")} unset=${r.protocol.unset}`,
      `${r.ports.min.join(".")}..${r.ports.max.join(".")} unset=${r.ports.unset}`,
    ]);
    expect(shape).toEqual([
      ["aws_security_group", "ingress", null, null, "protocol all=-1|all tcp=tcp|6 unset=unknown", "from_port..to_port unset=unknown"],
      ["aws_security_group_rule", null, "security_group_id", "type=ingress", "protocol all=-1|all tcp=tcp|6 unset=unknown", "from_port..to_port unset=unknown"],
      ["aws_vpc_security_group_ingress_rule", null, "security_group_id", null, "ip_protocol all=-1|all tcp=tcp|6 unset=unknown", "from_port..to_port unset=unknown"],
      ["openstack_networking_secgroup_rule_v2", null, "security_group_id", "direction=ingress", "protocol all=any|0 tcp=tcp|6 unset=all", "port_range_min..port_range_max unset=all"],
      [
        "oci_core_network_security_group_security_rule",
        null,
        "network_security_group_id",
        "direction=INGRESS",
        "protocol all=all tcp=6 unset=unknown",
        "tcp_options.destination_port_range.min..tcp_options.destination_port_range.max unset=all",
      ],
      ["oci_core_security_list", "ingress_security_rules", null, null, "protocol all=all tcp=6 unset=unknown", "tcp_options.min..tcp_options.max unset=all"],
    ]);
  });

  it("keeps rule blocks on group types and names a group for every stand-alone rule", () => {
    for (const r of INGRESS_RULES) {
      if (r.block) expect(securityGroupRow(r.type)?.cloud).toBe(r.cloud);
      else expect(r.groupArg?.length).toBeGreaterThan(0);
      expect(SECURITY_GROUPS.some((g) => g.cloud === r.cloud)).toBe(true);
    }
    expect(ingressRuleRows("aws_security_group").map((r) => r.block)).toEqual(["ingress"]);
    expect(ingressRuleRows("aws_vpc_security_group_egress_rule")).toEqual([]);
  });

  it("recognises exported security-group attribute names", () => {
    const names = ["control_plane_security_group", "node_security_group_ids", "secgroup_name", "control_plane_nsg_id", "NSG", "vpc_id", "subnet_ids", "security_list_id"];
    expect(names.filter((n) => SECURITY_GROUP_EXPORT_NAME.test(n))).toEqual([
      "control_plane_security_group",
      "node_security_group_ids",
      "secgroup_name",
      "control_plane_nsg_id",
      "NSG",
    ]);
  });
});

/**
 * The load-balancer knowledge base (src/contract/cloud/load-balancers.ts) is
 * consistent data: each resource type has one row per kind, nested-block
 * rows belong to a type that is a load balancer or backend group, and the
 * lookups and protocol names answer as the rules expect.
 */
import { describe, expect, it } from "vitest";
import {
  ADDRESSES,
  BACKEND_GROUPS,
  DNS_RECORDS,
  FRONTENDS,
  LOAD_BALANCERS,
  PROBES,
  PROXIES,
  addressRow,
  backendGroupRow,
  cloudOfType,
  frontendRows,
  loadBalancerRow,
  probeRows,
  wireProtocol,
} from "../src/contract/cloud/load-balancers.js";

const duplicates = (types: string[]): string[] => types.filter((t, i) => types.indexOf(t) !== i);

describe("load-balancer knowledge base", () => {
  it("one row per type and kind (nested-block rows keyed by type and block)", () => {
    for (const rows of [LOAD_BALANCERS, ADDRESSES, DNS_RECORDS, PROXIES, BACKEND_GROUPS]) {
      expect(duplicates(rows.map((r) => r.type))).toEqual([]);
    }
    expect(duplicates(FRONTENDS.map((r) => `${r.type}/${r.block ?? ""}`))).toEqual([]);
    expect(duplicates(PROBES.map((r) => `${r.type}/${r.block ?? ""}`))).toEqual([]);
  });

  it("nested frontends live in load balancers, nested probes in groups or load balancers", () => {
    expect(FRONTENDS.filter((f) => f.block && !loadBalancerRow(f.type)).map((f) => f.type)).toEqual([]);
    expect(PROBES.filter((p) => p.block && !backendGroupRow(p.type) && !loadBalancerRow(p.type)).map((p) => p.type)).toEqual([]);
  });

  it("every cloud has load balancers or addresses, frontends, groups and probes", () => {
    for (const cloud of ["aws", "azure", "gcp", "openstack", "oci"] as const) {
      expect([LOAD_BALANCERS, ADDRESSES].some((rows) => rows.some((r) => r.cloud === cloud)), cloud).toBe(true);
      expect(FRONTENDS.some((r) => r.cloud === cloud), cloud).toBe(true);
      expect(BACKEND_GROUPS.some((r) => r.cloud === cloud), cloud).toBe(true);
      expect(PROBES.some((r) => r.cloud === cloud), cloud).toBe(true);
    }
  });

  it("lookups by type", () => {
    expect(loadBalancerRow("aws_lb")?.kindArg).toEqual({ path: ["load_balancer_type"], default: "application" });
    expect(addressRow("openstack_networking_floatingip_v2")?.lbArgs).toEqual([["port_id"]]);
    expect(addressRow("google_compute_address")?.frontendsOnAddress).toBe(true);
    expect(frontendRows("aws_elb").map((f) => f.block)).toEqual(["listener"]);
    expect(probeRows("oci_network_load_balancer_backend_set").map((p) => [p.block, p.backendPortValues])).toEqual([["health_checker", [0]]]);
    expect(backendGroupRow("oci_network_load_balancer_backend_set")?.preserveSource).toEqual({ path: ["is_preserve_source"], default: true });
    expect(cloudOfType("azurerm_lb_probe")).toBe("azure");
    expect(cloudOfType("google_compute_region_target_tcp_proxy")).toBe("gcp");
    expect(cloudOfType("aws_instance")).toBeUndefined();
  });

  it("protocol names in any case", () => {
    expect(["TCP", "Tcp", "SSL", "TLS-HELLO", "HTTP", "Http", "HTTPS", "HTTP2", "UDP-CONNECT", "ALL", "GRPC", "PING", "weird"].map(wireProtocol)).toEqual([
      "tcp",
      "tcp",
      "tls",
      "tls",
      "http",
      "http",
      "https",
      "http2",
      "udp",
      "any",
      "grpc",
      null,
      null,
    ]);
  });
});

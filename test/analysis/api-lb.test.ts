/**
 * The API-LB topology (src/analysis/api-lb.ts) on the per-cloud fixture
 * modules: which resources it takes as the API load balancer, address,
 * frontends, backend groups and probes; the symbolic API port; RKE2
 * awareness; Pattern C (no LB reached) and the hops findings carry.
 */
import { describe, expect, it } from "vitest";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { loadModule } from "../../src/terraform/load.js";
import { buildGraph } from "../../src/terraform/graph.js";
import { parseExpressionAt } from "../../src/hcl/parser.js";
import { lintModule } from "../helpers/lint.js";
import {
  apiLoadBalancer,
  describePort,
  frontendPorts,
  isRke2Aware,
  mayBeTrue,
  pathFoci,
  portValues,
  probeProtocols,
  type ApiTopology,
} from "../../src/analysis/api-lb.js";
import type { Module } from "../../src/terraform/module-types.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = (...p: string[]): string => moduleDirOf(path.join(ROOT, "fixtures", ...p));

function topologyOf(dir: string): { module: Module; topo: ApiTopology | null } {
  const module = loadModule(dir).root.expressions;
  return { module, topo: apiLoadBalancer(module, buildGraph(module)) };
}

/** A compact picture of the topology: resources by role and, per path, frontend → group → probes. */
function summary(dir: string): unknown {
  const { module, topo } = topologyOf(dir);
  if (!topo) return null;
  return {
    cloud: topo.cloud,
    rke2Aware: topo.rke2Aware,
    lbs: topo.lbs.map((l) => l.resource.address),
    addresses: topo.addresses.map((a) => a.resource.address),
    paths: topo.paths.map((p) => ({
      frontend: p.frontend ? `${p.frontend.resource.address}${p.frontend.row.block ? ` ${p.frontend.row.block}` : ""}` : null,
      ports: p.frontend ? frontendPorts(module, p.frontend).map(describePort) : [],
      proxy: p.proxy?.resource.address ?? null,
      group: p.group?.resource.address ?? null,
      probes: p.probes.map((x) => `${x.resource.address}${x.row.block ? ` ${x.row.block}` : ""}: ${probeProtocols(module, x).map((q) => q.protocol ?? "?").join("|")}`),
    })),
  };
}

function site(module: Module, text: string) {
  const { expr, diagnostics } = parseExpressionAt(text, "test.tf");
  expect(diagnostics).toEqual([]);
  return { expr, file: module.files[0]!, via: [] };
}

describe("apiLoadBalancer: what it finds per cloud", () => {
  it("AWS: the NLB from the host's dns_name, listeners over a for_each map of locals, target groups by key, the nested health_check", () => {
    expect(summary(fixture("cluster/lb-health-check/aws-tcp-check"))).toEqual({
      cloud: "aws",
      rke2Aware: false,
      lbs: ["aws_lb.api"],
      addresses: [],
      paths: [{ frontend: "aws_lb_listener.api", ports: ["the API server port"], proxy: null, group: "aws_lb_target_group.api", probes: ["aws_lb_target_group.api health_check: tcp"] }],
    });
  });

  it("AWS with two entries in the map: per-instance ports; the probe's protocol per entry", () => {
    const dir = fixture("cluster/lb-health-check/aws-rke2-supervisor-https-200");
    const { module, topo } = topologyOf(dir);
    expect(topo!.rke2Aware).toBe(true);
    const [p] = topo!.paths;
    const perInstance = pathFoci(module, p!).map((f) => [f.instance.key, frontendPorts(module, p!.frontend!, f).map(describePort), probeProtocols(module, p!.probes[0]!, f).map((q) => q.protocol)]);
    expect(perInstance).toEqual([
      ["kube_apiserver", ["the API server port"], ["tcp"]],
      ["rke2_supervisor", ["9345"], ["https"]],
    ]);
  });

  it("Azure: public IP → the LB whose frontend_ip_configuration uses it → rules on that frontend, pool, probe named by the rule", () => {
    expect(summary(fixture("cluster/lb-health-check/azure-tcp-probe"))).toEqual({
      cloud: "azure",
      rke2Aware: false,
      lbs: ["azurerm_lb.api"],
      addresses: ["azurerm_public_ip.api"],
      paths: [{ frontend: "azurerm_lb_rule.api", ports: ["the API server port"], proxy: null, group: "azurerm_lb_backend_address_pool.control_plane", probes: ["azurerm_lb_probe.api: tcp"] }],
    });
  });

  it("Azure: a rule on another frontend configuration of the same LB is not an API frontend", () => {
    const s = summary(fixture("cluster/lb-rke2-supervisor/azure-supervisor-on-other-frontend")) as { paths: { frontend: string }[] };
    expect(s.paths.map((p) => p.frontend)).toEqual(["azurerm_lb_rule.api"]);
  });

  it("GCP: no LB resource; the forwarding rules whose ip_address reaches the address, the backend service, its health check", () => {
    expect(summary(fixture("cluster/lb-health-check/gcp-tcp-check"))).toEqual({
      cloud: "gcp",
      rke2Aware: false,
      lbs: [],
      addresses: ["google_compute_address.api"],
      paths: [
        { frontend: "google_compute_forwarding_rule.api", ports: ["the API server port"], proxy: null, group: "google_compute_region_backend_service.api", probes: ["google_compute_region_health_check.api: tcp"] },
      ],
    });
  });

  it("GCP: forwarding rules without ip_address are not on the API address; a proxy between rule and backend service", () => {
    expect((summary(fixture("cluster/lb-rke2-supervisor/gcp-rules-without-address")) as { paths: unknown[] }).paths).toEqual([]);
    const proxied = summary(fixture("cluster/lb-api-listener/gcp-ssl-proxy")) as { paths: { proxy: string; group: string }[] };
    expect(proxied.paths.map((p) => [p.proxy, p.group])).toEqual([["google_compute_target_ssl_proxy.api", "google_compute_backend_service.api"]]);
  });

  it("OpenStack: floating IP → the LB whose vip_port_id it uses → listener → pool naming the listener → monitor naming the pool", () => {
    expect(summary(fixture("cluster/lb-rke2-supervisor/openstack-supervisor-listener"))).toEqual({
      cloud: "openstack",
      rke2Aware: true,
      lbs: ["openstack_lb_loadbalancer_v2.api"],
      addresses: ["openstack_networking_floatingip_v2.api"],
      paths: [
        { frontend: "openstack_lb_listener_v2.api", ports: ["the API server port"], proxy: null, group: "openstack_lb_pool_v2.api", probes: ["openstack_lb_monitor_v2.api: tcp"] },
        { frontend: "openstack_lb_listener_v2.supervisor", ports: ["9345"], proxy: null, group: "openstack_lb_pool_v2.supervisor", probes: ["openstack_lb_monitor_v2.supervisor: tcp"] },
      ],
    });
  });

  it("OCI: the NLB from ip_addresses, listener → backend set by name, the nested health_checker; port 0 is every port", () => {
    expect(summary(fixture("cluster/lb-rke2-supervisor/oci-any-port-listener"))).toEqual({
      cloud: "oci",
      rke2Aware: true,
      lbs: ["oci_network_load_balancer_network_load_balancer.api"],
      addresses: [],
      paths: [
        {
          frontend: "oci_network_load_balancer_listener.api",
          ports: ["every port"],
          proxy: null,
          group: "oci_network_load_balancer_backend_set.api",
          probes: ["oci_network_load_balancer_backend_set.api health_checker: tcp"],
        },
      ],
    });
  });

  it("the realistic AWS and GCP cluster modules", () => {
    expect((summary(fixture("realistic/aws-cluster")) as { lbs: string[] }).lbs).toEqual(["aws_lb.api"]);
    expect((summary(fixture("realistic/gcp-cluster")) as { addresses: string[] }).addresses).toEqual(["google_compute_address.api"]);
  });

  it("the hops to the address pass the locals the host goes through", () => {
    const { topo } = topologyOf(fixture("realistic/gcp-cluster"));
    expect(topo!.addresses[0]!.hops.map((h) => `${h.file.path}:${h.range.start.line}:${h.range.start.column} ${h.message}`)).toEqual([
      "outputs.tf:2:41 control_plane_endpoint host",
      "main.tf:21:19 local.endpoint_host",
      "main.tf:57:1 API address google_compute_address.api",
    ]);
  });

  it("Pattern C: an endpoint from a variable (kube-vip), a module without LB, a skeleton: null", () => {
    expect(summary(fixture("cluster/lb-hairpin/kube-vip-endpoint"))).toBeNull();
    expect(summary(fixture("realistic/hcloud-cluster"))).toBeNull();
    expect(summary(fixture("skeletons/cluster"))).toBeNull();
  });
});

describe("values of the API-LB analysis", () => {
  const { module } = topologyOf(fixture("cluster/lb-health-check/aws-tcp-check"));

  it("the API port: the input alone or with 6443, through locals, coalesce/try and tostring", () => {
    expect(portValues(module, site(module, "var.cluster_network.api_server_port")).map(describePort)).toEqual(["the API server port"]);
    expect(portValues(module, site(module, "coalesce(try(var.cluster_network.api_server_port, null), 6443)")).map(describePort)).toEqual(["the API server port"]);
    expect(portValues(module, site(module, "tostring(local.api_server_port)")).map(describePort)).toEqual(["the API server port"]);
    expect(portValues(module, site(module, 'var.x ? 6443 : var.cluster_network.api_server_port')).map(describePort)).toEqual(["the API server port"]);
  });

  it("other ports: constants, numeric strings, ranges, lists, unknowns", () => {
    expect(portValues(module, site(module, 'var.x ? 443 : "9345"')).map(describePort)).toEqual(["443", "9345"]);
    expect(portValues(module, site(module, '"6443-6443"')).map(describePort)).toEqual(["6443"]);
    expect(portValues(module, site(module, '"6000-7000"')).map(describePort)).toEqual(["6000-7000"]);
    expect(portValues(module, site(module, '["6443", "9345"]')).map(describePort)).toEqual(["6443", "9345"]);
    expect(portValues(module, site(module, "var.port")).map(describePort)).toEqual(["an unknown port"]);
    expect(portValues(module, site(module, "var.x ? var.cluster_network.api_server_port : 443")).map(describePort)).toEqual(["the API server port", "443"]);
  });

  it("mayBeTrue: true, inputs combined with logic operators; not false, not other expressions", () => {
    expect(mayBeTrue(module, site(module, "true"))).toBe(true);
    expect(mayBeTrue(module, site(module, "var.internal_load_balancer"))).toBe(true);
    expect(mayBeTrue(module, site(module, '!var.public && var.env == "prod"'))).toBe(true);
    expect(mayBeTrue(module, site(module, "false"))).toBe(false);
    expect(mayBeTrue(module, site(module, "length(var.x) > 0"))).toBe(false);
  });

  it("RKE2-aware: 9345, \"9345\" or a string equal to rke2 anywhere", () => {
    expect(isRke2Aware(topologyOf(fixture("cluster/lb-rke2-supervisor/aws-kubeadm-only")).module)).toBe(false);
    expect(isRke2Aware(topologyOf(fixture("cluster/lb-rke2-supervisor/aws-no-supervisor-listener")).module)).toBe(true);
    expect(isRke2Aware(topologyOf(fixture("cluster/lb-rke2-supervisor/aws-supervisor-listener")).module)).toBe(true);
  });
});

describe("the hops findings carry", () => {
  function related(dir: string, rule: string): string[][] {
    const outcome = lintModule(dir, { role: "cluster", only: [rule] });
    if (outcome.kind !== "report") throw new Error(outcome.kind);
    return outcome.report.findings.map((f) => (f.related ?? []).map((r) => `${r.file}:${r.range.start.line}:${r.range.start.column} ${r.message}`));
  }

  it("endpoint host → LB → frontend → group → the for_each entry the bad value comes from", () => {
    expect(related(fixture("cluster/lb-hairpin/aws-preserve-from-locals-map"), "cluster/lb-hairpin")).toEqual([
      [
        "outputs.tf:3:12 control_plane_endpoint host",
        "loadbalancer.tf:14:1 API load balancer aws_lb.api",
        "loadbalancer.tf:49:1 frontend aws_lb_listener.api",
        "loadbalancer.tf:30:1 backend group aws_lb_target_group.api",
        "loadbalancer.tf:31:14 aws_lb_target_group.api for_each",
        "loadbalancer.tf:9:15 local.api_ports",
        'loadbalancer.tf:10:22 local.api_ports["kube_apiserver"]',
        "loadbalancer.tf:19:24 aws_lb.api may be internal (internal)",
      ],
    ]);
  });

  it("address → LB → frontend → probe (Octavia)", () => {
    expect(related(fixture("cluster/lb-health-check/openstack-http-monitor"), "cluster/lb-health-check")).toEqual([
      [
        "outputs.tf:2:41 control_plane_endpoint host",
        "loadbalancer.tf:17:1 API address openstack_networking_floatingip_v2.api",
        "loadbalancer.tf:10:1 API load balancer openstack_lb_loadbalancer_v2.api",
        "loadbalancer.tf:29:1 frontend openstack_lb_listener_v2.api",
        "loadbalancer.tf:38:1 backend group openstack_lb_pool_v2.api",
        "loadbalancer.tf:47:1 probe openstack_lb_monitor_v2.api",
      ],
    ]);
  });

  it("the endpoint's port first when the listener port disagrees with it", () => {
    expect(related(fixture("cluster/lb-api-listener/gcp-rule-on-other-port"), "cluster/lb-api-listener")).toEqual([
      [
        "outputs.tf:2:92 control_plane_endpoint port 6443",
        "outputs.tf:2:41 control_plane_endpoint host",
        "loadbalancer.tf:10:1 API address google_compute_address.api",
        "loadbalancer.tf:43:1 frontend google_compute_forwarding_rule.api",
      ],
    ]);
  });
});

/**
 * The machine half of the cloud knowledge base (src/contract/cloud/instances.ts,
 * memberships.ts), and the `related` hops of the control-plane machine rules
 * (the fixture runner compares findings without them).
 */
import { describe, expect, it } from "vitest";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { INSTANCE_TYPES, PROVIDER_ID_SCHEMES, instanceType, providerIdScheme } from "../src/contract/cloud/instances.js";
import { MEMBERSHIP_TYPES, isBackendIdStep, membershipType, SCRIPTED_REGISTRATION } from "../src/contract/cloud/memberships.js";
import { lintModule } from "../src/lint/engine.js";
import type { Role } from "../src/contract/roles-api.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("instance table", () => {
  it("names the attribute each instance type puts in the providerID's instance segment", () => {
    const table = Object.fromEntries(INSTANCE_TYPES.map((t) => [`${t.data ? "data." : ""}${t.type}`, t.parts.instance]));
    expect(table).toEqual({
      aws_instance: "id",
      aws_spot_instance_request: "spot_instance_id",
      "data.aws_instance": "id",
      google_compute_instance: "name",
      google_compute_instance_from_template: "name",
      "data.google_compute_instance": "name",
      openstack_compute_instance_v2: "id",
      oci_core_instance: "id",
      azurerm_linux_virtual_machine: "name",
      azurerm_windows_virtual_machine: "name",
      azurerm_virtual_machine: "name",
    });
    expect(instanceType("google_compute_instance")?.wrongIdentifiers).toEqual(["id", "instance_id", "self_link", "hostname"]);
    expect(instanceType("azurerm_linux_virtual_machine")?.resourcePath).toBe("id");
    expect(instanceType("aws_instance", true)?.data).toBe(true);
    expect(instanceType("aws_instances")).toBeUndefined();
  });

  it("writes each scheme's shapes as segments, one per path part", () => {
    expect(PROVIDER_ID_SCHEMES.map((s) => s.scheme)).toEqual(["aws", "gce", "openstack", "oci", "azure"]);
    const render = (scheme: string): string[] =>
      providerIdScheme(scheme)!.shapes.map((shape) => shape.segments.map((seg) => ("literal" in seg ? seg.literal : `{${seg.part}}`)).join("/"));
    expect(render("aws")).toEqual(["aws:///{zone}/{instance}"]);
    expect(render("gce")).toEqual(["gce://{project}/{zone}/{instance}"]);
    expect(render("openstack")).toEqual(["openstack:///{instance}", "openstack://{region}/{instance}"]);
    expect(render("oci")).toEqual(["oci://{instance}"]);
    expect(render("azure")).toEqual([
      "azure:///subscriptions/{subscription}/resourceGroups/{resourceGroup}/providers/Microsoft.Compute/virtualMachines/{instance}",
      "azure:///subscriptions/{subscription}/resourceGroups/{resourceGroup}/providers/Microsoft.Compute/virtualMachineScaleSets/{scaleSet}/virtualMachines/{instance}",
    ]);
    expect(providerIdScheme("hcloud")).toBeUndefined();
  });
});

describe("membership table", () => {
  it("gives every one-instance membership a group and a member argument", () => {
    const members = MEMBERSHIP_TYPES.filter((m) => m.kind === "member");
    expect(Object.fromEntries(members.map((m) => [m.type, [m.group.map((p) => p.join(".")), m.member.map((p) => p.join("."))]]))).toEqual({
      aws_lb_target_group_attachment: [["target_group_arn"], ["target_id"]],
      aws_elb_attachment: [["elb"], ["instance"]],
      azurerm_network_interface_backend_address_pool_association: [["backend_address_pool_id"], ["network_interface_id", "ip_configuration_name"]],
      azurerm_lb_backend_address_pool_address: [["backend_address_pool_id"], ["ip_address", "backend_address_ip_configuration_id"]],
      azurerm_network_interface_application_gateway_backend_address_pool_association: [["backend_address_pool_id"], ["network_interface_id", "ip_configuration_name"]],
      google_compute_instance_group_membership: [["instance_group"], ["instance"]],
      google_compute_network_endpoint: [["network_endpoint_group"], ["instance", "ip_address"]],
      google_compute_network_endpoints: [["network_endpoint_group"], ["network_endpoints.instance", "network_endpoints.ip_address"]],
      openstack_lb_member_v2: [["pool_id"], ["address"]],
      openstack_lb_members_v2: [["pool_id"], ["member.address"]],
      oci_network_load_balancer_backend: [["backend_set_name", "network_load_balancer_id"], ["target_id", "ip_address"]],
      oci_load_balancer_backend: [["backendset_name", "load_balancer_id"], ["ip_address"]],
    });
    expect(membershipType("aws_autoscaling_attachment")).toMatchObject({ kind: "group-wide", scalingGroup: ["autoscaling_group_name"] });
    expect(membershipType("google_compute_instance_group")).toMatchObject({ kind: "group-lists-members", member: [["instances"]] });
    expect(membershipType("aws_autoscaling_group")?.kind).toBe("scaling-group-names-groups");
    expect(membershipType("aws_instance")).toBeUndefined();
  });

  it("recognises backend-id steps by exact name, with an optional api_ prefix", () => {
    for (const name of ["target_group_arn", "api_target_group_arns", "backend_address_pool_id", "api_backend_set_name", "pool_id", "api_instance_groups", "network_endpoint_group"]) {
      expect(isBackendIdStep(name), name).toBe(true);
    }
    for (const name of ["target_group_name", "api_pool_ids_map", "backend_pool_name", "apipool_id", "api_", "node_security_group"]) {
      expect(isBackendIdStep(name), name).toBe(false);
    }
  });

  it("pairs each scripted registration with the command that undoes it", () => {
    const pair = (cmd: string) => SCRIPTED_REGISTRATION.findIndex((s) => s.register.test(cmd));
    expect(pair("aws elbv2 register-targets --target-group-arn x")).toBe(0);
    expect(SCRIPTED_REGISTRATION[0]!.deregister.test("aws elbv2 deregister-targets --target-group-arn x")).toBe(true);
    expect(pair("openstack loadbalancer member create --address 10.0.0.5 pool")).toBe(3);
    expect(SCRIPTED_REGISTRATION[3]!.deregister.test("openstack loadbalancer member delete pool m")).toBe(true);
    expect(pair("gcloud compute instance-groups unmanaged add-instances api --instances=n")).toBe(4);
    expect(pair("echo hello")).toBe(-1);
  });
});

/** The findings of one rule on a fixture, with their related hops as `file:line:column message`. */
function related(rule: string, fixture: string, role: Role): { line: number; column: number; related: string[] | undefined }[] {
  const out = lintModule(path.join(ROOT, "fixtures", rule, fixture), { role, only: [rule], now: new Date("2026-01-01T00:00:00Z") });
  if (out.kind !== "report") throw new Error(out.kind);
  return out.report.findings.map((f) => ({
    line: f.range.start.line,
    column: f.range.start.column,
    related: f.related?.map((r) => `${r.file}:${r.range.start.line}:${r.range.start.column}-${r.range.end.line}:${r.range.end.column} ${r.message}`),
  }));
}

describe("related hops of the control-plane machine rules", () => {
  it("output/provider-id-format: the output, then each local followed", () => {
    expect(related("output/provider-id-format", "aws-missing-slash-via-local", "machine")).toEqual([
      { line: 3, column: 17, related: ['outputs.tf:7:3-7:28 output "provider_id"', "outputs.tf:3:3-3:87 local.provider_id"] },
    ]);
    expect(related("output/provider-id-format", "gcp-pool-self-link", "machinepool")).toEqual([
      { line: 2, column: 78, related: ['outputs.tf:10:3-10:42 output "provider_id_list"', "outputs.tf:2:3-2:139 local.member_provider_ids"] },
      { line: 19, column: 19, related: undefined },
    ]);
    // Found in the output's own expression: nothing to follow.
    expect(related("output/provider-id-format", "aws-bare-instance-id", "machine")).toEqual([{ line: 2, column: 11, related: undefined }]);
  });

  it("machine/lb-registration-missing: the local that holds the unused read", () => {
    expect(related("machine/lb-registration-missing", "aws-reads-group-never-registers", "machine")).toEqual([
      { line: 4, column: 30, related: ["main.tf:4:3-4:71 local.api_target_group_arn"] },
    ]);
  });

  it("pool/node-labels-restricted: from the boot configuration back to the variable", () => {
    expect(related("pool/node-labels-restricted", "aws-unfiltered", "machinepool")).toEqual([
      {
        line: 3,
        column: 25,
        related: [
          "main.tf:9:3-9:54 aws_launch_template.pool.user_data (boot configuration)",
          "userdata.tf:10:1-10:31 data.cloudinit_config.node",
          "userdata.tf:7:3-7:117 local.kubelet_drop_in",
          "userdata.tf:6:3-6:131 local.kubelet_labels_flag",
          "userdata.tf:3:3-5:4 local.kubelet_node_labels",
          "variables.tf:64:1-64:23 var.node_labels",
        ],
      },
    ]);
  });
});

/**
 * The machine half of the cloud knowledge base (src/contract/cloud/instances.ts,
 * memberships.ts). The rules that read it are tested by their fixtures
 * (fixtures/output/provider-id-format, fixtures/machine/*,
 * fixtures/pool/node-labels-restricted), `related` hops included.
 */
import { describe, expect, it } from "vitest";
import { INSTANCE_TYPES, PROVIDER_ID_SCHEMES, instanceType, providerIdScheme } from "../src/contract/cloud/instances.js";
import { MEMBERSHIP_TYPES, isBackendIdStep, membershipType, SCRIPTED_REGISTRATION } from "../src/contract/cloud/memberships.js";

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

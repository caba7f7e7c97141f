/**
 * Load-balancer backend membership as data: the resources that put a
 * machine into a backend group (target group, backend pool, backend set,
 * instance group, Octavia pool), and which argument names the group and
 * which the member.
 *
 * Four forms, by `kind`:
 * - `member`: a resource for one instance (or one list of members) in one
 *   group (`aws_lb_target_group_attachment`, `openstack_lb_member_v2`);
 * - `group-wide`: a whole scaling group attached to a backend group
 *   (`aws_autoscaling_attachment`): Pattern B, the cloud registers members;
 * - `group-lists-members`: the backend group's own argument lists its
 *   members (`google_compute_instance_group.instances`, `aws_elb.instances`);
 * - `scaling-group-names-groups`: a scaling group that names the backend
 *   groups its instances join (`aws_autoscaling_group.target_group_arns`).
 *
 * Argument paths are nested block types then the argument name
 * (`["member", "address"]` is `member[*].address`). A new cloud or a new
 * membership resource is a new row, not a rule change. Names follow the
 * providers' documented resource schemas.
 */
import type { Cloud } from "./common.js";

export type MembershipKind = "member" | "group-wide" | "group-lists-members" | "scaling-group-names-groups";

export interface MembershipType {
  cloud: Cloud;
  /** Resource type. */
  type: string;
  kind: MembershipKind;
  /**
   * The arguments that name the backend group; the first is the group's own
   * id or name, the others qualify it (OCI names a backend set by its load
   * balancer and its name).
   */
  group: readonly (readonly string[])[];
  /**
   * The arguments that name the member (an instance id, a NIC, an address).
   * Empty for `group-wide` (the scaling group is in `scalingGroup`).
   */
  member: readonly (readonly string[])[];
  /** `group-wide` only: the argument naming the scaling group attached. */
  scalingGroup?: readonly string[];
  /** The argument holding the member's backend port, when the resource sets one. */
  port?: readonly string[];
}

const p = (path: string): readonly string[] => path.split(".");

export const MEMBERSHIP_TYPES: readonly MembershipType[] = [
  // ---------------------------------------------------------------- AWS
  {
    cloud: "aws",
    type: "aws_lb_target_group_attachment",
    kind: "member",
    group: [p("target_group_arn")],
    member: [p("target_id")],
    port: p("port"),
  },
  { cloud: "aws", type: "aws_elb_attachment", kind: "member", group: [p("elb")], member: [p("instance")] },
  {
    cloud: "aws",
    type: "aws_autoscaling_attachment",
    kind: "group-wide",
    group: [p("lb_target_group_arn"), p("elb")],
    member: [],
    scalingGroup: p("autoscaling_group_name"),
  },
  {
    cloud: "aws",
    type: "aws_autoscaling_traffic_source_attachment",
    kind: "group-wide",
    group: [p("traffic_source.identifier")],
    member: [],
    scalingGroup: p("autoscaling_group_name"),
  },
  { cloud: "aws", type: "aws_elb", kind: "group-lists-members", group: [p("name")], member: [p("instances")] },
  {
    cloud: "aws",
    type: "aws_autoscaling_group",
    kind: "scaling-group-names-groups",
    group: [p("target_group_arns"), p("load_balancers"), p("traffic_source.identifier")],
    member: [],
  },
  // -------------------------------------------------------------- Azure
  {
    cloud: "azure",
    type: "azurerm_network_interface_backend_address_pool_association",
    kind: "member",
    group: [p("backend_address_pool_id")],
    member: [p("network_interface_id"), p("ip_configuration_name")],
  },
  {
    cloud: "azure",
    type: "azurerm_lb_backend_address_pool_address",
    kind: "member",
    group: [p("backend_address_pool_id")],
    member: [p("ip_address"), p("backend_address_ip_configuration_id")],
  },
  {
    cloud: "azure",
    type: "azurerm_network_interface_application_gateway_backend_address_pool_association",
    kind: "member",
    group: [p("backend_address_pool_id")],
    member: [p("network_interface_id"), p("ip_configuration_name")],
  },
  ...[
    "azurerm_linux_virtual_machine_scale_set",
    "azurerm_windows_virtual_machine_scale_set",
    "azurerm_orchestrated_virtual_machine_scale_set",
  ].map(
    (type): MembershipType => ({
      cloud: "azure",
      type,
      kind: "scaling-group-names-groups",
      group: [p("network_interface.ip_configuration.load_balancer_backend_address_pool_ids")],
      member: [],
    }),
  ),
  // ---------------------------------------------------------------- GCP
  {
    cloud: "gcp",
    type: "google_compute_instance_group_membership",
    kind: "member",
    group: [p("instance_group")],
    member: [p("instance")],
  },
  {
    cloud: "gcp",
    type: "google_compute_network_endpoint",
    kind: "member",
    group: [p("network_endpoint_group")],
    member: [p("instance"), p("ip_address")],
    port: p("port"),
  },
  {
    cloud: "gcp",
    type: "google_compute_network_endpoints",
    kind: "member",
    group: [p("network_endpoint_group")],
    member: [p("network_endpoints.instance"), p("network_endpoints.ip_address")],
    port: p("network_endpoints.port"),
  },
  { cloud: "gcp", type: "google_compute_instance_group", kind: "group-lists-members", group: [p("name")], member: [p("instances")] },
  { cloud: "gcp", type: "google_compute_target_pool", kind: "group-lists-members", group: [p("name")], member: [p("instances")] },
  ...["google_compute_instance_group_manager", "google_compute_region_instance_group_manager"].map(
    (type): MembershipType => ({ cloud: "gcp", type, kind: "scaling-group-names-groups", group: [p("target_pools")], member: [] }),
  ),
  // ---------------------------------------------------------- OpenStack
  {
    cloud: "openstack",
    type: "openstack_lb_member_v2",
    kind: "member",
    group: [p("pool_id")],
    member: [p("address")],
    port: p("protocol_port"),
  },
  {
    cloud: "openstack",
    type: "openstack_lb_members_v2",
    kind: "member",
    group: [p("pool_id")],
    member: [p("member.address")],
    port: p("member.protocol_port"),
  },
  // ---------------------------------------------------------------- OCI
  {
    cloud: "oci",
    type: "oci_network_load_balancer_backend",
    kind: "member",
    group: [p("backend_set_name"), p("network_load_balancer_id")],
    member: [p("target_id"), p("ip_address")],
    port: p("port"),
  },
  {
    cloud: "oci",
    type: "oci_load_balancer_backend",
    kind: "member",
    group: [p("backendset_name"), p("load_balancer_id")],
    member: [p("ip_address")],
    port: p("port"),
  },
  {
    cloud: "oci",
    type: "oci_core_instance_pool",
    kind: "scaling-group-names-groups",
    group: [p("load_balancers.backend_set_name"), p("load_balancers.load_balancer_id")],
    member: [],
  },
];

/** The membership row of a resource type, or undefined. */
export function membershipType(type: string): MembershipType | undefined {
  return MEMBERSHIP_TYPES.find((m) => m.type === type);
}

/** The rows that put one instance (or a listed set of members) into a group: kinds `member` and `group-lists-members`. */
export function isMemberRow(m: MembershipType): boolean {
  return m.kind === "member" || m.kind === "group-lists-members";
}

/**
 * Names of the `captf_cluster_outputs` traversal steps that hold a backend
 * group's id or name, as a cluster module publishes it in `exports`
 * (`target_group_arns`, `api_backend_pool_id`, ...). An optional `api_`
 * prefix is allowed.
 */
export const BACKEND_ID_STEP_NAMES: ReadonlySet<string> = new Set([
  "target_group",
  "target_groups",
  "target_group_arn",
  "target_group_arns",
  "target_group_id",
  "target_group_ids",
  "backend_pool",
  "backend_pools",
  "backend_pool_id",
  "backend_pool_ids",
  "backend_address_pool",
  "backend_address_pools",
  "backend_address_pool_id",
  "backend_address_pool_ids",
  "backend_set",
  "backend_sets",
  "backend_set_name",
  "backend_set_names",
  "pool",
  "pools",
  "pool_id",
  "pool_ids",
  "instance_group",
  "instance_groups",
  "network_endpoint_group",
  "network_endpoint_groups",
]);

/** True when a traversal step name holds a backend group id (`api_` prefix allowed). */
export function isBackendIdStep(name: string): boolean {
  return BACKEND_ID_STEP_NAMES.has(name) || (name.startsWith("api_") && BACKEND_ID_STEP_NAMES.has(name.slice(4)));
}

/**
 * Words in a provisioner command that register an instance in a backend
 * group from a script (AWS `elbv2 register-targets`, Azure `nic
 * ip-config address-pool add` / `--lb-address-pools`, OpenStack
 * `loadbalancer member create`, GCP `instance-groups unmanaged
 * add-instances`), and the words that undo them.
 */
export const SCRIPTED_REGISTRATION: readonly { register: RegExp; deregister: RegExp }[] = [
  { register: /\bregister-targets\b/, deregister: /\bderegister-targets\b/ },
  { register: /\bregister-instances-with-load-balancer\b/, deregister: /\bderegister-instances-from-load-balancer\b/ },
  { register: /\bbackend-address-pool\b|\baddress-pool\s+add\b|--lb-address-pools\b/, deregister: /\baddress-pool\s+remove\b|\bbackend-address-pool\b[^\n]*\b(remove|delete)\b/ },
  { register: /\bmember\s+create\b/, deregister: /\bmember\s+delete\b/ },
  { register: /\badd-instances\b/, deregister: /\bremove-instances\b/ },
];

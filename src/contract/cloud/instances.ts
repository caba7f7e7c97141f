/**
 * Compute instances and the providerID their Node carries, as data.
 *
 * - `INSTANCE_TYPES`: per cloud, the resource types that are one machine,
 *   and which of their attributes fill each part of the providerID (the
 *   instance identifier, zone, project, region);
 * - `PROVIDER_ID_SCHEMES`: the providerID shapes the cloud controller
 *   managers write on a Node (`aws:///<zone>/<id>`, `gce://<project>/<zone>/<name>`, ...),
 *   one pattern per accepted shape.
 *
 * `output/provider-id-format` matches a module's provider_id values against
 * these rows. A new cloud or instance type is a new row, not a rule change.
 * Attribute names follow the providers' documented resource schemas.
 */

import type { Cloud } from "./common.js";
export type { Cloud } from "./common.js";

/** What one part of a providerID stands for. */
export type ProviderIdPart = "instance" | "zone" | "project" | "region" | "subscription" | "resourceGroup" | "scaleSet";

export interface InstanceType {
  cloud: Cloud;
  /** Resource (or data source) type, e.g. `aws_instance`. */
  type: string;
  /** True for a data source row (`data.<type>.<name>`), false for a managed resource. */
  data?: boolean;
  /**
   * Which attribute of the resource fills each part of the providerID.
   * `instance` is the identifier segment (`aws_instance.id`,
   * `google_compute_instance.name`): any other attribute there names the
   * wrong thing.
   */
  parts: Readonly<Partial<Record<ProviderIdPart, string>>>;
  /**
   * An attribute whose value is the whole resource path the providerID
   * carries after the scheme (an Azure VM `id`: `/subscriptions/.../virtualMachines/<name>`).
   */
  resourcePath?: string;
  /**
   * Attributes that identify the instance in another form (numeric ids,
   * self links, resource paths): used in a providerID's instance segment they
   * give a providerID no Node carries.
   */
  wrongIdentifiers?: readonly string[];
}

export const INSTANCE_TYPES: readonly InstanceType[] = [
  {
    cloud: "aws",
    type: "aws_instance",
    parts: { instance: "id", zone: "availability_zone" },
    wrongIdentifiers: ["arn", "private_dns", "public_dns", "private_ip", "public_ip", "primary_network_interface_id"],
  },
  {
    cloud: "aws",
    type: "aws_spot_instance_request",
    // The request's own `id` is the spot request (sir-...), not the instance.
    parts: { instance: "spot_instance_id", zone: "availability_zone" },
    wrongIdentifiers: ["id", "arn", "private_dns", "public_dns", "private_ip", "public_ip"],
  },
  {
    cloud: "aws",
    type: "aws_instance",
    data: true,
    parts: { instance: "id", zone: "availability_zone" },
    wrongIdentifiers: ["arn", "private_dns", "public_dns", "private_ip", "public_ip"],
  },
  {
    cloud: "gcp",
    type: "google_compute_instance",
    // `id` is projects/<p>/zones/<z>/instances/<n>; `instance_id` is the numeric id.
    parts: { instance: "name", zone: "zone", project: "project" },
    wrongIdentifiers: ["id", "instance_id", "self_link", "hostname"],
  },
  {
    cloud: "gcp",
    type: "google_compute_instance_from_template",
    parts: { instance: "name", zone: "zone", project: "project" },
    wrongIdentifiers: ["id", "instance_id", "self_link", "hostname"],
  },
  {
    cloud: "gcp",
    type: "google_compute_instance",
    data: true,
    parts: { instance: "name", zone: "zone", project: "project" },
    wrongIdentifiers: ["id", "instance_id", "self_link", "hostname"],
  },
  {
    cloud: "openstack",
    type: "openstack_compute_instance_v2",
    parts: { instance: "id", region: "region" },
    wrongIdentifiers: ["name", "access_ip_v4", "access_ip_v6"],
  },
  {
    cloud: "oci",
    type: "oci_core_instance",
    parts: { instance: "id" },
    wrongIdentifiers: ["display_name", "hostname_label", "private_ip", "public_ip"],
  },
  ...["azurerm_linux_virtual_machine", "azurerm_windows_virtual_machine", "azurerm_virtual_machine"].map(
    (type): InstanceType => ({
      cloud: "azure",
      type,
      parts: { instance: "name", resourceGroup: "resource_group_name" },
      resourcePath: "id",
      wrongIdentifiers: ["virtual_machine_id", "computer_name", "private_ip_address", "public_ip_address"],
    }),
  ),
];

/** The row of a resource type (`data` for a data source), or undefined. */
export function instanceType(type: string, data = false): InstanceType | undefined {
  return INSTANCE_TYPES.find((t) => t.type === type && (t.data ?? false) === data);
}

/** One segment of a providerID pattern: literal text, or a part filled by an attribute. */
export type ProviderIdSegment = { literal: string } | { part: ProviderIdPart };

export interface ProviderIdShape {
  /**
   * The providerID split on `/` (the scheme segment included, e.g.
   * `aws:`, then the empty segments of `://`). A part stands for one
   * segment without `/`.
   */
  segments: readonly ProviderIdSegment[];
}

export interface ProviderIdScheme {
  /** The text before `://`. */
  scheme: string;
  cloud: Cloud;
  /** The shapes a Node of this cloud may carry, in words for messages. */
  display: string;
  shapes: readonly ProviderIdShape[];
}

/** Parse a pattern such as `aws:///{zone}/{instance}` into segments. */
function shape(pattern: string): ProviderIdShape {
  return {
    segments: pattern.split("/").map((s): ProviderIdSegment => {
      const m = /^\{(\w+)\}$/.exec(s);
      return m ? { part: m[1] as ProviderIdPart } : { literal: s };
    }),
  };
}

const AZURE_PREFIX = "azure:///subscriptions/{subscription}/resourceGroups/{resourceGroup}/providers/Microsoft.Compute";

export const PROVIDER_ID_SCHEMES: readonly ProviderIdScheme[] = [
  { scheme: "aws", cloud: "aws", display: "aws:///<availability-zone>/<instance-id>", shapes: [shape("aws:///{zone}/{instance}")] },
  { scheme: "gce", cloud: "gcp", display: "gce://<project>/<zone>/<instance-name>", shapes: [shape("gce://{project}/{zone}/{instance}")] },
  {
    scheme: "openstack",
    cloud: "openstack",
    display: "openstack:///<instance-id> (or openstack://<region>/<instance-id>)",
    shapes: [shape("openstack:///{instance}"), shape("openstack://{region}/{instance}")],
  },
  { scheme: "oci", cloud: "oci", display: "oci://<instance-ocid>", shapes: [shape("oci://{instance}")] },
  {
    scheme: "azure",
    cloud: "azure",
    display: "azure:///subscriptions/<sub>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<name> (a VM's id after azure://)",
    shapes: [
      shape(`${AZURE_PREFIX}/virtualMachines/{instance}`),
      shape(`${AZURE_PREFIX}/virtualMachineScaleSets/{scaleSet}/virtualMachines/{instance}`),
    ],
  },
];

/** The scheme row for the text before `://`, or undefined (other schemes are not checked). */
export function providerIdScheme(scheme: string): ProviderIdScheme | undefined {
  return PROVIDER_ID_SCHEMES.find((s) => s.scheme === scheme);
}

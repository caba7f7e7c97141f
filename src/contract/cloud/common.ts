/** The clouds the knowledge base has rows for. */
export type Cloud = "aws" | "azure" | "gcp" | "openstack" | "oci";

/** An argument's path inside a resource body: `["health_check", "port"]`. */
export type ArgPath = readonly string[];

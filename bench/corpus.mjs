// Deterministic benchmark corpus: CAPTF modules of all three roles, written
// the way real modules are (locals, for expressions, dynamic blocks, heredocs,
// templates, lifecycle blocks), in native syntax plus some `.tf.json` and
// `.tofu` files. The same seed always gives the same bytes.
//
//   node bench/corpus.mjs [outDir]      (default bench/corpus)
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "../scripts/mulberry32.mjs";

export const CORPUS_VERSION = 1;
const SEED = 0x5eed_ca9f;
const MODULES = 500;

const WORDS = [
  "api", "edge", "blue", "green", "core", "data", "batch", "gpu", "infra", "ingress", "metrics", "logs", "cache",
  "queue", "search", "stream", "build", "tools", "jobs", "web", "mesh", "auth", "vault", "dns", "store",
];
const CLOUDS = ["aws", "gcp", "azure", "oci", "hcloud"];

class Gen {
  constructor(seed) {
    this.r = mulberry32(seed);
  }
  int(min, max) {
    return min + Math.floor(this.r() * (max - min + 1));
  }
  pick(list) {
    return list[Math.floor(this.r() * list.length)];
  }
  chance(p) {
    return this.r() < p;
  }
  name(parts = 2) {
    return Array.from({ length: parts }, () => this.pick(WORDS)).join("_");
  }
}

const COMMON_VARIABLES = `variable "captf_contract" {
  type = string
}

variable "captf_cluster" {
  type = object({
    name      = string
    namespace = string
  })
}

variable "captf_object" {
  type = object({
    kind      = string
    name      = string
    namespace = string
  })
}

variable "captf_cluster_outputs" {
  type    = any
  default = null
}

variable "captf_tags" {
  type = map(string)
}
`;

const ROLE_VARIABLES = {
  cluster: `
variable "control_plane_endpoint" {
  type = object({
    host = string
    port = number
  })
  default = null
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "control_plane_initialized" {
  type = bool
}

variable "cluster_network" {
  type = object({
    pods            = list(string)
    services        = list(string)
    service_domain  = string
    api_server_port = number
  })
  default = null
}
`,
  machine: `
variable "machine_name" {
  type = string
}

variable "bootstrap_data" {
  type      = string
  sensitive = true
}

variable "bootstrap_format" {
  type = string
}

variable "failure_domain" {
  type    = string
  default = null
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "control_plane" {
  type = bool
}
`,
  machinepool: `
variable "machinepool_name" {
  type = string
}

variable "replicas" {
  type = number
}

variable "bootstrap_data" {
  type      = string
  sensitive = true
}

variable "bootstrap_format" {
  type = string
}

variable "failure_domains" {
  type = list(string)
}

variable "cluster_failure_domains" {
  type = list(string)
}

variable "kubernetes_version" {
  type    = string
  default = null
}

variable "node_labels" {
  type = map(string)
}

variable "autoscaling" {
  type = object({
    enabled = bool
    min     = number
    max     = number
  })
}
`,
};

function userVariables(g, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const name = `${g.name(2)}_${i}`;
    const kind = g.int(0, 4);
    if (kind === 0) {
      out.push(`variable "${name}" {
  description = "Number of ${g.pick(WORDS)} units for the ${g.pick(WORDS)} tier."
  type        = number
  default     = ${g.int(1, 64)}

  validation {
    condition     = var.${name} >= 1 && var.${name} <= 1024
    error_message = "${name} must be between 1 and 1024."
  }
}
`);
    } else if (kind === 1) {
      out.push(`variable "${name}" {
  description = "Extra ${g.pick(WORDS)} settings."
  type = object({
    enabled  = optional(bool, ${g.chance(0.5)})
    size     = optional(number, ${g.int(1, 500)})
    classes  = optional(list(string), ["${g.pick(WORDS)}", "${g.pick(WORDS)}"])
    settings = optional(map(string), {})
  })
  default = {}
}
`);
    } else if (kind === 2) {
      out.push(`variable "${name}" {
  type    = list(string)
  default = [${Array.from({ length: g.int(1, 6) }, (_, k) => `"10.${g.int(0, 255)}.${k * 16}.0/20"`).join(", ")}]
}
`);
    } else if (kind === 3) {
      out.push(`variable "${name}" {
  type      = string
  default   = null
  sensitive = ${g.chance(0.3)}
}
`);
    } else {
      out.push(`variable "${name}" {
  description = "Labels added to every ${g.pick(WORDS)} resource."
  type        = map(string)
  default = {
    team    = "${g.pick(WORDS)}"
    purpose = "${g.pick(WORDS)}-${g.pick(WORDS)}"
  }
}
`);
    }
  }
  return out.join("\n");
}

function locals(g, role, cloud) {
  const items = [
    `  name = "\${var.captf_cluster.name}-\${var.captf_object.name}"`,
    `  tags = merge(var.captf_tags, {
    "${cloud}.captf.io/role" = "${role}"
    Component                = "${g.pick(WORDS)}"
  })`,
    `  zone_map = { for index, zone in ${role === "machinepool" ? "var.failure_domains" : `["${cloud}-a", "${cloud}-b", "${cloud}-c"]`} : zone => {
    index  = index
    subnet = cidrsubnet("10.${g.int(0, 200)}.0.0/16", 4, index)
    label  = upper(replace(zone, "-", "_"))
  } }`,
    `  version_parts = var.${role === "cluster" ? "kubernetes_version" : "kubernetes_version"} == null ? ["0", "0", "0"] : split(".", trimprefix(split("+", var.kubernetes_version)[0], "v"))`,
    `  rendered_banner = <<-EOT
    # Managed by CAPTF for \${var.captf_cluster.namespace}/\${var.captf_cluster.name}
    %{ for key, value in var.captf_tags ~}
    # \${key} = \${value}
    %{ endfor ~}
  EOT`,
  ];
  for (let i = 0; i < g.int(4, 14); i++) {
    const n = `${g.name(2)}_${i}`;
    const form = g.int(0, 3);
    if (form === 0) items.push(`  ${n} = [for item in range(${g.int(2, 12)}) : format("%s-%03d", local.name, item) if item % ${g.int(2, 4)} != 0]`);
    else if (form === 1) items.push(`  ${n} = lookup({ small = ${g.int(1, 4)}, medium = ${g.int(5, 9)}, large = ${g.int(10, 32)} }, "${g.pick(["small", "medium", "large"])}", 1) * ${g.int(1, 8)}`);
    else if (form === 2) items.push(`  ${n} = { for k, v in local.tags : lower(k) => length(v) > 32 ? substr(v, 0, 32) : v }`);
    else items.push(`  ${n} = try(var.captf_cluster_outputs.${g.name(1)}_ids[${g.int(0, 3)}], null) != null ? "\${local.name}-${g.pick(WORDS)}" : join("-", [local.name, "${g.pick(WORDS)}", tostring(${g.int(1, 99)})])`);
  }
  return `locals {\n${items.join("\n")}\n}\n`;
}

function resource(g, cloud, index, role) {
  const n = `${g.name(1)}_${index}`;
  const body = [];
  const type = `${cloud === "gcp" ? "google" : cloud === "azure" ? "azurerm" : cloud}_${g.pick(["network", "subnet", "security_group", "instance", "disk", "policy", "record", "bucket", "role", "rule"])}`;
  body.push(`  name        = "\${local.name}-${g.pick(WORDS)}-${index}"`);
  body.push(`  description = "${g.pick(WORDS)} ${g.pick(WORDS)} for \${var.captf_cluster.name}"`);
  if (g.chance(0.4)) body.push(`  count       = ${role === "cluster" ? "var.control_plane_initialized" : "length(local.zone_map) > 0"} ? ${g.int(1, 3)} : 0`);
  for (let i = 0; i < g.int(2, 8); i++) {
    const attr = `${g.pick(WORDS)}_${g.pick(["size", "count", "mode", "id", "enabled", "class"])}_${i}`;
    const v = g.int(0, 4);
    if (v === 0) body.push(`  ${attr} = ${g.int(0, 100000)}`);
    else if (v === 1) body.push(`  ${attr} = "${g.pick(WORDS)}-${g.int(1, 9)}"`);
    else if (v === 2) body.push(`  ${attr} = local.zone_map["${cloud}-a"].subnet`);
    else if (v === 3) body.push(`  ${attr} = ${g.chance(0.5)}`);
    else body.push(`  ${attr} = [for z in keys(local.zone_map) : "\${z}/${g.pick(WORDS)}"]`);
  }
  body.push(`  ${cloud === "gcp" || cloud === "hcloud" ? "labels" : "tags"} = local.tags`);
  if (g.chance(0.5)) {
    body.push(`
  dynamic "${g.pick(["ingress", "rule", "setting", "disk", "listener"])}" {
    for_each = local.zone_map

    content {
      name     = \${dynamic_placeholder}.key
      priority = 100 + \${dynamic_placeholder}.value.index
      cidr     = \${dynamic_placeholder}.value.subnet
    }
  }`);
  }
  if (g.chance(0.3)) {
    body.push(`
  user_data = <<-EOF
    #cloud-config
    write_files:
      - path: /etc/captf/${g.pick(WORDS)}.conf
        content: |
          cluster=\${var.captf_cluster.name}
          namespace=\${var.captf_cluster.namespace}
          zone=\${try(keys(local.zone_map)[0], "none")}
    runcmd:
      - [systemctl, restart, ${g.pick(WORDS)}]
  EOF`);
  }
  for (let i = 0; i < g.int(0, 3); i++) {
    body.push(`
  ${g.pick(["timeouts", "metadata_options", "network_interface", "root_block_device", "health_check"])} {
    ${g.pick(WORDS)}_interval = ${g.int(1, 60)}
    ${g.pick(WORDS)}_mode     = "${g.pick(WORDS)}"
  }`);
  }
  if (g.chance(0.4)) {
    body.push(`
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [${g.pick(["tags", "labels", "description"])}]
  }`);
  }
  let text = `resource "${type}" "${n}" {\n${body.join("\n")}\n}\n`;
  const dyn = /dynamic "([a-z_]+)"/.exec(text);
  if (dyn) text = text.replace(/\$\{dynamic_placeholder\}/g, dyn[1]);
  return text;
}

const OUTPUTS = {
  cluster: `output "control_plane_endpoint" {
  value = var.control_plane_endpoint != null ? var.control_plane_endpoint : {
    host = "api.\${local.name}.example.internal"
    port = 6443
  }
}

output "failure_domains" {
  value = [for zone, meta in local.zone_map : { name = zone, control_plane = true, attributes = { subnet = meta.subnet } }]
}

output "exports" {
  value = {
    zones   = keys(local.zone_map)
    subnets = { for zone, meta in local.zone_map : zone => meta.subnet }
  }
}

output "health" {
  value = { state = "running", healthy = true, message = null, reasons = [] }
}
`,
  machine: `output "provider_id" {
  value = "noop:///\${var.captf_object.namespace}/\${var.machine_name}"
}

output "addresses" {
  value = [{ type = "InternalIP", address = cidrhost("10.0.0.0/16", 10) }]
}

output "failure_domain" {
  value = var.failure_domain
}

output "interruptible" {
  value = false
}

output "health" {
  value = { state = "running", healthy = true, message = null, reasons = [] }
}
`,
  machinepool: `locals {
  member_ids = [for i in range(var.replicas) : "noop:///\${var.captf_object.namespace}/\${var.machinepool_name}/\${i}"]
}

output "provider_id" {
  value = "noop-group:///\${var.captf_object.namespace}/\${var.machinepool_name}"
}

output "provider_id_list" {
  value = sort(local.member_ids)
}

output "replicas" {
  value = length(local.member_ids)
}

output "instances" {
  value = [for id in sort(local.member_ids) : { provider_id = id, state = "running" }]
}

output "health" {
  value = { state = "running", healthy = true, message = null, reasons = [] }
}
`,
};

function jsonFile(g, index) {
  const resources = {};
  for (let i = 0; i < g.int(3, 12); i++) {
    resources[`${g.name(2)}_${i}`] = {
      name: `\${local.name}-json-${i}`,
      size: g.int(1, 512),
      enabled: g.chance(0.5),
      tags: "${local.tags}",
      settings: { mode: g.pick(WORDS), zones: "${keys(local.zone_map)}", weight: g.int(1, 100) },
    };
  }
  return `${JSON.stringify(
    {
      variable: { [`json_setting_${index}`]: { type: "string", default: g.pick(WORDS), description: "Set from generated JSON." } },
      resource: { terraform_data: resources },
      locals: { [`json_local_${index}`]: "${upper(var.json_setting_" + index + ")}" },
    },
    null,
    2,
  )}\n`;
}

/** Writes the corpus; returns { files, bytes, modules }. */
export function generateCorpus(outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const g = new Gen(SEED);
  const roles = ["cluster", "machine", "machinepool"];
  let files = 0;
  let bytes = 0;
  const write = (p, text) => {
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  for (let m = 0; m < MODULES; m++) {
    const role = roles[m % 3];
    const cloud = g.pick(CLOUDS);
    const dir = path.join(outDir, `${String(Math.floor(m / 50)).padStart(2, "0")}`, `${cloud}-${role}-${String(m).padStart(3, "0")}`);
    write(
      path.join(dir, "versions.tf"),
      `terraform {\n  required_version = ">= 1.6.0"\n\n  required_providers {\n    ${cloud} = {\n      source  = "example/${cloud}"\n      version = "~> ${g.int(1, 6)}.${g.int(0, 40)}"\n    }\n  }\n}\n`,
    );
    write(path.join(dir, "variables.tf"), `${COMMON_VARIABLES}${ROLE_VARIABLES[role]}\n${userVariables(g, g.int(4, 16))}`);
    write(path.join(dir, "locals.tf"), locals(g, role, cloud));
    const resources = [];
    for (let i = 0; i < g.int(18, 48); i++) resources.push(resource(g, cloud, i, role));
    const half = Math.ceil(resources.length / 2);
    write(path.join(dir, "main.tf"), `# ${cloud} ${role} module ${m}\n\n${resources.slice(0, half).join("\n")}`);
    write(path.join(dir, "network.tf"), resources.slice(half).join("\n"));
    write(path.join(dir, "outputs.tf"), OUTPUTS[role]);
    if (m % 2 === 0) write(path.join(dir, `generated.tf.json`), jsonFile(g, m));
    if (m % 3 === 1) {
      // An OpenTofu-only addition (a stem with no .tf twin).
      const extra = [];
      for (let i = 0; i < g.int(3, 10); i++) extra.push(resource(g, cloud, 100 + i, role));
      write(path.join(dir, "tofu_extras.tofu"), extra.join("\n"));
    }
    if (m % 5 === 0) write(path.join(dir, "README.md"), `# ${cloud} ${role}\n\nGenerated benchmark module.\n`);
  }
  return { files, bytes, modules: MODULES };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "corpus"));
  const stats = generateCorpus(out);
  process.stdout.write(`corpus: ${stats.modules} modules, ${stats.files} files, ${(stats.bytes / 1e6).toFixed(1)} MB in ${out}\n`);
}

/**
 * The generated corpus in `dir`, made again when missing or from another
 * generator version; returns its manifest (version, modules, bytes).
 */
export function ensureCorpus(dir) {
  const manifest = path.join(dir, ".manifest.json");
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, "utf8"));
    if (m.version === CORPUS_VERSION) return m;
  }
  process.stderr.write("bench: generating the corpus...\n");
  const m = { version: CORPUS_VERSION, ...generateCorpus(dir) };
  writeFileSync(manifest, JSON.stringify(m, null, 2));
  return m;
}

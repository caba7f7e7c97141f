// A large cluster module for the cold-start bench: examples/cluster-aws (8
// files) plus 32 component files of the kind a full cloud cluster module
// grows (per-component security groups and rules, IAM roles and policies,
// log groups), ~85 KB of `.tf` in 40
// files. The same bytes every time; written into bench/large/ (gitignored)
// when missing or different.
//
//   node bench/large-module.mjs [outDir]     (default bench/large)
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
export const LARGE_DIR = path.join(BENCH, "large");
const BASE = path.join(ROOT, "examples", "cluster-aws");

const COMPONENTS = [
  "logging", "metrics", "tracing", "backup", "dns", "registry", "secrets", "ingress",
  "egress", "bastion", "etcd_backup", "audit", "alerting", "cost", "storage", "snapshots",
  "vpn", "peering", "endpoints", "flow_logs", "waf", "certificates", "autoscaler", "karpenter",
  "csi_ebs", "csi_efs", "cni", "external_dns", "cert_manager", "gitops", "policy", "scanner",
];

/** One component: its inputs, a security group with rules, an IAM role and policy, a log group. */
function componentFile(name, i) {
  const dash = name.replace(/_/g, "-");
  const port = 8000 + i * 10;
  return `# The ${dash} component: its network access, its identity and its logs.

variable "enable_${name}" {
  description = "Create the ${dash} component's resources."
  type        = bool
  default     = true
}

variable "${name}_allowed_cidrs" {
  type    = list(string)
  default = ["10.0.0.0/8"]
}

variable "${name}_log_retention_days" {
  type    = number
  default = ${7 * ((i % 4) + 1)}
}

locals {
  ${name}_name  = "\${local.name}-${dash}"
  ${name}_ports = { http = ${port}, metrics = ${port + 1} }
}

resource "aws_security_group" "${name}" {
  count = var.enable_${name} ? 1 : 0

  name_prefix = "\${local.${name}_name}-"
  description = "The ${dash} component of \${local.name}"
  vpc_id      = aws_vpc.this.id

  tags = merge(var.captf_tags, {
    Name      = local.${name}_name
    Component = "${dash}"
  })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "${name}" {
  for_each = var.enable_${name} ? {
    for pair in setproduct(keys(local.${name}_ports), var.${name}_allowed_cidrs) : "\${pair[0]}-\${pair[1]}" => {
      port = local.${name}_ports[pair[0]]
      cidr = pair[1]
    }
  } : {}

  security_group_id = aws_security_group.${name}[0].id
  description       = "${dash} \${each.key}"
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
  cidr_ipv4         = each.value.cidr

  tags = var.captf_tags
}

data "aws_iam_policy_document" "${name}" {
  statement {
    sid       = "${dash.replace(/-/g, "")}Logs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]
    resources = ["\${aws_cloudwatch_log_group.${name}.arn}:*"]
  }
}

resource "aws_iam_role" "${name}" {
  name_prefix        = "\${substr(local.name, 0, 20)}-${dash.slice(0, 10)}-"
  assume_role_policy = data.aws_iam_policy_document.ec2_assume_role.json

  tags = var.captf_tags
}

resource "aws_iam_role_policy" "${name}" {
  name   = "${dash}"
  role   = aws_iam_role.${name}.id
  policy = data.aws_iam_policy_document.${name}.json
}

resource "aws_cloudwatch_log_group" "${name}" {
  name              = "/captf/\${local.name}/${dash}"
  retention_in_days = var.${name}_log_retention_days

  tags = var.captf_tags
}
`;
}

/** The module's files: name -> text. */
export function largeModuleFiles() {
  const files = new Map();
  for (const f of readdirSync(BASE).sort()) if (f.endsWith(".tf")) files.set(f, readFileSync(path.join(BASE, f), "utf8"));
  COMPONENTS.forEach((name, i) => files.set(`component-${name.replace(/_/g, "-")}.tf`, componentFile(name, i)));
  return files;
}

/** Writes the module into `dir` unless it is there already, byte for byte; returns its file count and size. */
export function ensureLargeModule(dir = LARGE_DIR) {
  const files = largeModuleFiles();
  let bytes = 0;
  for (const text of files.values()) bytes += Buffer.byteLength(text);
  const same =
    existsSync(dir) &&
    readdirSync(dir).length === files.size &&
    [...files].every(([f, text]) => existsSync(path.join(dir, f)) && readFileSync(path.join(dir, f), "utf8") === text);
  if (!same) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [f, text] of files) writeFileSync(path.join(dir, f), text);
  }
  return { dir, files: files.size, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = ensureLargeModule(process.argv[2] ? path.resolve(process.argv[2]) : LARGE_DIR);
  process.stdout.write(`${path.relative(process.cwd(), r.dir) || "."}: ${r.files} files, ${r.bytes} bytes\n`);
}

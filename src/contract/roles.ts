/**
 * The CAPTF module contract v1alpha1 as data (inputs, outputs, enums per
 * role), and role detection from what a module declares.
 */
import type { Contract, InputSpec, Role } from "./roles-api.js";
import { ROLES } from "./roles-api.js";
import type { ModuleUnit } from "../terraform/model.js";

function input(name: string, type: string, flags: Partial<Omit<InputSpec, "name" | "type">> = {}): InputSpec {
  return {
    name,
    type,
    nullable: flags.nullable ?? false,
    sensitive: flags.sensitive ?? false,
    defaultAllowed: flags.defaultAllowed ?? false,
  };
}

/** Inputs every role receives. */
const COMMON_INPUTS: InputSpec[] = [
  input("captf_contract", "string"),
  input("captf_cluster", "any"),
  input("captf_object", "any"),
  input("captf_tags", "map(string)"),
];

/** Only machine and machinepool receive the cluster's `exports`. */
const CLUSTER_OUTPUTS_INPUT = input("captf_cluster_outputs", "any", { defaultAllowed: true });

const CLUSTER_INPUTS: InputSpec[] = [
  ...COMMON_INPUTS,
  input("control_plane_endpoint", "object({host=string, port=number})", { nullable: true }),
  input("kubernetes_version", "string", { nullable: true }),
  input("control_plane_initialized", "bool"),
  input(
    "cluster_network",
    "object({pods=list(string), services=list(string), service_domain=string, api_server_port=number})",
    { nullable: true },
  ),
];

const MACHINE_INPUTS: InputSpec[] = [
  ...COMMON_INPUTS,
  CLUSTER_OUTPUTS_INPUT,
  input("machine_name", "string"),
  input("bootstrap_data", "string", { sensitive: true }),
  input("bootstrap_format", "string"),
  input("failure_domain", "string", { nullable: true }),
  input("kubernetes_version", "string", { nullable: true }),
  input("control_plane", "bool"),
];

const MACHINEPOOL_INPUTS: InputSpec[] = [
  ...COMMON_INPUTS,
  CLUSTER_OUTPUTS_INPUT,
  input("machinepool_name", "string"),
  input("replicas", "number"),
  input("bootstrap_data", "string", { sensitive: true }),
  input("bootstrap_format", "string"),
  input("failure_domains", "list(string)"),
  input("cluster_failure_domains", "list(string)"),
  input("kubernetes_version", "string", { nullable: true }),
  input("node_labels", "map(string)"),
  input("autoscaling", "object({enabled=bool, min=number, max=number})"),
];

export const CONTRACT: Contract = {
  version: "v1alpha1",
  inputs: {
    cluster: CLUSTER_INPUTS,
    machine: MACHINE_INPUTS,
    machinepool: MACHINEPOOL_INPUTS,
  },
  outputs: {
    cluster: ["control_plane_endpoint", "failure_domains", "exports", "health"],
    machine: ["provider_id", "addresses", "failure_domain", "interruptible", "health"],
    machinepool: ["provider_id", "provider_id_list", "replicas", "instances", "health"],
  },
  healthStates: ["pending", "running", "degraded", "stopped", "terminated", "unknown"],
  addressTypes: ["Hostname", "ExternalIP", "InternalIP", "ExternalDNS", "InternalDNS"],
  reservedPrefix: "captf_",
  reservedVariableNames: ["source", "version", "providers", "count", "for_each", "depends_on", "lifecycle", "locals"],
};

/** The only contract version this linter knows. */
export const CONTRACT_VERSIONS: readonly string[] = ["v1alpha1"];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The contract input spec of `name` for `role`, if it is one. */
export function contractInput(role: Role, name: string): InputSpec | undefined {
  return CONTRACT.inputs[role].find((i) => i.name === name);
}

// ------------------------------------------------------------ role detection

/**
 * Declarations that only one role's contract has. Inputs and outputs shared
 * by several roles (`kubernetes_version`, `bootstrap_data`, `provider_id`,
 * `health`, the `captf_*` inputs) say nothing about the role and are left out.
 */
const DISTINCTIVE: Record<Role, { variables: string[]; outputs: string[] }> = {
  cluster: {
    variables: ["control_plane_endpoint", "control_plane_initialized", "cluster_network"],
    outputs: ["control_plane_endpoint", "exports", "failure_domains"],
  },
  machine: {
    variables: ["machine_name", "control_plane", "failure_domain"],
    outputs: ["addresses", "interruptible", "failure_domain"],
  },
  machinepool: {
    variables: ["machinepool_name", "replicas", "autoscaling", "failure_domains", "cluster_failure_domains", "node_labels"],
    outputs: ["provider_id_list", "instances", "replicas"],
  },
};

export type RoleDetection =
  | { role: Role; evidence: string[] }
  | { role: null; reason: "ambiguous" | "none"; candidates: Role[]; evidence: string[] };

/**
 * Guess a module's role from the contract inputs and outputs it declares.
 * Each role scores one point per distinctive variable/output; the single
 * highest score wins. A tie, or nothing distinctive at all, is not a guess:
 * the caller must ask for `--role`.
 */
export function detectRole(unit: ModuleUnit): RoleDetection {
  const decl = unit.declarations;
  const scores = new Map<Role, string[]>();
  for (const role of ROLES) {
    const found: { file: string; line: number; text: string }[] = [];
    for (const name of DISTINCTIVE[role].variables) {
      const v = decl.variables.get(name);
      if (v) found.push({ file: v.file.path, line: v.range.start.line, text: `${role}: variable "${name}" (${v.file.path}:${v.range.start.line})` });
    }
    for (const name of DISTINCTIVE[role].outputs) {
      const o = decl.outputs.get(name);
      if (o) found.push({ file: o.file.path, line: o.range.start.line, text: `${role}: output "${name}" (${o.file.path}:${o.range.start.line})` });
    }
    found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    scores.set(role, found.map((f) => f.text));
  }
  const best = Math.max(...ROLES.map((r) => scores.get(r)!.length));
  const evidence = ROLES.flatMap((r) => scores.get(r)!);
  if (best === 0) return { role: null, reason: "none", candidates: [], evidence };
  const top = ROLES.filter((r) => scores.get(r)!.length === best);
  if (top.length > 1) return { role: null, reason: "ambiguous", candidates: top, evidence };
  return { role: top[0]!, evidence: scores.get(top[0]!)! };
}

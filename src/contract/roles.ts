/**
 * The CAPTF module contract v1alpha1 as data (inputs, outputs, enums per
 * role), and role detection from what a module declares.
 */
import type { Contract, InputSpec, Role } from "./roles-api.js";
import { ROLES } from "./roles-api.js";
import type { ModuleUnit } from "../terraform/module-types.js";

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
 * Contract input names that ordinary modules use for their own purposes
 * (a node-pool module's `replicas` and `autoscaling`, a VM module's
 * `failure_domain`). They help choose between roles but never show that a
 * module is a CAPTF module.
 */
const COMMON_INPUT_NAMES: ReadonlySet<string> = new Set([
  "replicas",
  "autoscaling",
  "node_labels",
  "failure_domain",
  "failure_domains",
  "control_plane",
  "control_plane_endpoint",
  "kubernetes_version",
]);

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

/**
 * The inputs of `role` whose names only the contract uses (neither reserved
 * nor common): two of them are enough evidence of the role.
 */
export function identifyingInputs(role: Role): string[] {
  return CONTRACT.inputs[role].map((i) => i.name).filter((n) => !n.startsWith(CONTRACT.reservedPrefix) && !COMMON_INPUT_NAMES.has(n));
}

/** Points a declaration weighs when choosing the role (see detectRole). */
export const DETECTION_WEIGHTS = { input: 2, commonInput: 1, output: 1 } as const;

/** Why a module found by a walk is not linted although a role was chosen. */
export type WeakEvidence =
  /** It declares no contract input at all and calls a local module: a test or example wrapper. */
  | { kind: "wrapper"; source: string }
  /** Too few of the role's contract inputs that only CAPTF modules have. */
  | { kind: "weak" };

export type RoleDetection =
  | {
      role: Role;
      evidence: string[];
      /**
       * Whether the evidence is enough to lint a module nobody named (one
       * found by `--recursive`, or the directory of a file named on its own):
       * a reserved `captf_*` input of the role, or two of its inputs whose
       * names only the contract uses.
       */
      enough: boolean;
      /** Set when `enough` is false: what the module looks like instead. */
      weak?: WeakEvidence;
    }
  | { role: null; reason: "ambiguous" | "none"; candidates: Role[]; evidence: string[] };

interface Found {
  file: string;
  line: number;
  text: string;
  /** Weightiest first: 0 an identifying input, 1 a reserved input, 2 an input with a common name, 3 an output. */
  rank: number;
}

function byWeightThenPlace(a: Found, b: Found): number {
  return a.rank - b.rank || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
}

/**
 * Guess a module's role from the contract inputs and outputs it declares.
 *
 * 1. Choice: each role scores its distinctive declarations (those no other
 *    role's contract has): an input 2 points, an input with a common name
 *    (`replicas`, `autoscaling`, ...) 1 point, an output 1 point. The single
 *    highest score wins; a tie, or no distinctive declaration at all, is no
 *    guess (the caller asks for `--role`).
 * 2. Strength: the chosen role's evidence is `enough` when the module
 *    declares one of the reserved `captf_*` inputs of that role, or two of
 *    its identifying inputs (`identifyingInputs`: `machine_name`,
 *    `bootstrap_data`, ...). Outputs and common names never suffice: an
 *    ordinary module may have an `instances` output or an `autoscaling`
 *    variable, and a test wrapper re-exports a role module's outputs.
 *
 * Evidence lists every declaration that counted in either step, weightiest
 * first (identifying inputs, reserved inputs, inputs with common names,
 * outputs), each in file and line order: `machine input "machine_name"
 * (variables.tf:5)`.
 */
export function detectRole(unit: ModuleUnit): RoleDetection {
  const decl = unit.declarations;
  const variable = (name: string, what: string, rank: number): Found | null => {
    const v = decl.variables.get(name);
    if (!v) return null;
    const where = `${v.file.path}:${v.range.start.line}${rank === 2 ? ", a common name" : ""}`;
    return { file: v.file.path, line: v.range.start.line, text: `${what} "${name}" (${where})`, rank };
  };
  const output = (name: string, what: string): Found | null => {
    const o = decl.outputs.get(name);
    return o ? { file: o.file.path, line: o.range.start.line, text: `${what} "${name}" (${o.file.path}:${o.range.start.line})`, rank: 3 } : null;
  };
  const scores = new Map<Role, number>();
  const chosenBy = new Map<Role, Found[]>();
  for (const role of ROLES) {
    let score = 0;
    const found: Found[] = [];
    for (const name of DISTINCTIVE[role].variables) {
      const common = COMMON_INPUT_NAMES.has(name);
      const f = variable(name, `${role} input`, common ? 2 : 0);
      if (!f) continue;
      score += common ? DETECTION_WEIGHTS.commonInput : DETECTION_WEIGHTS.input;
      found.push(f);
    }
    for (const name of DISTINCTIVE[role].outputs) {
      const f = output(name, `${role} output`);
      if (!f) continue;
      score += DETECTION_WEIGHTS.output;
      found.push(f);
    }
    scores.set(role, score);
    chosenBy.set(role, found);
  }
  const best = Math.max(...ROLES.map((r) => scores.get(r)!));
  if (best === 0) return { role: null, reason: "none", candidates: [], evidence: sharedEvidence(unit) };
  const top = ROLES.filter((r) => scores.get(r) === best);
  if (top.length > 1) {
    return { role: null, reason: "ambiguous", candidates: top, evidence: ROLES.flatMap((r) => chosenBy.get(r)!.sort(byWeightThenPlace).map((f) => f.text)) };
  }
  const role = top[0]!;

  // Strength: the role's reserved inputs, and its identifying inputs.
  const evidence = chosenBy.get(role)!;
  const counted = new Set(DISTINCTIVE[role].variables);
  let reserved = 0;
  let identifying = 0;
  for (const spec of CONTRACT.inputs[role]) {
    const isReserved = spec.name.startsWith(CONTRACT.reservedPrefix);
    if (!isReserved && COMMON_INPUT_NAMES.has(spec.name)) continue;
    const f = variable(spec.name, isReserved ? "reserved input" : `${role} input`, isReserved ? 1 : 0);
    if (!f) continue;
    if (isReserved) reserved++;
    else identifying++;
    if (!counted.has(spec.name)) evidence.push(f);
  }
  const texts = evidence.sort(byWeightThenPlace).map((f) => f.text);
  const enough = reserved > 0 || identifying >= 2;
  if (enough) return { role, evidence: texts, enough };
  return { role, evidence: texts, enough, weak: wrapperOf(unit) ?? { kind: "weak" } };
}

/** A module declaring none of the contract's inputs (of any role) that calls a local module: what it calls. */
function wrapperOf(unit: ModuleUnit): WeakEvidence | null {
  const decl = unit.declarations;
  if (ROLES.some((r) => CONTRACT.inputs[r].some((i) => decl.variables.has(i.name)))) return null;
  for (const call of decl.moduleCalls.values()) {
    if (call.isLocal && call.source !== null) return { kind: "wrapper", source: call.source };
  }
  return null;
}

/** Contract declarations that no single role owns (`captf_*`, `bootstrap_data`, `provider_id`, `health`), for saying what a module without a role declares. */
function sharedEvidence(unit: ModuleUnit): string[] {
  const decl = unit.declarations;
  const found: Found[] = [];
  const inputs = new Set(ROLES.flatMap((r) => CONTRACT.inputs[r].map((i) => i.name)));
  const outputs = new Set(ROLES.flatMap((r) => CONTRACT.outputs[r]));
  for (const name of inputs) {
    const v = decl.variables.get(name);
    const reserved = name.startsWith(CONTRACT.reservedPrefix);
    if (v) found.push({ file: v.file.path, line: v.range.start.line, text: `${reserved ? "reserved input" : "contract input"} "${name}" (${v.file.path}:${v.range.start.line})`, rank: reserved ? 1 : 0 });
  }
  for (const name of outputs) {
    const o = decl.outputs.get(name);
    if (o) found.push({ file: o.file.path, line: o.range.start.line, text: `contract output "${name}" (${o.file.path}:${o.range.start.line})`, rank: 3 });
  }
  return found.sort(byWeightThenPlace).map((f) => f.text);
}

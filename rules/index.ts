/**
 * The rule registry: every rule definition, in catalogue order. The docs,
 * `tfcapi-lint rules`, SARIF metadata and the README table come from here.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import { SYNTAX_RULES } from "./syntax.js";
import { REFERENCE_INPUT_RULES } from "./reference-inputs.js";
import { REFERENCE_OUTPUT_RULES } from "./reference-outputs.js";
import { DEPTH_OUTPUT_RULES } from "./depth-outputs.js";
import { DEPTH_POOL_RULES } from "./depth-pool.js";
import { CONTROL_PLANE_LB_RULES } from "./control-plane-lb.js";
import { CONTROL_PLANE_CLUSTER_RULES } from "./control-plane-cluster.js";
import { CONTROL_PLANE_MACHINE_RULES } from "./control-plane-machine.js";
import { CONTROL_PLANE_POOL_RULES } from "./control-plane-pool.js";

export const ALL_RULES: readonly RuleDefinition[] = [
  ...SYNTAX_RULES,
  ...REFERENCE_INPUT_RULES,
  ...REFERENCE_OUTPUT_RULES,
  ...DEPTH_OUTPUT_RULES,
  ...DEPTH_POOL_RULES,
  ...CONTROL_PLANE_LB_RULES,
  ...CONTROL_PLANE_CLUSTER_RULES,
  ...CONTROL_PLANE_MACHINE_RULES,
  ...CONTROL_PLANE_POOL_RULES,
];

export function findRule(id: string): RuleDefinition | undefined {
  return ALL_RULES.find((r) => r.id === id);
}

import type { RuleDefinition } from "../src/lint/types.js";
import outputRequired from "./output/required.js";
import outputHealth from "./output/health.js";
import outputReserved from "./output/reserved.js";
import endpointNeverSet from "./output/endpoint-never-set.js";
import providerIdListShape from "./output/provider-id-list-shape.js";
import autoscalingIgnoreChanges from "./pool/autoscaling-ignore-changes.js";

export const REFERENCE_OUTPUT_RULES: readonly RuleDefinition[] = [
  outputRequired,
  outputHealth,
  outputReserved,
  endpointNeverSet,
  providerIdListShape,
  autoscalingIgnoreChanges,
];

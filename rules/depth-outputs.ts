/**
 * Contract-depth output rules: checks the reference linter does not have,
 * of the shapes and inputs behind the outputs the controller decodes.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import healthShape from "./output/health-shape.js";
import endpointShape from "./output/endpoint-shape.js";
import endpointIgnoresInput from "./output/endpoint-ignores-input.js";
import failureDomainsShape from "./output/failure-domains-shape.js";
import addressesShape from "./output/addresses-shape.js";
import instancesShape from "./output/instances-shape.js";
import failureDomainInput from "./output/failure-domain-input.js";
import exportsSecret from "./output/exports-secret.js";

export const DEPTH_OUTPUT_RULES: readonly RuleDefinition[] = [
  healthShape,
  endpointShape,
  endpointIgnoresInput,
  failureDomainsShape,
  addressesShape,
  instancesShape,
  failureDomainInput,
  exportsSecret,
];

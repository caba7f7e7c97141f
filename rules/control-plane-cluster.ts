/**
 * Control-plane integration rules about the cluster module's own side:
 * the endpoint's ordering, the API load balancer's security-group ports,
 * exports and registration, and what blocks a machine's destroy.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import endpointGatedOnInitialized from "./output/endpoint-gated-on-initialized.js";
import destroyBlocked from "./machine/destroy-blocked.js";
import sgControlPlanePorts from "./cluster/sg-control-plane-ports.js";
import lbUngatedOnEndpointInput from "./cluster/lb-ungated-on-endpoint-input.js";
import exportsLbBackend from "./cluster/exports-lb-backend.js";
import lbRegistrationInCluster from "./cluster/lb-registration-in-cluster.js";

export const CONTROL_PLANE_CLUSTER_RULES: readonly RuleDefinition[] = [
  endpointGatedOnInitialized,
  destroyBlocked,
  sgControlPlanePorts,
  exportsLbBackend,
  lbRegistrationInCluster,
  lbUngatedOnEndpointInput,
];

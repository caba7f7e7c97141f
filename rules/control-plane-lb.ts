/**
 * Control-plane integration rules about the API load balancer (issue 18):
 * what the endpoint's load balancer must forward and check so that a
 * cluster comes up instead of hanging. Each rule reads the API-LB topology
 * (src/analysis/api-lb.ts).
 */
import type { RuleDefinition } from "../src/lint/types.js";
import lbHairpin from "./cluster/lb-hairpin.js";
import lbHealthCheck from "./cluster/lb-health-check.js";
import lbRke2Supervisor from "./cluster/lb-rke2-supervisor.js";
import lbApiListener from "./cluster/lb-api-listener.js";

export const CONTROL_PLANE_LB_RULES: readonly RuleDefinition[] = [lbHairpin, lbHealthCheck, lbRke2Supervisor, lbApiListener];

/**
 * Control-plane integration rules for machine and pool modules: the
 * providerID the Node carries, a control-plane machine's registration in
 * the API load balancer, and the node labels the kubelet refuses.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import providerIdFormat from "./output/provider-id-format.js";
import lbRegistrationMissing from "./machine/lb-registration-missing.js";
import lbRegistrationUngated from "./machine/lb-registration-ungated.js";
import nodeLabelsRestricted from "./pool/node-labels-restricted.js";

export const CONTROL_PLANE_MACHINE_RULES: readonly RuleDefinition[] = [providerIdFormat, lbRegistrationMissing, lbRegistrationUngated, nodeLabelsRestricted];

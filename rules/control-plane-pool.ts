/**
 * Issue 18, pool rollouts: what a bootstrap token rotation and a Kubernetes
 * version change do to a pool's existing instances.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import bootstrapRollsInstances from "./pool/bootstrap-rolls-instances.js";

export const CONTROL_PLANE_POOL_RULES: readonly RuleDefinition[] = [bootstrapRollsInstances];

/**
 * Contract-depth rules for pools, clusters and bootstrap data: what makes
 * clusters hang, beyond what the reference linter checks.
 */
import type { RuleDefinition } from "../src/lint/types.js";
import minMaxUnpinned from "./pool/min-max-unpinned.js";
import replicasOutput from "./pool/replicas-output.js";
import nodeLabelsUnused from "./pool/node-labels-unused.js";
import bootstrapReplacesInstances from "./pool/bootstrap-replaces-instances.js";
import versionNoRoll from "./pool/version-no-roll.js";
import gateOnInitialized from "./cluster/gate-on-initialized.js";
import endpointPreventDestroy from "./cluster/endpoint-prevent-destroy.js";
import bootstrapEncoding from "./bootstrap/encoding.js";
import bootstrapUnused from "./bootstrap/unused.js";

export const DEPTH_POOL_RULES: readonly RuleDefinition[] = [
  minMaxUnpinned,
  replicasOutput,
  nodeLabelsUnused,
  bootstrapReplacesInstances,
  versionNoRoll,
  gateOnInitialized,
  endpointPreventDestroy,
  bootstrapEncoding,
  bootstrapUnused,
];

/**
 * The index of the built-in rules, in catalogue order (the order of
 * `tfcapi-lint rules`, the README table, SARIF metadata and the engine's
 * rule order). A rule's provenance and fix kind are fields of its own
 * definition; adding a rule is its file, its docs page, its fixtures and its
 * line here (test/rules-catalogue.test.ts checks the first three).
 */
import type { RuleDefinition } from "../src/lint/types.js";
import parse from "./syntax/parse.js";
import oneLineBlock from "./syntax/one-line-block.js";
import inputRequired from "./input/required.js";
import inputTagsDeclared from "./input/tags-declared.js";
import inputType from "./input/type.js";
import inputSensitive from "./input/sensitive.js";
import inputDefault from "./input/default.js";
import inputReserved from "./input/reserved.js";
import inputUserVariableDefault from "./input/user-variable-default.js";
import inputReservedName from "./input/reserved-name.js";
import inputTagsUnused from "./input/tags-unused.js";
import moduleVersion from "./module/version.js";
import moduleBackend from "./module/backend.js";
import moduleCloud from "./module/cloud.js";
import moduleProviderConfig from "./module/provider-config.js";
import moduleSourceEscape from "./module/source-escape.js";
import moduleTofuShadow from "./module/tofu-shadow.js";
import versionDistroSuffix from "./version/distro-suffix.js";
import driftNonIdempotent from "./drift/non-idempotent.js";
import outputRequired from "./output/required.js";
import outputHealth from "./output/health.js";
import outputReserved from "./output/reserved.js";
import endpointNeverSet from "./output/endpoint-never-set.js";
import providerIdListShape from "./output/provider-id-list-shape.js";
import autoscalingIgnoreChanges from "./pool/autoscaling-ignore-changes.js";
import healthShape from "./output/health-shape.js";
import endpointShape from "./output/endpoint-shape.js";
import endpointIgnoresInput from "./output/endpoint-ignores-input.js";
import failureDomainsShape from "./output/failure-domains-shape.js";
import addressesShape from "./output/addresses-shape.js";
import instancesShape from "./output/instances-shape.js";
import failureDomainInput from "./output/failure-domain-input.js";
import exportsSecret from "./output/exports-secret.js";
import minMaxUnpinned from "./pool/min-max-unpinned.js";
import replicasOutput from "./pool/replicas-output.js";
import nodeLabelsUnused from "./pool/node-labels-unused.js";
import bootstrapReplacesInstances from "./pool/bootstrap-replaces-instances.js";
import versionNoRoll from "./pool/version-no-roll.js";
import gateOnInitialized from "./cluster/gate-on-initialized.js";
import endpointPreventDestroy from "./cluster/endpoint-prevent-destroy.js";
import bootstrapEncoding from "./bootstrap/encoding.js";
import bootstrapUnused from "./bootstrap/unused.js";
import lbHairpin from "./cluster/lb-hairpin.js";
import lbHealthCheck from "./cluster/lb-health-check.js";
import lbRke2Supervisor from "./cluster/lb-rke2-supervisor.js";
import lbApiListener from "./cluster/lb-api-listener.js";
import endpointGatedOnInitialized from "./output/endpoint-gated-on-initialized.js";
import destroyBlocked from "./machine/destroy-blocked.js";
import sgControlPlanePorts from "./cluster/sg-control-plane-ports.js";
import exportsLbBackend from "./cluster/exports-lb-backend.js";
import lbRegistrationInCluster from "./cluster/lb-registration-in-cluster.js";
import lbUngatedOnEndpointInput from "./cluster/lb-ungated-on-endpoint-input.js";
import providerIdFormat from "./output/provider-id-format.js";
import lbRegistrationMissing from "./machine/lb-registration-missing.js";
import lbRegistrationUngated from "./machine/lb-registration-ungated.js";
import nodeLabelsRestricted from "./pool/node-labels-restricted.js";
import bootstrapRollsInstances from "./pool/bootstrap-rolls-instances.js";

export const ALL_RULES: readonly RuleDefinition[] = [
  parse,
  oneLineBlock,
  inputRequired,
  inputTagsDeclared,
  inputType,
  inputSensitive,
  inputDefault,
  inputReserved,
  inputUserVariableDefault,
  inputReservedName,
  inputTagsUnused,
  moduleVersion,
  moduleBackend,
  moduleCloud,
  moduleProviderConfig,
  moduleSourceEscape,
  moduleTofuShadow,
  versionDistroSuffix,
  driftNonIdempotent,
  outputRequired,
  outputHealth,
  outputReserved,
  endpointNeverSet,
  providerIdListShape,
  autoscalingIgnoreChanges,
  healthShape,
  endpointShape,
  endpointIgnoresInput,
  failureDomainsShape,
  addressesShape,
  instancesShape,
  failureDomainInput,
  exportsSecret,
  minMaxUnpinned,
  replicasOutput,
  nodeLabelsUnused,
  bootstrapReplacesInstances,
  versionNoRoll,
  gateOnInitialized,
  endpointPreventDestroy,
  bootstrapEncoding,
  bootstrapUnused,
  lbHairpin,
  lbHealthCheck,
  lbRke2Supervisor,
  lbApiListener,
  endpointGatedOnInitialized,
  destroyBlocked,
  sgControlPlanePorts,
  exportsLbBackend,
  lbRegistrationInCluster,
  lbUngatedOnEndpointInput,
  providerIdFormat,
  lbRegistrationMissing,
  lbRegistrationUngated,
  nodeLabelsRestricted,
  bootstrapRollsInstances,
];

export function findRule(id: string): RuleDefinition | undefined {
  return ALL_RULES.find((r) => r.id === id);
}

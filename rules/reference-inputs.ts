/**
 * Input, module, version and drift rules (reference-compatible and new),
 * in catalogue order.
 */
import type { RuleDefinition } from "../src/lint/types.js";
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

export const REFERENCE_INPUT_RULES: readonly RuleDefinition[] = [
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
];

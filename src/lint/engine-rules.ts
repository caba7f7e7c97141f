/**
 * The rules the engine itself reports (about ignore comments and loading),
 * defined here so the rule catalogue (catalogue.ts), docs, config validation
 * and SARIF know them. Their `check` does nothing: the engine produces their
 * findings.
 */
import type { RuleDefinition } from "./types.js";
import { defineRule } from "./types.js";
import { ROLES } from "../contract/roles-api.js";

const noCheck = (): void => {};

export const EXPIRED_IGNORE = "lint/expired-ignore";
export const UNUSED_IGNORE = "lint/unused-ignore";
export const UNKNOWN_RULE = "lint/unknown-rule";
export const SOURCE_ESCAPE = "module/source-escape";

/** A rule about ignore comments: a warning on every role and module, reported by the engine. */
function suppressionRule(id: string, summary: string): RuleDefinition {
  return defineRule({ id, severity: "warning", roles: ROLES, summary, scope: "all", fixable: false, tags: ["suppression"], provenance: "engine", check: noCheck });
}

export const META_RULES: readonly RuleDefinition[] = [
  suppressionRule(EXPIRED_IGNORE, "An inline ignore comment whose exp: date has passed no longer suppresses anything"),
  suppressionRule(UNUSED_IGNORE, "An inline ignore comment that suppresses no finding (reported with --report-unused-ignores)"),
  suppressionRule(UNKNOWN_RULE, "An inline ignore comment names a rule ID that does not exist"),
];

/** Engine-produced module rules, unless a rule author already defines them. */
export const ENGINE_SOURCE_ESCAPE: RuleDefinition = defineRule({
  id: SOURCE_ESCAPE,
  severity: "error",
  roles: ROLES,
  summary: "A local module source or module file leaves the module directory or cannot be resolved",
  scope: "all",
  fixable: false,
  tags: ["module"],
  provenance: "engine",
  check: noCheck,
});

/** The rules the engine reports while loading a module (unless a rule of the index defines one of the same id). */
export const LOAD_RULES: readonly RuleDefinition[] = [ENGINE_SOURCE_ESCAPE];

/**
 * Rules the engine itself reports (about ignore comments and loading), defined
 * here so the registry, docs, config validation and SARIF know them. Their
 * `check` does nothing: the engine produces their findings.
 */
import type { RuleDefinition } from "./types.js";
import { defineRule } from "./types.js";
import { ROLES } from "../contract/roles-api.js";
import { ALL_RULES } from "../../rules/index.js";
import { IMAGE_RULES } from "../../rules/image.js";

const noCheck = (): void => {};

export const EXPIRED_IGNORE = "lint/expired-ignore";
export const UNUSED_IGNORE = "lint/unused-ignore";
export const UNKNOWN_RULE = "lint/unknown-rule";
export const SOURCE_ESCAPE = "module/source-escape";

export const META_RULES: readonly RuleDefinition[] = [
  defineRule({
    id: EXPIRED_IGNORE,
    severity: "warning",
    roles: ROLES,
    summary: "An inline ignore comment whose exp: date has passed no longer suppresses anything",
    scope: "all",
    fixable: false,
    tags: ["suppression"],
    check: noCheck,
  }),
  defineRule({
    id: UNUSED_IGNORE,
    severity: "warning",
    roles: ROLES,
    summary: "An inline ignore comment that suppresses no finding (reported with --report-unused-ignores)",
    scope: "all",
    fixable: false,
    tags: ["suppression"],
    check: noCheck,
  }),
  defineRule({
    id: UNKNOWN_RULE,
    severity: "warning",
    roles: ROLES,
    summary: "An inline ignore comment names a rule ID that does not exist",
    scope: "all",
    fixable: false,
    tags: ["suppression"],
    check: noCheck,
  }),
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
  check: noCheck,
});

const LOAD_RULES: readonly RuleDefinition[] = [ENGINE_SOURCE_ESCAPE];

/** The built-in rules a module lint runs: the rule registry plus the engine's own rules. */
export const BUILTIN_RULES: readonly RuleDefinition[] = [
  ...ALL_RULES,
  ...LOAD_RULES.filter((r) => !ALL_RULES.some((a) => a.id === r.id)),
  ...META_RULES,
];

const lintRegistry: RuleDefinition[] = [...BUILTIN_RULES];
const registry: RuleDefinition[] = [...BUILTIN_RULES, ...IMAGE_RULES];

/** The rules a module lint reports on (SARIF, JUnit): the built-in ones, then plugin rules in load order. */
export const LINT_REGISTRY: readonly RuleDefinition[] = lintRegistry;

/**
 * Every rule the linter knows: the module lint's rules, the image command's
 * checks, then plugin rules. Config validation, `tfcapi-lint rules`,
 * `explain` and the image command's SARIF read this.
 */
export const REGISTRY: readonly RuleDefinition[] = registry;

const BY_ID = new Map(registry.map((r) => [r.id, r]));

/**
 * Make plugin rules known (config validation, ignores, `rules`, `explain`,
 * SARIF metadata). Which modules run them is the caller's choice (a module
 * runs the plugins its own config lists). Throws on an id already taken.
 */
export function registerRules(rules: readonly RuleDefinition[]): void {
  for (const r of rules) {
    if (BY_ID.has(r.id)) throw new Error(`rule id "${r.id}" is already taken${BY_ID.get(r.id)!.plugin ? ` by plugin ${BY_ID.get(r.id)!.plugin}` : " by a built-in rule"}`);
  }
  for (const r of rules) {
    lintRegistry.push(r);
    registry.push(r);
    BY_ID.set(r.id, r);
  }
}


export function ruleById(id: string): RuleDefinition | undefined {
  return BY_ID.get(id);
}

export function isKnownRule(id: string): boolean {
  return BY_ID.has(id);
}

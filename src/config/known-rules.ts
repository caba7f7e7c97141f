/**
 * The rule catalogue of this process's runs: the built-in rules plus the
 * plugins loaded so far (config validation, `--rule`/`--allow-warning`
 * checks, ignore comments, `rules`, `explain` and SARIF know a plugin's
 * rules once any config listing it was loaded). The catalogue itself is an
 * immutable value; loading a plugin replaces it with one that includes it.
 */
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import type { RuleDefinition } from "../lint/types.js";

let current: RuleCatalogue = BUILTIN_CATALOGUE;

/** The catalogue as it stands: built-in rules, then the rules of every plugin loaded so far. */
export function knownRules(): RuleCatalogue {
  return current;
}

/** Add loaded plugin rules. Throws an Error when a rule's id is taken. */
export function addPluginRules(rules: readonly RuleDefinition[]): void {
  current = current.withPlugins(rules);
}

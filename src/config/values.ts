/**
 * Checks of setting values shared by the config file (config/load.ts) and
 * the command line (cli/args.ts, cli/options.ts), so `max_warnings = -5` and
 * `--max-warnings -5`, or `rule "foo/bar"` and `--allow-warning foo/bar`,
 * are judged by the same code. Each returns null when the value is fine,
 * else what is wrong with it (without naming the setting: the caller says
 * where the value came from).
 */
import type { RuleCatalogue } from "../lint/catalogue.js";

export const SEVERITY_SETTINGS: readonly string[] = Object.freeze(["off", "info", "warning", "error"]);

const RULE_ID = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;

/** A rule id must name a rule of `catalogue` (the built-in rules and the plugins of the config, or of the run). */
export function ruleIdProblem(id: string, catalogue: RuleCatalogue): string | null {
  if (!RULE_ID.test(id)) return `"${id}" is not a valid rule id (run "tfcapi-lint rules" for the list)`;
  if (!catalogue.isKnown(id)) return `unknown rule "${id}" (run "tfcapi-lint rules" for the list)`;
  return null;
}

/** `max_warnings` / `--max-warnings`: a whole number, 0 or more. */
export function maxWarningsProblem(value: number): string | null {
  if (!Number.isSafeInteger(value)) return "must be a whole number";
  if (value < 0) return "must be 0 or more";
  return null;
}

/** A severity setting: off, info, warning or error. */
export function severityProblem(value: string): string | null {
  return SEVERITY_SETTINGS.includes(value) ? null : `severity must be one of off, info, warning, error (got "${value}")`;
}

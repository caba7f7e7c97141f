/**
 * `plan`: the one place where a module's config and the caller's options
 * become the engine's lint options. The module lint (src/cli/run.ts), the
 * image command (src/cli/image.ts) and the language server (src/lsp/) all go
 * through it, so a setting means the same thing wherever the linter runs.
 *
 * It decides:
 * - the severities: the config's `rule` blocks, then the command line's
 *   `--rule` settings over them;
 * - the role: `--role` forces it; a role set in the config is a default that
 *   detection still checks (the engine's `configRole`);
 * - the rule catalogue: the config's (config/plugins.ts `catalogueOf`: the
 *   built-in rules, plus the rules of the plugins the config lists), which
 *   the engine runs and reports with;
 * - the excludes: a module file the config's `exclude` patterns match is
 *   not read;
 * - the run's failure threshold and warning limit (`effective`), which the
 *   caller applies to the report.
 *
 * Loading plugins is the caller's business (the CLI stops on a plugin that
 * cannot load; the server shows it on the config file and lints on): `plan`
 * takes the rules they gave.
 */
import * as path from "node:path";
import { effectiveConfig, severityMap, type CliOverrides, type EffectiveConfig } from "../config/effective.js";
import type { FileConfig } from "../config/load.js";
import type { EngineOptions, LintOptions } from "../lint/engine.js";
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import type { RuleCatalogue } from "../lint/catalogue.js";

/** What the caller knows besides the config. Every field but `dir` may be left out. */
export interface PlanInput {
  /** The module's directory (the config's exclude patterns are matched against its files' paths). */
  dir: string;
  /** How the module is named in the report (`LintOptions.displayPath`). */
  displayPath?: string;
  /** Settings the command line puts over the config's; none for the language server. */
  overrides?: CliOverrides;
  /** The config's rule catalogue, with the plugins it lists (loaded by the caller); the built-in one when left out. */
  catalogue?: RuleCatalogue;
  /** The config lists plugins that were not loaded (the server with plugins off). */
  unloadedPlugins?: boolean;
  /** `--allow-warning`. */
  allowWarnings?: readonly string[];
  /** Whether ignore comments in the module count (default: they do). */
  inlineConfig?: boolean;
  reportUnusedIgnores?: boolean;
  /** A directory nobody named (a walk, a module file's directory): lint it only on enough evidence of a role. */
  requireRoleEvidence?: boolean;
  stdin?: LintOptions["stdin"];
  overlay?: LintOptions["overlay"];
}

/** A module's lint, planned: its config, the settings in effect and what the engine is given. */
export interface LintPlan {
  config: FileConfig | null;
  effective: EffectiveConfig;
  options: EngineOptions;
}

/** No command line: the language server, or a caller that sets nothing. */
const NO_OVERRIDES: CliOverrides = { rules: [], strict: false };

/** Turns a module's config (null: none applies) and the caller's options into lint options. Pure. */
export function plan(config: FileConfig | null, input: PlanInput): LintPlan {
  const effective = effectiveConfig(config, input.overrides ?? NO_OVERRIDES);
  const catalogue = input.catalogue ?? BUILTIN_CATALOGUE;
  const options: EngineOptions = {
    catalogue,
    // A module runs the plugins its own config lists, besides the built-in rules.
    ...(catalogue.pluginRules.length > 0 ? { ruleSet: catalogue.lint } : {}),
    // Ignore comments may name the rules of plugins that were not loaded.
    ...(input.unloadedPlugins === true ? { unloadedPlugins: true } : {}),
    severities: severityMap(effective),
    ...(input.allowWarnings !== undefined ? { allowWarnings: input.allowWarnings } : {}),
    inlineConfig: input.inlineConfig ?? true,
    ...(input.reportUnusedIgnores !== undefined ? { reportUnusedIgnores: input.reportUnusedIgnores } : {}),
    ...(input.displayPath !== undefined ? { displayPath: input.displayPath } : {}),
    ...(input.requireRoleEvidence === true ? { requireRoleEvidence: true } : {}),
    ...(input.stdin ? { stdin: input.stdin } : {}),
    ...(input.overlay ? { overlay: input.overlay } : {}),
  };
  if (effective.role) {
    if (effective.role.origin === "--role") options.role = effective.role.value;
    else options.configRole = { role: effective.role.value, origin: effective.role.origin };
  }
  if (config && !config.excludeSet.empty) {
    const dir = input.dir;
    options.excludeFile = (rel) => excludedBy(config, path.join(dir, ...rel.split("/")));
  }
  return { config, effective, options };
}

/** Whether the config's exclude patterns match the file or directory `abs`. */
export function excludedBy(config: FileConfig | null, abs: string): boolean {
  if (!config || config.excludeSet.empty) return false;
  return config.excludeSet.matches(configRelative(config, abs));
}

/** The exclude pattern of `config` that matches `abs`, or null. */
export function excludingPattern(config: FileConfig | null, abs: string): string | null {
  if (!config || config.excludeSet.empty) return null;
  return config.excludeSet.matching(configRelative(config, abs));
}

/** `abs` relative to the config's directory, with forward slashes (as exclude patterns are written). */
function configRelative(config: FileConfig, abs: string): string {
  return path.relative(config.dir, abs).split(path.sep).join("/");
}

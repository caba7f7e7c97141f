/**
 * The module lint's side of planning: which config applies to each module
 * (`--config`, `--no-config`, or the lookup from the module's directory),
 * the command line's settings over it, the plugins it lists, and the lint
 * options `plan` (plan.ts) makes of them.
 */
import type { Role } from "../contract/roles-api.js";
import { ConfigResolver, type FileConfig } from "../config/load.js";
import { pluginRulesOf } from "../config/plugins.js";
import type { CliOverrides } from "../config/effective.js";
import type { LintOptions } from "../lint/engine.js";
import type { RuleDefinition } from "../lint/types.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { knownRules } from "../config/known-rules.js";
import { type CliArgs, UsageError } from "./args.js";
import type { Io } from "./io.js";
import type { Target } from "./paths.js";
import { plan, type LintPlan } from "./plan.js";

/** One module of a run, planned. */
export interface ModulePlan {
  target: Target;
  /** The module's config, the settings in effect and its lint options. */
  lint: LintPlan;
  /** The run's working and home directories (config lookup stops there outside git). */
  cwd: string;
  home: string;
}

/** The settings of the command line that go over a config's. */
export function cliOverrides(args: CliArgs, role: Role | undefined): CliOverrides {
  return {
    ...(role ? { role } : {}),
    rules: args.ruleSettings,
    strict: args.strict,
    ...(args.maxWarnings !== undefined ? { maxWarnings: args.maxWarnings } : {}),
  };
}

/** Finds the config of each module: the one `--config` names, none with `--no-config`, else the nearest. Throws UsageError. */
export function configResolver(args: CliArgs, cwd: string, home: string): ConfigResolver {
  if (args.config !== undefined) {
    if (args.noConfig) throw new UsageError("use either --config or --no-config, not both");
    return new ConfigResolver({ explicit: args.config });
  }
  return new ConfigResolver({ disabled: args.noConfig, cwd, home });
}

/** The config that applies to a module, and the rules of the plugins it lists (loaded now). */
export interface ModuleConfig {
  config: FileConfig | null;
  pluginRules: readonly RuleDefinition[];
}

/** Reads a module's config and loads the plugins it lists. Throws ConfigError. */
export async function moduleConfig(target: Target, resolver: ConfigResolver): Promise<ModuleConfig> {
  const config = resolver.forDir(target.dir);
  return { config, pluginRules: await pluginRulesOf(config) };
}

/**
 * A module's lint options. Planned once the run's plugins are loaded: the
 * rule catalogue then knows all their rules (ignore comments naming them).
 */
export function planModule(args: CliArgs, target: Target, found: ModuleConfig, cli: CliOverrides, stdin: LintOptions["stdin"]): LintPlan {
  return plan(found.config, {
    dir: target.dir,
    displayPath: target.display,
    overrides: cli,
    pluginRules: found.pluginRules,
    allowWarnings: args.allowWarnings,
    inlineConfig: !args.noInlineConfig,
    reportUnusedIgnores: args.reportUnusedIgnores,
    requireRoleEvidence: target.found === true,
    ...(stdin ? { stdin } : {}),
  });
}

/**
 * Load the plugins that the config applying to the working directory lists
 * (for `rules` and `explain`). Throws ConfigError.
 */
export async function loadPluginsForCwd(args: CliArgs, io: Io): Promise<RuleCatalogue> {
  if (args.noConfig) return knownRules();
  const resolver = new ConfigResolver(args.config !== undefined ? { explicit: args.config } : {});
  await pluginRulesOf(resolver.forDir(io.cwd));
  return knownRules();
}

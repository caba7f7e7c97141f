/**
 * The module lint's side of planning: which config applies to each module
 * (`--config`, `--no-config`, or the lookup from the module's directory),
 * the command line's settings over it, its rule catalogue (the built-in
 * rules and the plugins it lists), and the lint options `plan` (plan.ts)
 * makes of them; the run's catalogue (every config's rules, for the
 * command line's rule ids and the reports' rule metadata).
 */
import type { Role } from "../contract/roles-api.js";
import { ConfigResolver, type FileConfig } from "../config/load.js";
import { catalogueOf } from "../config/plugins.js";
import type { CliOverrides } from "../config/effective.js";
import type { LintOptions } from "../lint/engine.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { BUILTIN_CATALOGUE } from "../catalogue.js";
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

/** The config that applies to a module, and its rule catalogue (with the plugins it lists, loaded now). */
export interface ModuleConfig {
  config: FileConfig | null;
  catalogue: RuleCatalogue;
}

/** Reads a module's config and loads the plugins it lists. Throws ConfigError. */
export async function moduleConfig(target: Target, resolver: ConfigResolver): Promise<ModuleConfig> {
  const config = resolver.forDir(target.dir);
  return { config, catalogue: await catalogueOf(config) };
}

/**
 * The catalogue of a run over modules with these configs: the built-in
 * rules, then every config's plugin rules, in the order the configs come
 * (the command line's rule ids are judged by it, and the reports take
 * their rule metadata from it).
 */
export function runCatalogue(configs: readonly ModuleConfig[]): RuleCatalogue {
  let union = BUILTIN_CATALOGUE;
  for (const c of configs) union = union.withPlugins(c.catalogue.pluginRules);
  return union;
}

/** A module's lint options, with its config's catalogue. */
export function planModule(args: CliArgs, target: Target, found: ModuleConfig, cli: CliOverrides, stdin: LintOptions["stdin"]): LintPlan {
  return plan(found.config, {
    dir: target.dir,
    displayPath: target.display,
    overrides: cli,
    catalogue: found.catalogue,
    allowWarnings: args.allowWarnings,
    inlineConfig: !args.noInlineConfig,
    reportUnusedIgnores: args.reportUnusedIgnores,
    requireRoleEvidence: target.found === true,
    ...(stdin ? { stdin } : {}),
  });
}

/**
 * The catalogue of the config applying to the working directory, its
 * plugins loaded (for `rules` and `explain`). Throws ConfigError.
 */
export async function catalogueForCwd(args: CliArgs, io: Io): Promise<RuleCatalogue> {
  if (args.noConfig) return BUILTIN_CATALOGUE;
  const resolver = new ConfigResolver(args.config !== undefined ? { explicit: args.config } : {});
  return catalogueOf(resolver.forDir(io.cwd));
}

/**
 * The lint command, as a pipeline: the modules to lint (targets.ts), each
 * one's config and lint options (module-plans.ts, on plan.ts), linting and
 * fixing them (lint-all.ts, on the worker pool when there are several),
 * with a result cache in front when asked (cache.ts), and the report with its
 * exit code (report.ts).
 */
import { describeDetection } from "../lint/engine.js";
import { ConfigError } from "../config/load.js";
import { BaselineError } from "../lint/baseline.js";
import { catalogueOf } from "../config/plugins.js";
import { printEffective } from "../config/effective.js";
import type { CliArgs } from "./args.js";
import { EXIT_OK, EXIT_READ, EXIT_USAGE, nodeOs, type Io } from "./io.js";
import { baselineSetting } from "./baseline.js";
import { ResultCache } from "./cache.js";
import { lintPlans } from "./lint-all.js";
import { cliOverrides, configResolver, moduleConfig, planModule, runCatalogue, type ModuleConfig, type ModulePlan } from "./module-plans.js";
import { checkOptions, checkRuleFlags } from "./options.js";
import { moduleDirOf, PathError } from "./paths.js";
import { plan } from "./plan.js";
import { reportRun } from "./report.js";
import { findTargets } from "./targets.js";

export async function runLint(args: CliArgs, io: Io): Promise<number> {
  const checked = checkOptions(args, io.cwd);
  const cli = cliOverrides(args, checked.role);
  const home = io.env.HOME ?? nodeOs().homedir();
  const resolver = configResolver(args, io.cwd, home);
  try {
    if (args.printConfig !== undefined) {
      const target = moduleDirOf(args.printConfig, io.cwd);
      const config = resolver.forDir(target.dir);
      checkRuleFlags(args, await catalogueOf(config));
      const effective = plan(config, { dir: target.dir, overrides: cli }).effective;
      // Without a role set, say what detection makes of the module there.
      const detection = effective.role ? null : describeDetection(target.dir);
      io.stdout(printEffective(effective, args.printConfig, checked.format === "json", detection, baselineSetting(args, io.cwd, config)));
      return EXIT_OK;
    }
    // Which modules, each once, and what cannot be read.
    const found = await findTargets(args, io, resolver);
    const configs: ModuleConfig[] = [];
    for (const target of found.targets) configs.push(await moduleConfig(target, resolver));
    const plans: ModulePlan[] = found.targets.map((target, i) => ({ target, lint: planModule(args, target, configs[i]!, cli, found.stdin), cwd: io.cwd, home }));
    // --rule and --allow-warning ids are judged once the plugins that may define them are loaded.
    const catalogue = runCatalogue(configs);
    checkRuleFlags(args, catalogue);
    // Lint (and fix) every module first, then report.
    const cache = await ResultCache.open(args, io, plans, found.listings);
    const linted = await lintPlans(args, plans, found.stdin, (p) => found.onlyIfLoads(p.target), cache);
    cache?.save();
    return await reportRun(args, io, checked.format, found, plans, linted, catalogue);
  } catch (err) {
    if (err instanceof PathError) {
      io.stderr(`tfcapi-lint: ${err.message}\n`);
      return EXIT_READ;
    }
    if (err instanceof BaselineError) {
      io.stderr(`tfcapi-lint: ${err.message}\n`);
      return EXIT_READ;
    }
    if (err instanceof ConfigError) {
      io.stderr(`tfcapi-lint: config error:\n${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

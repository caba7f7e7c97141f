/**
 * The rule catalogue of a config file: the built-in rules plus the rules of
 * the plugins it lists, loaded and built once per file, after which the
 * file's `rule` blocks may name them. Every failure is a ConfigError (exit 3)
 * that names the plugin and where it is listed.
 */
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { ConfigError, checkRuleIds, type FileConfig } from "./load.js";

const built = new WeakMap<FileConfig, Promise<RuleCatalogue>>();

/**
 * The catalogue a module under `config` is linted with: the built-in one
 * without a config or plugins, else the built-in rules and the rules of the
 * plugins it lists, in their order (loaded now). Throws ConfigError.
 */
export async function catalogueOf(config: FileConfig | null): Promise<RuleCatalogue> {
  if (!config || config.plugins.length === 0) return BUILTIN_CATALOGUE;
  let p = built.get(config);
  if (!p) {
    p = (async () => {
      // Loaded only when a config lists plugins: no start-up cost otherwise.
      const { loadPlugins, PluginError } = await import("../lint/plugins.js");
      try {
        const rules = await loadPlugins(
          config.plugins.map((s) => ({ spec: s.spec, baseDir: config.dir, origin: s.origin })),
          BUILTIN_CATALOGUE,
        );
        const catalogue = BUILTIN_CATALOGUE.withPlugins(rules);
        checkRuleIds(config, catalogue);
        return catalogue;
      } catch (err) {
        if (err instanceof PluginError) throw new ConfigError(err.message);
        throw err;
      }
    })();
    built.set(config, p);
    // A failure is not kept either (see loadPlugin): the next lint asks again.
    const loading = p;
    loading.catch(() => {
      if (built.get(config) === loading) built.delete(config);
    });
  }
  return p;
}

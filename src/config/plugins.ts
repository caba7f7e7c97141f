/**
 * The plugins a config file lists, loaded once per file: the rules they add,
 * after which the file's `rule` blocks may name them. Every failure is a
 * ConfigError (exit 3) that names the plugin and where it is listed.
 */
import type { RuleDefinition } from "../lint/types.js";
import { ConfigError, checkRuleIds, type FileConfig } from "./load.js";
import { addPluginRules } from "./known-rules.js";

const PROCESS_CATALOGUE = { add: addPluginRules };

const loaded = new WeakMap<FileConfig, Promise<readonly RuleDefinition[]>>();

/** The plugin rules of `config` (none without a config or plugins). Throws ConfigError. */
export async function pluginRulesOf(config: FileConfig | null): Promise<readonly RuleDefinition[]> {
  if (!config || config.plugins.length === 0) return [];
  let p = loaded.get(config);
  if (!p) {
    p = (async () => {
      // Loaded only when a config lists plugins: no start-up cost otherwise.
      const { loadPlugins, PluginError } = await import("../lint/plugins.js");
      try {
        const rules = await loadPlugins(
          config.plugins.map((s) => ({ spec: s.spec, baseDir: config.dir, origin: s.origin })),
          PROCESS_CATALOGUE,
        );
        checkRuleIds(config);
        return rules;
      } catch (err) {
        if (err instanceof PluginError) throw new ConfigError(err.message);
        throw err;
      }
    })();
    loaded.set(config, p);
    // A failure is not kept either (see loadPlugin): the next lint asks again.
    const loading = p;
    loading.catch(() => {
      if (loaded.get(config) === loading) loaded.delete(config);
    });
  }
  return p;
}

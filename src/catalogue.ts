/**
 * The catalogue of the built-in rules, built once from the index
 * (`rules/index.ts`) and the image command's checks (`rules/image.ts`), with
 * the engine's own rules; no plugins. Whoever runs the engine starts from
 * it (the CLI and the language server through config/plugins.ts
 * `catalogueOf`, which adds the plugins a config lists).
 */
import { ALL_RULES } from "../rules/index.js";
import { IMAGE_RULES } from "../rules/image.js";
import { RuleCatalogue } from "./lint/catalogue.js";
import type { RuleDefinition } from "./lint/types.js";

export const BUILTIN_CATALOGUE: RuleCatalogue = RuleCatalogue.of(ALL_RULES, IMAGE_RULES);

/** Every built-in rule: the module lint's, then the image command's checks (the library's `REGISTRY`). */
export const REGISTRY: readonly RuleDefinition[] = BUILTIN_CATALOGUE.all;

import type { RuleDefinition } from "../src/lint/types.js";

export const DEPTH_POOL_RULES: readonly RuleDefinition[] = [];

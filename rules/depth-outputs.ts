import type { RuleDefinition } from "../src/lint/types.js";

export const DEPTH_OUTPUT_RULES: readonly RuleDefinition[] = [];

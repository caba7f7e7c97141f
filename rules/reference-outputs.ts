import type { RuleDefinition } from "../src/lint/types.js";

export const REFERENCE_OUTPUT_RULES: readonly RuleDefinition[] = [];

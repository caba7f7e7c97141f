import type { RuleDefinition } from "../src/lint/types.js";

export const REFERENCE_INPUT_RULES: readonly RuleDefinition[] = [];

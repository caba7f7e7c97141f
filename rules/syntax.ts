import type { RuleDefinition } from "../src/lint/types.js";

export const SYNTAX_RULES: readonly RuleDefinition[] = [];

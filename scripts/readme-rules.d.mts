import type { RuleDefinition } from "../src/lint/types.js";

export declare const RULES_START: string;
export declare const RULES_END: string;
export declare function renderRuleSection(allRules: readonly RuleDefinition[], metaRules: readonly RuleDefinition[]): string;
export declare function replaceRuleSection(readme: string, section: string): string;
export declare function currentRuleSection(readme: string): string | null;

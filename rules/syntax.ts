import type { RuleDefinition } from "../src/lint/types.js";
import parse from "./syntax/parse.js";
import oneLineBlock from "./syntax/one-line-block.js";

export const SYNTAX_RULES: readonly RuleDefinition[] = [parse, oneLineBlock];

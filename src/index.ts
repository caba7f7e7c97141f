/**
 * The library API of tfcapi-lint.
 */
export { parseHcl, hclOutline } from "./hcl/index.js";
/** Nesting limit of parses in the calling thread (default 256; raise it only on a thread with a large stack). */
export { MAX_DEPTH, nestingLimit, setNestingLimit } from "./hcl/parser-core.js";
export { loadModule } from "./terraform/load.js";
export { lintModule, compareFindings } from "./lint/engine.js";
export type { LintOptions, LintOutcome, ReadError } from "./lint/engine.js";
export { ALL_RULES } from "../rules/index.js";
export { REGISTRY, META_RULES } from "./lint/meta-rules.js";
export { CONTRACT, detectRole } from "./contract/roles.js";
export type { RoleDetection } from "./contract/roles.js";
export { defineRule } from "./lint/types.js";
// The vocabulary rules are written with (built-in rules and plugins alike).
export { walkExpression, children, collectRefs, collectCalls, objectKeyName, traversalText, exprText, constantValue } from "./hcl/walk.js";
export type { ConstValue, ConstResult } from "./hcl/walk.js";
export { buildGraph } from "./terraform/graph.js";
export type * from "./lint/types.js";
export type * from "./lint/result.js";
export type * from "./contract/roles-api.js";
export type * from "./terraform/model.js";
export type * from "./terraform/graph-api.js";
export type * from "./hcl/ast.js";

/**
 * The library API of tfcapi-lint.
 */
/** Going: the parser has no nesting limit any more (any depth parses on any thread); these stay inert until the CLI fallback that used them is removed. */
export { MAX_DEPTH, nestingLimit, setNestingLimit } from "./hcl/parser-core.js";
export { loadModule } from "./terraform/load.js";
// lintModule checks its arguments (TypeError/RangeError naming the option) before the engine runs.
export { lintModule } from "./api.js";
export { compareFindings } from "./lint/engine.js";
export type { LintOptions, LintOutcome, ReadError } from "./lint/engine.js";
export { ALL_RULES } from "../rules/index.js";
export { REGISTRY } from "./catalogue.js";
export { META_RULES } from "./lint/engine-rules.js";
export { CONTRACT, detectRole } from "./contract/roles.js";
export { ROLES } from "./contract/roles-api.js";
// Contract data about clouds: scaling groups, autoscalers, user data, min/max sizes.
export {
  SCALING_GROUP_TYPES,
  FALLBACK_DESIRED_NAMES,
  NOT_SCALING_GROUPS,
  AUTOSCALER_TYPES,
  scalingGroupType,
} from "./contract/scaling-groups.js";
export { parseAttributePath, pathCovers } from "./terraform/attribute-path.js";
export { USER_DATA_ARGUMENTS, userDataArguments, MIN_MAX_ATTRIBUTES, minMaxAttributes } from "./contract/providers.js";
export type { ScalingGroupType } from "./contract/scaling-groups.js";
export type { PathStep } from "./terraform/attribute-path.js";
// The cloud knowledge base (load balancers, memberships, instances, security groups) and rollout settings.
export * from "./contract/cloud/index.js";
export * from "./contract/rollouts.js";
export type { UserDataArgument, UserDataEncoding, MinMaxAttributes } from "./contract/providers.js";
// Type constraints: read them, compare them.
export { parseTypeExpr, parseTypeText, typeAccepts, typeToString } from "./terraform/types.js";
export type { TypeNode, TypeParse, PrimitiveName, ObjectAttr } from "./terraform/types.js";
export type { RoleDetection, WeakEvidence } from "./contract/roles.js";
export { defineRule } from "./lint/types.js";
// The vocabulary the built-in rules are written with, for plugins alike
// (ARCHITECTURE.md, "Where the vocabulary lives"; docs/rules-api.md).
// Syntax: parsing (parseHcl, hclOutline), walking, constants, keys and text
// of expressions, blocks, one-line blocks.
export * from "./hcl/index.js";
// A module file is read with Terraform's block schema (the JSON syntax needs one).
export { parseModuleFile as parseHcl, moduleFileOutline as hclOutline } from "./terraform/parse.js";
export type { ConstValue, ConstResult } from "./hcl/walk.js";
// Terraform meaning: values, guards, functions, references, flows, attributes.
export * from "./analysis/index.js";
export { buildGraph } from "./terraform/graph.js";
export { fileOf, blocksOf, findArguments } from "./terraform/module-builder.js";
// Fix builders (fmt-aligned edits that name the node they belong to).
export { replaceFix, wrapInCallFix, insertAttributeFix, ignoreChangesFix, splitOneLineBlockFix, newlineOf, lineIndentAt } from "./lint/fix-builders.js";
export type * from "./lint/types.js";
export type * from "./lint/result.js";
export type * from "./contract/roles-api.js";
export type * from "./terraform/module-types.js";
export type * from "./terraform/graph-api.js";
export type * from "./hcl/ast.js";

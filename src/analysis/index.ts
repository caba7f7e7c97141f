/**
 * The Terraform-level analysis the rules are written with, one module per
 * question (see ARCHITECTURE.md, "Where the vocabulary lives").
 */
export * from "./attributes.js";
export * from "./autoscaling.js";
export * from "./derivation.js";
export * from "./endpoint.js";
export * from "./functions.js";
export * from "./guards.js";
export {
  blockArgument,
  collectionEntries,
  dynamicBlocks,
  formatAsTemplate,
  instanceArgument,
  instanceByKey,
  instanceSite,
  instancesOf,
  resourceSite,
  type BlockSet,
  type BlockSite,
  type Entries,
  type Entry,
  type Instance,
  type Instances,
  type IterBinding,
  type IterScope,
  type IterValue,
  type PendingIteration,
} from "./iteration.js";
export * from "./locals.js";
export * from "./references.js";
export * from "./usage.js";
export * from "./values.js";
export * from "./paths.js";
export * from "./api-lb.js";
export * from "./carriers.js";
export * from "./memberships.js";
export * from "./rollouts.js";

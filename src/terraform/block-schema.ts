/**
 * Terraform's block schema: the part of Terraform's (and OpenTofu's) configuration schema that the JSON
 * syntax needs in order to be read at all.
 *
 * In JSON every property looks the same, so whether `"lifecycle": {...}` is
 * a nested block or an object-valued argument depends on the schema of the
 * enclosing block; likewise the number of label levels of a block, and
 * whether a string is a template, a bare expression or a literal. Provider
 * schemas (resource arguments and their nested blocks) are unknown to a
 * linter, so inside resource bodies everything except Terraform's own
 * meta-blocks is read as an argument, which is what Terraform's own first
 * decoding pass does too.
 */

import type { BlockSchema } from "../hcl/json-shape.js";

const condition: BlockSchema = { labels: 0, strict: true };

const connection: BlockSchema = { labels: 0 };

const provisioner: BlockSchema = {
  labels: 1,
  blocks: { connection },
  attrs: { when: "expr", on_failure: "expr" },
};

const resourceLifecycle: BlockSchema = {
  labels: 0,
  strict: true,
  blocks: { precondition: condition, postcondition: condition },
  attrs: {
    create_before_destroy: "literal",
    prevent_destroy: "literal",
    ignore_changes: "exprList",
    replace_triggered_by: "exprList",
  },
};

/** `dynamic "name" { for_each = ..., content { ... } }`; content may nest more. */
const dynamicBlock: BlockSchema = {
  labels: 1,
  strict: true,
  attrs: { iterator: "expr" },
};
const dynamicContent: BlockSchema = { labels: 0, blocks: { dynamic: dynamicBlock } };
dynamicBlock.blocks = { content: dynamicContent };

const resourceLike: BlockSchema = {
  labels: 2,
  blocks: { lifecycle: resourceLifecycle, provisioner, connection, dynamic: dynamicBlock },
  attrs: { provider: "expr", depends_on: "exprList" },
};

const dataLike: BlockSchema = {
  labels: 2,
  blocks: { lifecycle: resourceLifecycle, dynamic: dynamicBlock },
  attrs: { provider: "expr", depends_on: "exprList" },
};

const variable: BlockSchema = {
  labels: 1,
  strict: true,
  blocks: { validation: condition },
  attrs: {
    type: "expr",
    default: "literal",
    description: "literal",
    sensitive: "literal",
    nullable: "literal",
    ephemeral: "literal",
    deprecated: "literal",
  },
};

const output: BlockSchema = {
  labels: 1,
  strict: true,
  blocks: { precondition: condition },
  attrs: {
    description: "literal",
    sensitive: "literal",
    ephemeral: "literal",
    deprecated: "literal",
    depends_on: "exprList",
  },
};

const moduleCall: BlockSchema = {
  labels: 1,
  strict: true,
  attrs: { source: "literal", version: "literal", providers: "providerMap", depends_on: "exprList" },
};

const provider: BlockSchema = {
  labels: 1,
  blocks: { dynamic: dynamicBlock },
  attrs: { alias: "literal", version: "literal" },
};

const literalBody: BlockSchema = { labels: 0, otherAttrs: "literal" };

const encryptionFallback: BlockSchema = { labels: 0 };
const encryptionTarget: BlockSchema = { labels: 0, blocks: { fallback: encryptionFallback } };

const terraformBlock: BlockSchema = {
  labels: 0,
  strict: true,
  blocks: {
    backend: { labels: 1, otherAttrs: "literal" },
    cloud: { labels: 0, otherAttrs: "literal", blocks: { workspaces: literalBody } },
    required_providers: { labels: 0, strict: true, otherAttrs: "requiredProviders" },
    provider_meta: { labels: 1 },
    // OpenTofu state and plan encryption.
    encryption: {
      labels: 0,
      blocks: {
        key_provider: { labels: 2 },
        method: { labels: 2 },
        state: encryptionTarget,
        plan: encryptionTarget,
        remote_state_data_sources: {
          labels: 0,
          blocks: { default: encryptionTarget, remote_state_data_source: { labels: 1 } },
        },
      },
    },
  },
  attrs: { required_version: "literal", experiments: "exprList", language: "expr" },
};

const check: BlockSchema = {
  labels: 1,
  strict: true,
  blocks: { data: dataLike, assert: condition },
};

/** The top level of a `.tf.json` / `.tofu.json` file. */
export const TERRAFORM_FILE_SCHEMA: BlockSchema = {
  labels: 0,
  blocks: {
    terraform: terraformBlock,
    variable,
    output,
    locals: { labels: 0, strict: true },
    module: moduleCall,
    provider,
    resource: resourceLike,
    data: dataLike,
    ephemeral: dataLike,
    moved: { labels: 0, strict: true, attrs: { from: "expr", to: "expr" } },
    import: { labels: 0, strict: true, attrs: { to: "expr", provider: "expr" } },
    removed: {
      labels: 0,
      strict: true,
      blocks: {
        lifecycle: { labels: 0, strict: true, attrs: { destroy: "literal" } },
        provisioner,
        connection,
      },
      attrs: { from: "expr" },
    },
    check,
  },
};

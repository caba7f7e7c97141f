/**
 * What the JSON syntax needs to know of a body in order to read it at all:
 * in JSON every property looks the same, so whether a property is a nested
 * block or an argument, how many label levels a block has and how a string
 * is read come from a schema the caller supplies. The HCL layer knows no
 * particular schema; Terraform's lives in src/terraform/block-schema.ts.
 */

/**
 * How a JSON string value of an argument is interpreted:
 * - template: a string template (`"${var.x}-a"`), the default;
 * - expr: the whole string is one expression (`"type": "list(string)"`);
 * - exprList: an array whose string elements are expressions (`depends_on`);
 *   a lone string is read as one expression;
 * - literal: the text is used as is, `${` included (Terraform evaluates these
 *   arguments without a scope, e.g. variable defaults and module sources);
 * - providerMap: an object whose keys and values are expressions (module
 *   `providers`);
 * - requiredProviders: required_providers entries: literal, except the
 *   elements of `configuration_aliases`, which are expressions.
 */
export type StringMode = "template" | "expr" | "exprList" | "literal" | "providerMap" | "requiredProviders";

export interface BlockSchema {
  /** Number of label levels. */
  labels: number;
  /** Nested block types; every other key is an argument. */
  blocks?: Record<string, BlockSchema>;
  /** String interpretation per argument name (default "template"). */
  attrs?: Record<string, StringMode>;
  /** How arguments not listed in `attrs` are read (default "template"). */
  otherAttrs?: StringMode;
  /**
   * True when a repeated argument name is an error (Terraform knows every
   * argument of the block). False for provider-defined bodies, where a
   * repeated name is how JSON writes several nested blocks of one type.
   */
  strict?: boolean;
}

/** A body read without a schema: every property is an argument, every string a template. */
export const ARGUMENTS_ONLY: BlockSchema = { labels: 0 };

/**
 * Reading one Terraform or OpenTofu module file: the HCL layer's parser with
 * Terraform's block schema for the JSON syntax (block-schema.ts). The
 * package's public `parseHcl` and `hclOutline` are these.
 */
import type { ParseResult } from "../hcl/ast.js";
import { hclOutline, type OutlineFile } from "../hcl/outline.js";
import { parseHcl } from "../hcl/index.js";
import { TERRAFORM_FILE_SCHEMA } from "./block-schema.js";

/** Parses a module file (`.tf`, `.tofu`, or their `.json` forms). Never throws. */
export function parseModuleFile(text: string, filename: string): ParseResult {
  return parseHcl(text, filename, TERRAFORM_FILE_SCHEMA);
}

/** The oracle-shaped outline of a module file. */
export function moduleFileOutline(text: string, filename: string): OutlineFile {
  return hclOutline(text, filename, TERRAFORM_FILE_SCHEMA);
}

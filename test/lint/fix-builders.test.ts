/**
 * The fix builders of src/lint/fix-builders.ts: each result is what `terraform fmt`
 * leaves unchanged (alignment runs as fmt forms them: consecutive one-line
 * arguments; a blank line, a comment line, a nested block or a multi-line
 * value ends a run; a heredoc does not), and each fix names the node it was
 * computed for.
 */
import { describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import type { Block } from "../../src/hcl/ast.js";
import { applyFixes } from "../../src/lint/apply-fixes.js";
import { insertAttributeFix, replaceFix, splitOneLineBlockFix, wrapInCallFix } from "../../src/lint/fix-builders.js";
import type { Fix } from "../../src/lint/types.js";
import type { SourceFile } from "../../src/terraform/module-types.js";
import { splitOneLineBody } from "../../src/hcl/one-line-blocks.js";

function source(text: string, name = "main.tf"): SourceFile {
  const parsed = parseHcl(text, name);
  const extension = name.endsWith(".tf.json") ? ".tf.json" : ".tf";
  return { path: name, absPath: `/m/${name}`, name, extension, hcl: parsed.file, diagnostics: parsed.diagnostics, isOverride: false };
}

function apply(file: SourceFile, fix: Fix | null | undefined): string {
  if (!fix) throw new Error("no fix");
  const r = applyFixes(file.hcl.text, file.path, [fix]);
  expect(r.applied).toBe(1);
  expect(parseHcl(r.text, file.path).diagnostics).toEqual([]);
  return r.text;
}

function insert(text: string, name = "sensitive", value = "true"): string {
  const file = source(text);
  const block = file.hcl.body.blocks[0]!;
  const fix = insertAttributeFix(file, block, name, value, "add", "unsafe");
  if (fix) expect(fix.within).toEqual({ start: block.range.start.offset, end: block.range.end.offset });
  return apply(file, fix);
}

describe("insertAttributeFix", () => {
  it("joins the run of one-line arguments above it, realigning the run when the new name is longest", () => {
    expect(insert('variable "v" {\n  description = "d"\n  type = string\n}\n')).toBe(
      'variable "v" {\n  description = "d"\n  type        = string\n  sensitive   = true\n}\n',
    );
    expect(insert('variable "v" {\n  type    = string\n  default = null\n}\n')).toBe(
      'variable "v" {\n  type      = string\n  default   = null\n  sensitive = true\n}\n',
    );
    expect(insert('variable "v" {\n  description = "a longer name"\n  type        = string\n}\n')).toBe(
      'variable "v" {\n  description = "a longer name"\n  type        = string\n  sensitive   = true\n}\n',
    );
  });

  it("aligns only with the run it joins: a blank line, a comment line or a multi-line value ends a run", () => {
    expect(insert('variable "v" {\n  description = "d"\n\n  type = string\n}\n')).toBe(
      'variable "v" {\n  description = "d"\n\n  type      = string\n  sensitive = true\n}\n',
    );
    expect(insert('variable "v" {\n  description = "d"\n  # the type\n  type = string\n}\n')).toBe(
      'variable "v" {\n  description = "d"\n  # the type\n  type      = string\n  sensitive = true\n}\n',
    );
    expect(insert('variable "v" {\n  description = "d"\n  type = object({\n    a = string\n  })\n}\n')).toBe(
      'variable "v" {\n  description = "d"\n  type = object({\n    a = string\n  })\n  sensitive = true\n}\n',
    );
  });

  it("counts a heredoc as one line of the run", () => {
    expect(insert('variable "v" {\n  description = <<EOT\nd\nEOT\n  type = string\n}\n')).toBe(
      'variable "v" {\n  description = <<EOT\nd\nEOT\n  type        = string\n  sensitive   = true\n}\n',
    );
  });

  it("goes after the last argument, before nested blocks, and fills an empty block one level deeper", () => {
    expect(insert('variable "v" {\n  type = string\n\n  validation {\n    condition     = true\n    error_message = "x"\n  }\n}\n')).toBe(
      'variable "v" {\n  type      = string\n  sensitive = true\n\n  validation {\n    condition     = true\n    error_message = "x"\n  }\n}\n',
    );
    expect(insert('  variable "v" {\n  }\n')).toBe('  variable "v" {\n    sensitive = true\n  }\n');
  });

  it("offers nothing for a block HCL rejects or whose first argument is on the line of its brace", () => {
    for (const text of ['variable "v" { type = string }\n', 'variable "v" { type = string\n}\n']) {
      const file = source(text);
      expect(insertAttributeFix(file, file.hcl.body.blocks[0]!, "sensitive", "true", "add", "unsafe")).toBeUndefined();
    }
  });
});

function split(text: string, pick: (blocks: readonly Block[]) => Block = (b) => b[0]!): string {
  const file = source(text);
  return apply(file, splitOneLineBlockFix(file, pick(file.hcl.body.blocks), splitOneLineBody));
}

describe("splitOneLineBlockFix", () => {
  it("splits arguments separated by commas, aligned", () => {
    expect(split("locals { a = 1, bbb = 2 }\n")).toBe("locals {\n  a   = 1\n  bbb = 2\n}\n");
  });

  it("moves an argument off the line of the brace", () => {
    expect(split('variable "x" { type = string\n}\n')).toBe('variable "x" {\n  type = string\n}\n');
    expect(split('variable "x" { type = string\n  default = "a"\n}\n')).toBe('variable "x" {\n  type    = string\n  default = "a"\n}\n');
  });

  it("splits a nested one-line block at its own indentation", () => {
    expect(split('resource "a" "b" {\n  lifecycle { create_before_destroy = true, prevent_destroy = true }\n}\n', (b) => b[0]!.body.blocks[0]!)).toBe(
      'resource "a" "b" {\n  lifecycle {\n    create_before_destroy = true\n    prevent_destroy       = true\n  }\n}\n',
    );
  });
});

describe("replaceFix and wrapInCallFix", () => {
  it("replace a node, wrap native and JSON values", () => {
    const native = source('output "x" {\n  value = distinct(local.ids)\n}\n');
    const value = native.hcl.body.blocks[0]!.body.attributes[0]!.expr;
    expect(apply(native, wrapInCallFix(native, value, "sort", "wrap", "safe"))).toBe('output "x" {\n  value = sort(distinct(local.ids))\n}\n');
    expect(apply(native, replaceFix(native, value, "local.ids", "replace", "safe"))).toBe('output "x" {\n  value = local.ids\n}\n');
    const json = source('{"output": {"x": {"value": "${distinct(local.ids)}"}}}\n', "main.tf.json");
    const jvalue = json.hcl.body.blocks[0]!.body.attributes[0]!.expr;
    expect(apply(json, wrapInCallFix(json, jvalue, "sort", "wrap", "safe"))).toBe('{"output": {"x": {"value": "${sort(distinct(local.ids))}"}}}\n');
  });
});

describe("fix kinds", () => {
  it("replace, wrap and insert carry the kind their caller gives; a split is safe; a plain-JavaScript call without one gives none (unsafe)", () => {
    const native = source('output "x" {\n  value = distinct(local.ids)\n}\n');
    const block = native.hcl.body.blocks[0]!;
    const value = block.body.attributes[0]!.expr;
    expect(wrapInCallFix(native, value, "sort", "wrap", "safe")!.kind).toBe("safe");
    expect(replaceFix(native, value, "local.ids", "replace", "unsafe").kind).toBe("unsafe");
    expect(insertAttributeFix(native, block, "sensitive", "true", "add", "unsafe")!.kind).toBe("unsafe");
    const json = source('{"variable": {"x": {"type": "string"}}}\n', "main.tf.json");
    expect(insertAttributeFix(json, json.hcl.body.blocks[0]!, "sensitive", "true", "add", "safe")!.kind).toBe("safe");
    const oneLine = source("locals { a = 1, b = 2 }\n");
    expect(splitOneLineBlockFix(oneLine, oneLine.hcl.body.blocks[0]!, splitOneLineBody)!.kind).toBe("safe");
    // What a JavaScript plugin gets when it leaves the kind out: no kind, which the engine counts unsafe.
    const untyped = replaceFix as (...args: unknown[]) => Fix;
    expect("kind" in untyped(native, value, "local.ids", "replace")).toBe(false);
  });
});

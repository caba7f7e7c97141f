import { describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import type { Range } from "../../src/hcl/ast.js";

function lc(r: Range): [number, number, number, number] {
  return [r.start.line, r.start.column, r.end.line, r.end.column];
}

function diags(src: string): Array<[string, number, number, number, number]> {
  return parseHcl(src, "e.tf").diagnostics.map((d) => [d.summary, ...lc(d.subject)]);
}

/**
 * Each source with the diagnostics (summary and subject range) HashiCorp's
 * parser reports for it, recorded from hcl-oracle.
 */
const CASES: Array<[string, Array<[string, number, number, number, number]>]> = [
  ["b {\n  lifecycle { a = 1 c = 2 }\n}\nz = 1\n", [["Invalid single-argument block definition", 2, 21, 2, 22]]],
  ["c { x {} }\n", [["Argument definition required", 1, 5, 1, 8]]],
  ["a = 1 b = 2\nc = 3\n", [["Missing newline after argument", 1, 7, 1, 8]]],
  ["a = 1,\n", [["Unexpected comma after argument", 1, 6, 1, 7]]],
  ["a = 1\nb = 2\na = 3\n", [["Attribute redefined", 3, 1, 3, 2]]],
  ["a = \"x\ny\"\nb = 2\n", [["Invalid multi-line string", 1, 7, 2, 1], ["Unterminated template string", 1, 7, 2, 1]]],
  ["a = 1\nb {\n  c = 2\n", [["Unclosed configuration block", 2, 3, 2, 4]]],
  ["a = [1, 2\n", [["Unterminated tuple constructor expression", 1, 5, 1, 6]]],
  ["a = \"${x\"\n", [["Invalid multi-line string", 1, 10, 2, 1], ["Unclosed template interpolation sequence", 1, 6, 1, 8]]],
  ["a = <<EOT\nx\n", [["Unterminated template string", 3, 1, 3, 1]]],
  ["a = 1 ; b\n", [["Invalid character", 1, 7, 1, 8], ["Missing newline after argument", 1, 7, 1, 8]]],
  ["a = \"\\q\"\n", [["Invalid escape sequence", 1, 6, 1, 8]]],
  ["a = \"${x y}\"\n", [["Extra characters after interpolation expression", 1, 10, 1, 11]]],
  ["\"a\" = 1\n", [["Invalid argument name", 1, 1, 1, 2]]],
  ["a\nb = 2\n", [["Argument or block definition required", 1, 1, 1, 2]]],
  ["b \"x\" = {\n}\n", [["Invalid block definition", 1, 7, 1, 8]]],
  ["a = f(1 2)\n", [["Missing argument separator", 1, 9, 1, 10]]],
  ["a = { b = 1 c = 2 }\n", [["Missing attribute separator", 1, 13, 1, 14]]],
  ["a = [for x in y: x => x]\n", [["Invalid 'for' expression", 1, 18, 1, 19]]],
  ["a = \"%{ if x }y\"\n", [["Unexpected end of template", 1, 16, 1, 17]]],
  ["a = x[1 2]\n", [["Missing close bracket on index", 1, 10, 1, 11]]],
  ["a = (1 2)\n", [["Unbalanced parentheses", 1, 8, 1, 9]]],
  ["a = 1 ? 2\n", [["Missing false expression in conditional", 1, 10, 2, 1]]],
];

describe("native syntax errors match HashiCorp's parser", () => {
  for (const [src, expected] of CASES) {
    it(`reports ${expected.map((e) => e[0]).join(", ")} for ${JSON.stringify(src)}`, () => {
      expect(diags(src)).toEqual(expected);
    });
  }
});

describe("one-line blocks", () => {
  it("marks the diagnostic and keeps every item of the block in the tree", () => {
    const src = 'resource "x" "y" {\n  lifecycle { create_before_destroy = true ignore_changes = [tags] }\n}\nz = 1\n';
    const r = parseHcl(src, "main.tf");
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0];
    expect([d.summary, d.code, ...lc(d.subject)]).toEqual(["Invalid single-argument block definition", "one-line-block", 2, 44, 2, 58]);
    expect(d.block?.type).toBe("lifecycle");
    expect(d.block?.body.attributes.map((a) => a.name)).toEqual(["create_before_destroy", "ignore_changes"]);
    expect(lc(d.block!.range)).toEqual([2, 3, 2, 69]);
    expect(d.block?.singleLine).toBe(true);
    // the rest of the file is parsed
    expect(r.file.body.attributes.map((a) => a.name)).toEqual(["z"]);
    expect(r.file.body.blocks[0].body.blocks[0]).toBe(d.block);
  });

  it("keeps a nested block written inside a one-line block", () => {
    const r = parseHcl("outer { inner { a = 1 } }\nz = 1\n", "main.tf");
    const d = r.diagnostics[0];
    expect([d.summary, d.code]).toEqual(["Argument definition required", "one-line-block"]);
    expect(d.block?.body.blocks.map((b) => b.type)).toEqual(["inner"]);
    expect(d.block?.body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["a"]);
    expect(lc(d.block!.closeBraceRange)).toEqual([1, 25, 1, 26]);
    // unlike HashiCorp's parser, the rest of the file is not lost
    expect(r.file.body.attributes.map((a) => a.name)).toEqual(["z"]);
    expect(r.diagnostics).toHaveLength(1);
  });

  it("accepts a one-line block with a single argument", () => {
    const r = parseHcl("lifecycle { prevent_destroy = true }\n", "main.tf");
    expect(r.diagnostics).toEqual([]);
    expect(r.file.body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["prevent_destroy"]);
  });
});

describe("recovery", () => {
  it("keeps parsing after an error and reports later structural errors", () => {
    const src = 'a = 1 b = 2\nc = 3\nc = 4\nblock "x" {\n  d = 5\n}\n';
    const r = parseHcl(src, "main.tf");
    expect(r.diagnostics.map((d) => [d.summary, ...lc(d.subject)])).toEqual([
      ["Missing newline after argument", 1, 7, 1, 8],
      ["Attribute redefined", 3, 1, 3, 2],
    ]);
    expect(r.file.body.attributes.map((a) => a.name)).toEqual(["a", "c"]);
    expect(r.file.body.blocks.map((b) => [b.type, b.labels])).toEqual([["block", ["x"]]]);
    expect(r.file.body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["d"]);
  });

  it("returns a partial tree for an unclosed block", () => {
    const r = parseHcl('variable "a" {\n  type = string\n', "v.tf");
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Unclosed configuration block"]);
    const b = r.file.body.blocks[0];
    expect(b.labels).toEqual(["a"]);
    expect(b.body.attributes.map((a) => a.name)).toEqual(["type"]);
  });

  it("reports invalid characters once per kind, like HashiCorp's scanner", () => {
    expect(diags("a = 1 ; b ; c\n")).toEqual([
      ["Invalid character", 1, 7, 1, 8],
      ["Missing newline after argument", 1, 7, 1, 8],
    ]);
    expect(diags("a = `x` & 'y'\n").map((d) => d[0])).toEqual([
      "Invalid character",
      "Unsupported operator",
      "Invalid character",
      "Invalid expression",
    ]);
  });

  it("reports an unclosed bracket 10,000 levels deep where the text ends", () => {
    const r = parseHcl("a = " + "[".repeat(10000) + "\n", "deep.tf");
    expect(r.diagnostics.map((d) => [d.summary, d.code])).toEqual([["Missing expression", undefined]]);
    expect(lc(r.diagnostics[0].subject)).toEqual([2, 1, 2, 1]);
    expect(r.file.body.attributes.map((a) => a.name)).toEqual(["a"]);
  });

  it("reports 5,000 unclosed blocks at the innermost brace", () => {
    const r = parseHcl("b {\n".repeat(5000), "deep.tf");
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Unclosed configuration block"]);
    expect(lc(r.diagnostics[0].subject)).toEqual([5000, 3, 5000, 4]);
  });
});

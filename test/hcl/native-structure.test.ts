import { describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import type { Range } from "../../src/hcl/ast.js";

/** [startLine, startCol, endLine, endCol] of a range. */
function lc(r: Range): [number, number, number, number] {
  return [r.start.line, r.start.column, r.end.line, r.end.column];
}

describe("native syntax: bodies, attributes and blocks", () => {
  it("parses attributes with exact ranges", () => {
    const { file, diagnostics } = parseHcl('name = "web"\ncount = 3\n', "main.tf");
    expect(diagnostics).toEqual([]);
    const [a, b] = file.body.attributes;
    expect(a.name).toBe("name");
    expect(lc(a.nameRange)).toEqual([1, 1, 1, 5]);
    expect(lc(a.range)).toEqual([1, 1, 1, 13]);
    expect(lc(a.expr.range)).toEqual([1, 8, 1, 13]);
    expect(a.expr.range.start.offset).toBe(7);
    expect(b.name).toBe("count");
    expect(lc(b.range)).toEqual([2, 1, 2, 10]);
    expect(b.expr).toMatchObject({ kind: "LiteralValue", type: "number", value: 3, raw: "3" });
  });

  it("parses blocks with quoted and bare labels", () => {
    const src = 'resource "aws_instance" web {\n  ami = "x"\n}\n';
    const { file, diagnostics } = parseHcl(src, "main.tf");
    expect(diagnostics).toEqual([]);
    const b = file.body.blocks[0];
    expect(b.type).toBe("resource");
    expect(b.labels).toEqual(["aws_instance", "web"]);
    expect(b.labelRanges.map(lc)).toEqual([
      [1, 10, 1, 24],
      [1, 25, 1, 28],
    ]);
    expect(lc(b.typeRange)).toEqual([1, 1, 1, 9]);
    expect(lc(b.openBraceRange)).toEqual([1, 29, 1, 30]);
    expect(lc(b.closeBraceRange)).toEqual([3, 1, 3, 2]);
    expect(lc(b.range)).toEqual([1, 1, 3, 2]);
    expect(b.singleLine).toBe(false);
    expect(b.body.attributes.map((a) => a.name)).toEqual(["ami"]);
    expect(lc(b.body.attributes[0].range)).toEqual([2, 3, 2, 12]);
  });

  it("parses nested and one-line blocks", () => {
    const src = 'resource "x" "y" {\n  lifecycle { create_before_destroy = true }\n  empty {}\n  dynamic "d" {\n    content {\n      a = 1\n    }\n  }\n}\n';
    const { file, diagnostics } = parseHcl(src, "main.tf");
    expect(diagnostics).toEqual([]);
    const outer = file.body.blocks[0];
    expect(outer.body.blocks.map((b) => b.type)).toEqual(["lifecycle", "empty", "dynamic"]);
    const lifecycle = outer.body.blocks[0];
    expect(lifecycle.singleLine).toBe(true);
    expect(lifecycle.body.attributes[0].name).toBe("create_before_destroy");
    expect(lc(lifecycle.range)).toEqual([2, 3, 2, 45]);
    expect(outer.body.blocks[1].singleLine).toBe(true);
    expect(outer.body.blocks[2].body.blocks[0].body.attributes[0].name).toBe("a");
  });

  it("keeps comments with their style and ownLine flag", () => {
    const src = "# top\na = 1 // trailing\n/* block\n comment */ b = 2\n";
    const { file } = parseHcl(src, "c.tf");
    expect(file.comments.map((c) => [c.style, c.text, c.ownLine, ...lc(c.range)])).toEqual([
      ["#", "# top", true, 1, 1, 1, 6],
      ["//", "// trailing", false, 2, 7, 2, 18],
      ["/*", "/* block\n comment */", true, 3, 1, 4, 12],
    ]);
    expect(file.body.attributes.map((a) => a.name)).toEqual(["a", "b"]);
  });

  it("treats CRLF as one line break and does not count \\r in columns", () => {
    const src = 'a = 1\r\nb = "x"\r\nc {\r\n  d = 2\r\n}\r\n';
    const { file, diagnostics } = parseHcl(src, "crlf.tf");
    expect(diagnostics).toEqual([]);
    expect(lc(file.body.attributes[1].range)).toEqual([2, 1, 2, 8]);
    expect(file.body.attributes[1].range.start.offset).toBe(7);
    expect(lc(file.body.blocks[0].body.attributes[0].range)).toEqual([4, 3, 4, 8]);
    expect(lc(file.body.blocks[0].closeBraceRange)).toEqual([5, 1, 5, 2]);
    expect(file.lineStarts).toEqual([0, 7, 16, 21, 30, 33]);
  });

  it("strips a leading BOM; positions are relative to the text after it", () => {
    const { file, diagnostics } = parseHcl("\uFEFFa = 1\n", "bom.tf");
    expect(diagnostics).toEqual([]);
    expect(file.text).toBe("a = 1\n");
    expect(lc(file.body.attributes[0].range)).toEqual([1, 1, 1, 6]);
    expect(file.body.attributes[0].range.start.offset).toBe(0);
  });

  it("counts columns in UTF-16 code units", () => {
    const { file } = parseHcl('a = "👍🏽é" == b\n', "u.tf");
    const e = file.body.attributes[0].expr;
    expect(e.kind).toBe("BinaryOp");
    // the string is 1 + 4 + 1 + 1 code units long, starting at column 5
    expect(lc(e.range)).toEqual([1, 5, 1, 17]);
  });

  it("sets the file-level body range to the whole text", () => {
    const { file } = parseHcl("a = 1\n\n", "r.tf");
    expect(lc(file.body.range)).toEqual([1, 1, 3, 1]);
    expect(file.syntax).toBe("native");
    expect(file.filename).toBe("r.tf");
  });

  it("gives a block body the range between its braces", () => {
    const { file } = parseHcl("b {\n  a = 1\n}\n", "r.tf");
    expect(lc(file.body.blocks[0].body.range)).toEqual([1, 4, 3, 1]);
  });

  it("dispatches .json files to the JSON parser", () => {
    const { file } = parseHcl('{"variable": {"x": {}}}', "main.tf.json");
    expect(file.syntax).toBe("json");
  });
});

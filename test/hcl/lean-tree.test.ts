/**
 * The lean syntax tree: ranges are offsets plus the file's line index
 * (Span), positions are made when read, and nothing that leaves the tree
 * (findings) keeps a Span.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Expression, Range, ScopeTraversal } from "../../src/hcl/ast.js";
import { parseExpressionAt } from "../../src/hcl/index.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { LineIndex, Span, computeLineStarts, endOffsetOf, plainRange, rangeBetween, startOffsetOf } from "../../src/hcl/source.js";
import { walkExpression } from "../../src/hcl/walk.js";
import { SyntaxNode, copyNode } from "../../src/hcl/nodes.js";
import { loadModule } from "../../src/terraform/load.js";
import { lintModule } from "../helpers/lint.js";
import * as api from "../../src/index.js";

/** Every object reachable from `root` (iterative; shared objects once). */
function reachable(root: object): object[] {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (seen.has(o)) continue;
    seen.add(o);
    if (o instanceof Span || o instanceof LineIndex) continue; // the line index is the file's, not part of the tree
    for (const v of Object.values(o)) if (v !== null && typeof v === "object") stack.push(v);
  }
  return [...seen];
}

function lc(r: Range): string {
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

function refs(e: Expression): ScopeTraversal[] {
  const out: ScopeTraversal[] = [];
  walkExpression(e, (x) => {
    if (x.kind === "ScopeTraversal") out.push(x);
  });
  return out;
}

const NATIVE = `variable "a" {
  type = string
}

resource "x" "y" {
  tags  = { Name = "n-\${var.a}" }
  count = 1 + 2
  lifecycle { prevent_destroy = true }
}
`;

describe("ranges are spans over the file's line index", () => {
  it("a native tree holds no range or position objects: every node holds two offsets and the file's one line index", () => {
    const { file, diagnostics } = parseHcl(NATIVE, "main.tf");
    expect(diagnostics).toEqual([]);
    const objects = reachable(file.body);
    expect(objects.filter((o) => o instanceof Span)).toEqual([]);
    expect(objects.filter((o) => !(o instanceof LineIndex) && "line" in o && "column" in o)).toEqual([]);
    const nodes = objects.filter((o): o is SyntaxNode => o instanceof SyntaxNode);
    expect(nodes.length).toBeGreaterThan(20);
    expect(new Set(nodes.map((n) => n.lines)).size).toBe(1);
    expect(nodes[0]!.lines.lineStarts).toEqual(file.lineStarts);
    // Every range read from a node is a Span over those offsets and that index.
    for (const n of nodes) {
      const r = (n as unknown as { range: Range }).range as Span;
      expect(r).toBeInstanceOf(Span);
      expect([r.lines, r.startOffset, r.endOffset]).toEqual([n.lines, n.startOffset, n.endOffset]);
    }
  });

  it("kind lives on the node's class; copyNode keeps class, kind and ranges where a spread drops them", () => {
    const { file } = parseHcl(`resource "x" "y" {\n  a = f(var.b)\n}\n`, "main.tf");
    const block = file.body.blocks[0]!;
    const attr = block.body.attributes[0]!;
    expect(attr.kind).toBe("Attribute");
    expect(Object.keys(attr)).not.toContain("kind");
    expect(Object.keys(attr)).not.toContain("range");
    const spread = { ...attr } as Partial<typeof attr>;
    expect([spread.kind, spread.range]).toEqual([undefined, undefined]);
    const copy = copyNode(block, { labels: ["x", "z"] });
    expect(copy).not.toBe(block);
    expect(copy).toBeInstanceOf(SyntaxNode);
    expect([copy.kind, copy.type, copy.labels, copy.body]).toEqual(["Block", "resource", ["x", "z"], block.body]);
    expect([lc(copy.range), lc(copy.typeRange), copy.labelRanges.map(lc)]).toEqual(["1:1-3:2", "1:1-1:9", ["1:10-1:13", "1:14-1:17"]]);
    expect(block.labels).toEqual(["x", "y"]);
    // Offsets without making a range, and each read of a range is a new Span over them.
    const call = attr.expr as unknown as SyntaxNode & { range: Range; nameRange: Range; closeParenRange: Range };
    expect([call.startOffset, call.endOffset]).toEqual([25, 33]);
    expect(call.range).not.toBe(call.range);
    expect([lc(call.nameRange), lc(call.closeParenRange)]).toEqual(["2:7-2:8", "2:14-2:15"]);
  });

  it("positions read from a span are exact, 1-based, in UTF-16 columns", () => {
    const text = `locals {\n  a = "é😀"\n  c = "😀\${var.d}"\n}\n`;
    const { file, diagnostics } = parseHcl(text, "main.tf");
    expect(diagnostics).toEqual([]);
    const c = file.body.blocks[0]!.body.attributes.find((a) => a.name === "c")!;
    const d = refs(c.expr)[0]!;
    const at = text.indexOf("var.d");
    // Line 3 is \`  c = "😀\${var.d}"\`: the emoji is two UTF-16 code units.
    expect(d.range.start).toEqual({ line: 3, column: 12, offset: at });
    expect(lc(d.range)).toBe("3:12-3:17");
    expect(startOffsetOf(d.range)).toBe(at);
    expect(endOffsetOf(d.range)).toBe(at + 5);
  });

  it("toJSON and plainRange give plain positions; rangeBetween joins two spans into one", () => {
    const { file } = parseHcl(NATIVE, "main.tf");
    const v = file.body.blocks[0]!;
    expect(JSON.parse(JSON.stringify(v.typeRange))).toEqual({
      start: { line: 1, column: 1, offset: 0 },
      end: { line: 1, column: 9, offset: 8 },
    });
    const plain = plainRange(v.range);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(structuredClone(plain)).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 3, column: 2, offset: 32 } });
    const joined = rangeBetween(v.typeRange, v.closeBraceRange);
    expect(joined).toBeInstanceOf(Span);
    expect(lc(joined)).toBe("1:1-3:2");
    // A plain range joins too (a position object each side).
    expect(lc(rangeBetween(plain, v.typeRange))).toBe("1:1-1:9");
  });

  it("the package entry exports the range helpers a plugin may use", () => {
    expect([api.Span, api.LineIndex, api.plainRange, api.rangeBetween, api.startOffsetOf, api.endOffsetOf]).toEqual([Span, LineIndex, plainRange, rangeBetween, startOffsetOf, endOffsetOf]);
  });

  it("a LineIndex with a first line other than 1 numbers its lines from there", () => {
    const li = new LineIndex(computeLineStarts("ab\ncd"), 7);
    expect(li.pos(4)).toEqual({ line: 8, column: 2, offset: 4 });
    expect(lc(li.range(0, 4))).toBe("7:1-8:2");
  });

  it("parseExpressionAt with a base position gives offsets and lines of the larger text", () => {
    const { expr, diagnostics } = parseExpressionAt("f(\n  var.x)", "x.tf", { line: 10, column: 5, offset: 200 });
    expect(diagnostics).toEqual([]);
    const x = refs(expr)[0]!;
    expect(x.range.start).toEqual({ line: 11, column: 3, offset: 205 });
    expect(x.range.end).toEqual({ line: 11, column: 8, offset: 210 });
    expect(expr.range.start).toEqual({ line: 10, column: 5, offset: 200 });
  });
});

describe("JSON strings parsed as templates share the file's line table", () => {
  it("an unescaped string: absolute offsets, the file's line index", () => {
    const text = `{\n  "locals": {\n    "a": "x-\${var.b}"\n  }\n}\n`;
    const { file, diagnostics } = parseHcl(text, "main.tf.json");
    expect(diagnostics).toEqual([]);
    const a = file.body.blocks[0]!.body.attributes[0]!;
    const b = refs(a.expr)[0]!;
    const at = text.indexOf("var.b");
    expect(b.range).toBeInstanceOf(Span);
    expect((b.range as Span).lines).toBe((file.body.range as Span).lines);
    expect(startOffsetOf(b.range)).toBe(at);
    expect(lc(b.range)).toBe("3:15-3:20");
  });

  it("an escaped string: each range mapped back through the escapes", () => {
    const text = `{"locals": {"a": "\\u0041\\n\${var.b}"}}`;
    const { file, diagnostics } = parseHcl(text, "main.tf.json");
    expect(diagnostics).toEqual([]);
    const b = refs(file.body.blocks[0]!.body.attributes[0]!.expr)[0]!;
    const at = text.indexOf("var.b");
    expect(b.range).toBeInstanceOf(Span);
    expect([startOffsetOf(b.range), endOffsetOf(b.range)]).toEqual([at, at + 5]);
    expect(lc(b.range)).toBe(`1:${at + 1}-1:${at + 6}`);
  });
});

describe("the tree is shared, never copied or changed in place", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const moduleDir = (files: Record<string, string>): string => {
    const d = mkdtempSync(path.join(tmpdir(), "lean-"));
    dirs.push(d);
    for (const [n, t] of Object.entries(files)) writeFileSync(path.join(d, n), t);
    return d;
  };

  it("empty lists are one frozen array; a block without lifecycle shares one frozen lifecycle", () => {
    const { file } = parseHcl(`a {}\nb {}\nresource "x" "y" {}\nresource "x" "z" {}\n`, "main.tf");
    const [a, b] = file.body.blocks;
    expect(a!.body.blocks).toBe(b!.body.blocks);
    expect(Object.isFrozen(a!.body.attributes)).toBe(true);
    expect(() => (a!.body.blocks as unknown[]).push(1)).toThrow(TypeError);
    const d = moduleDir({ "main.tf": `resource "x" "y" {}\nresource "x" "z" {}\nresource "x" "w" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n` });
    const mod = loadModule(d).root.terraform;
    const [y, z, w] = ["x.y", "x.z", "x.w"].map((k) => mod.resources.get(k)!);
    expect(y!.lifecycle).toBe(z!.lifecycle);
    expect(Object.isFrozen(y!.lifecycle)).toBe(true);
    expect(w!.lifecycle).not.toBe(y!.lifecycle);
    expect(w!.lifecycle.preventDestroy).toBe(true);
  });

  it("without .tofu files one model serves both file sets; with one, each set has its own", () => {
    const tfOnly = loadModule(moduleDir({ "main.tf": `variable "a" {}\n` })).root;
    expect(tfOnly.opentofu).toBe(tfOnly.terraform);
    expect(tfOnly.expressions).toBe(tfOnly.terraform);
    const both = loadModule(moduleDir({ "main.tf": `variable "a" {}\n`, "main.tofu": `variable "b" {}\n` })).root;
    expect(both.opentofu).not.toBe(both.terraform);
    expect([...both.terraform.variables.keys()]).toEqual(["a"]);
    expect([...both.opentofu.variables.keys()]).toEqual(["b"]);
    expect(both.opentofu.fileSet).toBe("opentofu");
  });

  it("findings carry plain ranges (no Span, no line table), equal to the tree's positions", () => {
    const d = moduleDir({
      "variables.tf": `variable "captf_tags" {\n  type = map(string)\n}\n`,
      "main.tf": `resource "terraform_data" "r" {\n  input = timestamp()\n}\n`,
    });
    const out = lintModule(d, { role: "machine" });
    expect(out.kind).toBe("report");
    if (out.kind !== "report") return;
    const findings = out.report.findings;
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect(Object.getPrototypeOf(f.range)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(f.range.start)).toBe(Object.prototype);
      expect(structuredClone(f.range)).toEqual(f.range);
    }
  });
});

import { describe, expect, it } from "vitest";
import { parseExpressionAt, parseTemplateAt, traversalText } from "../../src/hcl/index.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import type { Expression, Range, TemplateExpr } from "../../src/hcl/ast.js";

function lc(r: Range): [number, number, number, number] {
  return [r.start.line, r.start.column, r.end.line, r.end.column];
}

/** Parses `a = <src>` and returns the expression (asserting no diagnostics). */
function expr(src: string): Expression {
  const { file, diagnostics } = parseHcl(`a = ${src}\n`, "e.tf");
  expect(diagnostics.map((d) => d.summary)).toEqual([]);
  return file.body.attributes[0].expr;
}

/** A compact structural rendering for precedence checks. */
function show(e: Expression): string {
  switch (e.kind) {
    case "LiteralValue":
      return e.raw;
    case "ScopeTraversal":
      return traversalText(e.traversal);
    case "BinaryOp":
      return `(${show(e.lhs)} ${e.op} ${show(e.rhs)})`;
    case "UnaryOp":
      return `(${e.op}${show(e.operand)})`;
    case "Conditional":
      return `(${show(e.condition)} ? ${show(e.trueResult)} : ${show(e.falseResult)})`;
    case "Parentheses":
      return `[${show(e.expr)}]`;
    default:
      return e.kind;
  }
}

describe("native syntax: literals", () => {
  it("parses numbers, including exponents", () => {
    expect(expr("1.5e3")).toMatchObject({ kind: "LiteralValue", type: "number", value: 1500, raw: "1.5e3" });
    expect(expr("2E-2")).toMatchObject({ value: 0.02, raw: "2E-2" });
    expect(expr("42")).toMatchObject({ value: 42 });
  });

  it("parses bools and null", () => {
    expect(expr("true")).toMatchObject({ kind: "LiteralValue", type: "bool", value: true });
    expect(expr("false")).toMatchObject({ type: "bool", value: false });
    expect(expr("null")).toMatchObject({ type: "null", value: null });
  });

  it("decodes escapes in quoted strings", () => {
    const e = expr('"a\\n\\r\\t\\"\\\\\\u00e9\\U0001F600 $${x} %%{y}"') as TemplateExpr;
    expect(e.kind).toBe("Template");
    expect(e.form).toBe("quoted");
    expect(e.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : "?")).join("")).toBe('a\n\r\t"\\é😀 ${x} %{y}');
  });
});

describe("native syntax: templates", () => {
  it("wraps a lone interpolation as TemplateWrap", () => {
    const e = expr('"${var.x}"');
    expect(e.kind).toBe("TemplateWrap");
    if (e.kind !== "TemplateWrap") return;
    expect(e.wrapped.kind).toBe("ScopeTraversal");
    expect(lc(e.range)).toEqual([1, 5, 1, 15]);
  });

  it("parses interpolations and strip markers", () => {
    const e = expr('"a ${~ var.x ~} b"') as TemplateExpr;
    expect(e.parts.map((p) => p.kind)).toEqual(["TemplateLiteral", "TemplateInterp", "TemplateLiteral"]);
    expect(e.parts[0]).toMatchObject({ value: "a" });
    expect(e.parts[1]).toMatchObject({ stripLeft: true, stripRight: true });
    expect(e.parts[2]).toMatchObject({ value: "b" });
    expect(lc(e.parts[1].range)).toEqual([1, 8, 1, 20]);
  });

  it("parses if/else/endif directives", () => {
    const e = expr('"%{ if var.on }yes%{ else }no%{ endif }"') as TemplateExpr;
    expect(e.parts).toHaveLength(1);
    const d = e.parts[0];
    expect(d.kind).toBe("TemplateIf");
    if (d.kind !== "TemplateIf") return;
    expect(show(d.condition)).toBe("var.on");
    expect(d.then).toMatchObject([{ kind: "TemplateLiteral", value: "yes" }]);
    expect(d.else).toMatchObject([{ kind: "TemplateLiteral", value: "no" }]);
  });

  it("parses for/endfor directives with key and value names", () => {
    const e = expr('"%{ for k, v in var.m }${k}=${v};%{ endfor }"') as TemplateExpr;
    const d = e.parts[0];
    expect(d.kind).toBe("TemplateFor");
    if (d.kind !== "TemplateFor") return;
    expect([d.keyVar, d.valVar, show(d.collection)]).toEqual(["k", "v", "var.m"]);
    expect(d.body.map((p) => p.kind)).toEqual(["TemplateInterp", "TemplateLiteral", "TemplateInterp", "TemplateLiteral"]);
  });

  it("parses heredocs and keeps their marker", () => {
    const { file, diagnostics } = parseHcl("a = <<EOT\nhello ${name}\n  world\nEOT\nb = 1\n", "h.tf");
    expect(diagnostics).toEqual([]);
    const e = file.body.attributes[0].expr as TemplateExpr;
    expect(e.kind).toBe("Template");
    expect(e.form).toBe("heredoc");
    expect(e.heredoc).toEqual({ marker: "EOT", indented: false });
    expect(e.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : "${}")).join("")).toBe("hello ${}\n  world\n");
    expect(lc(e.range)).toEqual([1, 5, 4, 4]);
    expect(file.body.attributes[1].name).toBe("b");
  });

  it("removes common indentation from <<- heredocs", () => {
    const { file } = parseHcl("a = <<-EOT\n    one\n      two\n\n    three\n  EOT\n", "h.tf");
    const e = file.body.attributes[0].expr as TemplateExpr;
    expect(e.heredoc).toEqual({ marker: "EOT", indented: true });
    expect(e.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : "")).join("")).toBe("one\n  two\n\nthree\n");
  });

  it("parses template content for JSON strings with shifted positions", () => {
    const r = parseTemplateAt("x-${var.y}", "m.tf.json", { line: 3, column: 10, offset: 40 });
    expect(r.diagnostics).toEqual([]);
    expect(r.expr.kind).toBe("Template");
    if (r.expr.kind !== "Template") return;
    expect(r.expr.form).toBe("json");
    const interp = r.expr.parts[1];
    expect(interp.kind).toBe("TemplateInterp");
    if (interp.kind !== "TemplateInterp") return;
    expect(interp.expr.range.start).toEqual({ line: 3, column: 14, offset: 44 });
    const wrap = parseTemplateAt("${a.b}", "m.tf.json");
    expect(wrap.expr.kind).toBe("TemplateWrap");
  });
});

describe("native syntax: operators", () => {
  it("applies HCL precedence and associativity", () => {
    expect(show(expr("1 + 2 * 3 - 4"))).toBe("((1 + (2 * 3)) - 4)");
    expect(show(expr("a || b && c == d"))).toBe("(a || (b && (c == d)))");
    expect(show(expr("a < b == c >= d"))).toBe("((a < b) == (c >= d))");
    expect(show(expr("-a + !b"))).toBe("((-a) + (!b))");
    expect(show(expr("a ? b : c ? d : e"))).toBe("(a ? b : (c ? d : e))");
    expect(show(expr("(1 + 2) % 3 / 4"))).toBe("(([(1 + 2)] % 3) / 4)");
  });

  it("gives binary and conditional expressions the full range", () => {
    expect(lc(expr("x ? 1 : 2").range)).toEqual([1, 5, 1, 14]);
    expect(lc(expr("(1 +\n  2)").range)).toEqual([1, 5, 2, 5]);
  });
});

describe("native syntax: collections and for expressions", () => {
  it("parses tuples across lines with a trailing comma", () => {
    const e = expr("[\n  1,\n  2,\n]");
    expect(e.kind).toBe("TupleCons");
    if (e.kind !== "TupleCons") return;
    expect(e.exprs.map(show)).toEqual(["1", "2"]);
    expect(lc(e.range)).toEqual([1, 5, 4, 2]);
  });

  it("parses objects with = and :, commas or newlines, and (expr) keys", () => {
    const e = expr('{\n  a = 1, "b": 2\n  (var.k) = 3\n}');
    expect(e.kind).toBe("ObjectCons");
    if (e.kind !== "ObjectCons") return;
    expect(e.items.map((i) => [i.key.kind, i.keyIsBareIdent, show(i.value)])).toEqual([
      ["ScopeTraversal", true, "1"],
      ["Template", false, "2"],
      ["Parentheses", false, "3"],
    ]);
  });

  it("parses tuple and object for expressions", () => {
    const t = expr("[for i, v in var.l : v.id if v.on]");
    expect(t).toMatchObject({ kind: "For", form: "tuple", keyVar: "i", valVar: "v", group: false, keyExpr: null });
    const o = expr("{ for k, v in var.m : v.group => k... }");
    expect(o).toMatchObject({ kind: "For", form: "object", keyVar: "k", valVar: "v", group: true, condition: null });
    if (o.kind !== "For" || o.keyExpr === null) return;
    expect(show(o.keyExpr)).toBe("v.group");
  });
});

describe("native syntax: traversals, splats and calls", () => {
  it("builds scope traversals with attribute, index and legacy index steps", () => {
    const e = expr('aws_instance.web[0].tags["Name"].x.1');
    expect(e.kind).toBe("ScopeTraversal");
    if (e.kind !== "ScopeTraversal") return;
    expect(traversalText(e.traversal)).toBe('aws_instance.web[0].tags["Name"].x[1]');
    expect(e.traversal.map((s) => s.kind)).toEqual([
      "TraverseRoot",
      "TraverseAttr",
      "TraverseIndex",
      "TraverseAttr",
      "TraverseIndex",
      "TraverseAttr",
      "TraverseIndex",
    ]);
    expect(lc(e.range)).toEqual([1, 5, 1, 41]);
  });

  it("uses Index for non-literal keys and RelativeTraversal after other expressions", () => {
    const i = expr("local.m[var.k]");
    expect(i.kind).toBe("Index");
    const r = expr("f(x).attr[0]");
    expect(r.kind).toBe("RelativeTraversal");
    if (r.kind !== "RelativeTraversal") return;
    expect(r.source.kind).toBe("FunctionCall");
    expect(traversalText(r.traversal)).toBe(".attr[0]");
  });

  it("parses full and attribute-only splats", () => {
    const full = expr("var.list[*].id");
    expect(full).toMatchObject({ kind: "Splat", style: "full" });
    if (full.kind !== "Splat") return;
    expect(lc(full.range)).toEqual([1, 5, 1, 19]);
    expect(lc(full.markerRange)).toEqual([1, 13, 1, 16]);
    expect(full.each.kind).toBe("RelativeTraversal");
    const attr = expr("var.list.*.name");
    expect(attr).toMatchObject({ kind: "Splat", style: "attr" });
  });

  it("parses function calls with expansion", () => {
    const e = expr("concat(var.a, var.b...)");
    expect(e).toMatchObject({ kind: "FunctionCall", name: "concat", expandFinal: true });
    if (e.kind !== "FunctionCall") return;
    expect(e.args).toHaveLength(2);
    expect(lc(e.nameRange)).toEqual([1, 5, 1, 11]);
    expect(lc(e.closeParenRange)).toEqual([1, 27, 1, 28]);
  });

  it("accepts provider-defined functions", () => {
    const e = expr('provider::aws::arn_parse("arn:aws:s3:::b").region');
    expect(e.kind).toBe("RelativeTraversal");
    if (e.kind !== "RelativeTraversal" || e.source.kind !== "FunctionCall") return;
    expect(e.source.name).toBe("provider::aws::arn_parse");
    expect(lc(e.source.nameRange)).toEqual([1, 5, 1, 29]);
  });

  it("ignores newlines inside a provider function name within brackets", () => {
    const t = expr('[provider::aws\n::arn_parse("")]');
    if (t.kind !== "TupleCons" || t.exprs[0].kind !== "FunctionCall") throw new Error(t.kind);
    expect(t.exprs[0].name).toBe("provider::aws::arn_parse");
    expect(lc(t.exprs[0].nameRange)).toEqual([1, 6, 2, 12]);
    const p = expr("(provider::a\n::b(1))");
    if (p.kind !== "Parentheses" || p.expr.kind !== "FunctionCall") throw new Error(p.kind);
    expect(p.expr.name).toBe("provider::a::b");
    expect(p.expr.args).toHaveLength(1);
    const f = expr("[for v in x : provider::a::\nb(v)]");
    if (f.kind !== "For" || f.valExpr.kind !== "FunctionCall") throw new Error(f.kind);
    expect(f.valExpr.name).toBe("provider::a::b");
    expect(lc(f.valExpr.range)).toEqual([1, 19, 2, 5]);
  });

  it("keeps newlines significant in a provider function name outside brackets", () => {
    for (const src of ["a = provider::a\n::b(1)\n", "a = provider::a::\nb(1)\n"]) {
      const { diagnostics } = parseHcl(src, "e.tf");
      expect(diagnostics.length).toBeGreaterThan(0);
      expect(diagnostics[0].severity).toBe("error");
      expect(diagnostics[0].subject.start.line).toBe(1);
    }
  });

  it("allows newlines inside brackets and parentheses", () => {
    const e = expr("f(\n  1,\n  2\n)");
    expect(e.kind).toBe("FunctionCall");
  });
});

describe("parseExpressionAt", () => {
  it("parses a standalone expression with positions relative to a base", () => {
    const r = parseExpressionAt("list(string)", "v.tf.json", { line: 5, column: 12, offset: 100 });
    expect(r.diagnostics).toEqual([]);
    expect(r.expr.kind).toBe("FunctionCall");
    expect(r.expr.range.start).toEqual({ line: 5, column: 12, offset: 100 });
    expect(r.expr.range.end).toEqual({ line: 5, column: 24, offset: 112 });
  });

  it("reports extra characters after the expression", () => {
    const r = parseExpressionAt("a b", "x.json");
    expect(r.diagnostics.map((d) => [d.summary, ...lc(d.subject)])).toEqual([["Extra characters after expression", 1, 3, 1, 4]]);
  });
});

describe("parseTemplateAt edge cases", () => {
  it("keeps quotes, newlines and carriage returns as literal text", () => {
    const r = parseTemplateAt('say "hi"\r\nnext\rline ${x}', "t.tf.json");
    expect(r.diagnostics).toEqual([]);
    if (r.expr.kind !== "Template") throw new Error("expected a template");
    expect(r.expr.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : "${}")).join("")).toBe('say "hi"\r\nnext\rline ${}');
  });

  it("reports an unclosed interpolation at the end of the text", () => {
    const r = parseTemplateAt("a ${b", "t.tf.json");
    expect(r.diagnostics.map((d) => [d.summary, ...lc(d.subject)])).toEqual([["Unclosed template interpolation sequence", 1, 1, 1, 3]]);
  });
});

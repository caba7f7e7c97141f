/** parseJson: Terraform's JSON syntax mapped to the shared AST, with exact ranges. */

import { describe, expect, it } from "vitest";
import type { Block, Body, Expression, Range, TemplateExpr } from "../../src/hcl/ast.js";
import { parseJson as parseJsonWith } from "../../src/hcl/json.js";
import { TERRAFORM_FILE_SCHEMA } from "../../src/terraform/block-schema.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";

/** A Terraform module file in the JSON syntax. */
const parseJson = (text: string, filename: string) => parseJsonWith(text, filename, TERRAFORM_FILE_SCHEMA);

/** "line:col-line:col" */
function r(range: Range): string {
  return `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}`;
}

function parseOk(text: string): Body {
  const res = parseJson(text, "main.tf.json");
  expect(res.diagnostics.map((d) => `${d.summary} ${r(d.subject)}`)).toEqual([]);
  return res.file.body;
}

function diags(text: string): string[] {
  return parseJson(text, "main.tf.json").diagnostics.map((d) => `${d.summary} @ ${r(d.subject)}`);
}

function blockSummary(b: Block): string {
  return [b.type, ...b.labels].join(" ");
}

function attr(body: Body, name: string): Expression {
  const a = body.attributes.find((x) => x.name === name);
  if (a === undefined) throw new Error(`no attribute ${name}`);
  return a.expr;
}

describe("parseJson blocks", () => {
  it("nests labels as object keys and gives every name its quoted range", () => {
    const text = [
      "{",
      '  "resource": {',
      '    "aws_instance": {',
      '      "web": {',
      '        "ami": "ami-123"',
      "      }",
      "    }",
      "  }",
      "}",
    ].join("\n");
    const body = parseOk(text);
    expect(body.blocks).toHaveLength(1);
    const b = body.blocks[0];
    expect(blockSummary(b)).toBe("resource aws_instance web");
    expect(r(b.typeRange)).toBe("2:3-2:13");
    expect(b.labelRanges.map(r)).toEqual(["3:5-3:19", "4:7-4:12"]);
    expect(r(b.openBraceRange)).toBe("4:14-4:15");
    expect(r(b.closeBraceRange)).toBe("6:7-6:8");
    expect(r(b.body.range)).toBe("4:15-6:7");
    // From the key holding the body (the last label) to the closing brace.
    expect(r(b.range)).toBe("4:7-6:8");
    expect(b.singleLine).toBe(false);
    const a = b.body.attributes[0];
    expect(a.name).toBe("ami");
    expect(r(a.nameRange)).toBe("5:9-5:14");
    expect(r(a.range)).toBe("5:9-5:25");
    expect(r(body.range)).toBe("1:1-9:2");
  });

  it("reads arrays at label and body levels as several blocks, in order", () => {
    const text = JSON.stringify({
      variable: [{ a: { type: "string" } }, { b: [{ default: 1 }, { default: 2 }] }],
      resource: { t: { x: {}, y: [{}, {}] } },
      locals: [{ one: 1 }, { two: 2 }],
      terraform: {},
    });
    const body = parseOk(text);
    expect(body.blocks.map(blockSummary)).toEqual([
      "variable a",
      "variable b",
      "variable b",
      "resource t x",
      "resource t y",
      "resource t y",
      "locals",
      "locals",
      "terraform",
    ]);
    expect(body.blocks[6].body.attributes.map((a) => a.name)).toEqual(["one"]);
    // Blocks sharing a key in an array start at their own brace.
    const [a, b1, b2] = body.blocks;
    expect([a.range.start.offset, b1.range.start.offset, b2.range.start.offset]).toEqual([
      text.indexOf('"a"'),
      text.indexOf('{"default":1}'),
      text.indexOf('{"default":2}'),
    ]);
    expect(b1.typeRange).toEqual(a.typeRange);
  });

  it("allows repeated block keys and a root array of objects", () => {
    const text = '[{"output": {"a": {"value": 1}}}, {"output": {"b": {"value": 2}}, "output": {"c": {"value": 3}}}]';
    expect(parseOk(text).blocks.map(blockSummary)).toEqual(["output a", "output b", "output c"]);
  });

  it("knows Terraform's nested blocks and treats other objects as arguments", () => {
    const text = JSON.stringify({
      terraform: {
        required_version: ">= 1.5",
        required_providers: { aws: { source: "hashicorp/aws", version: "~> 5.0" } },
        backend: { s3: { bucket: "b" } },
      },
      resource: {
        aws_instance: {
          web: {
            ebs_block_device: [{ device_name: "/dev/sdb" }],
            lifecycle: { precondition: [{ condition: true, error_message: "x" }] },
            provisioner: { "local-exec": { command: "echo", connection: { host: "h" } } },
            dynamic: { setting: { for_each: "${var.s}", content: { name: "${setting.key}" } } },
          },
        },
      },
      variable: { v: { validation: { condition: true, error_message: "m" } } },
      check: { health: { data: { http: { site: { url: "u" } } }, assert: { condition: true, error_message: "m" } } },
    });
    const body = parseOk(text);
    const [tf, res, variable, check] = body.blocks;
    expect(tf.body.attributes.map((a) => a.name)).toEqual(["required_version"]);
    expect(tf.body.blocks.map(blockSummary)).toEqual(["required_providers", "backend s3"]);
    expect(tf.body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["aws"]);
    expect(res.body.attributes.map((a) => a.name)).toEqual(["ebs_block_device"]);
    expect(attr(res.body, "ebs_block_device").kind).toBe("TupleCons");
    expect(res.body.blocks.map(blockSummary)).toEqual(["lifecycle", "provisioner local-exec", "dynamic setting"]);
    expect(res.body.blocks[0].body.blocks.map(blockSummary)).toEqual(["precondition"]);
    expect(res.body.blocks[1].body.blocks.map(blockSummary)).toEqual(["connection"]);
    const dyn = res.body.blocks[2];
    expect(dyn.body.attributes.map((a) => a.name)).toEqual(["for_each"]);
    expect(dyn.body.blocks.map(blockSummary)).toEqual(["content"]);
    expect(variable.body.blocks.map(blockSummary)).toEqual(["validation"]);
    expect(check.body.blocks.map(blockSummary)).toEqual(["data http site", "assert"]);
  });

  it("treats names like constructor and __proto__ as plain names", () => {
    const body = parseOk('{"constructor": 1, "locals": {"__proto__": 2, "toString": 3}, "resource": {"t": {"n": {"hasOwnProperty": {}}}}}');
    expect(body.attributes.map((a) => a.name)).toEqual(["constructor"]);
    expect(body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["__proto__", "toString"]);
    expect(body.blocks[1].body.attributes.map((a) => [a.name, a.expr.kind])).toEqual([["hasOwnProperty", "ObjectCons"]]);
  });

  it("keeps unknown top-level keys as attributes and skips null blocks", () => {
    const body = parseOk('{"foo": 1, "module": null, "output": {"o": null}}');
    expect(body.attributes.map((a) => a.name)).toEqual(["foo"]);
    expect(body.blocks).toEqual([]);
  });
});

describe('parseJson "//" comments', () => {
  it("records comments of the body that holds them, not as attributes", () => {
    const text = [
      "{",
      '  "//": "top comment",',
      '  "output": {',
      '    "id": {',
      '      "//": "tfcapi-lint-ignore output/x",',
      '      "value": "${aws_instance.a.id}"',
      "    }",
      "  }",
      "}",
    ].join("\n");
    const body = parseOk(text);
    expect(body.attributes).toEqual([]);
    expect(body.jsonComments?.map((c) => [c.text, r(c.range)])).toEqual([["top comment", "2:3-2:22"]]);
    const out = body.blocks[0];
    expect(out.body.attributes.map((a) => a.name)).toEqual(["value"]);
    expect(out.body.jsonComments?.map((c) => [c.text, r(c.range)])).toEqual([["tfcapi-lint-ignore output/x", "5:7-5:42"]]);
  });

  it('keeps "//" inside expressions as an ordinary object key', () => {
    const body = parseOk('{"locals": {"m": {"//": "k"}}}');
    const m = attr(body.blocks[0].body, "m");
    expect(m.kind).toBe("ObjectCons");
    expect(body.blocks[0].body.jsonComments).toEqual([]);
  });

  it("leaves File.comments empty", () => {
    expect(parseJson('{"//": "x"}', "a.tf.json").file.comments).toEqual([]);
  });
});

describe("parseJson expressions", () => {
  it('parses "${var.x}" into a ScopeTraversal at the exact column', () => {
    const text = '{"output": {"o": {"value": "${var.x}"}}}';
    const v = attr(parseOk(text).blocks[0].body, "value");
    expect(v.kind).toBe("TemplateWrap");
    if (v.kind !== "TemplateWrap") return;
    expect(v.form).toBe("json");
    expect(r(v.range)).toBe("1:28-1:38");
    expect(v.wrapped.kind).toBe("ScopeTraversal");
    if (v.wrapped.kind !== "ScopeTraversal") return;
    expect(v.wrapped.traversal.map((t) => t.kind === "TraverseRoot" || t.kind === "TraverseAttr" ? t.name : "?")).toEqual(["var", "x"]);
    expect(r(v.wrapped.range)).toBe("1:31-1:36");
    expect(v.wrapped.range.start.offset).toBe(30);
  });

  it("maps positions through escapes exactly", () => {
    // `\n` and `\u00e9` decode to one unit each but take 2 and 6 source characters.
    const text = '{"locals": {"s": "a\\n\\u00e9 ${local.y} \\"q\\" ${b}"}}';
    const s = attr(parseOk(text).blocks[0].body, "s") as TemplateExpr;
    expect(s.kind).toBe("Template");
    expect(s.jsonValue).toBe('a\né ${local.y} "q" ${b}');
    expect(r(s.range)).toBe("1:18-1:51");
    const interps = s.parts.filter((p) => p.kind === "TemplateInterp");
    expect(interps.map((p) => r(p.range))).toEqual(["1:29-1:39", "1:46-1:50"]);
    const first = interps[0];
    if (first.kind !== "TemplateInterp") return;
    expect(r(first.expr.range)).toBe("1:31-1:38");
    expect(text.slice(first.expr.range.start.offset, first.expr.range.end.offset)).toBe("local.y");
    expect(s.parts[0].kind).toBe("TemplateLiteral");
    // The native parser splits literal text after each line break: "a\n" is the first part.
    expect(r(s.parts[0].range)).toBe("1:19-1:22");
  });

  it("maps JSON values to literal, tuple and object expressions", () => {
    const text = '{"locals": {"n": 1.50, "b": false, "z": null, "t": [1, "x"], "o": {"k-${a}": 2}}}';
    const locals = parseOk(text).blocks[0].body;
    expect(attr(locals, "n")).toMatchObject({ kind: "LiteralValue", type: "number", value: 1.5, raw: "1.50" });
    expect(attr(locals, "b")).toMatchObject({ kind: "LiteralValue", type: "bool", value: false });
    expect(attr(locals, "z")).toMatchObject({ kind: "LiteralValue", type: "null", value: null });
    const t = attr(locals, "t");
    expect(t.kind).toBe("TupleCons");
    if (t.kind === "TupleCons") expect(t.exprs.map((e) => [e.kind, r(e.range)])).toEqual([["LiteralValue", "1:53-1:54"], ["Template", "1:56-1:59"]]);
    const o = attr(locals, "o");
    expect(o.kind).toBe("ObjectCons");
    if (o.kind !== "ObjectCons") return;
    expect(r(o.range)).toBe("1:67-1:80");
    const item = o.items[0];
    expect(item.keyIsBareIdent).toBe(false);
    expect(item.key.kind).toBe("Template");
    expect(r(item.key.range)).toBe("1:68-1:76");
    expect(r(item.range)).toBe("1:68-1:79");
  });

  it("parses variable type as an expression, not a template", () => {
    const text = '{"variable": {"nodes": {"type": "list(object({ name = string }))"}}}';
    const t = attr(parseOk(text).blocks[0].body, "type");
    expect(t.kind).toBe("FunctionCall");
    if (t.kind !== "FunctionCall") return;
    expect(t.name).toBe("list");
    expect(r(t.range)).toBe("1:34-1:65");
    expect(t.args[0].kind).toBe("FunctionCall");
  });

  it("parses ignore_changes, replace_triggered_by, depends_on and provider entries as expressions", () => {
    const text = JSON.stringify({
      resource: {
        aws_instance: {
          a: {
            provider: "aws.west",
            depends_on: ["aws_iam_role.r"],
            lifecycle: { ignore_changes: ["tags", "user_data"], replace_triggered_by: ["terraform_data.v"] },
          },
        },
      },
    });
    const res = parseOk(text).blocks[0];
    expect(attr(res.body, "provider")).toMatchObject({ kind: "ScopeTraversal" });
    const dep = attr(res.body, "depends_on");
    expect(dep.kind === "TupleCons" && dep.exprs.map((e) => e.kind)).toEqual(["ScopeTraversal"]);
    const ic = attr(res.body.blocks[0].body, "ignore_changes");
    expect(ic.kind === "TupleCons" && ic.exprs.map((e) => [e.kind, e.range.start.offset])).toEqual([
      ["ScopeTraversal", text.indexOf('"tags"') + 1],
      ["ScopeTraversal", text.indexOf('"user_data"') + 1],
    ]);
    expect(attr(res.body.blocks[0].body, "replace_triggered_by")).toMatchObject({ kind: "TupleCons" });
  });

  it("reads module providers keys and values as expressions", () => {
    const text = '{"module": {"m": {"source": "./m", "providers": {"aws": "aws.west"}}}}';
    const p = attr(parseOk(text).blocks[0].body, "providers");
    expect(p.kind).toBe("ObjectCons");
    if (p.kind !== "ObjectCons") return;
    expect(p.items[0].key.kind).toBe("ScopeTraversal");
    expect(p.items[0].keyIsBareIdent).toBe(true);
    expect(p.items[0].value.kind).toBe("ScopeTraversal");
    expect(r(p.items[0].value.range)).toBe("1:58-1:66");
  });

  it("keeps literal-only arguments verbatim (variable default, module source)", () => {
    const text = '{"variable": {"v": {"default": "${not.parsed}", "description": "%{ x"}}}';
    const body = parseOk(text).blocks[0].body;
    const d = attr(body, "default") as TemplateExpr;
    expect(d.kind).toBe("Template");
    expect(d.parts).toEqual([{ kind: "TemplateLiteral", value: "${not.parsed}", range: d.parts[0].range }]);
    expect(r(d.parts[0].range)).toBe("1:33-1:46");
    expect(d.jsonValue).toBe("${not.parsed}");
  });
});

describe("parseJson Terraform argument modes", () => {
  it("reads required_providers literally, except configuration_aliases", () => {
    const text = JSON.stringify({
      terraform: {
        required_providers: {
          aws: { source: "hashicorp/aws", version: "~> 5.0", configuration_aliases: ["aws.west"] },
          legacy: "~> 1.0",
        },
      },
    });
    const rp = parseOk(text).blocks[0].body.blocks[0].body;
    const aws = attr(rp, "aws");
    expect(aws.kind).toBe("ObjectCons");
    if (aws.kind !== "ObjectCons") return;
    expect(aws.items.map((i) => [i.key.kind, i.value.kind])).toEqual([
      ["Template", "Template"],
      ["Template", "Template"],
      ["Template", "TupleCons"],
    ]);
    const aliases = aws.items[2].value;
    expect(aliases.kind === "TupleCons" && aliases.exprs[0].kind).toBe("ScopeTraversal");
    expect(attr(rp, "legacy")).toMatchObject({ kind: "Template", jsonValue: "~> 1.0" });
  });

  it("parses moved addresses and provisioner keywords as expressions", () => {
    const text = JSON.stringify({
      moved: { from: "aws_instance.old", to: "aws_instance.new[0]" },
      resource: { null_resource: { x: { provisioner: { "local-exec": { command: "echo ${self.id}", when: "destroy" } } } } },
    });
    const body = parseOk(text);
    expect(attr(body.blocks[0].body, "from")).toMatchObject({ kind: "ScopeTraversal" });
    expect(attr(body.blocks[0].body, "to")).toMatchObject({ kind: "ScopeTraversal" });
    const prov = body.blocks[1].body.blocks[0].body;
    expect(attr(prov, "when")).toMatchObject({ kind: "ScopeTraversal" });
    const cmd = attr(prov, "command");
    expect(cmd.kind).toBe("Template");
    if (cmd.kind === "Template") expect(cmd.parts.map((p) => p.kind)).toEqual(["TemplateLiteral", "TemplateInterp"]);
  });

  it("keeps backend settings literal and template keys parsed", () => {
    const text = '{"terraform": {"backend": {"s3": {"key": "${not.a.ref}"}}}, "locals": {"m": {"k-${var.env}": 1, "$${x}": 2}}}';
    const body = parseOk(text);
    const key = attr(body.blocks[0].body.blocks[0].body, "key");
    expect(key).toMatchObject({ kind: "Template", jsonValue: "${not.a.ref}" });
    const m = attr(body.blocks[1].body, "m");
    expect(m.kind).toBe("ObjectCons");
    if (m.kind !== "ObjectCons") return;
    const k0 = m.items[0].key;
    expect(k0.kind === "Template" && k0.parts.map((p) => p.kind)).toEqual(["TemplateLiteral", "TemplateInterp"]);
    const k1 = m.items[1].key;
    // `$${` is an escaped `${`: all literal text.
    expect(k1.kind === "Template" && k1.parts.map((p) => (p.kind === "TemplateLiteral" ? p.value : p.kind)).join("")).toBe("${x}");
  });

  it("reads a label-level \"//\" as a label, as HCL does", () => {
    const body = parseOk('{"variable": {"//": {"type": "string"}}}');
    expect(body.blocks.map(blockSummary)).toEqual(["variable //"]);
  });

  it("collects comments from every object of a root array", () => {
    const body = parseOk('[{"//": "one"}, {"//": "two", "locals": {}}]');
    expect(body.jsonComments?.map((c) => [c.text, r(c.range)])).toEqual([
      ["one", "1:3-1:14"],
      ["two", "1:18-1:29"],
    ]);
    expect(body.blocks.map(blockSummary)).toEqual(["locals"]);
  });

  it("keeps a non-string comment's JSON text", () => {
    const body = parseOk('{"resource": {"t": {"n": {"//": {"metadata": {"path": "a/b"}}}}}}');
    expect(body.blocks[0].body.jsonComments?.map((c) => c.text)).toEqual(['{"metadata": {"path": "a/b"}}']);
  });
});

describe("parseJson plain strings", () => {
  it("splits text after each line break like the native parser, with exact ranges", () => {
    // `\n` and `\u000a` both decode to a line break; `\\n` is a backslash and "n".
    const text = '{"locals": {"s": "ab\\ncd\\u000a\\\\n"}}';
    const s = attr(parseOk(text).blocks[0].body, "s") as TemplateExpr;
    expect(s.jsonValue).toBe("ab\ncd\n\\n");
    expect(s.parts.map((p) => [p.kind === "TemplateLiteral" && p.value, r(p.range)])).toEqual([
      ["ab\n", "1:19-1:23"],
      ["cd\n", "1:23-1:31"],
      ["\\n", "1:31-1:34"],
    ]);
  });

  it("gives the empty string one empty part", () => {
    const s = attr(parseOk('{"locals": {"s": ""}}').blocks[0].body, "s") as TemplateExpr;
    expect(s.parts.map((p) => r(p.range))).toEqual(["1:19-1:19"]);
    expect(r(s.range)).toBe("1:18-1:20");
  });
});

describe("parseJson diagnostics", () => {
  it("reports JSON syntax errors with exact ranges and keeps what it could read", () => {
    const text = '{\n  "variable": {"a": {}},\n  "output": {"o": {"value": tru}}\n}';
    expect(diags(text)).toEqual(["Invalid JSON keyword @ 3:29-3:32"]);
    const res = parseJson(text, "main.tf.json");
    expect(res.file.body.blocks.map(blockSummary)).toEqual(["variable a", "output o"]);
    expect(attr(res.file.body.blocks[1].body, "value").kind).toBe("Invalid");
  });

  it("rejects a root that is not an object", () => {
    expect(diags('"x"')).toEqual(["Root value must be object @ 1:1-1:4"]);
    expect(diags("")).toEqual(["Missing value @ 1:1-1:1"]);
  });

  it("rejects blocks whose value has the wrong type", () => {
    expect(diags('{"variable": "x"}')).toEqual(["Incorrect JSON value type @ 1:14-1:17"]);
    expect(diags('{"variable": {"v": 1}}')).toEqual(["Incorrect JSON value type @ 1:20-1:21"]);
    expect(diags('{"resource": {"t": ["x"]}}')).toEqual(["Incorrect JSON value type @ 1:21-1:24"]);
    expect(diags("[1]")).toEqual(["Incorrect JSON value type @ 1:2-1:3"]);
  });

  it("requires at least one label key for labelled blocks", () => {
    expect(diags('{"variable": {}}')).toEqual(["Missing block label @ 1:14-1:15"]);
    expect(diags('{"resource": {"aws_instance": []}}')).toEqual(["Missing block label @ 1:31-1:32"]);
    expect(diags('{"variable": null, "locals": {}}')).toEqual([]);
  });

  it("reports an argument set twice where Terraform knows all arguments", () => {
    const text = '{"variable": {"v": {"type": "string", "type": "number"}}}';
    expect(diags(text)).toEqual(["Duplicate argument @ 1:39-1:45"]);
    const body = parseJson(text, "main.tf.json").file.body.blocks[0].body;
    expect(body.attributes.map((a) => r(a.nameRange))).toEqual(["1:21-1:27"]);
  });

  it("reports a local defined twice", () => {
    expect(diags('{"locals": {"a": 1, "//": "x", "a": 2}}')).toEqual(["Duplicate argument @ 1:32-1:35"]);
  });

  it("allows repeated keys in resource bodies (nested blocks of the provider)", () => {
    const body = parseOk('{"resource": {"t": {"n": {"setting": {"a": 1}, "setting": {"a": 2}}}}}');
    expect(body.blocks[0].body.attributes.map((a) => a.name)).toEqual(["setting", "setting"]);
  });

  it("reports template errors inside strings at their real position", () => {
    expect(diags('{"locals": {"a": "ok ${var.}"}}')).toEqual(["Invalid attribute name @ 1:28-1:29"]);
    // Same columns when the text before the error holds an escape: `\n` is
    // two source characters for one decoded one.
    expect(diags('{"locals": {"a": "\\n ${var.}"}}')).toEqual(["Invalid attribute name @ 1:28-1:29"]);
    expect(diags('{"locals": {"a": "%{ if x }"}}')).toEqual(["Unexpected end of template @ 1:28-1:28"]);
  });

  it("reports expression errors in expression-only strings", () => {
    expect(diags('{"variable": {"v": {"type": "list(string"}}}')).toEqual(["Unterminated function call @ 1:30-1:35"]);
  });
});

describe("parseJson source handling", () => {
  it("rejects a BOM as Terraform does, and still reads the file with positions counted without it", () => {
    const res = parseJson('\ufeff{"locals": {"a": 1}}', "main.tf.json");
    expect(res.diagnostics.map((d) => [d.summary, r(d.subject), d.code])).toEqual([["Invalid start of value", "1:1-1:1", "json-syntax"]]);
    expect(res.file.text.startsWith("{")).toBe(true);
    expect(r(res.file.body.blocks[0].typeRange)).toBe("1:2-1:10");
  });

  it("handles CRLF line endings", () => {
    const res = parseJson('{\r\n  "locals": {\r\n    "a": "${var.x}"\r\n  }\r\n}\r\n', "main.tf.json");
    expect(res.diagnostics).toEqual([]);
    const a = res.file.body.blocks[0].body.attributes[0];
    expect(r(a.nameRange)).toBe("3:5-3:8");
    expect(r(a.expr.range)).toBe("3:10-3:20");
    expect(res.file.lineStarts).toEqual([0, 3, 18, 39, 44, 47]);
  });

  it("is what parseHcl uses for .tf.json and .tofu.json files", () => {
    for (const name of ["main.tf.json", "main.tofu.json"]) {
      const res = parseHcl('{"variable": {"v": {}}}', name);
      expect(res.file.syntax).toBe("json");
      expect(res.file.body.blocks.map(blockSummary)).toEqual(["variable v"]);
    }
  });
});

import { describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { parseTypeExpr, parseTypeText, typeAccepts, typeToString, type TypeNode, type TypeParse } from "../../src/terraform/types.js";

function t(text: string): TypeNode {
  const r = parseTypeText(text);
  if (!r.ok) throw new Error(`did not parse: ${text}: ${r.error}`);
  return r.type;
}

describe("parseTypeText", () => {
  it.each([
    ["string", "string"],
    ["number", "number"],
    ["bool", "bool"],
    ["any", "any"],
    ["list(string)", "list(string)"],
    ["set(number)", "set(number)"],
    ["map(string)", "map(string)"],
    ["map(list(string))", "map(list(string))"],
    ["list", "list(any)"],
    ["map", "map(any)"],
    ["set", "set(any)"],
    ["tuple([string, number, bool])", "tuple([string, number, bool])"],
    ["tuple([])", "tuple([])"],
    ["object({host=string, port=number})", "object({host=string, port=number})"],
    ["object({ host : string, port : number })", "object({host=string, port=number})"],
    ['object({"captf.io/name" = string})', 'object({"captf.io/name"=string})'],
    ["object({a=optional(string), b=optional(number, 3)})", "object({a=optional(string), b=optional(number)})"],
    ["object({a=optional(list(string), [\"x\", \"y\"]), b=optional(object({c=bool}), { c = true })})", "object({a=optional(list(string)), b=optional(object({c=bool}))})"],
    ["object({\n  enabled = bool\n  min     = number\n  max     = number\n})", "object({enabled=bool, min=number, max=number})"],
    ["object({\n  a = string,\n  b = number,\n})", "object({a=string, b=number})"],
    ["  list( object({ type = string, address = string }) )  ", "list(object({type=string, address=string}))"],
  ])("parses %j", (text, canonical) => {
    expect(typeToString(t(text))).toBe(canonical);
  });

  it("records optional and default flags", () => {
    const ty = t("object({a=string, b=optional(number), c=optional(bool, false)})");
    expect(ty.kind).toBe("object");
    if (ty.kind !== "object") return;
    expect([...ty.attributes].map(([k, a]) => [k, a.optional, a.hasDefault])).toEqual([
      ["a", false, false],
      ["b", true, false],
      ["c", true, true],
    ]);
  });

  it.each([
    ["strin", '"strin" is not a type'],
    ["list(string", "unexpected end of type"],
    ["map(string, number)", 'expected ")" but found ","'],
    ["optional(string)", "optional(...) is only allowed for an attribute of object(...)"],
    ["object({a=optional(optional(string))})", "optional(...) cannot be nested"],
    ["object({a=string a2=number})", 'expected ",", a newline or "}" in object({...})'],
    ["object({a=string, a=number})", 'attribute "a" is declared twice'],
    ["tuple(string)", 'expected "[" but found "string"'],
    ['"string"', "quoted type constraints are no longer accepted; write string without quotes"],
    ["list(string) x", 'unexpected "x" after the type'],
    ["foo(string)", '"foo" is not a type constructor'],
    ["", "unexpected end of type"],
  ])("rejects %j with a clear error", (text, error) => {
    const r = parseTypeText(text);
    expect(r).toEqual({ ok: false, error, range: null });
  });
});

describe("typeAccepts (rules.md input/type)", () => {
  const cases: [declared: string, contract: string, accepts: boolean][] = [
    // any on either side
    ["any", "object({enabled=bool, min=number, max=number})", true],
    ["object({name=string, namespace=string})", "any", true],
    ["list(any)", "list(string)", true],
    ["map", "map(string)", true],
    // primitives match only themselves
    ["string", "string", true],
    ["number", "number", true],
    ["bool", "bool", true],
    ["string", "number", false],
    ["number", "string", false],
    ["bool", "string", false],
    ["string", "list(string)", false],
    ["list(string)", "string", false],
    // list and set interconvert
    ["list(string)", "list(string)", true],
    ["set(string)", "list(string)", true],
    ["list(string)", "set(string)", true],
    ["list(number)", "list(string)", false],
    // declared list/set accepts a contract tuple whose elements all fit
    ["list(string)", "tuple([string, string])", true],
    ["set(string)", "tuple([string])", true],
    ["list(string)", "tuple([string, number])", false],
    ["list(string)", "tuple([])", true],
    // declared tuple never accepts list/set
    ["tuple([string])", "list(string)", false],
    ["tuple([string])", "set(string)", false],
    ["tuple([string, number])", "tuple([string, number])", true],
    ["tuple([string, number])", "tuple([string])", false],
    // maps element-wise
    ["map(string)", "map(string)", true],
    ["map(number)", "map(string)", false],
    ["map(any)", "map(string)", true],
    ["map(string)", "list(string)", false],
    ["list(string)", "map(string)", false],
    // objects
    ["object({host=string, port=number})", "object({host=string, port=number})", true],
    ["object({host=string})", "object({host=string, port=number})", true],
    ["object({host=string, port=number, tls=bool})", "object({host=string, port=number})", false],
    ["object({host=string, port=number, tls=optional(bool)})", "object({host=string, port=number})", true],
    ["object({host=string, port=string})", "object({host=string, port=number})", false],
    ["object({host=string, port=optional(string)})", "object({host=string, port=number})", false],
    [
      "object({pods=optional(list(string)), services=optional(list(string)), service_domain=optional(string), api_server_port=optional(number)})",
      "object({pods=list(string), services=list(string), service_domain=string, api_server_port=number})",
      true,
    ],
    ["object({enabled=bool, min=number, max=number})", "object({enabled=bool, min=number, max=number})", true],
    ["object({enabled=string, min=number, max=number})", "object({enabled=bool, min=number, max=number})", false],
    ["object({a=string})", "map(string)", false],
    ["map(string)", "object({a=string, b=string})", true],
    ["map(string)", "object({a=string, b=number})", false],
    [
      "list(object({type=string, address=string}))",
      "list(object({type=string, address=string}))",
      true,
    ],
  ];
  it.each(cases)("declared %s accepts contract %s: %s", (declared, contract, accepts) => {
    expect(typeAccepts(t(declared), t(contract))).toBe(accepts);
  });
});

describe("parseTypeExpr", () => {
  function typeOf(src: string, filename = "variables.tf") {
    const r = parseHcl(src, filename);
    expect(r.diagnostics).toEqual([]);
    const v = r.file.body.blocks[0]!;
    const attr = v.body.attributes.find((a) => a.name === "type")!;
    return parseTypeExpr(attr.expr);
  }
  const show = (r: TypeParse) => (r.ok ? typeToString(r.type) : `error ${r.error} at ${r.range ? `${r.range.start.line}:${r.range.start.column}-${r.range.end.line}:${r.range.end.column}` : "-"}`);

  it.each([
    ["type = string", "string"],
    ["type = list", "list(any)"],
    ["type = map(object({ name = string, tags = optional(map(string), {}) }))", "map(object({name=string, tags=optional(map(string))}))"],
    ['type = object({ "captf.io/cluster" = string })', 'object({"captf.io/cluster"=string})'],
    ["type = tuple([string, number])", "tuple([string, number])"],
    ["type = object({\n    enabled = bool\n    min     = number\n  })", "object({enabled=bool, min=number})"],
    ["type = (list(string))", "list(string)"],
  ])("parses native %j", (body, expected) => {
    expect(show(typeOf(`variable "x" {\n  ${body}\n}\n`))).toBe(expected);
  });

  it.each([
    ['type = "string"', "error quoted type constraints are no longer accepted; write string without quotes at 2:10-2:18"],
    ["type = strin", 'error "strin" is not a type; use string, number, bool, any, or a type constructor at 2:10-2:15'],
    ["type = map(string, number)", "error map(...) takes exactly one element type at 2:10-2:29"],
    ["type = optional(string)", "error optional(...) is only allowed for an attribute of object(...) at 2:10-2:26"],
    ["type = object({ a = optional(string, 1, 2) })", "error optional(...) takes a type and an optional default value at 2:23-2:45"],
    ["type = tuple(string)", "error tuple(...) takes a list of element types, e.g. tuple([string, number]) at 2:10-2:23"],
    ["type = frob(string)", 'error "frob" is not a type constructor at 2:10-2:14'],
    ["type = var.x", "error not a valid type constraint at 2:10-2:15"],
  ])("rejects native %j", (body, expected) => {
    expect(show(typeOf(`variable "x" {\n  ${body}\n}\n`))).toBe(expected);
  });

  it("parses JSON-syntax types from their strings", () => {
    const src = '{"variable": {"x": {"type": "object({enabled = bool, max = optional(number, 3)})"}}}';
    expect(show(typeOf(src, "variables.tf.json"))).toBe("object({enabled=bool, max=optional(number)})");
    const bad = '{"variable": {"x": {"type": "list(strin)"}}}';
    const r = typeOf(bad, "variables.tf.json");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe('"strin" is not a type; use string, number, bool, any, or a type constructor');
  });
});

import { describe, expect, it } from "vitest";
import { parseTypeText, typeAccepts, typeToString, type TypeNode } from "../../src/terraform/types.js";

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
    ['"string"', "quoted type constraints are not accepted; write string without quotes"],
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

/**
 * readType against what HashiCorp's type-constraint reader
 * (hcl/ext/typeexpr TypeConstraintWithDefaults) gives for the same text:
 * the type, written here with `?` after optional attribute names and
 * attributes sorted, or null when it reports an error (the schema's `{}`).
 * The expected values were taken from that reader during development.
 */
import { describe, expect, it } from "vitest";
import { parseExpressionAt } from "../../src/hcl/parser.js";
import { readType, type TypeConstraint } from "../../src/contract/variables-schema.js";

function show(t: TypeConstraint): string {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return `${t.kind}(${show(t.element)})`;
    case "tuple":
      return `tuple([${t.elements.map(show).join(",")}])`;
    case "object":
      return `object({${[...t.attributes.keys()]
        .sort()
        .map((k) => `${k}${t.attributes.get(k)!.optional ? "?" : ""}=${show(t.attributes.get(k)!.type)}`)
        .join(",")}})`;
    default:
      return t.kind;
  }
}

describe("readType", () => {
  it.each([
    ["string", "string"],
    ["number", "number"],
    ["bool", "bool"],
    ["any", "any"],
    ["list", null],
    ["map", null],
    ["set", null],
    ["object", null],
    ["tuple", null],
    ["list(string)", "list(string)"],
    ["set(number)", "set(number)"],
    ["map(bool)", "map(bool)"],
    ["list(any)", "list(any)"],
    ["list(list(map(number)))", "list(list(map(number)))"],
    ["tuple([])", "tuple([])"],
    ["tuple([string, number, bool])", "tuple([string,number,bool])"],
    ["tuple(string)", null],
    ["object({})", "object({})"],
    ["object({a = string})", "object({a=string})"],
    ["object({a = string, b = optional(number)})", "object({a=string,b?=number})"],
    ["object({a = optional(string, \"x\")})", "object({a?=string})"],
    ["object({a = optional(number, \"x\")})", null],
    ["object({a = optional(number, \"5\")})", "object({a?=number})"],
    ["object({a = optional(bool, \"true\")})", "object({a?=bool})"],
    ["object({a = optional(bool, 1)})", null],
    ["object({a = optional(string, var.x)})", null],
    ["object({a = optional(string, upper(\"x\"))})", null],
    ["object({a = optional(list(string), [])})", "object({a?=list(string)})"],
    ["object({a = optional(list(string), [1, 2])})", "object({a?=list(string)})"],
    ["object({a = optional(list(number), [\"x\"])})", null],
    ["object({a = optional(object({b = string}), {})})", null],
    ["object({a = optional(object({b = optional(string)}), {})})", "object({a?=object({b?=string})})"],
    ["object({a = optional(map(string), {x = 1})})", "object({a?=map(string)})"],
    ["object({a = optional(string, null)})", "object({a?=string})"],
    ["object({a = optional(string, \"x\", \"y\")})", null],
    ["object({a = optional()})", null],
    ["object({\"a\" = string})", null],
    ["object({(a) = string})", null],
    ["object({a.b = string})", null],
    ["object({true = string})", "object({true=string})"],
    ["object({null = string, false = bool})", "object({false=bool,null=string})"],
    ["object({a = string, a = number})", "object({a=number})"],
    ["object({a = optional(string), a = number})", "object({a?=number})"],
    ["object({a: string})", "object({a=string})"],
    ["(string)", null],
    ["list((string))", null],
    ["\"string\"", null],
    ["\"${string}\"", null],
    ["optional(string)", null],
    ["list(optional(string))", null],
    ["object({a = optional(optional(string))})", null],
    ["string(x)", null],
    ["any(x)", null],
    ["list(string, number)", null],
    ["list()", null],
    ["foo", null],
    ["foo(string)", null],
    ["object([string])", null],
    ["tuple({a = string})", null],
    ["map(string)[0]", null],
    ["object({a = optional(number, 1 + 2)})", "object({a?=number})"],
    ["object({a = optional(string, \"${1}\")})", "object({a?=string})"],
    ["object({a = optional(tuple([string, number]), [\"a\", 1])})", "object({a?=tuple([string,number])})"],
    ["object({a = optional(tuple([string, number]), [\"a\"])})", null],
    ["object({a = optional(number, \"1e3\")})", "object({a?=number})"],
    ["object({a = optional(number, \" 5 \")})", null],
    ["object({a = optional(object({b = string}), {b = \"x\", c = 1})})", "object({a?=object({b=string})})"],
    ["object({a = optional(set(string), [\"a\", \"a\"])})", "object({a?=set(string)})"],
    ["object({a = optional(string, true)})", "object({a?=string})"],
    ["object({a = optional(string, [])})", null],
    ["list(object({ id = string, zone = optional(string) }))", "list(object({id=string,zone?=string}))"],
    ["object({ -a = string })", null],
    ["object({ a-b = string })", "object({a-b=string})"],
    ["list(string...)", "list(string)"],
    ["object({a = optional(number, \"+5\")})", "object({a?=number})"],
    ["object({a = optional(number, \"-5\")})", "object({a?=number})"],
    ["object({a = optional(number, \".5\")})", "object({a?=number})"],
    ["object({a = optional(number, \"5.\")})", "object({a?=number})"],
    ["object({a = optional(number, \"1e3\")})", "object({a?=number})"],
    ["object({a = optional(number, \"1E+3\")})", "object({a?=number})"],
    ["object({a = optional(number, \"inf\")})", "object({a?=number})"],
    ["object({a = optional(number, \"Inf\")})", "object({a?=number})"],
    ["object({a = optional(number, \"0x10\")})", null],
    ["object({a = optional(number, \"1_000\")})", null],
    ["object({a = optional(number, \"5 \")})", null],
    ["object({a = optional(number, \"\")})", null],
    ["object({a = optional(number, \"-\")})", null],
    ["object({a = optional(number, \"00\")})", "object({a?=number})"],
    ["object({a = optional(number, \"1e\")})", null],
    ["object({a = string\nb = number})", "object({a=string,b=number})"],
  ])("%s", (text, want) => {
    const { expr, diagnostics } = parseExpressionAt(text, "type.tf");
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const t = readType(expr);
    expect(t === null ? null : show(t)).toBe(want);
  });
});

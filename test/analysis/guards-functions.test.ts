/**
 * What a condition tells in each branch (src/analysis/guards.ts), and what
 * a function does to its arguments (src/analysis/functions.ts), on parsed
 * expressions.
 */
import { describe, expect, it } from "vitest";
import type { Expression, FunctionCall } from "../../src/hcl/ast.js";
import { parseExpressionAt } from "../../src/hcl/parser.js";
import { expressionKey } from "../../src/hcl/walk.js";
import { factsUnder } from "../../src/analysis/guards.js";
import { argumentsInResult, endsValue } from "../../src/analysis/functions.js";

function expr(text: string): Expression {
  const { expr, diagnostics } = parseExpressionAt(text, "test.tf");
  expect(diagnostics).toEqual([]);
  return expr;
}

function facts(cond: string, holds: boolean): { nonNull: string[]; succeeds: string[] } {
  const f = factsUnder(expr(cond), holds);
  return { nonNull: [...f.nonNull].sort(), succeeds: [...f.succeeds].sort() };
}

function call(text: string): FunctionCall {
  const e = expr(text);
  if (e.kind !== "FunctionCall") throw new Error(`not a call: ${text}`);
  return e;
}

describe("factsUnder", () => {
  it("x != null: x is not null where it holds, nothing where it does not", () => {
    expect(facts("local.worst != null", true)).toEqual({ nonNull: ["local.worst"], succeeds: [] });
    expect(facts("local.worst != null", false)).toEqual({ nonNull: [], succeeds: [] });
  });

  it("x == null: x is not null in the false branch; null on the left works too", () => {
    expect(facts("var.zone == null", false)).toEqual({ nonNull: ["var.zone"], succeeds: [] });
    expect(facts("null == var.zone", false)).toEqual({ nonNull: ["var.zone"], succeeds: [] });
    expect(facts("var.zone == null", true)).toEqual({ nonNull: [], succeeds: [] });
  });

  it("can(x): evaluating x succeeds where it holds", () => {
    expect(facts("can(local.items[0])", true)).toEqual({ nonNull: [], succeeds: ["local.items[0]"] });
    expect(facts("can(local.items[0])", false)).toEqual({ nonNull: [], succeeds: [] });
  });

  it("length(x) > 0 and its spellings: x is not null, not empty, x[0] succeeds", () => {
    const nonEmpty = { nonNull: ["var.zones"], succeeds: ["var.zones", "var.zones[0]"] };
    expect(facts("length(var.zones) > 0", true)).toEqual(nonEmpty);
    expect(facts("length(var.zones) >= 1", true)).toEqual(nonEmpty);
    expect(facts("length(var.zones) != 0", true)).toEqual(nonEmpty);
    expect(facts("0 < length(var.zones)", true)).toEqual(nonEmpty);
    expect(facts("length(var.zones) == 0", false)).toEqual(nonEmpty);
    expect(facts("length(var.zones) > 0", false)).toEqual({ nonNull: [], succeeds: [] });
    expect(facts("length(var.zones) > 1", false)).toEqual({ nonNull: [], succeeds: [] });
    expect(facts("length(var.zones) < 1", false)).toEqual(nonEmpty);
    expect(facts("length(var.zones) < 0", false)).toEqual({ nonNull: [], succeeds: [] });
  });

  it("try(x, null) != null: x succeeds and is not null", () => {
    expect(facts("try(local.cfg.zone, null) != null", true)).toEqual({
      nonNull: ["local.cfg.zone", "try(local.cfg.zone,null)"],
      succeeds: ["local.cfg.zone"],
    });
    // A non-null fallback may be what passed the test.
    expect(facts('try(local.cfg.zone, "a") != null', true)).toEqual({ nonNull: ['try(local.cfg.zone,"a")'], succeeds: [] });
  });

  it("&& where it holds, || where it does not, and ! flips", () => {
    expect(facts("var.a != null && var.b != null", true)).toEqual({ nonNull: ["var.a", "var.b"], succeeds: [] });
    expect(facts("var.a != null && var.b != null", false)).toEqual({ nonNull: [], succeeds: [] });
    expect(facts("var.a == null || var.b == null", false)).toEqual({ nonNull: ["var.a", "var.b"], succeeds: [] });
    expect(facts("!(var.a == null)", true)).toEqual({ nonNull: ["var.a"], succeeds: [] });
  });
});

describe("expressionKey", () => {
  it("is the same for the same expression written differently, different otherwise", () => {
    expect(expressionKey(expr("(var.a.b)"))).toBe(expressionKey(expr("var.a.b")));
    expect(expressionKey(expr("length( var.x )>0"))).toBe(expressionKey(expr("length(var.x) > 0")));
    expect(expressionKey(expr("var.a && var.b"))).not.toBe(expressionKey(expr("var.b && var.a")));
    expect(expressionKey(expr("[for x in var.l : x]"))).toBeNull();
  });
});

describe("functions", () => {
  it("hashes and digests end a value", () => {
    for (const name of ["sha1", "sha256", "sha512", "md5", "base64sha256", "base64sha512", "uuidv5", "bcrypt"]) {
      expect(endsValue(call(`${name}(var.x)`))).toBe(true);
      expect(argumentsInResult(call(`${name}(var.x)`))).toEqual([]);
    }
    for (const name of ["filesha1", "filesha256", "filesha512", "filemd5", "filebase64sha256", "filebase64sha512"]) {
      expect(endsValue(call(`${name}(var.path)`))).toBe(true);
    }
    expect(endsValue(call("upper(var.x)"))).toBe(false);
  });

  it("replace() transforms its first argument and inserts its third", () => {
    const c = call('replace(var.format, "{v}", local.v)');
    expect(argumentsInResult(c).map((a) => expressionKey(a))).toEqual(["var.format", "local.v"]);
    expect(argumentsInResult(c, true).map((a) => expressionKey(a))).toEqual(["local.v"]);
  });

  it("split() and regex() transform their second argument; the pattern or separator does not flow", () => {
    expect(argumentsInResult(call('split("+", var.v)')).map((a) => expressionKey(a))).toEqual(["var.v"]);
    expect(argumentsInResult(call('regex("^v(.*)", var.v)'), true)).toEqual([]);
    expect(argumentsInResult(call('trimprefix(var.v, var.prefix)')).map((a) => expressionKey(a))).toEqual(["var.v"]);
  });

  it("an unknown function passes every argument on", () => {
    expect(argumentsInResult(call("format(var.f, var.a, var.b)")).map((a) => expressionKey(a))).toEqual(["var.f", "var.a", "var.b"]);
  });
});

import { describe, expect, it } from "vitest";
import { type LintOptions } from "../../src/lint/engine.js";
import { lintModule } from "../helpers/lint.js";
import { parseDirective } from "../../src/lint/suppress.js";
import { brief, DEFAULT_RULE, MODULE_RULE, tree, VARIABLE_RULE } from "../cli/helpers.js";

const RULES = [DEFAULT_RULE, VARIABLE_RULE, MODULE_RULE];
const NOW = new Date("2026-06-15T12:00:00Z");

function lint(dir: string, opts: LintOptions = {}) {
  const out = lintModule(dir, { role: "machine", ruleSet: RULES, now: NOW, ...opts });
  if (out.kind !== "report") throw new Error(out.message);
  return out.report;
}

describe("parseDirective", () => {
  it("reads ids, expiry and reason", () => {
    expect(parseDirective("# tfcapi-lint-ignore: input/default, input/reserved exp:2027-01-31 -- migration")).toEqual({
      fileLevel: false,
      ruleIds: ["input/default", "input/reserved"],
      expires: "2027-01-31",
      reason: "migration",
    });
    expect(parseDirective("/* tfcapi-lint-ignore-file: output/health */")).toEqual({ fileLevel: true, ruleIds: ["output/health"], expires: null, reason: "" });
    expect(parseDirective("// just a comment about tfcapi-lint-ignore: x")).toBeNull();
  });
});

describe("inline suppressions", () => {
  it("same-line comment covers the innermost attribute starting on that line", () => {
    const dir = tree({
      "main.tf": [
        'variable "a" {',
        "  type    = number",
        "  default = 1 # tfcapi-lint-ignore: input/default -- kept for old callers",
        "}",
        'variable "b" {',
        "  type    = number",
        "  default = 2",
        "}",
        "",
      ].join("\n"),
    });
    const r = lint(dir, { only: ["input/default"] });
    expect(brief(r.findings)).toEqual(["input/default warning main.tf:3:3 suppressed", "input/default warning main.tf:7:3"]);
    expect(r.findings[0]!.suppressed).toEqual({ justification: "kept for old callers", file: "main.tf", line: 3 });
    expect(r.summary).toEqual({ error: 0, warning: 1, info: 0 });
  });

  it("comment on the line above a block covers the whole block", () => {
    const dir = tree({
      "main.tf": [
        "# tfcapi-lint-ignore: input/default,input/reserved",
        'variable "a" {',
        "  type    = number",
        "  default = 1",
        "}",
        "",
        'variable "b" {',
        "  default = 2",
        "}",
        "",
      ].join("\n"),
    });
    const r = lint(dir, { only: ["input/default", "input/reserved"] });
    expect(brief(r.findings)).toEqual([
      "input/reserved error main.tf:2:1 suppressed",
      "input/default warning main.tf:4:3 suppressed",
      "input/reserved error main.tf:7:1",
      "input/default warning main.tf:8:3",
    ]);
  });

  it("a blank line between the comment and the block breaks the link", () => {
    const dir = tree({
      "main.tf": ['# tfcapi-lint-ignore: input/reserved', "", 'variable "a" {', "  type = number", "}", ""].join("\n"),
    });
    const r = lint(dir, { only: ["input/reserved", "lint/unused-ignore"], reportUnusedIgnores: true });
    expect(brief(r.findings)).toEqual(["lint/unused-ignore warning main.tf:1:1", "input/reserved error main.tf:3:1"]);
  });

  it("file-level ignore covers the file and module-level findings", () => {
    const dir = tree({
      "main.tf": ['variable "a" {', "  default = 1", "}", "# tfcapi-lint-ignore-file: input/default, output/health -- generated", ""].join("\n"),
      "other.tf": ['variable "b" {', "  default = 2", "}", ""].join("\n"),
    });
    const r = lint(dir, { only: ["input/default", "output/health"] });
    expect(brief(r.findings)).toEqual([
      "output/health error :0:0 suppressed",
      "input/default warning main.tf:2:3 suppressed",
      "input/default warning other.tf:2:3",
    ]);
    expect(r.summary).toEqual({ error: 0, warning: 1, info: 0 });
  });

  it("JSON // property covers its block", () => {
    const dir = tree({
      "main.tf.json": JSON.stringify(
        {
          variable: {
            a: { "//": "tfcapi-lint-ignore: input/default -- json", type: "number", default: 1 },
            b: { type: "number", default: 2 },
          },
        },
        null,
        2,
      ),
    });
    const r = lint(dir, { only: ["input/default"] });
    expect(brief(r.findings)).toEqual(["input/default warning main.tf.json:6:7 suppressed", "input/default warning main.tf.json:10:7"]);
  });

  it("an expired ignore stops suppressing and is reported; a future one still works", () => {
    const dir = tree({
      "main.tf": [
        'variable "a" {',
        "  default = 1 # tfcapi-lint-ignore: input/default exp:2020-01-31 -- old",
        "}",
        'variable "b" {',
        "  default = 2 # tfcapi-lint-ignore: input/default exp:2999-12-31",
        "}",
        "",
      ].join("\n"),
    });
    const r = lint(dir, { only: ["input/default", "lint/expired-ignore"] });
    expect(brief(r.findings)).toEqual([
      "input/default warning main.tf:2:3",
      "lint/expired-ignore warning main.tf:2:15",
      "input/default warning main.tf:5:3 suppressed",
    ]);
    expect(r.findings[1]!.message).toContain("2020-01-31");
  });

  it("the expiry day itself still suppresses", () => {
    const dir = tree({ "main.tf": ['variable "a" {', "  default = 1 # tfcapi-lint-ignore: input/default exp:2026-06-15", "}", ""].join("\n") });
    expect(brief(lint(dir, { only: ["input/default", "lint/expired-ignore"] }).findings)).toEqual(["input/default warning main.tf:2:3 suppressed"]);
  });

  it("reports unused ignores only when asked, and unknown rule ids always", () => {
    const dir = tree({
      "main.tf": [
        "# tfcapi-lint-ignore: input/reserved",
        'variable "a" {',
        "  type = number",
        "}",
        "# tfcapi-lint-ignore: input/default, input/nope",
        'variable "b" {',
        "  type = number",
        "}",
        "",
      ].join("\n"),
    });
    const only = ["input/default", "input/reserved", "lint/unused-ignore", "lint/unknown-rule"];
    expect(brief(lint(dir, { only }).findings)).toEqual([
      "input/reserved error main.tf:2:1 suppressed",
      "lint/unknown-rule warning main.tf:5:1",
      "input/reserved error main.tf:6:1",
    ]);
    expect(brief(lint(dir, { only, reportUnusedIgnores: true }).findings)).toEqual([
      "input/reserved error main.tf:2:1 suppressed",
      "lint/unknown-rule warning main.tf:5:1",
      "lint/unused-ignore warning main.tf:5:1",
      "input/reserved error main.tf:6:1",
    ]);
  });

  it("--no-inline-config ignores every directive", () => {
    const dir = tree({ "main.tf": ['variable "a" {', "  default = 1 # tfcapi-lint-ignore: input/default, bogus/rule", "}", ""].join("\n") });
    expect(brief(lint(dir, { only: ["input/default", "lint/unknown-rule"], inlineConfig: false }).findings)).toEqual(["input/default warning main.tf:2:3"]);
  });

  it("/* */ and // comments work like #", () => {
    const dir = tree({
      "main.tf": [
        "/* tfcapi-lint-ignore: input/reserved -- block comment */",
        'variable "a" {',
        "  default = 1 // tfcapi-lint-ignore: input/default",
        "}",
        "",
      ].join("\n"),
    });
    expect(brief(lint(dir, { only: ["input/default", "input/reserved"] }).findings)).toEqual([
      "input/reserved error main.tf:2:1 suppressed",
      "input/default warning main.tf:3:3 suppressed",
    ]);
  });

  it("a JSON // in the top-level object covers the file", () => {
    const dir = tree({
      "main.tf.json": JSON.stringify({ "//": "tfcapi-lint-ignore: input/default", variable: { a: { default: 1 } } }, null, 2),
      "other.tf.json": JSON.stringify({ variable: { b: { default: 2 } } }, null, 2),
    });
    expect(brief(lint(dir, { only: ["input/default"] }).findings)).toEqual([
      "input/default warning main.tf.json:5:7 suppressed",
      "input/default warning other.tf.json:4:7",
    ]);
  });

  it("an end-of-line comment on a block's first line covers the block", () => {
    const dir = tree({
      "main.tf": ['variable "a" { # tfcapi-lint-ignore: input/default, input/reserved', "  type    = number", "  default = 1", "}", ""].join("\n"),
    });
    expect(brief(lint(dir, { only: ["input/default", "input/reserved"] }).findings)).toEqual([
      "input/reserved error main.tf:1:1 suppressed",
      "input/default warning main.tf:3:3 suppressed",
    ]);
  });
});

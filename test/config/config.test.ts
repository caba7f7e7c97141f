import { describe, expect, it } from "vitest";
import * as path from "node:path";
import { ConfigError, ConfigResolver, findConfigFile, parseConfigText, readConfigFile } from "../../src/config/load.js";
import { effectiveConfig, printEffective } from "../../src/config/effective.js";
import { globToRegExp, GlobSet } from "../../src/config/glob.js";
import { tree } from "../cli/helpers.js";

function configError(text: string): string {
  try {
    parseConfigText(text, "/x/.tfcapi-lint.hcl", ".tfcapi-lint.hcl");
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("config file parsing", () => {
  it("reads every setting with its origin", () => {
    const c = parseConfigText(
      ['role = "machinepool"', 'exclude = ["examples/**", "scratch"]', 'fail_on = "warning"', "max_warnings = 3", "", 'rule "input/default" {', '  severity = "off"', "}", ""].join("\n"),
      "/x/.tfcapi-lint.hcl",
      ".tfcapi-lint.hcl",
    );
    expect(c.role).toEqual({ value: "machinepool", origin: ".tfcapi-lint.hcl:1:8" });
    expect(c.exclude).toEqual({ value: ["examples/**", "scratch"], origin: ".tfcapi-lint.hcl:2:11" });
    expect(c.failOn).toEqual({ value: "warning", origin: ".tfcapi-lint.hcl:3:11" });
    expect(c.maxWarnings).toEqual({ value: 3, origin: ".tfcapi-lint.hcl:4:16" });
    expect([...c.rules]).toEqual([["input/default", { value: "off", origin: ".tfcapi-lint.hcl:7:14" }]]);
    expect(c.dir).toBe("/x");
  });

  it("names file:line:column of each bad setting", () => {
    expect(configError('role = "pool"\n')).toBe('.tfcapi-lint.hcl:1:8: role must be one of "cluster", "machine", "machinepool"');
    expect(configError('\nrule "input/default" {\n  severity = "loud"\n}\n')).toBe(
      '.tfcapi-lint.hcl:3:14: rule "input/default" severity must be one of "off", "info", "warning", "error"',
    );
    expect(configError('colour = "red"\n')).toBe('.tfcapi-lint.hcl:1:1: unknown setting "colour" (known: role, rule, exclude, fail_on, max_warnings, baseline, plugins)');
    expect(configError('rule "input/nope" {\n  severity = "off"\n}\n')).toBe('.tfcapi-lint.hcl:1:6: unknown rule "input/nope" (run "tfcapi-lint rules" for the list)');
    expect(configError("max_warnings = -1\n")).toBe(".tfcapi-lint.hcl:1:16: max_warnings must be 0 or more");
    expect(configError("max_warnings = 1.5\n")).toBe(".tfcapi-lint.hcl:1:16: max_warnings must be a whole number");
    expect(configError('rule "input/default" {\n  level = "off"\n}\n')).toBe(
      [
        '.tfcapi-lint.hcl:1:6: rule "input/default" needs a "severity" setting',
        '.tfcapi-lint.hcl:2:3: unknown setting "level" in rule "input/default" (only "severity" is allowed)',
      ].join("\n"),
    );
    expect(configError("role = var.role\n")).toBe(".tfcapi-lint.hcl:1:8: role must be a constant value (no references or functions)");
    expect(configError('exclude = ["ok", 3]\n')).toBe(".tfcapi-lint.hcl:1:18: exclude[1] must be of type string");
  });

  it("reports HCL syntax errors with their position", () => {
    expect(configError('role = "machine"\nrule "x" {\n')).toMatch(/^\.tfcapi-lint\.hcl:\d+:\d+: /);
  });
});

describe("config lookup", () => {
  it("the nearest file wins, and lookup stops at the repository root", () => {
    const root = tree({
      ".tfcapi-lint.hcl": 'role = "machine"\n',
      "modules/pool/.tfcapi-lint.hcl": 'role = "machinepool"\n',
      "modules/pool/main.tf": "",
      "modules/pool/sub/main.tf": "",
      "modules/vm/main.tf": "",
    });
    expect(findConfigFile(path.join(root, "modules/pool/sub"))).toBe(path.join(root, "modules/pool/.tfcapi-lint.hcl"));
    expect(findConfigFile(path.join(root, "modules/vm"))).toBe(path.join(root, ".tfcapi-lint.hcl"));
    const inner = tree({ "a/main.tf": "" });
    expect(findConfigFile(path.join(inner, "a"))).toBeNull();
    const resolver = new ConfigResolver({});
    expect(resolver.forDir(path.join(root, "modules/pool/sub"))?.role?.value).toBe("machinepool");
    expect(new ConfigResolver({ disabled: true }).forDir(path.join(root, "modules/vm"))).toBeNull();
    const explicit = new ConfigResolver({ explicit: path.join(root, "modules/pool/.tfcapi-lint.hcl") });
    expect(explicit.forDir(path.join(root, "modules/vm"))?.role?.value).toBe("machinepool");
  });

  it("readConfigFile reports an unreadable file", () => {
    expect(() => readConfigFile("/nonexistent/.tfcapi-lint.hcl")).toThrow("cannot read config file /nonexistent/.tfcapi-lint.hcl: no such file or directory");
  });
});

describe("effective config", () => {
  it("CLI beats config beats defaults", () => {
    const c = parseConfigText(['role = "machine"', 'fail_on = "info"', 'rule "input/default" {', '  severity = "error"', "}", ""].join("\n"), "/r/.tfcapi-lint.hcl", "c.hcl");
    const none = effectiveConfig(null, { rules: [], strict: false });
    expect(none.role).toBeNull();
    expect(none.failOn).toEqual({ value: "error", origin: "default" });
    expect(none.maxWarnings).toEqual({ value: null, origin: "default" });
    const fromFile = effectiveConfig(c, { rules: [], strict: false });
    expect(fromFile.role).toEqual({ value: "machine", origin: "c.hcl:1:8" });
    expect(fromFile.failOn).toEqual({ value: "info", origin: "c.hcl:2:11" });
    const withCli = effectiveConfig(c, { role: "cluster", rules: [{ id: "input/default", severity: "off" }], strict: true, maxWarnings: 0 });
    expect(withCli.role).toEqual({ value: "cluster", origin: "--role" });
    expect(withCli.failOn).toEqual({ value: "warning", origin: "--strict" });
    expect(withCli.maxWarnings).toEqual({ value: 0, origin: "--max-warnings" });
    expect(withCli.rules.get("input/default")).toEqual({ value: "off", origin: "--rule input/default=off" });
    expect(printEffective(withCli, "mod", false)).toBe(
      [
        "# effective tfcapi-lint config for mod",
        "# config file: /r/.tfcapi-lint.hcl",
        'role = "cluster"                             # --role',
        'fail_on = "warning"                          # --strict',
        "max_warnings = 0                             # --max-warnings",
        "exclude = []                                 # default",
        'rule "input/default" { severity = "off" }    # --rule input/default=off',
        "",
      ].join("\n"),
    );
  });
});

describe("exclude globs", () => {
  it("matches segments, ** and bare names at any depth", () => {
    expect(globToRegExp("examples/**").test("examples/a/b")).toBe(true);
    const set = new GlobSet(["examples/**", "scratch", "gen/*.tf"]);
    expect(set.matches("examples/basic")).toBe(true);
    expect(set.matches("modules/scratch/x")).toBe(true);
    expect(set.matches("gen/a.tf")).toBe(true);
    expect(set.matches("gen/sub/a.tf")).toBe(false);
    expect(set.matches("modules/pool")).toBe(false);
    expect(set.matches("../outside")).toBe(false);
  });
});

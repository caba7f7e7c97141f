/**
 * plan (src/cli/plan.ts): the one function from a module's config and the
 * caller's options to the engine's lint options, which the module lint, the
 * image command and the language server share.
 */
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { defineRule } from "../../src/lint/types.js";
import { excludedBy, excludingPattern, plan } from "../../src/cli/plan.js";
import { runCatalogue } from "../../src/cli/module-plans.js";
import { BUILTIN_CATALOGUE } from "../../src/catalogue.js";

const CONFIG = ['role = "machinepool"', 'exclude = ["examples/**", "scratch.tf"]', 'fail_on = "warning"', "max_warnings = 3", 'rule "input/default" {', '  severity = "off"', "}", ""].join("\n");

function config() {
  return parseConfigText(CONFIG, "/repo/.tfcapi-lint.hcl", ".tfcapi-lint.hcl");
}

describe("plan", () => {
  it("without a config or options: no severity changed, ignore comments read, the built-in rules, no role, nothing excluded", () => {
    const p = plan(null, { dir: "/repo/modules/pool" });
    expect(p.config).toBeNull();
    expect(p.options).toEqual({ catalogue: BUILTIN_CATALOGUE, severities: new Map(), inlineConfig: true });
    expect(p.effective.failOn).toEqual({ value: "error", origin: "default" });
    expect(p.effective.maxWarnings).toEqual({ value: null, origin: "default" });
  });

  it("a config's role is a default detection still checks; its rules, fail_on and max_warnings take effect", () => {
    const p = plan(config(), { dir: "/repo", displayPath: "." });
    expect(p.options.role).toBeUndefined();
    expect(p.options.configRole).toEqual({ role: "machinepool", origin: ".tfcapi-lint.hcl:1:8" });
    expect([...p.options.severities!]).toEqual([["input/default", "off"]]);
    expect(p.options.displayPath).toBe(".");
    expect(p.effective.failOn).toEqual({ value: "warning", origin: ".tfcapi-lint.hcl:3:11" });
    expect(p.effective.maxWarnings).toEqual({ value: 3, origin: ".tfcapi-lint.hcl:4:16" });
  });

  it("the command line goes over the config: --role forces the role, --rule the severity, --strict the threshold", () => {
    const p = plan(config(), {
      dir: "/repo",
      overrides: { role: "cluster", rules: [{ id: "input/default", severity: "warning" }], strict: true, maxWarnings: 0 },
      allowWarnings: ["input/user-variable-default"],
      inlineConfig: false,
      reportUnusedIgnores: true,
      requireRoleEvidence: true,
    });
    expect(p.options.role).toBe("cluster");
    expect(p.options.configRole).toBeUndefined();
    expect([...p.options.severities!]).toEqual([["input/default", "warning"]]);
    expect(p.options.allowWarnings).toEqual(["input/user-variable-default"]);
    expect(p.options.inlineConfig).toBe(false);
    expect(p.options.reportUnusedIgnores).toBe(true);
    expect(p.options.requireRoleEvidence).toBe(true);
    expect(p.effective.failOn).toEqual({ value: "warning", origin: "--strict" });
    expect(p.effective.maxWarnings).toEqual({ value: 0, origin: "--max-warnings" });
  });

  it("excludes a module's files by the config's patterns, relative to the config's directory", () => {
    const atRoot = plan(config(), { dir: "/repo" }).options.excludeFile!;
    expect(atRoot("scratch.tf")).toBe(true);
    expect(atRoot("main.tf")).toBe(false);
    const inExamples = plan(config(), { dir: "/repo/examples/pool" }).options.excludeFile!;
    expect(inExamples("main.tf")).toBe(true);
    // A pattern without a slash matches that name in any directory below the config.
    const elsewhere = plan(config(), { dir: "/repo/modules/pool" }).options.excludeFile!;
    expect(elsewhere("scratch.tf")).toBe(true);
    expect(elsewhere("main.tf")).toBe(false);
    expect(excludedBy(config(), "/repo/examples/pool/main.tf")).toBe(true);
    expect(excludingPattern(config(), "/repo/examples/pool/main.tf")).toBe("examples/**");
    expect(excludingPattern(config(), "/repo/main.tf")).toBeNull();
    expect(excludingPattern(null, "/repo/scratch.tf")).toBeNull();
  });

  it("adds the rules of the config's plugins to the built-in ones, and says when listed plugins were not loaded", () => {
    const probe = defineRule({ id: "probe/nothing", severity: "info", roles: ROLES, scope: "root", fixable: false, summary: "reports nothing", check: () => {} });
    const withPlugin = plan(config(), { dir: "/repo", catalogue: BUILTIN_CATALOGUE.withPlugins([probe]) }).options;
    expect(withPlugin.ruleSet!.length).toBeGreaterThan(1);
    expect(withPlugin.ruleSet!.at(-1)).toBe(probe);
    expect(withPlugin.ruleSet!.filter((r) => r.id === "input/default")).toHaveLength(1);
    const server = plan(config(), { dir: "/repo", unloadedPlugins: true, overlay: new Map([["/repo/main.tf", ""]]) }).options;
    expect(server.ruleSet).toBeUndefined();
    expect(server.unloadedPlugins).toBe(true);
    expect([...server.overlay!.keys()]).toEqual(["/repo/main.tf"]);
  });

  it("a run over several configs knows every config's plugin rules once, in the order the configs come; each module keeps its own", () => {
    const rule = (id: string) => defineRule({ id, severity: "info", roles: ROLES, scope: "root", fixable: false, summary: "reports nothing", check: () => {} });
    const acme = BUILTIN_CATALOGUE.withPlugins([rule("acme/one"), rule("acme/two")]);
    const beta = BUILTIN_CATALOGUE.withPlugins([rule("beta/one")]);
    const run = runCatalogue([
      { config: null, catalogue: beta },
      { config: null, catalogue: BUILTIN_CATALOGUE },
      { config: null, catalogue: acme },
      { config: null, catalogue: beta },
    ]);
    expect(run.pluginRules.map((r) => r.id)).toEqual(["beta/one", "acme/one", "acme/two"]);
    expect(run.lint.slice(0, BUILTIN_CATALOGUE.lint.length)).toEqual(BUILTIN_CATALOGUE.lint);
    expect(runCatalogue([])).toBe(BUILTIN_CATALOGUE);
    expect(plan(config(), { dir: "/repo", catalogue: beta }).options.catalogue.isKnown("acme/one")).toBe(false);
  });
});

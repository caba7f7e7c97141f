/**
 * Rule plugins through the built CLI: loading by path, severities from config
 * and flags, inline ignores, `rules`/`explain`, SARIF metadata, a rule that
 * throws, plugins that cannot be loaded, and plugins scoped to the modules
 * whose config lists them.
 */
import { describe, expect, it } from "vitest";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { hasStackTrace, REPO, runCli, tempDir, writeTree } from "../e2e/helpers.js";

/** A plugin without imports: a local ES module as a user would keep in their repository. */
const PLUGIN = `
const launchTemplates = (ctx) => [...ctx.expressions.resources.values()].filter((r) => r.type === "aws_launch_template");

export default {
  name: "acme",
  rules: [
    {
      id: "acme/template-owner",
      severity: "warning",
      roles: ["machinepool"],
      summary: "Launch templates say what they are for",
      docs: "# acme/template-owner\\n\\nEvery launch template has a description, so the console says what it is for.\\n",
      url: "https://example.test/acme/template-owner",
      check(ctx) {
        for (const r of launchTemplates(ctx)) {
          if (!r.body.attributes.some((a) => a.name === "description")) {
            ctx.report({ message: r.address + " has no description; add one", file: r.file, range: r.block.labelRanges[1] });
          }
        }
      },
    },
    {
      id: "acme/any-resource",
      severity: "info",
      roles: ["machinepool"],
      scope: "root",
      summary: "Counts resources",
      check(ctx) {
        ctx.report({ message: ctx.expressions.resources.size + " resources" });
      },
    },
  ],
};
`;

const THROWING = `
export default {
  name: "boom",
  rules: [
    { id: "boom/explodes", severity: "error", roles: ["machinepool"], summary: "Always throws", check() { throw new TypeError("cannot read the moon"); } },
  ],
};
`;

/** examples/machinepool-aws in a temporary repository with `files` added. */
function repo(files: Record<string, string>): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
  writeTree(root, files);
  return root;
}

const compact = (root: string, args: string[] = []) => runCli(["--format", "compact", ...args, "pool"], { cwd: root });

describe("plugins listed in .tfcapi-lint.hcl", () => {
  it("a local ES module's rules run with exact positions and the docs' severities", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
    const r = compact(root);
    expect(r.stderr).toBe("tfcapi-lint: pool: role machinepool (detected)\n");
    expect(r.stdout).toBe(
      "pool:0:0: info: 2 resources [acme/any-resource]\n" +
        "pool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [acme/template-owner]\n",
    );
    expect(r.code).toBe(0);
  });

  it("config severities and --rule apply to plugin rules; --strict fails on their warnings", () => {
    const root = repo({
      "lint/acme.mjs": PLUGIN,
      ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n\nrule "acme/template-owner" {\n  severity = "error"\n}\n',
    });
    const r = compact(root, ["--rule", "acme/any-resource=off"]);
    expect(r.stdout).toBe("pool/main.tf:32:32: error: aws_launch_template.node has no description; add one [acme/template-owner]\n");
    expect(r.code).toBe(1);
    const s = compact(root, ["--rule", "acme/template-owner=warning", "--strict"]);
    expect(s.stdout).toBe(
      "pool:0:0: info: 2 resources [acme/any-resource]\npool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [acme/template-owner]\n",
    );
    expect(s.code).toBe(1);
  });

  it("inline ignore comments suppress plugin findings; an ignore naming an unloaded plugin's rule is an unknown rule", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
    const main = path.join(root, "pool", "main.tf");
    const text = readFileSync(main, "utf8").replace(
      'resource "aws_launch_template" "node" {',
      '# tfcapi-lint-ignore: acme/template-owner -- described in the pool docs\nresource "aws_launch_template" "node" {',
    );
    writeFileSync(main, text);
    const r = compact(root, ["--rule", "acme/any-resource=off"]);
    expect(r.stdout).toBe("");
    expect(r.code).toBe(0);

    const noPlugin = compact(root, ["--no-config"]);
    expect(noPlugin.stdout).toBe(
      'pool/main.tf:32:1: warning: tfcapi-lint-ignore names "acme/template-owner", which is not a tfcapi-lint rule; run "tfcapi-lint rules" for the list [lint/unknown-rule]\n',
    );
  });

  it("rules and explain list the plugin's rules and documentation", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
    const list = runCli(["rules", "--format", "json"], { cwd: root });
    expect(list.code).toBe(0);
    const rules = JSON.parse(list.stdout) as { id: string; plugin?: string; docs: string; severity: string; roles: string[]; scope: string; tags: string[] }[];
    expect(rules.filter((r) => r.plugin !== undefined)).toEqual([
      {
        id: "acme/template-owner",
        severity: "warning",
        roles: ["machinepool"],
        scope: "root",
        fixable: false,
        fixKinds: [],
        tags: ["plugin", "acme"],
        summary: "Launch templates say what they are for",
        docs: "https://example.test/acme/template-owner",
        plugin: "acme",
      },
      {
        id: "acme/any-resource",
        severity: "info",
        roles: ["machinepool"],
        scope: "root",
        fixable: false,
        fixKinds: [],
        tags: ["plugin", "acme"],
        summary: "Counts resources",
        docs: pathToFileURL(path.join(root, "lint", "acme.mjs")).href,
        plugin: "acme",
      },
    ]);
    expect(rules.length).toBeGreaterThan(40);
    const text = runCli(["rules"], { cwd: root });
    expect(text.stdout).toContain("acme/template-owner");
    expect(text.stdout).toMatch(/Launch templates say what they are for \(plugin acme\)\n/);

    const explain = runCli(["explain", "acme/template-owner"], { cwd: root });
    expect(explain.stdout).toBe("# acme/template-owner\n\nEvery launch template has a description, so the console says what it is for.\n");
    const generated = runCli(["explain", "acme/any-resource"], { cwd: root });
    expect(generated.stdout).toBe(
      `# acme/any-resource\n\nCounts resources\n\nSeverity: info. Roles: machinepool.\n\nProvided by plugin acme; more at ${pathToFileURL(path.join(root, "lint", "acme.mjs")).href}\n`,
    );
    // Without the config, the plugin is not there.
    expect(runCli(["explain", "acme/any-resource", "--no-config"], { cwd: root }).code).toBe(3);
  });

  it("SARIF carries plugin rules' metadata and results", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
    const r = runCli(["--format", "sarif", "pool"], { cwd: root });
    expect(r.code).toBe(0);
    const sarif = JSON.parse(r.stdout) as {
      runs: { tool: { driver: { rules: { id: string; helpUri?: string; fullDescription?: { text: string }; shortDescription: { text: string } }[] } }; results: { ruleId: string; ruleIndex: number; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[];
    };
    const run = sarif.runs[0]!;
    const rule = run.tool.driver.rules.find((x) => x.id === "acme/template-owner")!;
    expect(rule.helpUri).toBe("https://example.test/acme/template-owner");
    expect(rule.shortDescription.text).toBe("Launch templates say what they are for");
    expect(rule.fullDescription?.text).toBe("Every launch template has a description, so the console says what it is for.");
    const result = run.results.find((x) => x.ruleId === "acme/template-owner")!;
    expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe("acme/template-owner");
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe("pool/main.tf");
    expect(result.locations[0]!.physicalLocation.region).toMatchObject({ startLine: 32, startColumn: 32 });
  });

  it("a rule that throws is reported by name (exit 2) while every other finding is still reported", () => {
    const root = repo({
      "lint/acme.mjs": PLUGIN,
      "lint/boom.mjs": THROWING,
      ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs", "./lint/boom.mjs"]\n',
    });
    const r = compact(root, ["--rule", "acme/any-resource=off"]);
    // The failure is in the report too (as every error of the run is), and on stderr.
    expect(r.stdout).toBe(
      "pool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [acme/template-owner]\n" +
        "pool:0:0: error: pool: rule boom/explodes of plugin boom failed on .: cannot read the moon (report it to the plugin's authors) [rule-error]\n",
    );
    expect(r.stderr).toContain("tfcapi-lint: pool: rule boom/explodes of plugin boom failed on .: cannot read the moon (report it to the plugin's authors)\n");
    expect(hasStackTrace(r.stderr)).toBe(false);
    expect(r.code).toBe(2);
  });

  it("a rule that reports nonsense is a failure of that rule, not a crash", () => {
    const bad = `export default { name: "bad", rules: [{ id: "bad/file", severity: "error", roles: ["machinepool"], summary: "s", check(ctx) { ctx.report({ message: "m", file: "nope.tf" }); } }] };`;
    const root = repo({ "lint/bad.mjs": bad, ".tfcapi-lint.hcl": 'plugins = ["./lint/bad.mjs"]\n' });
    const r = compact(root);
    expect(r.stderr).toContain('rule bad/file of plugin bad failed on .: report(): "nope.tf" is not a file of this module');
    expect(hasStackTrace(r.stderr)).toBe(false);
    expect(r.code).toBe(2);
  });

  const configError = (files: Record<string, string>) => {
    const r = compact(repo(files));
    expect(hasStackTrace(r.stderr)).toBe(false);
    expect(r.stdout).toBe("");
    expect(r.code).toBe(3);
    return r.stderr;
  };

  it("explain of a built-in rule does not need the plugins; of another id, a plugin that cannot load is the config error", () => {
    const root = repo({ ".tfcapi-lint.hcl": 'plugins = ["./lint/none.mjs"]\n' });
    const builtIn = runCli(["explain", "input/default"], { cwd: root });
    expect([builtIn.code, builtIn.stderr]).toEqual([0, ""]);
    expect(builtIn.stdout).toBe(runCli(["explain", "input/default", "--no-config"], { cwd: root }).stdout);
    expect(builtIn.stdout.startsWith("# input/default\n")).toBe(true);
    const other = runCli(["explain", "acme/any-resource"], { cwd: root });
    expect(other.code).toBe(3);
    expect(other.stderr).toMatch(/^tfcapi-lint: config error:\nplugin "\.\/lint\/none\.mjs" \(\.tfcapi-lint\.hcl:1:12\): \S+none\.mjs does not exist\n$/);
  });

  it("a plugin that cannot be found or loaded is a config error naming it (exit 3)", () => {
    expect(configError({ ".tfcapi-lint.hcl": 'plugins = ["tfcapi-lint-plugin-missing"]\n' })).toMatch(
      /^tfcapi-lint: config error:\nplugin "tfcapi-lint-plugin-missing" \(\.tfcapi-lint\.hcl:1:12\): cannot find package "tfcapi-lint-plugin-missing" from \S+ \(install it next to the config file: npm install --save-dev tfcapi-lint-plugin-missing\)\n$/,
    );
    expect(configError({ ".tfcapi-lint.hcl": 'plugins = ["./lint/none.mjs"]\n' })).toMatch(/plugin "\.\/lint\/none\.mjs" \(\.tfcapi-lint\.hcl:1:12\): \S+none\.mjs does not exist\n$/);
    expect(configError({ "lint/syntax.mjs": "export default {", ".tfcapi-lint.hcl": 'plugins = ["./lint/syntax.mjs"]\n' })).toMatch(
      /plugin "\.\/lint\/syntax\.mjs" \(\.tfcapi-lint\.hcl:1:12\): cannot be loaded: /,
    );
    expect(configError({ "lint/throws.mjs": 'throw new Error("no licence key");', ".tfcapi-lint.hcl": 'plugins = ["./lint/throws.mjs"]\n' })).toBe(
      'tfcapi-lint: config error:\nplugin "./lint/throws.mjs" (.tfcapi-lint.hcl:1:12): cannot be loaded: no licence key\n',
    );
  });

  it("a plugin of the wrong shape is a config error that says what to change", () => {
    const load = (plugin: string) => configError({ "lint/p.mjs": plugin, ".tfcapi-lint.hcl": 'plugins = ["./lint/p.mjs"]\n' });
    const head = 'tfcapi-lint: config error:\nplugin "./lint/p.mjs" (.tfcapi-lint.hcl:1:12): ';
    expect(load("export const rules = [];")).toBe(`${head}its default export must be { name, rules } (export default { name: "acme", rules: [...] })\n`);
    expect(load('export default { name: "Acme Corp", rules: [] };')).toBe(`${head}name must be a lower-case word (letters, digits, -), the prefix of its rule ids\n`);
    expect(load('export default { name: "acme", rules: [{ id: "other/x", severity: "error", summary: "s", check() {} }] };')).toBe(
      `${head}rule "other/x": its id must start with "acme/", the plugin's name\n`,
    );
    expect(load('export default { name: "input", rules: [{ id: "input/default", severity: "error", summary: "s", check() {} }] };')).toBe(
      `${head}rule id "input/default" is already taken by a built-in rule\n`,
    );
    expect(load('export default { name: "acme", rules: [{ id: "acme/x", severity: "fatal", summary: "s", check() {} }] };')).toBe(
      `${head}rule "acme/x": severity must be "error", "warning" or "info"\n`,
    );
    expect(load('export default { name: "acme", rules: [{ id: "acme/x", severity: "error", summary: "s" }] };')).toBe(`${head}rule "acme/x": check must be a function (ctx) => void\n`);
  });

  it("a rule block naming a rule no listed plugin defines is a config error", () => {
    expect(
      configError({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n\nrule "acme/nope" {\n  severity = "off"\n}\n' }),
    ).toBe('tfcapi-lint: config error:\n.tfcapi-lint.hcl:3:6: unknown rule "acme/nope" (run "tfcapi-lint rules" for the list); no plugin listed in the file defines it\n');
    expect(configError({ ".tfcapi-lint.hcl": 'plugins = [1]\n' })).toBe("tfcapi-lint: config error:\n.tfcapi-lint.hcl:1:12: plugins[0] must be of type string\n");
  });

  it("a module runs only the plugins its own config lists", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, "pool/.tfcapi-lint.hcl": 'plugins = ["../lint/acme.mjs"]\nrule "acme/any-resource" {\n  severity = "off"\n}\n' });
    cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "other"), { recursive: true });
    const r = runCli(["--format", "compact", "pool", "other"], { cwd: root });
    expect(r.stdout).toBe("pool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [acme/template-owner]\n");
    expect(r.code).toBe(0);
  });

  it("a module knows only its own config's plugins; the run's --rule and SARIF rule list know every config's", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, "pool/.tfcapi-lint.hcl": 'plugins = ["../lint/acme.mjs"]\n' });
    cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "other"), { recursive: true });
    const main = path.join(root, "other", "main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace('resource "aws_launch_template" "node" {', '# tfcapi-lint-ignore: acme/template-owner -- not this module\nresource "aws_launch_template" "node" {'));
    const r = runCli(["--format", "compact", "--rule", "acme/any-resource=off", "pool", "other"], { cwd: root });
    expect(r.stdout).toBe(
      "pool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [acme/template-owner]\n" +
        'other/main.tf:32:1: warning: tfcapi-lint-ignore names "acme/template-owner", which is not a tfcapi-lint rule; run "tfcapi-lint rules" for the list [lint/unknown-rule]\n',
    );
    expect(r.code).toBe(0);
    const sarif = runCli(["--format", "sarif", "other", "pool"], { cwd: root });
    const ids = (JSON.parse(sarif.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } } }[] }).runs[0]!.tool.driver.rules.map((x) => x.id);
    expect(ids.filter((id) => id.startsWith("acme/"))).toEqual(["acme/template-owner", "acme/any-resource"]);
  });

  it("--print-config shows the plugins and where they are listed", () => {
    const root = repo({ "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
    const r = runCli(["--print-config", "pool", "--format", "json"], { cwd: root });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { plugins: unknown }).plugins).toEqual([{ value: "./lint/acme.mjs", origin: ".tfcapi-lint.hcl:1:12" }]);
  });
});

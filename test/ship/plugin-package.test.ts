/**
 * The example plugin package as a user installs it: pack the linter and
 * examples/tfcapi-lint-plugin-acme, install both into a fresh repository
 * (from the tarballs only: an empty npm cache, no registry), list the plugin
 * in .tfcapi-lint.hcl by package name, lint, and run the plugin's own tests
 * (node --test with tfcapi-lint/testing) against the installed linter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { cleanEnv, cleanup, copyFromRoot, ensureBuilt, ROOT, run, tempDir } from "./helpers.js";

interface PackResult {
  filename: string;
}

describe("example plugin package", () => {
  let base: string | undefined;
  let project = "";
  let env: NodeJS.ProcessEnv = {};

  /** `npm pack` a directory into `base` without lifecycle scripts (the linter is built already). */
  const pack = (dir: string): string => {
    const r = run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", base!], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    return path.join(base!, (JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as PackResult[])[0]!.filename);
  };

  beforeAll(() => {
    ensureBuilt();
    base = tempDir("plugin-package");
    const cache = path.join(base, "empty-npm-cache");
    mkdirSync(cache);
    env = cleanEnv({
      npm_config_cache: cache,
      npm_config_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    });
    const linter = pack(ROOT);
    const picocolors = pack(path.join(ROOT, "node_modules", "picocolors"));
    const plugin = pack(path.join(ROOT, "examples", "tfcapi-lint-plugin-acme"));

    project = path.join(base, "modules-repo");
    mkdirSync(project);
    mkdirSync(path.join(project, ".git"));
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify(
        {
          name: "modules-repo",
          version: "1.0.0",
          private: true,
          devDependencies: { picocolors: `file:${picocolors}`, "tfcapi-lint": `file:${linter}`, "tfcapi-lint-plugin-acme": `file:${plugin}` },
        },
        null,
        2,
      ),
    );
    const install = run("npm", ["install", "--no-audit", "--no-fund"], { cwd: project, env });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    copyFromRoot("examples/machinepool-aws", path.join(project, "pool"));
    // A node with a public address, which the plugin forbids.
    const main = path.join(project, "pool", "main.tf");
    writeFileSync(main, readFileSync(main, "utf8").replace("  metadata_options {", "  network_interfaces {\n    associate_public_ip_address = true\n  }\n\n  metadata_options {"));
    writeFileSync(path.join(project, ".tfcapi-lint.hcl"), 'plugins = ["tfcapi-lint-plugin-acme"]\n');
  }, 300_000);

  afterAll(() => cleanup(base));

  const lint = (args: string[]) => run(path.join(project, "node_modules", ".bin", "tfcapi-lint"), args, { cwd: project, env: cleanEnv() });

  it("installs from the tarballs alone, with an empty npm cache", () => {
    const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => p !== "").sort()).toEqual(["node_modules/picocolors", "node_modules/tfcapi-lint", "node_modules/tfcapi-lint-plugin-acme"]);
  });

  it("the installed linter loads the plugin by package name and reports its findings", () => {
    const r = lint(["--format", "compact", "pool"]);
    expect(r.stdout).toBe("pool/main.tf:48:5: error: aws_launch_template.node gives nodes a public IP address; acme nodes stay private [acme/no-public-ip]\n");
    expect(r.code).toBe(1);
    const rules = lint(["rules"]);
    expect(rules.stdout).toMatch(/\nacme\/required-tags +warning +all +Resources with a literal tags map carry the owner and cost-center tags \(plugin acme\)\n/);
    expect(lint(["explain", "acme/required-tags"]).stdout).toMatch(/^# acme\/required-tags\n\nEvery resource that sets a literal `tags` map must include `owner` and `cost-center`,\n/);
  });

  it("the plugin's own tests pass against the installed linter (tfcapi-lint/testing)", () => {
    const copy = path.join(project, "plugin-src");
    cpSync(path.join(ROOT, "examples", "tfcapi-lint-plugin-acme"), copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
    // Resolve tfcapi-lint from the repository's node_modules, as a plugin author's checkout would.
    const r = run(process.execPath, ["--test", "test/"], { cwd: copy, env: cleanEnv() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/# pass 2\n# fail 0\n/);
  });
});

/**
 * The npm package as users get it: `npm pack` this checkout, install the
 * tarball into an empty project, and use the installed `tfcapi-lint` binary
 * and the library entry point.
 *
 * Nothing comes from the registry or from what this machine has cached: npm
 * runs offline with an empty cache of its own, and the runtime dependencies
 * are packed from this checkout's node_modules and installed as tarballs
 * beside the package.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { cleanEnv, cleanup, copyFromRoot, ensureBuilt, ROOT, run, runCli, tempDir } from "./helpers.js";

const PKG = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  files: string[];
};

interface PackResult {
  filename: string;
  files: { path: string }[];
}

describe("npm package", () => {
  let base: string | undefined;
  let project = "";
  let pack: PackResult;
  let cache = "";
  const env = () =>
    cleanEnv({
      npm_config_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      // An empty cache of the test's own: nothing may come from what the machine has cached.
      npm_config_cache: cache,
      npm_config_registry: "http://127.0.0.1:9/",
    });
  /** `npm pack DIR` into base; the tarball's file name. */
  const packInto = (cwd: string, what: string[]): PackResult => {
    const r = run("npm", ["pack", "--json", "--pack-destination", base!, ...what], { cwd, env: env() });
    expect(r.code, r.stderr).toBe(0);
    // Lifecycle scripts may print before the JSON document.
    return (JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as PackResult[])[0]!;
  };

  beforeAll(() => {
    ensureBuilt();
    base = tempDir("package");
    cache = path.join(base, "npm-cache");
    mkdirSync(cache);
    pack = packInto(ROOT, []);
    // The runtime dependencies as tarballs, packed from this checkout's node_modules.
    const deps = Object.keys(PKG.dependencies).map((name) => packInto(ROOT, [path.join(ROOT, "node_modules", name)]).filename);

    project = path.join(base, "consumer");
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }, null, 2));
    const tarballs = [...deps, pack.filename].map((f) => path.join(base!, f));
    const install = run("npm", ["install", "--offline", "--no-audit", "--no-fund", ...tarballs], { cwd: project, env: env() });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    copyFromRoot("examples/machinepool-aws", path.join(project, "modules", "pool"));
    copyFromRoot("examples/broken-machinepool", path.join(project, "modules", "broken"));
  }, 300_000);

  afterAll(() => cleanup(base));

  const installed = (args: string[]) =>
    run(path.join(project, "node_modules", ".bin", "tfcapi-lint"), args, { cwd: project, env: cleanEnv() });

  it("ships only the CLI, the build, the rule docs, the schema, README and LICENSE", () => {
    expect(PKG.files).toEqual(["bin/", "dist/", "rules/**/*.md", "schema/", "README.md", "LICENSE"]);
    const paths = pack.files.map((f) => f.path).sort();
    const allowed = (p: string) =>
      p === "package.json" ||
      p === "README.md" ||
      p === "LICENSE" ||
      p.startsWith("bin/") ||
      p.startsWith("dist/") ||
      p.startsWith("schema/") ||
      (p.startsWith("rules/") && p.endsWith(".md"));
    expect(paths.filter((p) => !allowed(p))).toEqual([]);
    for (const required of ["package.json", "README.md", "LICENSE", "bin/tfcapi-lint.js", "dist/cli.js", "dist/index.js", "schema/tfcapi-lint.schema.json"]) {
      expect(paths, required).toContain(required);
    }
    expect(paths.some((p) => p.startsWith("dist/types/") && p.endsWith(".d.ts"))).toBe(true);
    expect(paths.some((p) => /^(src|test|fixtures|bench|examples)\//.test(p) || p.endsWith(".ts") && !p.endsWith(".d.ts"))).toBe(false);
    expect(pack.filename).toBe(`${PKG.name}-${PKG.version}.tgz`);
  });

  it("installs with picocolors as its only dependency", () => {
    const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => p !== "").sort()).toEqual(["node_modules/picocolors", "node_modules/tfcapi-lint"]);
    expect(Object.keys(PKG.dependencies)).toEqual(["picocolors"]);
  });

  it("the installed binary lints a clean module: exit 0, the checkout's output", () => {
    const r = installed(["modules/pool"]);
    const expected = runCli(["modules/pool"], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stderr).toBe("");
  });

  it("the installed binary fails a broken module with exit 1 and the same findings as the checkout", () => {
    const r = installed(["--format", "json", "modules/broken"]);
    expect(r.code).toBe(1);
    const expected = runCli(["--format", "json", "modules/broken"], { cwd: project });
    expect(r.stdout).toBe(expected.stdout);
    const doc = JSON.parse(r.stdout) as { role: string; findings: { id: string; file: string; line: number }[] };
    expect(doc.role).toBe("machinepool");
    expect(doc.findings).toContainEqual(expect.objectContaining({ id: "module/backend", file: "versions.tf", line: 5 }));
  });

  it("reports its version and serves the shipped rule docs", () => {
    expect(installed(["--version"]).stdout).toBe(`tfcapi-lint ${PKG.version} (contract v1alpha1)\n`);
    const explain = installed(["explain", "module/backend"]);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toBe(readFileSync(path.join(ROOT, "rules", "module", "backend.md"), "utf8"));
  });

  it("exposes the library API to import", () => {
    const script = [
      'import { parseHcl, hclOutline, lintModule, ALL_RULES } from "tfcapi-lint";',
      'const parsed = parseHcl(\'variable "x" { type = string }\\n\', "main.tf");',
      "const outcome = lintModule(process.argv[1], {});",
      "console.log(JSON.stringify({",
      "  diagnostics: parsed.diagnostics.length,",
      "  outline: typeof hclOutline,",
      "  rules: ALL_RULES.length > 10,",
      "  kind: outcome.kind,",
      "  role: outcome.report.role,",
      "  ids: [...new Set(outcome.report.findings.map((f) => f.ruleId))].includes(\"module/backend\"),",
      "}));",
    ].join("\n");
    const r = run(process.execPath, ["--input-type=module", "-e", script, path.join(project, "modules", "broken")], { cwd: project, env: cleanEnv() });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ diagnostics: 0, outline: "function", rules: true, kind: "report", role: "machinepool", ids: true });
  });
});

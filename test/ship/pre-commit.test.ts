/**
 * The pre-commit hook, end to end: a git repository using
 * `.pre-commit-hooks.yaml` from a release revision of this project, installed
 * by pre-commit itself (language: node, so pre-commit runs `npm install`,
 * `npm pack` and `npm install -g` on that revision), then a good commit goes
 * through and a broken one is refused with the linter's own report.
 *
 * The release revision is what `scripts/hook-release.mjs` writes: the
 * checkout's files, the built `dist/`, and a package.json without
 * devDependencies or a build step. npm runs offline with an empty cache of
 * the test's own: the install succeeds only because it needs no package at
 * all (a single devDependency, or the registry, would make it fail).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseYaml } from "./mini-yaml.js";
import { cleanEnv, cleanup, copyFromRoot, ensureBuilt, GIT_IDENTITY, ROOT, run, runCli, tempDir } from "./helpers.js";

const PRE_COMMIT = run("sh", ["-c", "command -v pre-commit"]).code === 0;
const PKG = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
const BUILDS_ON_PACK = typeof PKG.scripts.prepack === "string" && PKG.scripts.prepack.includes("build");

/** `run`, without blocking the event loop. */
function runAsync(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof (err as { code?: unknown }).code !== "number") reject(err);
      else resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

interface ReleasePackage {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  exclude: string;
  pass_filenames: string;
  require_serial: string;
  description: string;
}

describe(".pre-commit-hooks.yaml", () => {
  const hooks = parseYaml(readFileSync(path.join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as unknown as Hook[];

  it("declares exactly the tfcapi-lint hook, as a node hook of this package's bin", () => {
    expect(hooks.map((h) => h.id)).toEqual(["tfcapi-lint"]);
    const hook = hooks[0]!;
    expect(hook.language).toBe("node");
    expect(hook.entry).toBe("tfcapi-lint");
    expect(Object.keys(PKG.bin)).toContain(hook.entry);
    expect(hook.pass_filenames).toBe("true");
    expect(hook.require_serial).toBe("true");
    expect(hook.description.length).toBeGreaterThan(20);
  });

  it("selects Terraform and OpenTofu files in both syntaxes, nothing else", () => {
    const files = new RegExp(hooks[0]!.files);
    const exclude = new RegExp(hooks[0]!.exclude);
    const selected = (p: string) => files.test(p) && !exclude.test(p);
    for (const p of ["main.tf", "pool/outputs.tf", "x.tofu", "vars.tf.json", "a/b.tofu.json"]) expect(selected(p), p).toBe(true);
    for (const p of ["terraform.tfvars", "x.hcl", "main.tf.bak", "package.json", ".terraform/modules/m/main.tf", "a/.terraform/x.tf", "tf", "main.tfjson"]) {
      expect(selected(p), p).toBe(false);
    }
  });
});

describe("packaging for pre-commit", () => {
  it("keeps npm pack's standard output to the tarball name when the package builds on pack", () => {
    // pre-commit takes all of `npm pack`'s standard output as the tarball's
    // file name; npm prints a "> tfcapi-lint@x prepack" banner there unless
    // lifecycle scripts run in the background.
    const npmrc = path.join(ROOT, ".npmrc");
    const background = existsSync(npmrc) && /^\s*foreground-scripts\s*=\s*false\s*$/m.test(readFileSync(npmrc, "utf8"));
    expect(BUILDS_ON_PACK ? background : true, "a prepack script needs .npmrc with foreground-scripts=false").toBe(true);
  });
});

describe("pre-commit end to end", () => {
  let base: string | undefined;
  let hookRepo = "";
  let work = "";
  let env: NodeJS.ProcessEnv = {};

  const git = (args: string[], cwd = work) => run("git", [...GIT_IDENTITY, ...args], { cwd, env });

  beforeAll(async () => {
    if (!PRE_COMMIT) return;
    ensureBuilt();
    base = tempDir("pre-commit");
    hookRepo = path.join(base, "hook-repo");
    work = path.join(base, "work");
    env = cleanEnv({
      PRE_COMMIT_HOME: path.join(base, "pre-commit-home"),
      PRE_COMMIT_COLOR: "never",
      npm_config_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      // An empty cache and no registry: the install must need no package.
      npm_config_cache: path.join(base, "npm-cache"),
      npm_config_registry: "http://127.0.0.1:9/",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: process.env.HOME,
    });

    // The hook repository: a release revision of this checkout.
    // Asynchronously: the build takes a while, and vitest's worker must keep answering meanwhile.
    const release = await runAsync(process.execPath, [path.join(ROOT, "scripts", "hook-release.mjs"), hookRepo], { cwd: ROOT, env: cleanEnv() });
    expect(release.code, release.stderr).toBe(0);
    expect(git(["init", "-q"], hookRepo).code).toBe(0);
    expect(git(["add", "-A"], hookRepo).code).toBe(0);
    expect(git(["commit", "-q", "-m", "hook revision"], hookRepo).code).toBe(0);
    const rev = git(["rev-parse", "HEAD"], hookRepo).stdout.trim();

    // The repository that uses the hook.
    mkdirSync(work);
    expect(git(["init", "-q"]).code).toBe(0);
    writeFileSync(
      path.join(work, ".pre-commit-config.yaml"),
      `repos:\n  - repo: ${hookRepo}\n    rev: ${rev}\n    hooks:\n      - id: tfcapi-lint\n`,
    );
    const install = run("pre-commit", ["install"], { cwd: work, env });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    mkdirSync(env.npm_config_cache!);
  }, 300_000);

  afterAll(() => cleanup(base));

  it.skipIf(!PRE_COMMIT)("the release revision needs no build and no package to install: only the hook's own files land (skipped when pre-commit is not on PATH)", () => {
    const pkg = JSON.parse(readFileSync(path.join(hookRepo, "package.json"), "utf8")) as ReleasePackage;
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.scripts).toEqual({});
    expect({ name: pkg.name, version: pkg.version, bin: pkg.bin, files: pkg.files }).toEqual({
      name: "tfcapi-lint",
      version: JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version,
      bin: PKG.bin,
      files: ["bin/", "dist/", "rules/**/*.md", "schema/", "README.md", "LICENSE"],
    });
    // The committed tree carries the build (git ls-files: dist/ is not ignored there).
    const tracked = git(["ls-files", "dist"], hookRepo).stdout.split("\n").filter((l) => l !== "");
    expect(tracked).toEqual(expect.arrayContaining(["dist/cli-loader.cjs", "dist/cli.cjs", "dist/cli.js", "dist/index.js"]));
    expect(existsSync(path.join(hookRepo, "package-lock.json"))).toBe(false);

    const installed = run("pre-commit", ["install-hooks"], { cwd: work, env });
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    // pre-commit's node environment holds the package alone: no devDependency, no dependency.
    const home = env.PRE_COMMIT_HOME!;
    const repos = readdirSync(home).filter((d) => d.startsWith("repo"));
    expect(repos).toHaveLength(1);
    const envs = readdirSync(path.join(home, repos[0]!)).filter((d) => d.startsWith("node_env-"));
    expect(envs).toHaveLength(1);
    const globalModules = path.join(home, repos[0]!, envs[0]!, "lib", "node_modules");
    expect(readdirSync(globalModules).filter((d) => !d.startsWith("."))).toEqual(["tfcapi-lint"]);
    expect(existsSync(path.join(globalModules, "tfcapi-lint", "node_modules"))).toBe(false);
    // The clone's development install was empty (pre-commit removes node_modules afterwards either way).
    expect(existsSync(path.join(home, repos[0]!, "node_modules"))).toBe(false);
  }, 300_000);

  const title = "a release revision (checkout + built dist/, no devDependencies)";

  it.skipIf(!PRE_COMMIT)(`installs from ${title} and lets a clean module commit (skipped when pre-commit is not on PATH)`, () => {
    copyFromRoot("examples/machinepool-aws", path.join(work, "pool"));
    writeFileSync(path.join(work, "README.md"), "# pools\n");
    expect(git(["add", "-A"]).code).toBe(0);
    const commit = git(["commit", "-m", "Add the worker pool"]);
    const log = commit.stdout + commit.stderr;
    expect(commit.code, log).toBe(0);
    expect(log).toMatch(/^tfcapi-lint \(CAPTF module contract\)\.+Passed$/m);
    expect(git(["log", "--format=%s"]).stdout).toBe("Add the worker pool\n");
  }, 600_000);

  it.skipIf(!PRE_COMMIT)("refuses a commit with a broken module and prints the linter's report (skipped when pre-commit is not on PATH)", () => {
    copyFromRoot("examples/broken-machinepool", path.join(work, "broken"));
    expect(git(["add", "-A"]).code).toBe(0);
    const commit = git(["commit", "-m", "Add a broken pool"]);
    const log = commit.stdout + commit.stderr;
    expect(commit.code, log).toBe(1);
    expect(log).toMatch(/^tfcapi-lint \(CAPTF module contract\)\.+Failed$/m);
    expect(log).toContain("- hook id: tfcapi-lint\n- exit code: 1\n");

    // The hook's output is the CLI's report on the staged files of the module.
    const staged = ["broken/main.tf", "broken/outputs.tf", "broken/variables.tf", "broken/versions.tf"];
    const direct = runCli(staged, { cwd: work });
    expect(direct.code).toBe(1);
    const hookOutput = log.slice(log.indexOf("- exit code: 1\n") + "- exit code: 1\n".length).trim();
    expect(hookOutput).toBe((direct.stdout + direct.stderr).trim());
    expect(hookOutput).toMatch(/broken\/versions\.tf\n\s+5:3\s+error\s+.*module\/backend/);

    // Nothing was committed.
    expect(git(["log", "--format=%s"]).stdout).toBe("Add the worker pool\n");
    expect(git(["status", "--porcelain"]).stdout.split("\n").filter((l) => l.startsWith("A  broken/")).length).toBe(4);
  }, 600_000);

  it.skipIf(!PRE_COMMIT)("commits the broken module once its findings are in a baseline at the repository root, and refuses a new error (skipped when pre-commit is not on PATH)", () => {
    // The broken module is still staged from the refusal above.
    const staged = ["broken/main.tf", "broken/outputs.tf", "broken/variables.tf", "broken/versions.tf"];
    const made = runCli(["--update-baseline", ...staged], { cwd: work });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain("tfcapi-lint: wrote baseline .tfcapi-lint-baseline.json (");
    expect(git(["add", "-A"]).code).toBe(0);
    const adopted = git(["commit", "-m", "Adopt the broken pool with a baseline"]);
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(adopted.stdout + adopted.stderr).toMatch(/^tfcapi-lint \(CAPTF module contract\)\.+Passed$/m);

    // A new error in the module is not in the baseline: refused.
    const variables = path.join(work, "broken", "variables.tf");
    writeFileSync(variables, readFileSync(variables, "utf8") + '\nvariable "captf_zone" {\n  type = string\n}\n');
    expect(git(["add", "-A"]).code).toBe(0);
    const refused = git(["commit", "-m", "Add a zone"]);
    const log = refused.stdout + refused.stderr;
    expect(refused.code, log).toBe(1);
    expect(log).toMatch(/^tfcapi-lint \(CAPTF module contract\)\.+Failed$/m);
    expect(log).toContain('Variable "captf_zone" uses the reserved "captf_" prefix');
    expect(log).not.toContain('Variable "captf_instance_type"');
    expect(git(["log", "--format=%s"]).stdout).toBe("Adopt the broken pool with a baseline\nAdd the worker pool\n");
  }, 600_000);
});

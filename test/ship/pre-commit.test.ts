/**
 * The pre-commit hook, end to end: a git repository using
 * `.pre-commit-hooks.yaml` from a git revision of this project, installed by
 * pre-commit itself (language: node, so pre-commit runs `npm install`,
 * `npm pack` and `npm install -g` on that revision), then a good commit goes
 * through and a broken one is refused with the linter's own report.
 *
 * npm runs with `offline=true`: everything comes from the npm cache that
 * `npm ci` filled, so the test never touches the network.
 *
 * Which revision: when package.json builds on `npm pack` (a `prepack`
 * script), the hook repository is exactly the checkout's files, as a commit
 * of main would hold them. Otherwise the built `dist/` is committed too, as a
 * release tag must then carry it (the hook needs the built CLI).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseYaml } from "./mini-yaml.js";
import { checkoutFiles, cleanEnv, cleanup, copyFromRoot, ensureBuilt, GIT_IDENTITY, ROOT, run, runCli, tempDir } from "./helpers.js";

const PRE_COMMIT = run("sh", ["-c", "command -v pre-commit"]).code === 0;
const PKG = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
const BUILDS_ON_PACK = typeof PKG.scripts.prepack === "string" && PKG.scripts.prepack.includes("build");

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

  beforeAll(() => {
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
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: process.env.HOME,
    });

    // The hook repository: a commit of this checkout.
    for (const f of checkoutFiles()) {
      mkdirSync(path.dirname(path.join(hookRepo, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(hookRepo, f));
    }
    if (!BUILDS_ON_PACK) cpSync(path.join(ROOT, "dist"), path.join(hookRepo, "dist"), { recursive: true });
    expect(git(["init", "-q"], hookRepo).code).toBe(0);
    expect(git(["add", "-A"], hookRepo).code).toBe(0);
    if (!BUILDS_ON_PACK) expect(git(["add", "-f", "dist"], hookRepo).code).toBe(0);
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
  }, 120_000);

  afterAll(() => cleanup(base));

  const title = BUILDS_ON_PACK ? "a revision of the checkout" : "a release revision (checkout + built dist/)";

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
});

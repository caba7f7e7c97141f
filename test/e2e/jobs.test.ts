/**
 * `--jobs N`: the modules of a run linted on worker threads give exactly what
 * one thread gives (stdout, stderr, exit code, files written by --fix), in
 * the same order, in every format; plugins run in the workers; a worker that
 * dies or a rule that throws does not hang the run.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { defaultJobs, moduleBytes, readCpuQuota } from "../../src/cli/jobs.js";
import { BIN, E2E, REPO, runCli, snapshot, tempDir, tree, writeTree, type CliResult } from "./helpers.js";

const FORMATS = ["text", "compact", "json", "sarif", "github", "checkstyle", "junit"] as const;

/** What a run shows: everything but the timeout marker. */
const shown = (r: CliResult) => ({ code: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr });

/** The repository's example modules and e2e fixtures, copied side by side into a fresh repository. */
function corpus(): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples"), path.join(root, "examples"), { recursive: true });
  cpSync(E2E, path.join(root, "e2e"), { recursive: true });
  return root;
}

/** File contents only (a write changes mtimes and inodes even when the text is the same). */
function contents(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rel, st] of snapshot(root)) out[rel] = `${st.kind}:${st.content}`;
  return out;
}

describe("--jobs: the same run on one thread and on workers", () => {
  it.each(FORMATS)("--recursive over examples/ and fixtures/e2e/ in %s: identical output and exit code", (format) => {
    const args = ["--recursive", "--format", format, "examples", "fixtures/e2e"];
    const one = runCli([...args, "--jobs", "1"]);
    const four = runCli([...args, "--jobs", "4"]);
    expect(shown(four)).toEqual(shown(one));
    // The run really linted the tree (examples/broken-machinepool fails it).
    expect(one.code).toBe(1);
    expect(one.stdout.length).toBeGreaterThan(1000);
    expect(one.stderr).toContain(
      "tfcapi-lint: skipped examples/tfcapi-lint-plugin-acme/fixtures/tagged: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n",
    );
  });

  it("the default gives the same as --jobs 1, and so does --jobs above the number of modules", () => {
    const args = ["--recursive", "--format", "json", "examples", "fixtures/e2e"];
    const one = runCli([...args, "--jobs", "1"]);
    expect(shown(runCli(args))).toEqual(shown(one));
    expect(shown(runCli([...args, "--jobs=64"]))).toEqual(shown(one));
    expect(shown(runCli([...args, "-j", "2"]))).toEqual(shown(one));
  });

  it("--fix on copies of the tree writes the same files and says the same", () => {
    const a = corpus();
    const b = corpus();
    const before = contents(a);
    const args = ["--recursive", "--fix-unsafe", "--format", "compact", "examples", "e2e"];
    const one = runCli([...args, "--jobs", "1"], { cwd: a });
    const four = runCli([...args, "--jobs", "4"], { cwd: b });
    expect(shown(four)).toEqual(shown(one));
    expect(one.stderr).toMatch(/\ntfcapi-lint: fixed [1-9]\d* problems? in [1-9]\d* files?\n$/);
    const after = contents(a);
    expect(after).not.toEqual(before);
    expect(contents(b)).toEqual(after);
    // Fixed once: a second run has nothing left to fix, on workers too.
    const again = runCli([...args, "--jobs", "4"], { cwd: b });
    expect(again.stderr).toMatch(/\ntfcapi-lint: fixed 0 problems in 0 files\n$/);
    expect(contents(b)).toEqual(after);
  });

  it("--fix where a module's fixes write a local child that is also linted on its own", () => {
    // pool-nested calls ./modules/node-labels; the child's one-line block is
    // fixed through the parent (which loads it), and the walk also finds the
    // child directory as a module of its own.
    const make = () => {
      const root = tempDir();
      cpSync(path.join(E2E, "pool-nested"), path.join(root, "pool-nested"), { recursive: true });
      cpSync(path.join(E2E, "machine"), path.join(root, "machine"), { recursive: true });
      writeTree(root, { "pool-nested/modules/node-labels/extra.tf": 'variable "extra" { type = list(string) default = [] }\n' });
      return root;
    };
    for (const role of [[], ["--role", "machinepool"]]) {
      // Without --role the child shows no role of its own; with it, the child
      // is linted (and would be fixed) on its own too.
      const a = make();
      const b = make();
      const args = ["--recursive", "--fix", "--format", "compact", ...role, "."];
      const one = runCli([...args, "--jobs", "1"], { cwd: a });
      const two = runCli([...args, "--jobs", "2"], { cwd: b });
      expect(shown(two)).toEqual(shown(one));
      expect(one.stderr).toMatch(/\ntfcapi-lint: fixed [1-9]\d* problems? in [1-9]\d* files?\n$/);
      expect(contents(b)).toEqual(contents(a));
      expect(readFileSync(path.join(a, "pool-nested/modules/node-labels/extra.tf"), "utf8")).toBe('variable "extra" {\n  type    = list(string)\n  default = []\n}\n');
    }
  });

  it("read errors, a missing path and a module with no role: the same notes and problems, in the same order", () => {
    const pool = readFileSync(path.join(E2E, "machine", "variables.tf"), "utf8");
    const root = tree({
      "a-helpers/main.tf": 'variable "anything" {\n  type = string\n}\n',
      "b-machine/variables.tf": pool,
      "b-machine/bad.tf": Buffer.from([0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x73, 0x20, 0x7b, 0xff, 0xfe, 0x0a, 0x7d, 0x0a]),
      "c-helpers/main.tf": 'output "nothing" {\n  value = 1\n}\n',
      "d-broken/main.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\nvariable "machine_name" {\n  type = string\n',
    });
    cpSync(path.join(E2E, "machine"), path.join(root, "e-machine"), { recursive: true });
    for (const format of ["text", "json"]) {
      const args = ["--recursive", "--format", format, ".", "missing-dir"];
      const one = runCli([...args, "--jobs", "1"], { cwd: root });
      const four = runCli([...args, "--jobs", "4"], { cwd: root });
      expect(shown(four)).toEqual(shown(one));
      expect(one.code).toBe(2);
      const skipped = one.stderr.split("\n").filter((l) => l.includes("skipped"));
      expect(skipped).toEqual([
        "tfcapi-lint: skipped a-helpers: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)",
        "tfcapi-lint: skipped c-helpers: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)",
      ]);
      expect(one.stderr).toContain("missing-dir");
      expect(one.stderr).toContain("b-machine/bad.tf");
    }
  });

  it("a module whose role is ambiguous is reported the same way (exit 3), with the other modules' results", () => {
    const root = tree({
      "a-pool/variables.tf": readFileSync(path.join(E2E, "machine", "variables.tf"), "utf8"),
      "b-both/variables.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\nvariable "machine_name" {\n  type = string\n}\n\nvariable "machinepool_name" {\n  type = string\n}\n',
      "c-none/main.tf": 'locals {\n  x = 1\n}\n',
    });
    cpSync(path.join(E2E, "machine"), path.join(root, "a-pool"), { recursive: true });
    const one = runCli(["--recursive", ".", "--jobs", "1"], { cwd: root });
    const two = runCli(["--recursive", ".", "--jobs", "2"], { cwd: root });
    expect(shown(two)).toEqual(shown(one));
    expect(one.code).toBe(3);
    expect(one.stdout).toMatch(/^module a-pool\n/);
    expect(one.stdout).toContain("error  b-both: not linted: cannot tell which role the module implements: it matches machine and machinepool equally");
    expect(one.stderr).toBe(
      "tfcapi-lint: skipped c-none: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n" +
        'tfcapi-lint: b-both: not linted: cannot tell which role the module implements: it matches machine and machinepool equally (machine input "machine_name" (variables.tf:5); machinepool input "machinepool_name" (variables.tf:9)); pass --role cluster|machine|machinepool (or set role in .tfcapi-lint.hcl)\n',
    );
  });

  it("a module nested 100,000 levels deep gives the same on a worker as on the main thread (its exact position)", () => {
    const levels = 100_000;
    const deep = `resource "terraform_data" "deep" {\n  input = ${"[".repeat(levels)}timestamp()${"]".repeat(levels)}\n}\n`;
    const root = tempDir();
    for (const m of ["m1", "m2"]) cpSync(path.join(E2E, "machine"), path.join(root, m), { recursive: true });
    writeTree(root, { "m2/deep.tf": deep });
    const args = ["--recursive", "--role", "machine", "--format", "compact", "."];
    const one = runCli([...args, "--jobs", "1"], { cwd: root });
    const two = runCli([...args, "--jobs", "2"], { cwd: root });
    expect(shown(two)).toEqual(shown(one));
    expect(one.stdout).toContain(`m2/deep.tf:2:${11 + levels}: warning: timestamp() gives terraform_data.deep "input" a new value on every plan`);
    expect(one.code).toBe(0);
  });

  it("--jobs must be a whole number of 1 or more", () => {
    for (const bad of ["0", "-2", "1.5", "many", ""]) {
      const r = runCli(["--recursive", `--jobs=${bad}`, "examples"]);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`tfcapi-lint: --jobs expects a whole number of 1 or more, got "${bad}"\nRun tfcapi-lint --help for usage.\n`);
    }
  });
});

/** A plugin whose rule says on which thread it ran, and (with `exitInWorker`) kills a worker thread it runs on. */
const threadPlugin = (exitInWorker: boolean) => `
import { isMainThread } from "node:worker_threads";

export default {
  name: "where",
  rules: [
    {
      id: "where/thread",
      severity: "info",
      roles: ["machine"],
      scope: "root",
      summary: "Says which thread linted the module",
      check(ctx) {
        ${exitInWorker ? 'if (!isMainThread && ctx.unit.dir.endsWith("m2")) process.exit(7);' : ""}
        ctx.report({ message: isMainThread ? "main thread" : "worker thread" });
      },
    },
  ],
};
`;

const THROWING = `
export default {
  name: "boom",
  rules: [
    { id: "boom/explodes", severity: "error", roles: ["machine"], summary: "Always throws", check() { throw new TypeError("cannot read the moon"); } },
  ],
};
`;

/** Three machine modules m1..m3; m1 and m2 list the plugins in `configs`, m3 lists none. */
function pluginRepo(plugins: Record<string, string>, config: string): string {
  const root = tempDir();
  for (const m of ["m1", "m2", "m3"]) cpSync(path.join(E2E, "machine"), path.join(root, m), { recursive: true });
  writeTree(root, { ...plugins, "m1/.tfcapi-lint.hcl": config, "m2/.tfcapi-lint.hcl": config });
  return root;
}

describe("--jobs with plugins", () => {
  it("each worker loads the plugins its modules' configs list; only those modules run them", () => {
    const root = pluginRepo({ "lint/where.mjs": threadPlugin(false) }, 'plugins = ["../lint/where.mjs"]\n');
    const args = ["--recursive", "--format", "compact", "."];
    const two = runCli([...args, "--jobs", "2"], { cwd: root });
    expect(two.stdout).toBe("m1:0:0: info: worker thread [where/thread]\nm2:0:0: info: worker thread [where/thread]\n");
    expect(two.code).toBe(0);
    const one = runCli([...args, "--jobs", "1"], { cwd: root });
    expect(one.stdout).toBe(two.stdout.replaceAll("worker thread", "main thread"));
    expect(one.stderr).toBe(two.stderr);
    expect(one.stderr).toBe("tfcapi-lint: m1: role machine (detected)\ntfcapi-lint: m2: role machine (detected)\ntfcapi-lint: m3: role machine (detected)\n");
  });

  it("a plugin rule that throws in a worker is reported as on one thread (exit 2)", () => {
    const root = pluginRepo({ "lint/boom.mjs": THROWING }, 'plugins = ["../lint/boom.mjs"]\n');
    const args = ["--recursive", "--format", "compact", "."];
    const one = runCli([...args, "--jobs", "1"], { cwd: root });
    const two = runCli([...args, "--jobs", "2"], { cwd: root });
    expect(shown(two)).toEqual(shown(one));
    expect(one.code).toBe(2);
    expect(one.stdout).toContain("m1:0:0: error: m1: rule boom/explodes of plugin boom failed on .: cannot read the moon (report it to the plugin's authors) [rule-error]\n");
    expect(one.stderr).toContain("tfcapi-lint: m2: rule boom/explodes of plugin boom failed on .: cannot read the moon (report it to the plugin's authors)\n");
  });

  it("an error a worker meets is printed as this thread prints it (a plugin that cannot be loaded there: config error, exit 3)", () => {
    const plugin = 'import { isMainThread } from "node:worker_threads";\nif (!isMainThread) throw new Error("no licence key on this thread");\nexport default { name: "picky", rules: [] };\n';
    const root = pluginRepo({ "lint/picky.mjs": plugin }, 'plugins = ["../lint/picky.mjs"]\n');
    const r = runCli(["--recursive", "--format", "compact", ".", "--jobs", "2"], { cwd: root, timeoutMs: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('tfcapi-lint: config error:\nplugin "../lint/picky.mjs" (m1/.tfcapi-lint.hcl:1:12): cannot be loaded: no licence key on this thread\n');
    expect(r.code).toBe(3);
  });

  it("a worker that dies does not hang the run: its module is linted on the main thread", () => {
    const root = pluginRepo({ "lint/where.mjs": threadPlugin(true) }, 'plugins = ["../lint/where.mjs"]\n');
    const r = runCli(["--recursive", "--format", "compact", ".", "--jobs", "2"], { cwd: root, timeoutMs: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe("m1:0:0: info: worker thread [where/thread]\nm2:0:0: info: main thread [where/thread]\n");
    expect(r.stderr).toBe("tfcapi-lint: m1: role machine (detected)\ntfcapi-lint: m2: role machine (detected)\ntfcapi-lint: m3: role machine (detected)\n");
    expect(r.code).toBe(0);
  });

  it("without --jobs, a small run is linted on the main thread, whatever the cores", () => {
    const root = pluginRepo({ "lint/where.mjs": threadPlugin(false) }, 'plugins = ["../lint/where.mjs"]\n');
    const r = runCli(["--recursive", "--format", "compact", "."], { cwd: root });
    expect(r.stdout).toBe("m1:0:0: info: main thread [where/thread]\nm2:0:0: info: main thread [where/thread]\n");
    expect(r.code).toBe(0);
  });

  it("without --jobs, a run with work for workers: on one core (taskset) the main thread; here what the cores and quota decide", () => {
    // Eight modules of 0.3 MB each (a long comment lints fast): enough work
    // for two workers, so only the cores hold the default back.
    const root = tempDir();
    const config = 'plugins = ["../lint/where.mjs"]\n';
    const files: Record<string, string> = { "lint/where.mjs": threadPlugin(false) };
    const names = Array.from({ length: 8 }, (_, i) => `m${i + 1}`);
    for (const m of names) {
      cpSync(path.join(E2E, "machine"), path.join(root, m), { recursive: true });
      files[`${m}/.tfcapi-lint.hcl`] = config;
      files[`${m}/padding.tf`] = "# padding\n".repeat(30_000);
    }
    writeTree(root, files);
    const args = ["--recursive", "--format", "compact", "."];
    const lines = (thread: string): string => names.map((m) => `${m}:0:0: info: ${thread} thread [where/thread]\n`).join("");
    const bytes = moduleBytes(names.map((m) => path.join(root, m)));
    expect(bytes).toBeGreaterThan(2_400_000);
    const here = defaultJobs({ cores: availableParallelism(), quota: readCpuQuota(), modules: 8, bytes: () => bytes });
    const r = runCli(args, { cwd: root, timeoutMs: 60_000 });
    expect(r.stdout).toBe(lines(here >= 2 ? "worker" : "main"));
    expect(r.code).toBe(0);
    const pinned = spawnSync("taskset", ["-c", "0", process.execPath, BIN, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", TFCAPI_LINT_DEBUG: "" }, timeout: 60_000 });
    if (pinned.error && (pinned.error as NodeJS.ErrnoException).code === "ENOENT") return; // no taskset here: the line above is the test
    expect(pinned.stdout).toBe(lines("main"));
    expect(pinned.status).toBe(0);
  });
});

/**
 * The result cache (--cache) through the built CLI: a warm run reuses a
 * module's results only when nothing they depend on changed, and its output
 * is byte for byte the output of a run without the cache. Hits and misses
 * are told on stderr by TFCAPI_LINT_CACHE_DEBUG=1, and shown by a plugin
 * rule that logs each time it runs.
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, REPO, runCli, tempDir, writeTree, type CliResult } from "../e2e/helpers.js";

/** A local plugin whose rules show what they read: the module's template, a helper file's text. Each run of a rule is logged. */
const PLUGIN = `
import { appendFileSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { PREFIX } from "./helper.mjs";

const log = (ctx) => appendFileSync(new URL("./runs.log", import.meta.url), path.basename(ctx.unit.dir) + "\\n");

export default {
  name: "acme",
  rules: [
    {
      id: "acme/motd",
      severity: "info",
      roles: ["machinepool"],
      summary: "Says the module's motd template",
      check(ctx) {
        log(ctx);
        let text = "none";
        try {
          text = readFileSync(path.join(ctx.unit.dir, "templates", "motd.tpl"), "utf8").split("\\n")[0];
        } catch {}
        ctx.report({ message: PREFIX + "motd: " + text });
      },
    },
    {
      id: "acme/variables",
      severity: "warning",
      roles: ["machinepool"],
      scope: "all",
      summary: "Names every variable of a local child module",
      check(ctx) {
        if (ctx.isRoot) return;
        for (const v of ctx.declarations.variables.values()) {
          ctx.report({ message: PREFIX + "variable " + v.name, file: v.file, range: v.range });
        }
      },
    },
  ],
};
`;

const EXTRA_TF = `module "tags" {
  source = "./modules/tags"
}

locals {
  motd = templatefile("\${path.module}/templates/motd.tpl", {})
}
`;

const CHILD_TF = `variable "team" {
  type    = string
  default = "platform"
}
`;

/** examples/machinepool-aws as `pool` with a local child, a template and a plugin listed in the config. */
function repo(): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
  writeTree(root, {
    ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n',
    "lint/acme.mjs": PLUGIN,
    "lint/helper.mjs": 'export const PREFIX = "";\n',
    "pool/extra.tf": EXTRA_TF,
    "pool/modules/tags/main.tf": CHILD_TF,
    "pool/templates/motd.tpl": "Welcome\n",
  });
  return root;
}

const DEBUG = { TFCAPI_LINT_CACHE_DEBUG: "1" };

/** One run with the cache (and its debug lines), and one without it (no debug lines). */
function both(root: string, args: string[], bin: string = BIN): { cached: CliResult; fresh: CliResult } {
  const cached = runBin(bin, ["--cache", ...args], root, DEBUG);
  const at = args.indexOf("--cache-location");
  const fresh = runBin(bin, at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)], root, {});
  return { cached, fresh };
}

function runBin(bin: string, args: string[], cwd: string, env: Record<string, string>): CliResult {
  if (bin === BIN) return runCli(args, { cwd, env });
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", ...env } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut: false };
}

/** The cache's debug lines of a run's stderr, and the rest. */
function split(stderr: string): { cache: string[]; rest: string } {
  const lines = stderr.split("\n");
  return { cache: lines.filter((l) => l.startsWith("tfcapi-lint: cache: ")).map((l) => l.slice("tfcapi-lint: cache: ".length)), rest: lines.filter((l) => !l.startsWith("tfcapi-lint: cache: ")).join("\n") };
}

/** The cached run said `cache` and otherwise printed exactly what the fresh run printed. */
function expectSame(r: { cached: CliResult; fresh: CliResult }, cache: string[]): void {
  const s = split(r.cached.stderr);
  expect(s.cache).toEqual(cache);
  expect(r.cached.stdout).toBe(r.fresh.stdout);
  expect(s.rest).toBe(r.fresh.stderr);
  expect(r.cached.code).toBe(r.fresh.code);
}

const runs = (root: string): string[] => (existsSync(path.join(root, "lint", "runs.log")) ? readFileSync(path.join(root, "lint", "runs.log"), "utf8").split("\n").filter(Boolean) : []);
const clearRuns = (root: string): void => rmSync(path.join(root, "lint", "runs.log"), { force: true });

const COMPACT = ["--format", "compact", "pool"];
const MISS = ["linted pool (not in the cache)", "0 reused, 1 linted"];
const HIT = ["reused pool", "1 reused, 0 linted"];

describe("--cache: a warm run reuses results, and its output is the uncached output", () => {
  it("the same inputs are a hit, and the plugin's rules do not run again", () => {
    const root = repo();
    const first = both(root, COMPACT);
    expectSame(first, MISS);
    expect(first.fresh.stdout).toBe(
      "pool:0:0: info: motd: Welcome [acme/motd]\n" + "pool/modules/tags/main.tf:1:1: warning: variable team [acme/variables]\n",
    );
    clearRuns(root);
    const warm = runCli(["--cache", ...COMPACT], { cwd: root, env: DEBUG });
    expect(split(warm.stderr).cache).toEqual(HIT);
    expect(warm.stdout).toBe(first.fresh.stdout);
    expect(runs(root)).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(root, ".tfcapi-lint-cache"), "utf8"))["tfcapi-lint-cache"]).toBe(1);
  });

  it("every format is byte-identical with and without the cache, cold and warm", () => {
    const root = repo();
    for (const format of ["text", "json", "sarif", "compact", "github", "checkstyle", "junit"]) {
      rmSync(path.join(root, ".tfcapi-lint-cache"), { force: true });
      expectSame(both(root, ["--format", format, "pool"]), MISS);
      expectSame(both(root, ["--format", format, "pool"]), HIT);
    }
  });
});

/**
 * Warms the cache, applies `change`, and checks that the next cached run
 * lints the module again (the plugin ran; the debug line says why), prints
 * what an uncached run prints (`stdout`), and that the run after it is a hit.
 */
function changed(change: (root: string) => void, why: string, stdout: string, args: string[] = []): void {
  const root = repo();
  expectSame(both(root, [...args, ...COMPACT]), MISS);
  change(root);
  clearRuns(root);
  const r = both(root, [...args, ...COMPACT]);
  expectSame(
    { cached: { ...r.cached, stderr: r.cached.stderr.split(root).join("<root>") }, fresh: { ...r.fresh, stderr: r.fresh.stderr.split(root).join("<root>") } },
    [`linted pool (${why})`, "0 reused, 1 linted"],
  );
  expect(r.fresh.stdout).toBe(stdout);
  // Linted by the cached run and by the uncached one.
  expect(runs(root)).toEqual(["pool", "pool"]);
  expectSame(both(root, [...args, ...COMPACT]), HIT);
}

const MOTD = "pool:0:0: info: motd: Welcome [acme/motd]\n";
const TEAM = "pool/modules/tags/main.tf:1:1: warning: variable team [acme/variables]\n";
const edit = (root: string, rel: string, text: string): void => writeFileSync(path.join(root, ...rel.split("/")), text);

describe("--cache is never stale: each change below lints the module again", () => {
  it("a module file", () => {
    changed((root) => appendFileSync(path.join(root, "pool", "main.tf"), "\n# reviewed\n"), "<root>/pool/main.tf changed", MOTD + TEAM);
  });

  it("a file added to the module", () => {
    changed((root) => edit(root, "pool/notes.tf", "# notes\n"), "the module files in <root>/pool changed", MOTD + TEAM);
  });

  it("a local child module's file", () => {
    changed((root) => edit(root, "pool/modules/tags/main.tf", CHILD_TF.replace("team", "owner")), "<root>/pool/modules/tags/main.tf changed", MOTD + TEAM.replace("team", "owner"));
  });

  it("a file added to a local child module", () => {
    changed(
      (root) => edit(root, "pool/modules/tags/zone.tf", 'variable "zone" {\n  type = string\n}\n'),
      "the module files in <root>/pool/modules/tags changed",
      MOTD + TEAM + "pool/modules/tags/zone.tf:1:1: warning: variable zone [acme/variables]\n",
    );
  });

  it("a template read by templatefile()", () => {
    changed((root) => edit(root, "pool/templates/motd.tpl", "Hello\n"), "<root>/pool/templates/motd.tpl changed", MOTD.replace("Welcome", "Hello") + TEAM);
  });

  it("a template that was missing and now exists, and one that was there and is gone", () => {
    changed((root) => rmSync(path.join(root, "pool", "templates", "motd.tpl")), "<root>/pool/templates/motd.tpl changed", MOTD.replace("Welcome", "none") + TEAM);
    const root = repo();
    rmSync(path.join(root, "pool", "templates", "motd.tpl"));
    expectSame(both(root, COMPACT), MISS);
    edit(root, "pool/templates/motd.tpl", "Back\n");
    expectSame(
      (() => {
        const r = both(root, COMPACT);
        return { ...r, cached: { ...r.cached, stderr: r.cached.stderr.split(root).join("<root>") } };
      })(),
      ["linted pool (<root>/pool/templates/motd.tpl changed)", "0 reused, 1 linted"],
    );
  });

  it("the config file", () => {
    changed(
      (root) => edit(root, ".tfcapi-lint.hcl", 'plugins = ["./lint/acme.mjs"]\n\nrule "acme/motd" {\n  severity = "warning"\n}\n'),
      "not in the cache",
      MOTD.replace("info", "warning") + TEAM,
    );
  });

  it("a file of a local plugin (one its entry imports)", () => {
    changed((root) => edit(root, "lint/helper.mjs", 'export const PREFIX = "acme says ";\n'), "not in the cache", MOTD.replace("motd", "acme says motd") + TEAM.replace("variable", "acme says variable"));
  });

  it("a rule option on the command line: --rule, --allow-warning", () => {
    const root = repo();
    expectSame(both(root, COMPACT), MISS);
    const off = both(root, ["--rule", "acme/variables=off", ...COMPACT]);
    expectSame(off, ["linted pool (not in the cache)", "0 reused, 1 linted"]);
    expect(off.fresh.stdout).toBe(MOTD);
    const allowed = both(root, ["--allow-warning", "acme/variables", ...COMPACT]);
    expectSame(allowed, ["linted pool (not in the cache)", "0 reused, 1 linted"]);
    expect(allowed.fresh.stdout).toBe(MOTD + TEAM.replace("warning", "info"));
  });
});

/** A copy of the built CLI (bin, dist, package.json) with another version in its package.json. */
function checkoutWithVersion(version: string): string {
  const dir = tempDir();
  cpSync(path.join(REPO, "bin"), path.join(dir, "bin"), { recursive: true });
  cpSync(path.join(REPO, "dist"), path.join(dir, "dist"), { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, version }, null, 2));
  return path.join(dir, "bin", "tfcapi-lint.js");
}

describe("--cache and plugin packages", () => {
  it("a plugin installed as a package: a new version of it lints again", () => {
    const root = repo();
    const pkg = (version: string) => JSON.stringify({ name: "tfcapi-lint-plugin-acme", version, type: "module", exports: "./index.mjs" });
    writeTree(root, {
      ".tfcapi-lint.hcl": 'plugins = ["tfcapi-lint-plugin-acme"]\n',
      "node_modules/tfcapi-lint-plugin-acme/package.json": pkg("1.0.0"),
      "node_modules/tfcapi-lint-plugin-acme/index.mjs": PLUGIN.replace("./runs.log", "../../lint/runs.log"),
      "node_modules/tfcapi-lint-plugin-acme/helper.mjs": 'export const PREFIX = "";\n',
    });
    expectSame(both(root, COMPACT), MISS);
    expectSame(both(root, COMPACT), HIT);
    writeTree(root, { "node_modules/tfcapi-lint-plugin-acme/package.json": pkg("1.0.1") });
    clearRuns(root);
    const r = both(root, COMPACT);
    expectSame(r, ["linted pool (not in the cache)", "0 reused, 1 linted"]);
    expect(r.fresh.stdout).toBe(MOTD + TEAM);
    expect(runs(root)).toEqual(["pool", "pool"]);
  });
});

describe("--cache and the tool", () => {
  it("another version of the tool lints again", () => {
    const root = repo();
    const copy = checkoutWithVersion("0.1.0");
    expectSame(both(root, COMPACT, copy), MISS);
    expectSame(both(root, COMPACT, copy), HIT);
    const next = checkoutWithVersion("9.9.9");
    expect(runBin(next, ["--version"], root, {}).stdout).toBe("tfcapi-lint 9.9.9 (contract v1alpha1)\n");
    clearRuns(root);
    expectSame(both(root, COMPACT, next), MISS);
    expect(runs(root)).toEqual(["pool", "pool"]);
    expectSame(both(root, COMPACT, next), HIT);
  });
});

describe("the cache file", () => {
  it("a corrupt or foreign file is ignored with a note, and rewritten", () => {
    const root = repo();
    const file = path.join(root, ".tfcapi-lint-cache");
    for (const [text, why] of [
      ["{ not json", "it is not valid JSON"],
      ['{"name": "something else"}\n', "it is not a tfcapi-lint cache"],
      ['{"tfcapi-lint-cache": 99, "entries": {}}', "it is in another format of the cache (99)"],
    ]) {
      writeFileSync(file, text);
      const r = both(root, COMPACT);
      expect(r.cached.stderr.split("\n")[0]).toBe(`tfcapi-lint: ignoring the cache file ${file}: ${why}; it will be rewritten`);
      expect(r.cached.stdout).toBe(r.fresh.stdout);
      expect(r.cached.code).toBe(r.fresh.code);
      expect(split(r.cached.stderr).cache).toEqual(MISS);
      expect(JSON.parse(readFileSync(file, "utf8"))["tfcapi-lint-cache"]).toBe(1);
      expectSame(both(root, COMPACT), HIT);
    }
  });

  it("a malformed entry is a miss, never a crash", () => {
    const root = repo();
    expectSame(both(root, COMPACT), MISS);
    const file = path.join(root, ".tfcapi-lint-cache");
    const data = JSON.parse(readFileSync(file, "utf8")) as { entries: Record<string, { inputs: unknown }> };
    for (const e of Object.values(data.entries)) e.inputs = { files: 7 };
    writeFileSync(file, JSON.stringify(data));
    expectSame(both(root, COMPACT), ["linted pool (malformed entry)", "0 reused, 1 linted"]);
    expectSame(both(root, COMPACT), HIT);
  });

  it("--cache-location names the file, or a directory to keep it in", () => {
    const root = repo();
    mkdirSync(path.join(root, "cachedir"));
    expectSame(both(root, ["--cache-location", "cachedir", ...COMPACT]), MISS);
    expect(existsSync(path.join(root, "cachedir", ".tfcapi-lint-cache"))).toBe(true);
    expectSame(both(root, ["--cache-location", "cachedir/", ...COMPACT]), HIT);
    expectSame(both(root, ["--cache-location", "ci.cache", ...COMPACT]), MISS);
    expect(existsSync(path.join(root, "ci.cache"))).toBe(true);
    expect(existsSync(path.join(root, ".tfcapi-lint-cache"))).toBe(false);
  });

  it("--cache-location alone, or naming a module file, is a usage error", () => {
    const root = repo();
    expect(runCli(["--cache-location", "x", "pool"], { cwd: root })).toMatchObject({ code: 3, stdout: "", stderr: "tfcapi-lint: --cache-location is only meaningful with --cache\nRun tfcapi-lint --help for usage.\n" });
    expect(runCli(["--cache", "--cache-location", "pool/main.tf", "pool"], { cwd: root })).toMatchObject({
      code: 3,
      stdout: "",
      stderr: "tfcapi-lint: --cache-location pool/main.tf: refusing to write the cache over a module file name (.tf, .tf.json, .tofu, .tofu.json)\nRun tfcapi-lint --help for usage.\n",
    });
  });

  it("a cache file that cannot be written is said, and the run's result stands", () => {
    const root = repo();
    const r = both(root, ["--cache-location", "missing/dir/cache.json", ...COMPACT]);
    const s = split(r.cached.stderr);
    expect(s.rest).toBe(`tfcapi-lint: cannot write the cache file ${path.join(root, "missing", "dir", "cache.json")}: its directory does not exist (the results of this run are not cached)\n${r.fresh.stderr}`);
    expect(r.cached.stdout).toBe(r.fresh.stdout);
    expect(r.cached.code).toBe(r.fresh.code);
  });

  it("two runs at once leave a valid cache that the next run uses", async () => {
    const root = repo();
    cpSync(path.join(root, "pool"), path.join(root, "pool2"), { recursive: true });
    const spawnRun = (target: string): Promise<number | null> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [BIN, "--cache", "--format", "compact", target], { cwd: root, stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } });
        child.on("exit", (code) => resolve(code));
      });
    for (let round = 0; round < 3; round++) {
      const codes = await Promise.all([spawnRun("pool"), spawnRun("pool2"), spawnRun("pool")]);
      expect(codes).toEqual([0, 0, 0]);
      const data = JSON.parse(readFileSync(path.join(root, ".tfcapi-lint-cache"), "utf8")) as { entries: object };
      expect(Object.keys(data.entries).length).toBeGreaterThanOrEqual(1);
    }
    const r = both(root, ["--format", "compact", "pool", "pool2"]);
    const s = split(r.cached.stderr);
    expect(r.cached.stdout).toBe(r.fresh.stdout);
    expect(s.rest).toBe(r.fresh.stderr);
    // Whatever entries survived the race are valid: each module is reused or linted, and the output is the same.
    expect(s.cache.slice(0, 2).every((l) => /^(reused|linted) pool2? ?(\(.*\))?$/.test(l))).toBe(true);
    expectSame(both(root, ["--format", "compact", "pool", "pool2"]), ["reused pool", "reused pool2", "2 reused, 0 linted"]);
  });
});

describe("--cache with --fix, --stdin and --jobs", () => {
  const insensitive = (root: string): void => {
    const file = path.join(root, "pool", "variables.tf");
    writeFileSync(file, readFileSync(file, "utf8").replace(/(variable "bootstrap_data" \{[^}]*?)\n\s*sensitive\s*=\s*true/, "$1"));
  };

  it("--fix never takes a result from the cache: the module is linted and fixed", () => {
    const root = repo();
    insensitive(root);
    const before = both(root, COMPACT);
    expectSame(before, MISS);
    expect(before.fresh.stdout).toContain("input/sensitive");
    clearRuns(root);
    // The sensitive fix is an unsafe one: --fix-unsafe applies it.
    const fixed = runCli(["--cache", "--fix-unsafe", ...COMPACT], { cwd: root, env: DEBUG });
    expect(split(fixed.stderr).cache).toEqual(["0 reused, 0 linted"]);
    expect(fixed.stdout).toBe(MOTD + TEAM);
    expect(runs(root).length).toBeGreaterThanOrEqual(1);
    expect(readFileSync(path.join(root, "pool", "variables.tf"), "utf8")).toMatch(/variable "bootstrap_data" \{[^}]*sensitive\s*=\s*true/);
    // The fixed file is a change: linted again, the same output as without the cache.
    expectSame(both(root, COMPACT), ["linted pool (" + path.join(root, "pool", "variables.tf") + " changed)", "0 reused, 1 linted"]);
    expectSame(both(root, COMPACT), HIT);
  });

  it("--fix stores what it leaves unchanged, for the next run", () => {
    const root = repo();
    const fixed = runCli(["--cache", "--fix", ...COMPACT], { cwd: root, env: DEBUG });
    expect(fixed.stdout).toBe(MOTD + TEAM);
    expectSame(both(root, COMPACT), HIT);
  });

  it("--stdin neither reads nor writes the cache", () => {
    const root = repo();
    const text = readFileSync(path.join(root, "pool", "main.tf"), "utf8");
    const r = runCli(["--cache", "--format", "compact", "--stdin", "--stdin-filename", "pool/main.tf"], { cwd: root, env: DEBUG, input: text });
    expect(r.stdout).toBe(MOTD + TEAM);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("tfcapi-lint: pool: role machinepool (detected)\n");
    expect(existsSync(path.join(root, ".tfcapi-lint-cache"))).toBe(false);
  });

  it("--recursive --jobs 2: hits on the main thread, misses on the workers, the same output", () => {
    const root = repo();
    cpSync(path.join(root, "pool"), path.join(root, "pool2"), { recursive: true });
    cpSync(path.join(root, "pool"), path.join(root, "pool3"), { recursive: true });
    const args = ["--recursive", "--jobs", "2", "--format", "json", "."];
    const cold = both(root, args);
    // --recursive also finds each local child (reported as part of its caller).
    const all = ["pool", "pool/modules/tags", "pool2", "pool2/modules/tags", "pool3", "pool3/modules/tags"];
    expect(split(cold.cached.stderr).cache).toEqual([...all.map((m) => `linted ${m} (not in the cache)`), "0 reused, 6 linted"]);
    expect(cold.cached.stdout).toBe(cold.fresh.stdout);
    appendFileSync(path.join(root, "pool2", "modules", "tags", "main.tf"), 'variable "extra" {\n  type = string\n}\n');
    const warm = both(root, args);
    const changedFile = path.join(root, "pool2", "modules", "tags", "main.tf");
    expect(split(warm.cached.stderr).cache).toEqual([
      "reused pool",
      "reused pool/modules/tags",
      `linted pool2 (${changedFile} changed)`,
      `linted pool2/modules/tags (${changedFile} changed)`,
      "reused pool3",
      "reused pool3/modules/tags",
      "4 reused, 2 linted",
    ]);
    expect(warm.cached.stdout).toBe(warm.fresh.stdout);
    expect(warm.cached.code).toBe(warm.fresh.code);
    expect((JSON.parse(warm.fresh.stdout) as { module: string; findings: unknown[] }[]).map((m) => `${m.module} ${m.findings.length}`)).toEqual(["pool 2", "pool2 3", "pool3 2"]);
  });
});

describe("--cache with what else a module holds", () => {
  const cacheData = (root: string) => JSON.parse(readFileSync(path.join(root, ".tfcapi-lint-cache"), "utf8")) as { entries: Record<string, { dir: string; day?: string }> };

  it("an ignore comment with an expiry date: the result holds for the day only", () => {
    const root = repo();
    const child = path.join(root, "pool", "modules", "tags", "main.tf");
    writeFileSync(child, "# tfcapi-lint-ignore-file: acme/variables exp:2999-01-01 -- until the tags move\n" + CHILD_TF);
    const r = both(root, COMPACT);
    expectSame(r, MISS);
    expect(r.fresh.stdout).toBe(MOTD);
    const today = new Date().toISOString().slice(0, 10);
    expect(Object.values(cacheData(root).entries).map((e) => e.day)).toEqual([today]);
    expectSame(both(root, COMPACT), HIT);
    // As if it had been stored yesterday: linted again.
    const data = cacheData(root);
    for (const e of Object.values(data.entries)) e.day = "2000-01-01";
    writeFileSync(path.join(root, ".tfcapi-lint-cache"), JSON.stringify(data));
    expectSame(both(root, COMPACT), ["linted pool (an ignore comment's expiry date may have passed)", "0 reused, 1 linted"]);
    // Without such a comment, no day.
    const plain = repo();
    expectSame(both(plain, COMPACT), MISS);
    expect(Object.values(cacheData(plain).entries).map((e) => e.day)).toEqual([undefined]);
  });

  it("--fix-dry-run prints the same diff from a stored result", () => {
    const root = repo();
    const file = path.join(root, "pool", "variables.tf");
    writeFileSync(file, readFileSync(file, "utf8").replace(/(variable "bootstrap_data" \{[^}]*?)\n\s*sensitive\s*=\s*true/, "$1"));
    const cold = both(root, ["--fix-dry-run", "--fix-unsafe", ...COMPACT]);
    expectSame(cold, MISS);
    expect(cold.fresh.stderr).toContain("+  sensitive = true");
    expectSame(both(root, ["--fix-dry-run", "--fix-unsafe", ...COMPACT]), HIT);
    expect(readFileSync(file, "utf8")).not.toMatch(/variable "bootstrap_data" \{[^}]*sensitive/);
  });

  it("a file that cannot be read is reported the same from a stored result (exit 2)", () => {
    const root = repo();
    writeFileSync(path.join(root, "pool", "blob.tf"), Buffer.from([0x61, 0x00, 0x62]));
    const cold = both(root, COMPACT);
    expectSame(cold, MISS);
    expect(cold.fresh.code).toBe(2);
    expect(cold.fresh.stderr).toContain("blob.tf contains a NUL byte at offset 1");
    expectSame(both(root, COMPACT), HIT);
    writeFileSync(path.join(root, "pool", "blob.tf"), "# now text\n");
    const fixed = both(root, COMPACT);
    expect(split(fixed.cached.stderr).cache).toEqual([`linted pool (${path.join(root, "pool", "blob.tf")} changed)`, "0 reused, 1 linted"]);
    expect(fixed.cached.code).toBe(0);
  });

  it("a module file that is a symbolic link: pointing it elsewhere is a change", () => {
    const root = repo();
    writeTree(root, { "pool/shared/a.txt": 'variable "alpha" {\n  type = string\n}\n', "pool/shared/b.txt": 'variable "beta" {\n  type = string\n}\n' });
    symlinkSync(path.join("..", "..", "shared", "a.txt"), path.join(root, "pool", "modules", "tags", "linked.tf"));
    const cold = both(root, COMPACT);
    expectSame(cold, MISS);
    expect(cold.fresh.stdout).toBe(MOTD + "pool/modules/tags/linked.tf:1:1: warning: variable alpha [acme/variables]\n" + TEAM);
    expectSame(both(root, COMPACT), HIT);
    unlinkSync(path.join(root, "pool", "modules", "tags", "linked.tf"));
    symlinkSync(path.join("..", "..", "shared", "b.txt"), path.join(root, "pool", "modules", "tags", "linked.tf"));
    const r = both(root, COMPACT);
    expect(split(r.cached.stderr).cache).toEqual([`linted pool (${path.join(root, "pool", "modules", "tags", "linked.tf")} changed)`, "0 reused, 1 linted"]);
    expect(r.cached.stdout).toBe(r.fresh.stdout);
    expect(r.fresh.stdout).toBe(MOTD + "pool/modules/tags/linked.tf:1:1: warning: variable beta [acme/variables]\n" + TEAM);
  });
});

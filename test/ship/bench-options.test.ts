/**
 * bench/run.mjs's options (bench/options.mjs), the scale sections' writing
 * into RESULTS.md, and one quick end-to-end run of `--only dirs --corpus DIR`
 * on a tiny directory. Benchmarks are never timed tests: nothing here
 * asserts a speed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { BenchUsageError, parseBenchArgs } from "../../bench/options.mjs";
import { BEGIN, END, corpusFiles, renderScaleSections, writeScaleSections } from "../../bench/scale.mjs";
import { cleanEnv, cleanup, ROOT, run, tempDir } from "./helpers.js";

describe("parseBenchArgs", () => {
  it("has defaults, and --quick lowers the repetitions", () => {
    expect(parseBenchArgs([], "/w")).toEqual({ quick: false, runs: 5, write: true, coldOnly: false, corpora: [], only: null });
    expect(parseBenchArgs(["--quick"], "/w")).toEqual({ quick: true, runs: 3, write: true, coldOnly: false, corpora: [], only: null });
    expect(parseBenchArgs(["--cold-only"], "/w").coldOnly).toBe(true);
  });

  it("reads --runs, --no-write, repeated --corpus (resolved against the cwd) and --only", () => {
    expect(parseBenchArgs(["--runs", "7", "--no-write", "--corpus", "mods", "--corpus", "/abs/x", "--only", "dirs, bigfile"], "/w")).toEqual({
      quick: false,
      runs: 7,
      write: false,
      coldOnly: false,
      corpora: ["/w/mods", "/abs/x"],
      only: ["dirs", "bigfile"],
    });
  });

  it.each([
    [["--frob"], 'unknown option "--frob"'],
    [["--runs", "0"], '--runs wants a whole number above 0, not "0"'],
    [["--runs", "2.5"], '--runs wants a whole number above 0, not "2.5"'],
    [["--corpus"], "--corpus needs a value"],
    [["--corpus", "--quick"], "--corpus needs a value"],
    [["--only", "parser,nope"], '--only: unknown section "nope" (sections: parser, dirs, heap, bigfile, deep)'],
    [["--only", ","], "--only needs at least one section (parser, dirs, heap, bigfile, deep)"],
    [["--only", "dirs"], "--only dirs needs at least one --corpus DIR"],
  ])("rejects %j", (argv, message) => {
    expect(() => parseBenchArgs(argv, "/w")).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(argv, "/w")).toThrow(message);
  });
});

describe("the scale sections", () => {
  let dir: string | undefined;
  beforeAll(() => {
    dir = tempDir("bench");
    mkdirSync(path.join(dir, "mods", "a", ".terraform", "modules"), { recursive: true });
    mkdirSync(path.join(dir, "mods", "b"), { recursive: true });
    writeFileSync(path.join(dir, "mods", "a", "main.tf"), 'resource "terraform_data" "x" {\n  input = "v"\n}\n');
    writeFileSync(path.join(dir, "mods", "a", "terragrunt.hcl"), 'inputs = {\n  n = 1\n}\n');
    writeFileSync(path.join(dir, "mods", "a", ".terraform", "modules", "skip.tf"), "x = 1\n");
    writeFileSync(path.join(dir, "mods", "b", "main.tf.json"), '{"locals": {"a": 1}}\n');
    writeFileSync(path.join(dir, "mods", "b", "README.md"), "not HCL\n");
  });
  afterAll(() => cleanup(dir));

  it("corpusFiles finds .tf, .hcl and .tf.json files and skips .terraform", () => {
    expect(corpusFiles(path.join(dir!, "mods")).map((f) => path.relative(dir!, f))).toEqual([
      path.join("mods", "a", "main.tf"),
      path.join("mods", "a", "terragrunt.hcl"),
      path.join("mods", "b", "main.tf.json"),
    ]);
  });

  it("writeScaleSections appends its block once, then replaces each section's own text and inserts new ones before the last", () => {
    const file = path.join(dir!, "RESULTS.md");
    writeFileSync(file, "# Benchmark results\n\nkept\n");
    writeScaleSections(file, [
      { id: "intro", markdown: "intro 1\n" },
      { id: "parser", markdown: "parser 1\n" },
      { id: "in-the-way", markdown: "why 1\n" },
    ]);
    const first = `${BEGIN}\n<!-- scale:intro -->\nintro 1\n<!-- /scale:intro -->\n\n<!-- scale:parser -->\nparser 1\n<!-- /scale:parser -->\n\n<!-- scale:in-the-way -->\nwhy 1\n<!-- /scale:in-the-way -->\n${END}`;
    expect(readFileSync(file, "utf8")).toBe(`# Benchmark results\n\nkept\n\n${first}\n`);
    expect(renderScaleSections([{ id: "x", markdown: "y\n\n" }])).toBe(`${BEGIN}\n<!-- scale:x -->\ny\n<!-- /scale:x -->\n${END}`);

    writeFileSync(file, readFileSync(file, "utf8") + "\n## after\n");
    writeScaleSections(file, [
      { id: "intro", markdown: "intro 2\n" },
      { id: "dir:mods", markdown: "mods 2\n" },
      { id: "in-the-way", markdown: "why 2\n" },
    ]);
    expect(readFileSync(file, "utf8")).toBe(
      `# Benchmark results\n\nkept\n\n${BEGIN}\n<!-- scale:intro -->\nintro 2\n<!-- /scale:intro -->\n\n<!-- scale:parser -->\nparser 1\n<!-- /scale:parser -->\n\n` +
        `<!-- scale:dir:mods -->\nmods 2\n<!-- /scale:dir:mods -->\n\n<!-- scale:in-the-way -->\nwhy 2\n<!-- /scale:in-the-way -->\n${END}\n\n## after\n`,
    );
  });

  it("`--only dirs --corpus DIR` measures the parser and tree-sitter-hcl on that directory, RESULTS.md untouched", () => {
    const before = readFileSync(path.join(ROOT, "bench", "RESULTS.md"), "utf8");
    const r = run(process.execPath, [path.join(ROOT, "bench", "run.mjs"), "--only", "dirs", "--corpus", path.join(dir!, "mods"), "--quick", "--no-write"], {
      cwd: ROOT,
      env: cleanEnv(),
      timeout: 60_000,
    });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## Scale: the parser, its heap, one 20 MB file\n[^]*\n### The parser on `--corpus mods`\n\nMeasured on a (loaded shared|quiet) machine on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(load average /);
    // Only the directory: not the generated corpus, the heap profile or the 20 MB file.
    expect(r.stdout).not.toContain("generated corpus");
    expect(r.stdout).not.toContain("### One 20 MB file");
    expect(r.stdout).toMatch(/\| `parseHcl` over all 3 files, 0\.00 MB \| \d+ ms = [\d.]+ MB\/s \(CPU \d+ ms = [\d.]+ MB per CPU-second; 0 diagnostics\) \| ≥ 40 MB\/s \| /);
    expect(r.stdout).toMatch(/\| Heap held by all 3 trees at once .* \| [\d.]+ MB = [\d.]+ bytes per source byte \| ≤ 12 \| /);
    expect(r.stdout).toContain("| `parseHcl` over the 2 native-syntax files only, 0.00 MB |");
    // tree-sitter-hcl is a devDependency: it must load and parse both native files without errors.
    expect(r.stdout).toMatch(
      /\| tree-sitter-hcl 1\.\d+\.\d+ \(`tree-sitter-terraform\.wasm`, ABI 14\) in web-tree-sitter 0\.25\.\d+, the same native files \| \d+ ms = [\d.]+ MB\/s \(CPU [\d.]+ MB per CPU-second; 0 files with ERROR nodes\); ours is \*\*[\d.]+×\*\* as fast/,
    );
    expect(r.stderr).toContain("bench: parser on `mods`: 3 files...\n");
    expect(readFileSync(path.join(ROOT, "bench", "RESULTS.md"), "utf8")).toBe(before);
  });

  it("a missing --corpus DIR and a bad option are clear errors (exit 2)", () => {
    const missing = run(process.execPath, [path.join(ROOT, "bench", "run.mjs"), "--only", "dirs", "--corpus", path.join(dir!, "nope")], { cwd: ROOT, env: cleanEnv() });
    expect(missing).toEqual({ code: 2, stdout: "", stderr: `bench: --corpus ${path.join(dir!, "nope")}: no such directory\n` });
    const bad = run(process.execPath, [path.join(ROOT, "bench", "run.mjs"), "--only", "everything"], { cwd: ROOT, env: cleanEnv() });
    expect(bad).toEqual({ code: 2, stdout: "", stderr: 'bench: --only: unknown section "everything" (sections: parser, dirs, heap, bigfile, deep)\n' });
  });
});

/**
 * Deep nesting through the whole CLI: Terraform accepts 1,000 levels of
 * brackets, objects, calls, templates, blocks and operator chains, and so
 * must the linter (parser, module model, graph, rules and formatters),
 * including --fix and --stdin. Beyond its limit (5,000 levels) it reports
 * one clear "Nesting too deep" error at the exact place, never a stack
 * overflow.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { fixtureFiles, hasStackTrace, parseDoc, REPO, runCli, tree } from "./helpers.js";

const N = 1000;

/** A locals block holding each kind of nesting N levels deep. */
const DEEP_LOCALS = [
  "locals {",
  `  brackets  = ${"[".repeat(N)}${"]".repeat(N)}`,
  `  parens    = ${"(".repeat(N)}1${")".repeat(N)}`,
  `  objects   = ${"{ a = ".repeat(N)}1${" }".repeat(N)}`,
  `  calls     = ${"max(".repeat(N)}1${")".repeat(N)}`,
  `  templates = ${'"${'.repeat(N)}x${'}"'.repeat(N)}`,
  `  sums      = ${"1 + ".repeat(N)}1`,
  `  choices   = ${"var.failure_domain == null ? 1 : ".repeat(N)}2`,
  `  fors      = ${"[for x in ".repeat(N)}[1]${" : x]".repeat(N)}`,
  `  splats    = var.captf_cluster${"[*].name".repeat(N)}`,
  "}",
  "",
].join("\n");

/** N nested blocks inside a resource. */
const DEEP_BLOCKS = `resource "terraform_data" "blocks" {\n${"  nested {\n".repeat(N)}${"  }\n".repeat(N)}}\n`;

/** A finding inside N levels of brackets: column 11 + N. */
const DEEP_CALL = (levels: number) => `resource "terraform_data" "deep" {\n  input = ${"[".repeat(levels)}timestamp()${"]".repeat(levels)}\n}\n`;

const DRIFT = (file: string, column: number) =>
  `${file}:2:${column}: warning: timestamp() gives terraform_data.deep "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]\n`;

function machine(extra: Record<string, string>): string {
  return tree({ ...fixtureFiles("machine"), ...extra });
}

describe(`${N} levels of nesting`, () => {
  it("lint clean, and a finding inside the nesting has its exact position (text and JSON)", () => {
    const dir = machine({ "deep.tf": DEEP_LOCALS, "blocks.tf": DEEP_BLOCKS, "drift.tf": DEEP_CALL(N) });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
    expect(r.stdout).toBe(DRIFT("drift.tf", 11 + N));
    expect(r.code).toBe(0);

    const text = runCli(["--role", "machine", "."], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`drift.tf\n  2:${11 + N}  warning  timestamp() gives terraform_data.deep`);

    const json = runCli(["--role", "machine", "--format", "json", "."], { cwd: dir });
    expect(json.code).toBe(0);
    expect(parseDoc(json.stdout).findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn}`)).toEqual([
      `drift/non-idempotent drift.tf:2:${11 + N}-2:${11 + N + "timestamp()".length}`,
    ]);
    for (const format of ["sarif", "junit", "checkstyle", "github"]) {
      const out = runCli(["--role", "machine", "--format", format, "."], { cwd: dir });
      expect(out.code, format).toBe(0);
      expect(hasStackTrace(out.stdout + out.stderr), format).toBe(false);
    }
  });

  it("--fix fixes the module that holds the deep file; --stdin lints deep text", () => {
    const dir = machine({
      "deep.tf": DEEP_LOCALS,
      "variables.tf": fixtureFiles("machine")["variables.tf"]!.replace(
        'variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}',
        'variable "bootstrap_data" {\n  type = string\n}',
      ),
    });
    const before = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(before.stdout).toMatch(/^variables\.tf:\d+:10: warning: Variable "bootstrap_data" carries .*\[input\/sensitive\]\n$/);
    const fixed = runCli(["--role", "machine", "--fix-unsafe", "--format", "compact", "."], { cwd: dir });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toBe("");
    expect(readFileSync(path.join(dir, "variables.tf"), "utf8")).toContain('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}');
    expect(readFileSync(path.join(dir, "deep.tf"), "utf8")).toBe(DEEP_LOCALS);

    const stdin = runCli(["--role", "machine", "--format", "compact", "--stdin", "--stdin-filename", "drift.tf"], { cwd: dir, input: DEEP_CALL(N) });
    expect(stdin.stdout).toBe(DRIFT("drift.tf", 11 + N));
    expect(stdin.code).toBe(0);
  });
});

describe("beyond the limit", () => {
  it("6,000 levels: one clear error where the 5,000th level opens, exit 1, no stack trace", () => {
    const dir = machine({ "drift.tf": DEEP_CALL(6000) });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
    expect(r.code).toBe(1);
    // The resource block is level 1 and brackets 1 to 4,999 are levels 2 to
    // 5,000: the 5,000th bracket (column 10 + 5,000) would be one too many.
    expect(r.stdout).toBe(
      "drift.tf:2:5010: error: Nesting too deep: Brackets, blocks and templates are nested more than 5000 levels deep here; the rest of the file was not parsed. Flatten the structure, for example with locals. [syntax/parse]\n",
    );
  });

  it("the same in JSON syntax", () => {
    const dir = machine({ "deep.tf.json": `{"locals": {"a": ${"[".repeat(6000)}${"]".repeat(6000)}}}` });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
    expect(r.code).toBe(1);
    // The root object, "locals" and 4,998 arrays are read; the 4,999th (column 17 + 4,999) is skipped.
    expect(r.stdout).toBe(
      "deep.tf.json:1:5016: error: Nesting too deep: Objects and arrays are nested more than 5000 levels deep here; this value is ignored. Flatten the structure. [syntax/parse]\n",
    );
  });
});

describe("the library API on a thread with a large stack", () => {
  it("parses and outlines 1,000 levels once setNestingLimit raises the limit (the default stays 256)", async () => {
    const lib = pathToFileURL(path.join(REPO, "dist", "index.js")).href;
    const code = `
      const { parentPort, workerData } = require("node:worker_threads");
      import(workerData.lib).then((lib) => {
        const n = ${N};
        const text = "a = " + "[".repeat(n) + "{ b = ".repeat(n) + "1 + ".repeat(n) + "1" + " }".repeat(n) + "]".repeat(n) + "\\n";
        const before = lib.parseHcl(text, "main.tf").diagnostics.map((d) => d.summary);
        lib.setNestingLimit(5000);
        const after = lib.parseHcl(text, "main.tf").diagnostics.map((d) => d.summary);
        const outline = lib.hclOutline(text, "main.tf");
        parentPort.postMessage({ default: lib.MAX_DEPTH, before, after, outlined: JSON.stringify(outline).length > 0 });
      });`;
    const reply = await new Promise((resolve, reject) => {
      const w = new Worker(code, { eval: true, workerData: { lib }, resourceLimits: { stackSizeMb: 64 } });
      w.on("message", resolve);
      w.on("error", reject);
    });
    expect(reply).toEqual({ default: 256, before: ["Nesting too deep"], after: [], outlined: true });
  });
});


/**
 * Deep nesting through the whole CLI: Terraform accepts any depth of
 * brackets, objects, calls, templates, blocks and operator chains, and so
 * must the linter (parser, module model, graph, rules and formatters),
 * including --fix and --stdin, on the main thread: never a stack overflow
 * and no "Nesting too deep" error. Every kind of nesting goes 25,000 levels
 * deep in one module (a recursion per level would overflow Node's ~1 MB
 * stack well before: the old parser stopped at 256, its worker at 5,000),
 * and a finding sits inside 100,000 levels of brackets.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { fixtureFiles, hasStackTrace, parseDoc, REPO, runCli, tree } from "./helpers.js";
import { deepBlocks, deepCall, deepLocals } from "../../bench/deep.mjs";

/** The depth of every kind of nesting at once (one module), and of the brackets around the finding. */
const N = 25_000;
const DEEPEST = 100_000;

/** A locals block holding each kind of nesting N levels deep (the bench's deep module has the same). */
const DEEP_LOCALS = deepLocals(N);

/** N nested blocks inside a resource. */
const DEEP_BLOCKS = deepBlocks(N);

/** A finding inside `levels` brackets: column 11 + levels. */
const DEEP_CALL = deepCall;

const DRIFT = (file: string, column: number) =>
  `${file}:2:${column}: warning: timestamp() gives terraform_data.deep "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]\n`;

function machine(extra: Record<string, string>): string {
  return tree({ ...fixtureFiles("machine"), ...extra });
}

describe("deep nesting through the CLI", () => {
  it(`every kind of nesting ${N} levels deep lints clean, and the finding inside ${DEEPEST} brackets has its exact position`, () => {
    const dir = machine({ "deep.tf": DEEP_LOCALS, "blocks.tf": DEEP_BLOCKS, "drift.tf": DEEP_CALL(DEEPEST) });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir, timeoutMs: 120_000 });
    expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe(DRIFT("drift.tf", 11 + DEEPEST));
    expect(r.code).toBe(0);
  });

  it(`every format, ${DEEPEST} levels`, () => {
    const dir = machine({ "blocks.tf": DEEP_BLOCKS, "drift.tf": DEEP_CALL(DEEPEST) });
    const text = runCli(["--role", "machine", "."], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`drift.tf\n  2:${11 + DEEPEST}  warning  timestamp() gives terraform_data.deep`);

    const json = runCli(["--role", "machine", "--format", "json", "."], { cwd: dir });
    expect(json.code).toBe(0);
    expect(parseDoc(json.stdout).findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn}`)).toEqual([
      `drift/non-idempotent drift.tf:2:${11 + DEEPEST}-2:${11 + DEEPEST + "timestamp()".length}`,
    ]);
    for (const format of ["sarif", "junit", "checkstyle", "github"]) {
      const out = runCli(["--role", "machine", "--format", format, "."], { cwd: dir });
      expect(out.code, format).toBe(0);
      expect(hasStackTrace(out.stdout + out.stderr), format).toBe(false);
      expect(out.stdout, format).toContain(String(11 + DEEPEST));
    }
  });

  it("--fix fixes the module that holds a deep file and leaves that file as it was; --stdin lints deep text", () => {
    const deep = DEEP_BLOCKS + `locals {\n  brackets = ${"[".repeat(DEEPEST)}${"]".repeat(DEEPEST)}\n}\n`;
    const dir = machine({
      "deep.tf": deep,
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
    expect(readFileSync(path.join(dir, "deep.tf"), "utf8")).toBe(deep);

    const stdin = runCli(["--role", "machine", "--format", "compact", "--stdin", "--stdin-filename", "drift.tf"], { cwd: dir, input: DEEP_CALL(DEEPEST) });
    expect(stdin.stdout).toBe(DRIFT("drift.tf", 11 + DEEPEST));
    expect(stdin.code).toBe(0);
  });
});

describe(`${DEEPEST} levels in JSON syntax`, () => {
  it("arrays, objects and an expression string lint clean", () => {
    const json = `{"locals": {"arrays": ${"[".repeat(DEEPEST)}${"]".repeat(DEEPEST)}, "objects": ${'{"a": '.repeat(DEEPEST)}1${"}".repeat(DEEPEST)}, "expr": "\${${"[".repeat(DEEPEST)}1${"]".repeat(DEEPEST)}}"}}\n`;
    const dir = machine({ "deep.tf.json": json, "drift.tf": DEEP_CALL(DEEPEST) });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
    expect(r.stdout).toBe(DRIFT("drift.tf", 11 + DEEPEST));
    expect(r.code).toBe(0);
  });
});

describe("the library API on the main thread", () => {
  it(`parses and outlines ${DEEPEST} levels`, async () => {
    const lib = (await import(pathToFileURL(path.join(REPO, "dist", "index.js")).href)) as {
      parseHcl(text: string, file: string): { diagnostics: { summary: string }[] };
      hclOutline(text: string, file: string): unknown;
    };
    const n = DEEPEST / 4;
    const text = "a = " + "[".repeat(n) + "{ b = ".repeat(n) + "1 + ".repeat(n) + "(".repeat(n) + "1" + ")".repeat(n) + " }".repeat(n) + "]".repeat(n) + "\n";
    expect(lib.parseHcl(text, "main.tf").diagnostics).toEqual([]);
    expect(JSON.stringify(lib.hclOutline(text, "main.tf")).length).toBeGreaterThan(0);
  });
});

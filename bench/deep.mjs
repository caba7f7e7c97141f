// A module nested 100,000 levels deep, linted by the CLI in a child process:
// wall-clock time, peak RSS, and proof that it ran on the main thread (a
// preload module counts the worker threads the run starts). The module is
// examples/machine-aws plus deep.tf (every kind of nesting in a locals
// block, nested blocks, and a finding at the innermost level) and
// deep.tf.json, written into bench/deep/ (gitignored) when missing.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { measuredCliRun } from "./common.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
export const DEEP_DIR = path.join(BENCH, "deep");
export const DEEP_LEVELS = 100_000;

/**
 * A locals block holding each kind of nesting `n` levels deep (the deep
 * e2e test lints the same block: test/e2e/deep-nesting.test.ts).
 */
export function deepLocals(n) {
  return [
    "locals {",
    `  brackets  = ${"[".repeat(n)}${"]".repeat(n)}`,
    `  parens    = ${"(".repeat(n)}1${")".repeat(n)}`,
    `  objects   = ${"{ a = ".repeat(n)}1${" }".repeat(n)}`,
    `  calls     = ${"max(".repeat(n)}1${")".repeat(n)}`,
    `  templates = ${'"${'.repeat(n)}x${'}"'.repeat(n)}`,
    `  sums      = ${"1 + ".repeat(n)}1`,
    `  choices   = ${"var.failure_domain == null ? 1 : ".repeat(n)}2`,
    `  fors      = ${"[for x in ".repeat(n)}[1]${" : x]".repeat(n)}`,
    `  splats    = var.captf_cluster${"[*].name".repeat(n)}`,
    `  indexes   = var.captf_cluster${"[0]".repeat(n)}`,
    `  results   = max(1, 2)${"[0]".repeat(n)}`,
    `  nots      = ${"!".repeat(n)}true`,
    `  negatives = ${"- ".repeat(n)}1`,
    `  truthy    = ${"var.failure_domain == null ? ".repeat(n)}1${" : 2".repeat(n)}`,
    `  objfors   = ${"{for k, v in ".repeat(n)}{}${" : k => v}".repeat(n)}`,
    `  ifs       = "${"%{ if true }".repeat(n)}x${"%{ endif }".repeat(n)}"`,
    `  heredocs  = ${"<<EOT\n${".repeat(n)}x${"}\nEOT\n".repeat(n)}`,
    "}",
    "",
  ].join("\n");
}

/** `n` nested blocks inside a resource. */
export function deepBlocks(n) {
  return `resource "terraform_data" "blocks" {\n${"  nested {\n".repeat(n)}${"  }\n".repeat(n)}}\n`;
}

/** A timestamp() (drift/non-idempotent) inside `n` brackets: its column is 11 + n. */
export function deepCall(n) {
  return `resource "terraform_data" "deep" {\n  input = ${"[".repeat(n)}timestamp()${"]".repeat(n)}\n}\n`;
}

/** The module's extra files: each kind of nesting `n` levels deep, and a finding at the innermost level. */
export function deepFiles(n = DEEP_LEVELS) {
  const json = `{"locals": {"json_arrays": ${"[".repeat(n)}${"]".repeat(n)}, "json_objects": ${'{"a": '.repeat(n)}1${"}".repeat(n)}}}\n`;
  return { "deep.tf": deepLocals(n) + deepBlocks(n) + deepCall(n), "deep.tf.json": json };
}

function ensureDeepModule() {
  const files = deepFiles();
  const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
  const same = Object.entries(files).every(([f, t]) => existsSync(path.join(DEEP_DIR, f)) && readFileSync(path.join(DEEP_DIR, f), "utf8") === t);
  if (!same) {
    rmSync(DEEP_DIR, { recursive: true, force: true });
    mkdirSync(DEEP_DIR, { recursive: true });
    const example = path.join(ROOT, "examples", "machine-aws");
    for (const f of readdirSync(example)) if (f.endsWith(".tf")) copyFileSync(path.join(example, f), path.join(DEEP_DIR, f));
    for (const [f, t] of Object.entries(files)) writeFileSync(path.join(DEEP_DIR, f), t);
  }
  return { bytes };
}

/**
 * Runs `tfcapi-lint --role machine --format compact bench/deep` `runs` times.
 * @param {{ runs: number, env: NodeJS.ProcessEnv, outDir: string, log: (s: string) => void }} o
 */
export function benchDeep({ runs, env, outDir, log }) {
  const { bytes } = ensureDeepModule();
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const { ms, r, usage } = measuredCliRun({ args: ["--role", "machine", "--format", "compact", path.relative(ROOT, DEEP_DIR)], env, outDir, what: "the deep module" });
    const lines = String(r.stdout).split("\n").filter((l) => l !== "");
    rows.push({ ms, rssMB: usage.maxRSS / 1024, cpuMs: usage.cpuMs, workers: usage.workers, status: r.status, lines, stderr: String(r.stderr) });
    log(`bench: the deep module, run ${i + 1}/${runs}: ${(ms / 1000).toFixed(2)} s, peak RSS ${(usage.maxRSS / 1024).toFixed(0)} MB, exit ${r.status}, ${lines.length} findings, ${usage.workers} worker threads\n`);
  }
  return { bytes, rows };
}

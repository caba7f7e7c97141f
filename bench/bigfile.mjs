// One 20 MB module file, linted by the CLI in a child process: wall-clock
// time and peak RSS. The module is examples/machine-aws plus resources.tf,
// 190,000 small resources (the same shape as test/e2e/big-file.test.ts),
// written deterministically into bench/big/ (gitignored) when missing.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { measuredCliRun } from "./common.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
export const BIG_DIR = path.join(BENCH, "big");
export const BIG_RESOURCES = 190_000;

/** The text of resources.tf: every resource five lines; two of them call timestamp(). */
export function bigFileText(resources = BIG_RESOURCES) {
  const volatile = new Set([resources >> 1, resources - 1]);
  const parts = [];
  for (let i = 0; i < resources; i++) {
    const input = volatile.has(i) ? "timestamp()" : `"value-${i}"`;
    parts.push(`resource "terraform_data" "r${i}" {\n  input = ${input}\n  triggers_replace = { id = "id-${i}", n = ${i} }\n}\n\n`);
  }
  return parts.join("");
}

function ensureBigModule() {
  const file = path.join(BIG_DIR, "resources.tf");
  const text = bigFileText();
  if (existsSync(file) && statSync(file).size === Buffer.byteLength(text)) return { file, bytes: statSync(file).size };
  rmSync(BIG_DIR, { recursive: true, force: true });
  mkdirSync(BIG_DIR, { recursive: true });
  const example = path.join(ROOT, "examples", "machine-aws");
  for (const f of readdirSync(example)) if (f.endsWith(".tf")) copyFileSync(path.join(example, f), path.join(BIG_DIR, f));
  writeFileSync(file, text);
  return { file, bytes: Buffer.byteLength(text) };
}

/**
 * Runs `tfcapi-lint --role machine --format compact bench/big` `runs` times
 * (with `nodeArgs` before the script, e.g. a heap limit), measured by
 * common.mjs's measuredCliRun.
 * @param {{ runs: number, env: NodeJS.ProcessEnv, outDir: string, log: (s: string) => void, nodeArgs?: string[] }} o
 */
export function benchBigFile({ runs, env, outDir, log, nodeArgs = [] }) {
  const { bytes } = ensureBigModule();
  const label = nodeArgs.length > 0 ? ` (${nodeArgs.join(" ")})` : "";
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const { ms, r, usage } = measuredCliRun({ args: ["--role", "machine", "--format", "compact", path.relative(ROOT, BIG_DIR)], nodeArgs, env, outDir, what: "the 20 MB file" });
    if (r.status !== 0 && r.status !== 1) throw new Error(`bench: the 20 MB file: exit ${r.status} ${r.signal ?? ""}: ${String(r.stderr).slice(0, 2000)}`);
    const findings = String(r.stdout).split("\n").filter((l) => l !== "").length;
    rows.push({ ms, rssMB: usage.maxRSS / 1024, cpuMs: usage.cpuMs, status: r.status, findings });
    log(`bench: the 20 MB file${label}, run ${i + 1}/${runs}: ${(ms / 1000).toFixed(2)} s, peak RSS ${(usage.maxRSS / 1024).toFixed(0)} MB, exit ${r.status}, ${findings} findings\n`);
  }
  return { bytes, rows };
}

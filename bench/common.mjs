// What the bench scripts share: the median of their repetitions, the
// environment their child processes run in, and a CLI run with its usage.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ensureCorpus } from "./corpus.mjs";

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The environment of a child: no extra CA bundle (it slows TLS setup at start-up), no Node options, no colour. */
export function childEnv() {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  delete env.FORCE_COLOR;
  return env;
}

/**
 * What a bench script run on its own needs: the built dist/ (else exit 2),
 * the generated corpus under bench/corpus, the output folder and the
 * repetitions (argv[2], default 3).
 */
export function standaloneRun(bench) {
  if (!existsSync(path.join(bench, "..", "dist", "cli.js"))) {
    process.stderr.write("bench: dist/ is missing; run `npm run build` first\n");
    process.exit(2);
  }
  const corpus = path.join(bench, "corpus");
  ensureCorpus(corpus);
  const runs = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
  return { corpus, out: path.join(bench, ".out"), runs };
}

/**
 * Runs the CLI (`bin/tfcapi-lint.js` with `args`, from the repository root)
 * in a child process under a preload module that writes the child's own
 * `process.resourceUsage()` at exit, and counts the worker threads it
 * starts. `nodeArgs` go before the script (e.g. a heap limit); `what` names
 * the run in an error. Returns the wall-clock time, the child's result and
 * its usage: maxRSS in KiB, CPU in ms, workers.
 * @param {{ args: string[], nodeArgs?: string[], env: NodeJS.ProcessEnv, outDir: string, what: string }} o
 */
export function measuredCliRun({ args, nodeArgs = [], env, outDir, what }) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  mkdirSync(outDir, { recursive: true });
  const preload = path.resolve(outDir, "usage-preload.cjs");
  const usageFile = path.resolve(outDir, "usage.json");
  writeFileSync(
    preload,
    `"use strict";\nconst wt = require("node:worker_threads");\nconst Original = wt.Worker;\nlet workers = 0;\n` +
      `wt.Worker = class extends Original { constructor(...a) { super(...a); workers++; } };\n` +
      `process.on("exit", () => {\n  const u = process.resourceUsage();\n` +
      `  require("node:fs").writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify({ maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, workers }));\n});\n`,
  );
  rmSync(usageFile, { force: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...nodeArgs, "-r", preload, path.join(root, "bin", "tfcapi-lint.js"), ...args], { cwd: root, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (!existsSync(usageFile)) throw new Error(`bench: ${what}: exit ${r.status} ${r.signal ?? ""}: ${String(r.stderr).slice(0, 2000)}`);
  return { ms, r, usage: JSON.parse(readFileSync(usageFile, "utf8")) };
}

// The result cache (run by bench/run.mjs as (g), or on its own:
// `node bench/cache.mjs [runs]`, which generates the corpus when missing and
// prints JSON).
//
// `--recursive --cache` over the corpus from no cache file (cold: every
// module linted and stored) and again right after (warm: every module's
// stored result checked and reused), in pairs, so that machine noise hits
// both alike; medians of wall-clock time and their ratio. The reports of the
// cold run, the warm run and a run without --cache must be byte-identical
// (else the benchmark fails: the cache must not change the result).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, childEnv, standaloneRun } from "./common.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
const CLI = path.join(ROOT, "bin", "tfcapi-lint.js");

/** One `--recursive` run over `corpusDir` writing its JSON report to `out`; its wall-clock time. */
function lintOnce(corpusDir, out, extra) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, "--recursive", ...extra, "--format", "json", "--output-file", out, path.relative(ROOT, corpusDir)], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 1) throw new Error(`bench: --recursive ${extra.join(" ")} failed (exit ${r.status}): ${r.stderr}`);
  return ms;
}

/**
 * Times a cold and a warm `--recursive --cache` run over `corpusDir`, `runs`
 * pairs. Returns what bench/run.mjs tabulates.
 */
export function benchCache(corpusDir, outDir, runs) {
  mkdirSync(outDir, { recursive: true });
  const cacheFile = path.join(outDir, "bench.tfcapi-lint-cache");
  const args = ["--cache", "--cache-location", cacheFile];
  const cold = [];
  const warm = [];
  const reports = {};
  for (let i = 0; i < runs; i++) {
    rmSync(cacheFile, { force: true });
    cold.push(lintOnce(corpusDir, path.join(outDir, "cache-cold.json"), args));
    warm.push(lintOnce(corpusDir, path.join(outDir, "cache-warm.json"), args));
  }
  lintOnce(corpusDir, path.join(outDir, "cache-none.json"), []);
  for (const kind of ["cold", "warm", "none"]) reports[kind] = readFileSync(path.join(outDir, `cache-${kind}.json`), "utf8");
  if (reports.cold !== reports.none || reports.warm !== reports.none) {
    throw new Error(`bench: the reports with and without --cache differ (${outDir}/cache-*.json)`);
  }
  const coldMs = median(cold);
  const warmMs = median(warm);
  const entries = Object.keys(JSON.parse(readFileSync(cacheFile, "utf8")).entries).length;
  return { runs, coldMs, warmMs, speedup: coldMs / warmMs, entries, cacheBytes: readFileSync(cacheFile).length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { corpus, out, runs } = standaloneRun(BENCH);
  const loadBefore = os.loadavg();
  const result = benchCache(corpus, out, runs);
  process.stdout.write(JSON.stringify({ ...result, cores: os.cpus().length, loadBefore, loadAfter: os.loadavg() }, null, 2) + "\n");
}

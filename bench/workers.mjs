// `--recursive` over the corpus on one thread and on worker threads (run by
// bench/run.mjs, or on its own: `node bench/workers.mjs [runs]`, which
// generates the corpus when missing and prints JSON).
//
// The same run with `--jobs 1` (every module on the main thread) and with
// `--jobs N`, N = os.availableParallelism(), interleaved so that machine
// noise hits both alike; medians of wall-clock time, MB/s of module source,
// and the speed-up. The reports of both must be byte-identical (else the
// benchmark fails: workers must not change the result).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CORPUS_VERSION, generateCorpus } from "./corpus.mjs";
import { median, childEnv } from "./common.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
const CLI = path.join(ROOT, "bin", "tfcapi-lint.js");

function moduleBytes(dir) {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) n += moduleBytes(p);
    else if (/\.(tf|tofu)(\.json)?$/.test(entry.name)) n += statSync(p).size;
  }
  return n;
}

/**
 * Times `--recursive --format json` over `corpusDir` with --jobs 1 and with
 * one job per core, `runs` times each. Returns what bench/run.mjs tabulates.
 */
export function benchWorkers(corpusDir, outDir, runs) {
  mkdirSync(outDir, { recursive: true });
  const jobs = os.availableParallelism();
  const mb = moduleBytes(corpusDir) / 1e6;
  const times = { 1: [], [jobs]: [] };
  const reports = {};
  for (let i = 0; i < runs; i++) {
    for (const j of [1, jobs]) {
      const out = path.join(outDir, `workers-${j}.json`);
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [CLI, "--recursive", "--jobs", String(j), "--format", "json", "--output-file", out, path.relative(ROOT, corpusDir)], {
        cwd: ROOT,
        env: childEnv(),
        stdio: ["ignore", "ignore", "pipe"],
      });
      const ms = performance.now() - t0;
      if (r.error) throw r.error;
      if (r.status !== 0 && r.status !== 1) throw new Error(`bench: --recursive --jobs ${j} failed (exit ${r.status}): ${r.stderr}`);
      times[j].push(ms);
      reports[j] = readFileSync(out, "utf8");
    }
  }
  if (reports[1] !== reports[jobs]) throw new Error(`bench: --jobs 1 and --jobs ${jobs} gave different reports (${outDir}/workers-*.json)`);
  const oneMs = median(times[1]);
  const allMs = median(times[jobs]);
  return { jobs, mb, runs, oneMs, allMs, oneMBs: mb / (oneMs / 1000), allMBs: mb / (allMs / 1000), speedup: oneMs / allMs };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!existsSync(path.join(ROOT, "dist", "cli.js"))) {
    process.stderr.write("bench: dist/ is missing; run `npm run build` first\n");
    process.exit(2);
  }
  const corpus = path.join(BENCH, "corpus");
  const manifest = path.join(corpus, ".manifest.json");
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).version !== CORPUS_VERSION) {
    process.stderr.write("bench: generating the corpus...\n");
    writeFileSync(manifest, JSON.stringify({ version: CORPUS_VERSION, ...generateCorpus(corpus) }, null, 2));
  }
  const runs = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
  const loadBefore = os.loadavg();
  const result = benchWorkers(corpus, path.join(BENCH, ".out"), runs);
  process.stdout.write(JSON.stringify({ ...result, cores: os.cpus().length, loadBefore, loadAfter: os.loadavg() }, null, 2) + "\n");
}

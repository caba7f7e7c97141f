// Benchmarks of the built CLI and parser (not a test: `npm run bench`).
//
//   (a) cold start: `node bin/tfcapi-lint.js examples/machinepool-aws` against
//       `node -e ""`, interleaved in the same run, medians and their ratio;
//       and the same for a large cluster module (bench/large-module.mjs:
//       ~88 KB of .tf in 40 files);
//   (b) `--recursive` over the whole corpus, MB/s of module source;
//   (c) peak RSS of that run (the child reports its own maxRSS);
//   (d) parseHcl over every corpus file in one fresh process, MB/s, against reading
//       the same files;
//   (e) the language server's warm re-lint latency on the example modules,
//       edit to diagnostics on an idle server and in a burst, with the
//       default settings (bench/lsp.mjs);
//   (f) `--recursive` over the corpus with --jobs 1 and with one worker per
//       core, MB/s and the speed-up (bench/workers.mjs; issue 13's item 5e),
//       and the crossover: runs of 2 to 500 modules with --jobs 1, --jobs 2
//       and the default, on every core and on one (where workers pay);
//   (g) `--recursive --cache` over the corpus from no cache file (cold) and
//       right after (warm), and their ratio (bench/cache.mjs; issue 20);
// and the scale sections of bench/scale.mjs (the parser on the generated
// corpus and on any --corpus DIR with tree-sitter-hcl as a reference, where its
// heap goes, one 20 MB file, a module nested 100,000 levels deep).
//
// Writes bench/RESULTS.md. Options (bench/options.mjs): --quick (fewer
// repetitions), --runs N (repetitions of (b)-(d), default 5), --no-write,
// --corpus DIR, --only SECTIONS (only those of bench/scale.mjs, written into
// RESULTS.md in place of their previous text), --cold-only (only (a), printed,
// nothing written: for a quick look on a busy machine).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { CORPUS_VERSION, ensureCorpus } from "./corpus.mjs";
import { ensureLargeModule } from "./large-module.mjs";
import { benchLsp } from "./lsp.mjs";
import { BenchUsageError, parseBenchArgs } from "./options.mjs";
import { renderScaleSections, runScaleSections, writeScaleSections } from "./scale.mjs";
import { benchCrossover, benchWorkers, crossoverTable } from "./workers.mjs";
import { benchCache } from "./cache.mjs";
import { median, childEnv } from "./common.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, "..");
const CORPUS = path.join(BENCH, "corpus");
const OUT = path.join(BENCH, ".out");
const CLI = path.join(ROOT, "bin", "tfcapi-lint.js");
const TYPICAL = "examples/machinepool-aws";

const TARGETS = { coldRatio: 1.5, largeColdRatio: 1.7, recursiveMBs: 10, peakRssMB: 200, parseMBs: 40, lspWorkMs: 20, lspIdleMs: 20, cacheSpeedup: 10 };

let opts;
try {
  opts = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof BenchUsageError)) throw err;
  process.stderr.write(`bench: ${err.message}\n`);
  process.exit(2);
}
const QUICK = opts.quick;
const RUNS = opts.runs;
const COLD_ONLY = opts.coldOnly;
const COLD_RUNS = QUICK ? 11 : 31;

/**
 * The cold start's environment: as a user's shell has it (NO_COLOR unset:
 * setting it would skip work a real start does), without the extra CA
 * bundle and NODE_OPTIONS.
 */
function coldEnv() {
  const env = childEnv();
  delete env.NO_COLOR;
  return env;
}

function timeChild(args, opts = {}) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env: childEnv(), stdio: ["ignore", "ignore", "pipe"], ...opts });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  return { ms, status: r.status, stderr: String(r.stderr ?? "") };
}

function moduleFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) moduleFiles(p, out);
    else if (/\.(tf|tofu)(\.json)?$/.test(entry.name)) out.push(p);
  }
  return out;
}


function cpuModel() {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8").split("\n").find((l) => l.startsWith("model name"));
    if (line) return line.split(":")[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? "unknown";
}

// ---------------------------------------------------------------------------

if (!existsSync(path.join(ROOT, "dist", "cli.js"))) {
  process.stderr.write("bench: dist/ is missing; run `npm run bench` (it builds first)\n");
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });

/** The scale sections (bench/scale.mjs); a bad --corpus DIR is a clear error, not a stack trace. */
function scaleSections() {
  try {
    return runScaleSections(opts, { corpusFiles: () => (ensureCorpus(CORPUS), moduleFiles(CORPUS).sort()), env: childEnv(), log: (s) => process.stderr.write(s), outDir: OUT });
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}
if (opts.only) {
  const sections = scaleSections();
  if (opts.write) writeScaleSections(path.join(BENCH, "RESULTS.md"), sections);
  process.stdout.write(sections.map((s) => s.markdown).join("\n"));
  process.exit(0);
}

// (a) Cold start: `node -e ""` and the CLI alternate, so that whatever else
// the machine is doing slows both alike; the ratio of the medians is the
// measure, the absolute times move with the machine's load.
// The module linted is one that lints clean (exit 0).
function coldStart(moduleDir = TYPICAL) {
  const typical = timeChild([CLI, moduleDir], { env: coldEnv() });
  if (typical.status !== 0) throw new Error(`bench: ${moduleDir} should lint clean (exit ${typical.status}): ${typical.stderr}`);
  timeChild(["-e", ""], { env: coldEnv() });
  const nodeTimes = [];
  const cliTimes = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    nodeTimes.push(timeChild(["-e", ""], { env: coldEnv() }).ms);
    cliTimes.push(timeChild([CLI, moduleDir], { env: coldEnv() }).ms);
  }
  const nodeMs = median(nodeTimes);
  const cliMs = median(cliTimes);
  return { nodeMs, cliMs, coldRatio: cliMs / nodeMs, nodeMin: Math.min(...nodeTimes), cliMin: Math.min(...cliTimes) };
}

/** The large module of (a), written into bench/large/ when missing. */
function largeModule() {
  const m = ensureLargeModule();
  return { ...m, rel: path.relative(ROOT, m.dir) };
}

if (COLD_ONLY) {
  const load = os.loadavg();
  const large = largeModule();
  for (const [dir, target] of [
    [TYPICAL, TARGETS.coldRatio],
    [large.rel, TARGETS.largeColdRatio],
  ]) {
    const c = coldStart(dir);
    process.stdout.write(
      `cold start, ${COLD_RUNS} interleaved runs each (load average ${load.map((l) => l.toFixed(2)).join(" ")}):\n` +
        `  node -e ""                     median ${c.nodeMs.toFixed(1)} ms (min ${c.nodeMin.toFixed(1)})\n` +
        `  tfcapi-lint ${dir}  median ${c.cliMs.toFixed(1)} ms (min ${c.cliMin.toFixed(1)})\n` +
        `  ratio ${c.coldRatio.toFixed(2)} (target ≤ ${target})\n`,
    );
  }
  process.exit(0);
}

const corpus = ensureCorpus(CORPUS);
const files = moduleFiles(CORPUS).sort();
const corpusBytes = files.reduce((n, f) => n + statSync(f).size, 0);
const corpusMB = corpusBytes / 1e6;
const loadBefore = os.loadavg();
process.stderr.write(`bench: ${files.length} module files, ${corpusMB.toFixed(2)} MB; load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")}\n`);

// (a) Cold start, on a typical module and on a large one.
const { nodeMs, cliMs, coldRatio } = coldStart();
process.stderr.write(`bench: (a) node -e "" ${nodeMs.toFixed(1)} ms, lint ${TYPICAL} ${cliMs.toFixed(1)} ms, ratio ${coldRatio.toFixed(2)}\n`);
const large = largeModule();
const largeCold = coldStart(large.rel);
process.stderr.write(`bench: (a) node -e "" ${largeCold.nodeMs.toFixed(1)} ms, lint ${large.rel} ${largeCold.cliMs.toFixed(1)} ms, ratio ${largeCold.coldRatio.toFixed(2)}\n`);

// (b) + (c) Recursive over the corpus; the probe runs the CLI's main() and
// writes process.resourceUsage().maxRSS (KiB) when it is done.
const probe = path.join(OUT, "rss-probe.mjs");
writeFileSync(
  probe,
  `import { writeFileSync } from "node:fs";\n` +
    `import { main } from ${JSON.stringify(pathToFileURL(path.join(ROOT, "dist", "cli.js")).href)};\n` +
    `const code = await main(process.argv.slice(2));\n` +
    `const u = process.resourceUsage();\n` +
    `writeFileSync(process.env.TFCAPI_LINT_RSS_FILE, JSON.stringify({ maxRSS: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));\n` +
    `process.exitCode = code;\n`,
);
const rssFile = path.join(OUT, "rss.txt");
const recursiveTimes = [];
const rssKiB = [];
const recursiveCpu = [];
let recursiveStatus = null;
for (let i = 0; i < RUNS; i++) {
  rmSync(rssFile, { force: true });
  const r = timeChild([probe, "--recursive", "--format", "json", "--output-file", path.join(OUT, "corpus-report.json"), path.relative(ROOT, CORPUS)], {
    env: { ...childEnv(), TFCAPI_LINT_RSS_FILE: rssFile },
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`bench: --recursive failed (exit ${r.status}): ${r.stderr}`);
  recursiveStatus = r.status;
  recursiveTimes.push(r.ms);
  const usage = JSON.parse(readFileSync(rssFile, "utf8"));
  rssKiB.push(usage.maxRSS);
  recursiveCpu.push(usage.cpuMs);
}
const report = [].concat(JSON.parse(readFileSync(path.join(OUT, "corpus-report.json"), "utf8")));
const recursiveMs = median(recursiveTimes);
const recursiveMBs = corpusMB / (recursiveMs / 1000);
const peakRssMB = Math.max(...rssKiB) / 1024;
const recursiveCpuMs = median(recursiveCpu);
process.stderr.write(`bench: (b) --recursive ${report.length} modules in ${recursiveMs.toFixed(0)} ms = ${recursiveMBs.toFixed(1)} MB/s; (c) peak RSS ${peakRssMB.toFixed(1)} MB\n`);

// (d) Parser throughput, in a fresh process (bench/parse.mjs).
const parseRun = spawnSync(process.execPath, [path.join(BENCH, "parse.mjs"), String(RUNS)], {
  cwd: ROOT,
  env: childEnv(),
  input: files.join("\n") + "\n",
  stdio: ["pipe", "pipe", "inherit"],
  maxBuffer: 16 * 1024 * 1024,
});
if (parseRun.status !== 0) throw new Error(`bench/parse.mjs failed with status ${parseRun.status}`);
const parsed = JSON.parse(String(parseRun.stdout));
const readTimes = parsed.read;
const parseTimes = parsed.parse;
const parseCpu = parsed.cpu;
const diagnostics = parsed.diagnostics;
const readMs = median(readTimes);
const parseMs = median(parseTimes);
const parseMBs = corpusMB / (parseMs / 1000);
const readMBs = corpusMB / (readMs / 1000);
const parseCpuMs = median(parseCpu);
process.stderr.write(`bench: (d) parse ${parseMs.toFixed(0)} ms = ${parseMBs.toFixed(1)} MB/s; read ${readMs.toFixed(0)} ms = ${readMBs.toFixed(1)} MB/s; ${diagnostics} diagnostics\n`);

// (e) Language server: warm re-lint latency, edit to diagnostics.
const lsp = await benchLsp(QUICK ? 20 : 40);
const lspWork = Math.max(...lsp.rows.map((r) => r.workMedian));
const lspIdle = Math.max(...lsp.rows.map((r) => r.idleMedian));
for (const r of lsp.rows) {
  process.stderr.write(
    `bench: (e) lsp ${r.module}: work ${r.workMedian.toFixed(1)} ms (CPU ${r.cpuMedian.toFixed(1)}), idle edit to diagnostics ${r.idleMedian.toFixed(1)} ms, in a burst ${r.burstMedian.toFixed(1)} ms\n`,
  );
}
const lspRows = lsp.rows
  .map(
    (r) =>
      `| \`${r.module}\` | ${r.workMedian.toFixed(1)} ms (p90 ${r.workP90.toFixed(1)}; CPU ${r.cpuMedian.toFixed(1)}) | ${r.idleMedian.toFixed(1)} ms (p90 ${r.idleP90.toFixed(1)}) | ${r.burstMedian.toFixed(1)} ms (p90 ${r.burstP90.toFixed(1)}) |`,
  )
  .join("\n");

// The scale sections: the parser with tree-sitter-hcl, its heap, the 20 MB file.
const scale = scaleSections();

// ---------------------------------------------------------------------------

// (f) --recursive on one thread and on every core (bench/workers.mjs).
const workers = benchWorkers(CORPUS, OUT, RUNS);
process.stderr.write(`bench: (f) --recursive --jobs 1 ${workers.oneMBs.toFixed(1)} MB/s, --jobs ${workers.jobs} ${workers.allMBs.toFixed(1)} MB/s (${workers.speedup.toFixed(2)}×)\n`);
const crossover = benchCrossover(CORPUS, OUT, QUICK ? 1 : 3);
// The default against --jobs 1 over all the crossover runs together (one row alone is noisier).
const sum = (f) => crossover.rows.reduce((n, r) => n + f(r), 0);
const defaultRatio = sum((r) => r.default.wallMs) / sum((r) => r.one.wallMs);
process.stderr.write(`bench: (f) crossover: the default takes ${defaultRatio.toFixed(2)}× the time of --jobs 1\n`);

// (g) --recursive --cache, cold and warm (bench/cache.mjs).
const cache = benchCache(CORPUS, OUT, RUNS);
process.stderr.write(`bench: (g) --recursive --cache cold ${cache.coldMs.toFixed(0)} ms, warm ${cache.warmMs.toFixed(0)} ms (${cache.speedup.toFixed(1)}×)\n`);

const loadAfter = os.loadavg();
const pass = (ok) => (ok ? "met" : "**missed**");
const results = `# Benchmark results

Generated by \`npm run bench\` (\`bench/run.mjs\`); do not edit by hand.

| | |
| --- | --- |
| Date | ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC |
| Machine | ${cpuModel()}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()} |
| Load average (1/5/15 min) | before ${loadBefore.map((l) => l.toFixed(2)).join(" / ")}, after ${loadAfter.map((l) => l.toFixed(2)).join(" / ")} |
| Node.js | ${process.version} |
| tfcapi-lint | ${JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version} (bundled \`dist/\`) |
| Corpus | ${corpus.modules} modules, ${files.length} module files (\`.tf\`, \`.tf.json\`, \`.tofu\`), ${corpusMB.toFixed(2)} MB; generator v${CORPUS_VERSION} |
| Repetitions | cold start ${COLD_RUNS} (interleaved), others ${RUNS} (medians) |

| Measure | Result | Target | |
| --- | --- | --- | --- |
| (a) Cold start, \`node bin/tfcapi-lint.js ${TYPICAL}\` | ${cliMs.toFixed(1)} ms = ${coldRatio.toFixed(2)}× \`node -e ""\` (${nodeMs.toFixed(1)} ms) | ≤ ${TARGETS.coldRatio.toFixed(1)}× | ${pass(coldRatio <= TARGETS.coldRatio)} |
| (a) Cold start on a large cluster module, \`node bin/tfcapi-lint.js ${large.rel}\` (\`bench/large-module.mjs\`: ${large.files} files, ${(large.bytes / 1000).toFixed(1)} KB) | ${largeCold.cliMs.toFixed(1)} ms = ${largeCold.coldRatio.toFixed(2)}× \`node -e ""\` (${largeCold.nodeMs.toFixed(1)} ms) | ≤ ${TARGETS.largeColdRatio.toFixed(1)}× | ${pass(largeCold.coldRatio <= TARGETS.largeColdRatio)} |
| (b) \`--recursive\` over the corpus (${report.length} modules, exit ${recursiveStatus}) | ${recursiveMs.toFixed(0)} ms = ${recursiveMBs.toFixed(1)} MB/s (CPU ${recursiveCpuMs.toFixed(0)} ms = ${(corpusMB / (recursiveCpuMs / 1000)).toFixed(1)} MB per CPU-second) | ≥ ${TARGETS.recursiveMBs} MB/s | ${pass(recursiveMBs >= TARGETS.recursiveMBs)} |
| (c) Peak RSS of (b) | ${peakRssMB.toFixed(1)} MB | ≤ ${TARGETS.peakRssMB} MB | ${pass(peakRssMB <= TARGETS.peakRssMB)} |
| (d) \`parseHcl\` over every corpus file, one process (\`bench/parse.mjs\`) | ${parseMs.toFixed(0)} ms = ${parseMBs.toFixed(1)} MB/s (CPU ${parseCpuMs.toFixed(0)} ms = ${(corpusMB / (parseCpuMs / 1000)).toFixed(1)} MB per CPU-second; ${diagnostics} diagnostics) | ≥ ${TARGETS.parseMBs} MB/s | ${pass(parseMBs >= TARGETS.parseMBs)} |
| (d) Reading the same files (\`readFileSync\`) | ${readMs.toFixed(0)} ms = ${readMBs.toFixed(1)} MB/s; parsing costs ${(parseMs / readMs).toFixed(1)}× reading | | |
| (e) Language server, warm re-lint of an example module: work (slowest module's median) | ${lspWork.toFixed(1)} ms | ≤ ${TARGETS.lspWorkMs} ms | ${pass(lspWork <= TARGETS.lspWorkMs)} |
| (e) Language server, edit to diagnostics on an idle server, default settings (slowest module's median) | ${lspIdle.toFixed(1)} ms | ≤ ${TARGETS.lspIdleMs} ms | ${pass(lspIdle <= TARGETS.lspIdleMs)} |
| (f) \`--recursive --jobs 1\` over the corpus (every module on the main thread) | ${workers.oneMs.toFixed(0)} ms = ${workers.oneMBs.toFixed(1)} MB/s | | |
| (f) \`--recursive --jobs ${workers.jobs}\` (one worker thread per core; the same report, byte for byte) | ${workers.allMs.toFixed(0)} ms = ${workers.allMBs.toFixed(1)} MB/s, ${workers.speedup.toFixed(2)}× --jobs 1 | ≥ ${TARGETS.recursiveMBs} MB/s | ${pass(workers.allMBs >= TARGETS.recursiveMBs)} |
| (f) The default \`--jobs\` against \`--jobs 1\`: wall-clock time over all the crossover runs below | ${defaultRatio.toFixed(2)}× | never slower (≤ 1.05×, the noise) | ${pass(defaultRatio <= 1.05)} |
| (g) \`--recursive --cache\` over the corpus, cold (no cache file: every module linted and stored) | ${cache.coldMs.toFixed(0)} ms | | |
| (g) \`--recursive --cache\`, warm (every module's stored result checked and reused; ${cache.entries} entries, ${(cache.cacheBytes / 1e6).toFixed(1)} MB of cache file; the same report as without the cache, byte for byte) | ${cache.warmMs.toFixed(0)} ms = ${cache.speedup.toFixed(1)}× faster than cold | ≥ ${TARGETS.cacheSpeedup}× | ${pass(cache.speedup >= TARGETS.cacheSpeedup)} |

Method: wall-clock times of child processes started with \`NODE_EXTRA_CA_CERTS\`
and \`NODE_OPTIONS\` unset (and for (a) \`NO_COLOR\` unset, as in a user's shell); (c) is \`process.resourceUsage().maxRSS\` reported by
the CLI process itself at exit, with its CPU time; (d) runs in a fresh process
after two warm-up passes. Targets are judged on wall-clock time. A loaded machine (load average
above its core count) inflates wall-clock times; the CPU-time figures are
less sensitive to it.

## (e) Language server latency per module

\`bench/lsp.mjs\` starts \`tfcapi-lint lsp --stdio\` with the default settings
(debounce ${lsp.debounceMs} ms) through vscode-jsonrpc, opens the module's
\`outputs.tf\`, warms up with ${lsp.warmup} edits, then times ${lsp.edits} unsaved edits
(a comment line inserted at the top, then removed: every finding of the file
moves) until the diagnostics of that document version arrive. *Work* is the
server's own time for the run (\`tfcapi-lint/stats\`: wall-clock, and CPU);
the edit-to-diagnostics columns are measured by the client: an *idle* edit
is sent ${lsp.debounceMs} + 25 ms after the previous diagnostics (the server
lints it at once), an edit *in a burst* 10 ms after them (within the window
after a run: the server waits the debounce first). Medians, with the 90th
percentile.

| Module | Work | Edit to diagnostics, idle | Edit to diagnostics, in a burst |
| --- | --- | --- | --- |
${lspRows}

A warm run parses only the edited file again (the server keeps the other
files' syntax trees while their text is unchanged), then builds the module
model and runs the rules on the whole module.

## (f) Worker threads: where they pay

\`bench/workers.mjs\` (\`benchCrossover\`) lints the first N modules of the
corpus with \`--recursive\`, with \`--jobs 1\`, \`--jobs 2\` and the default,
${crossover.runs} times each, interleaved, on every core and pinned to one core
(\`taskset -c 0\`); medians of wall-clock time and of CPU time (the
children's user and system time). The three reports must be the same. The
default starts workers only from 4 usable cores (the CPU affinity, within
the cgroup's CPU quota), with at least 1 MB of module source and 2 modules
per worker (\`src/cli/jobs.ts\`); on this machine it lints every run on the
main thread.

${crossoverTable(crossover)}

${renderScaleSections(scale)}

## What stands in the way of the missed targets

Profiles taken with \`node --cpu-prof\` on this machine (2026-12-01):

- **(a) cold start, 2026-12-02 (issue 21 part 6: ≤ 1.5× on one module,
  ≤ 1.7× on a large one).** Main-thread instructions under callgrind (the
  all-threads count moved by ±10% between runs of the same build on a
  loaded machine: TurboFan and the parallel scavenger run on helper
  threads): \`examples/machinepool-aws\` ~195–203 M, the large module
  \`bench/large\` (\`bench/large-module.mjs\`: 40 files, 88 KB, a cluster
  module) ~450–477 M, \`node -e ""\` ~80 M. The large module is not a
  start-up problem: linted again in the same process it still costs about
  as much as Node's whole start. Of that warm run, parsing is ~17% and the
  cluster rules' analyses about half (\`cluster/lb-hairpin\` and
  \`cluster/sg-control-plane-ports\` expanding the instances of every
  resource); \`constantValue\` (\`src/hcl/walk.ts\`) was ~15%, nearly all
  of it V8 capturing a stack trace for every \`Unknown\` error it throws
  to say "not a constant": throwing one preallocated instance instead gave
  −5% main-thread instructions cold, ~−15% warm, the same outputs (left to
  the \`src/hcl\` rework). Tried and not kept: training the code cache on
  \`examples/cluster-aws\` too (cache 759 → 925 KB): the large module −26 M
  (−6%), a machine pool module +15 M (+7%). The findings below (2026-12-01)
  still hold for the one-module start.
- **(a) cold start** (measured 2026-12-01). Instructions are the measure that the load
  does not move: \`node bench/cold-instructions.mjs\` (callgrind, 5
  interleaved runs, all threads): \`node -e ""\` 83–84 M, the clean module
  204–206 M (2.4–2.5×; main thread alone 189 M), the module with findings
  178–179 M (2.1×). Interleaved wall-clock times fit ≈ 7.7 ms + 0.2 ms per
  million instructions, so 1.6× means ≈ 160 M: ~45 M (40% of what is above
  bare Node) less than today. **Missed.** Where the ~120 M above bare
  Node go, measured by stopping a run after each step (medians):

  | Step | Instructions |
  | --- | --- |
  | bin shim and loader, reading \`dist/cli.cjs\` (435 KB) and \`dist/cli.cache\` (596 KB), deserialising the cache | +16 M (deserialising 11 M) |
  | evaluating the bundle's modules (rule registration, tables) | +7 M |
  | \`util.parseArgs\` (its functions compile on first call) | +2 M |
  | options, config lookup, plans | +2 M |
  | loading the module: reading 4 files, parsing 10 KB, the module model | +56–60 M, ~17 M of it on V8's helper threads |
  | rules | +25 M |
  | suppressions, sorting, the text report, writing, exit | +8 M |

  By kind (callgrind, whole run): Sparkplug compiling the hot functions
  (\`lex\`, \`finishBlock\`, \`parseTraversals\`, \`parseTerm\`, \`lintSteps\`...)
  ~17 M on the main thread; TurboFan optimising the smallest hottest ones
  (\`pos\`, \`peek\`, \`read\`, \`isAsciiIdCont\`) ~15 M on a helper thread; Node's
  own functions compiled on first call (\`node:fs\`, \`node:path\`, \`node:vm\`,
  \`util.parseArgs\`, \`TextDecoder\`; no cache of ours can hold them) ~10 M;
  scavenges ~4 M; the rest is the interpreter running the lint. Every
  function of \`dist/cli.cjs\` a one-module lint calls now comes from the
  cache (checked with \`--log-function-events\` under a cache trained with
  the same flags); the cache is 144 KB before any run, 208 KB after the
  modules' evaluation, and the other ~390 KB are the bytecode of the lint
  itself, ~19 instructions per byte to load.
  Tried and not kept, measured each with the cache trained under the same
  conditions: V8 flags set at run time — \`require("node:v8")\` alone costs
  ~8 M (it loads the stream modules), the flags are part of V8's cache
  check (a cache made without them is rejected: +120 M), and with a cache
  trained under them none wins: \`--no-opt\`/\`--max-opt=1\` save ~12 M, all
  on the helper thread, and would slow \`--recursive\`; \`--no-sparkplug\`
  costs +11 M; \`--max-lazy\`, \`--no-lazy-feedback-allocation\`,
  \`--min-semi-space-size=16\`, \`--single-threaded-gc\`,
  \`--no-baseline-batch-compilation\`, a larger \`--interrupt-budget\` are
  within the noise (±3 M) or worse; \`--concurrent-sparkplug\` crashes Node
  20.20; \`process.binding("v8")\` would avoid the 8 M but prints a
  deprecation warning. A cache trained on the clean module only: −5 M for
  it, +8 M for a module with findings. Minified identifiers: −2 M (source
  435 → 332 KB; stack traces under \`TFCAPI_LINT_DEBUG\` unreadable). The bin
  shim doing the loader's work itself instead of requiring
  \`dist/cli-loader.cjs\`: ~1 M (9 interleaved runs; within the noise), for a second copy of the loader. \`process.exit()\` instead of \`exitCode\`: no
  change. Moving \`explain\`, \`rules\`, \`schema\` or the fix code into lazily
  evaluated chunks: a function that never runs costs only its share of the
  144 KB, well under 1 M for all of them. Done: the training run goes
  through the CLI's own input and output (the fd writes were compiled on
  every start). What would reach 1.6×: the cuts above in the CLI add up to
  ~3 M, ~5 M with an argument parser of our own in place of
  \`util.parseArgs\` (its ~2 M; the project prefers Node's own API); the
  other ~40 M must come from the lint's cold path — the first
  parse (the largest step; a lexer whose hot path is a few small functions
  and a smaller \`lex\` would cost Sparkplug and TurboFan less, and fewer
  objects per token fewer scavenges) and the rules (~25 M: one shared walk);
  less bytecode on that path also loads faster from the cache. A heap
  snapshot (\`--snapshot-blob\`) would skip most of it but is a startup flag
  the \`bin\` shim cannot pass.
- **(b) and (f) \`--recursive\` throughput (≥ 10 MB/s on 2 cores).**
  Profile of the one-thread run (\`--jobs 1\`, 2026-12-01, after issue 13's
  changes): parsing ~28% of the CPU time, reading the files ~13%, the rules
  ~23% and the shared walk ~7%, the module model ~4%, garbage collection
  ~9% (it was ~27%). What moved it: the lean syntax tree (no position
  objects; one model for both file sets when there is no \`.tofu\` file),
  and above all a V8 behaviour found while profiling: a closure created in
  a constructor, or an object literal with a getter, made once per rule and
  module (the rule context, \`module/tofu-shadow\`'s lazy declarations), was
  kept where it held that module's whole tree through every scavenge until
  the next full collection; as a plain class with a bound \`report\` the
  trees die young (scavenges over the corpus 0.8 s → 0.1 s). One thread now
  does ~6–7 MB/s on this machine; the rest of the way to 10 MB/s is the
  second core (f), and here it does not help: the one-thread run already
  keeps both cores busy (its CPU time is ~1.9× its wall time: V8 compiles
  optimised code and marks the heap on helper threads), each worker pays
  its own start (bundle, code cache, V8 warm-up, optimising the parser
  again), and the results (with every file's text, for the formatters) are
  cloned back. On a machine with more cores than V8's helpers use, the
  workers add throughput; on 2 cores, 10 MB/s needs ~40% less work per
  module on one thread. Since issue 21 the default \`--jobs\` keeps every
  run on the main thread below 4 usable cores (the crossover section above:
  workers cost 1.1–2.4× the CPU time), so (b) is the one-thread figure.
- **(d) parser throughput (≥ 40 MB/s, issue 13).** The lexer is ~22% of
  the parse's CPU time, building nodes and lists most of the rest; garbage
  collection is small once trees are dropped (the scale section below keeps
  every tree alive, which costs more). The lean tree took position objects
  out (a parse no longer reads a position at all), which was worth ~15% of
  CPU time with the trees dropped and ~2× with them kept; what is left is
  the character scanning of the lexer and one object per node and range.
  See the scale sections below for the tree's heap.
`;
if (opts.write) writeFileSync(path.join(BENCH, "RESULTS.md"), results);
process.stdout.write(results);

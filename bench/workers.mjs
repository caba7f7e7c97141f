// `--recursive` over the corpus on one thread and on worker threads (run by
// bench/run.mjs, or on its own: `node bench/workers.mjs [runs]`, which
// generates the corpus when missing and prints JSON).
//
// benchWorkers: the same run with `--jobs 1` (every module on the main
// thread) and with `--jobs N`, N = os.availableParallelism(), interleaved so
// that machine noise hits both alike; medians of wall-clock time, MB/s of
// module source, and the speed-up. The reports of both must be
// byte-identical (else the benchmark fails: workers must not change the
// result).
//
// benchCrossover: where workers start to pay. Runs of 2 to 500 modules (the
// first modules of the corpus), each with `--jobs 1`, `--jobs 2` and the
// default (no --jobs), interleaved, on every core and (with `taskset`) on
// one core; medians of wall-clock and CPU time (the children's user and
// system time, from /proc/self/stat), and the ratio of each to --jobs 1.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, childEnv, standaloneRun } from "./common.mjs";

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

/** CPU milliseconds of this process's waited-for children so far (Linux: /proc/self/stat), else null. */
function childrenCpuMs() {
  try {
    // The fields after the command name (which may hold spaces) start at its closing parenthesis.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // cutime and cstime are fields 16 and 17 of the line (13 and 14 after the name and state), in clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** The module directories of the corpus (at any depth), sorted. */
function corpusModules(dir) {
  const out = [];
  const walk = (d) => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.some((e) => e.isFile() && /\.(tf|tofu)(\.json)?$/.test(e.name))) out.push(d);
    for (const e of entries) if (e.isDirectory()) walk(path.join(d, e.name));
  };
  walk(dir);
  return out;
}

/** Whether `taskset` can pin a child to CPU 0 here. */
function hasTaskset() {
  const r = spawnSync("taskset", ["-c", "0", process.execPath, "-e", ""], { stdio: "ignore" });
  return !r.error && r.status === 0;
}

/**
 * The crossover: for runs of `sizes` modules (the corpus's first ones), the
 * wall-clock and CPU time of `--jobs 1`, `--jobs 2` and the default, `runs`
 * times each, interleaved, on every core and on one core (taskset -c 0).
 * Each row: modules, MB, cpus ("all" or "1"), and per variant the medians
 * and the ratios to --jobs 1. The reports of the three must be the same.
 */
export function benchCrossover(corpusDir, outDir, runs, sizes = [2, 8, 32, 125, 500]) {
  mkdirSync(outDir, { recursive: true });
  const modules = corpusModules(corpusDir);
  const variants = { one: ["--jobs", "1"], two: ["--jobs", "2"], default: [] };
  const cpuSets = hasTaskset() ? ["all", "1"] : ["all"];
  const rows = [];
  for (const size of sizes.filter((n) => n <= modules.length)) {
    const dirs = modules.slice(0, size);
    const mb = dirs.reduce((n, d) => n + moduleBytes(d), 0) / 1e6;
    for (const cpus of cpuSets) {
      const wall = { one: [], two: [], default: [] };
      const cpu = { one: [], two: [], default: [] };
      const reports = {};
      for (let i = 0; i < runs; i++) {
        for (const [name, jobs] of Object.entries(variants)) {
          const out = path.join(outDir, `crossover-${name}.json`);
          const argv = [CLI, "--recursive", ...jobs, "--format", "json", "--output-file", out, ...dirs.map((d) => path.relative(ROOT, d))];
          const [cmd, args] = cpus === "all" ? [process.execPath, argv] : ["taskset", ["-c", "0", process.execPath, ...argv]];
          const c0 = childrenCpuMs();
          const t0 = performance.now();
          const r = spawnSync(cmd, args, { cwd: ROOT, env: childEnv(), stdio: ["ignore", "ignore", "pipe"] });
          const ms = performance.now() - t0;
          const c1 = childrenCpuMs();
          if (r.error) throw r.error;
          if (r.status !== 0 && r.status !== 1) throw new Error(`bench: --recursive ${jobs.join(" ")} over ${size} modules failed (exit ${r.status}): ${r.stderr}`);
          wall[name].push(ms);
          if (c0 !== null && c1 !== null) cpu[name].push(c1 - c0);
          reports[name] = readFileSync(out, "utf8");
        }
      }
      if (reports.two !== reports.one || reports.default !== reports.one) throw new Error(`bench: the crossover runs over ${size} modules gave different reports (${outDir}/crossover-*.json)`);
      const row = { modules: size, mb, cpus };
      for (const name of Object.keys(variants)) {
        row[name] = { wallMs: median(wall[name]), cpuMs: cpu[name].length ? median(cpu[name]) : null };
      }
      for (const name of ["two", "default"]) {
        row[name].wallRatio = row[name].wallMs / row.one.wallMs;
        row[name].cpuRatio = row[name].cpuMs !== null && row.one.cpuMs ? row[name].cpuMs / row.one.cpuMs : null;
      }
      rows.push(row);
    }
  }
  return { runs, cores: os.availableParallelism(), rows };
}

/** The crossover rows as a Markdown table (bench/run.mjs writes it into RESULTS.md). */
export function crossoverTable(crossover) {
  const ms = (v) => (v === null ? "–" : `${v.toFixed(0)} ms`);
  const ratio = (v) => (v === null ? "–" : `${v.toFixed(2)}×`);
  const lines = [
    "| Modules | MB | CPUs | `--jobs 1` wall (CPU) | `--jobs 2` wall (CPU) | `--jobs 2` / `--jobs 1`: wall, CPU | default wall | default / `--jobs 1` |",
    "| ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of crossover.rows) {
    lines.push(
      `| ${r.modules} | ${r.mb.toFixed(2)} | ${r.cpus === "all" ? `all (${crossover.cores})` : "1 (taskset)"} | ${ms(r.one.wallMs)} (${ms(r.one.cpuMs)}) | ${ms(r.two.wallMs)} (${ms(r.two.cpuMs)}) | ${ratio(r.two.wallRatio)}, ${ratio(r.two.cpuRatio)} | ${ms(r.default.wallMs)} | ${ratio(r.default.wallRatio)} |`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { corpus, out, runs } = standaloneRun(BENCH);
  const loadBefore = os.loadavg();
  const result = benchWorkers(corpus, out, runs);
  const crossover = benchCrossover(corpus, out, runs);
  process.stderr.write(crossoverTable(crossover) + "\n");
  process.stdout.write(JSON.stringify({ ...result, crossover, cores: os.cpus().length, loadBefore, loadAfter: os.loadavg() }, null, 2) + "\n");
}

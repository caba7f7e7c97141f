// Cold start in instructions: `node bench/cold-instructions.mjs [--runs N]`
// (after `npm run build`; needs valgrind: apt-get install valgrind).
//
// Wall-clock times of a 50 ms start move with whatever else the machine is
// doing; the number of instructions a start executes barely does, so it is
// the measure to judge a start-up change by. Each command runs under
// `valgrind --tool=callgrind` N times (default 5), the commands interleaved,
// and the medians are printed: all threads, and the main thread alone
// (V8 compiles optimised code and collects garbage on helper threads too).
//
//   node -e ""             bare Node, the bench's yardstick;
//   load the bundle        bin's loader only: dist/cli.cjs read, compiled
//                          with its code cache, its modules evaluated;
//   lint, clean module     `node bin/tfcapi-lint.js examples/machinepool-aws`;
//   lint, with findings    the same for examples/broken-machinepool;
//   lint, large module     the same for bench/large (bench/large-module.mjs:
//                          a cluster module, ~88 KB of .tf in 40 files).
//
// Not part of `npm run bench` (a run takes a minute or two); see the cold
// start section of bench/RESULTS.md for what the numbers were.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./common.mjs";
import { ensureLargeModule } from "./large-module.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "bin", "tfcapi-lint.js");

function usage(message) {
  process.stderr.write(`cold-instructions: ${message}\nusage: node bench/cold-instructions.mjs [--runs N]\n`);
  process.exit(2);
}

let runs = 5;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--runs") {
    const n = Number(argv[++i]);
    if (!Number.isInteger(n) || n < 1) usage(`--runs needs a whole number of at least 1, not ${JSON.stringify(argv[i] ?? "")}`);
    runs = n;
  } else usage(`unknown argument ${JSON.stringify(argv[i])}`);
}
if (spawnSync("valgrind", ["--version"], { stdio: "ignore" }).status !== 0) {
  usage("valgrind is not installed (apt-get install valgrind)");
}
try {
  readFileSync(path.join(ROOT, "dist", "cli-loader.cjs"));
} catch {
  usage("dist/ is missing: run npm run build first");
}

const work = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-instructions-"));
const loadOnly = path.join(work, "load.cjs");
writeFileSync(loadOnly, `require(${JSON.stringify(path.join(ROOT, "dist", "cli-loader.cjs"))});\n`);

/** The environment of a start: as the bench's cold start has it (no extra CA bundle, no NODE_OPTIONS). */
const env = { ...process.env };
for (const k of ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS", "NO_COLOR", "FORCE_COLOR"]) delete env[k];

const COMMANDS = [
  { label: 'node -e ""', args: ["-e", ""], status: 0 },
  { label: "load the bundle", args: [loadOnly], status: 0 },
  { label: "lint, clean module", args: [CLI, "examples/machinepool-aws"], status: 0 },
  { label: "lint, with findings", args: [CLI, "examples/broken-machinepool"], status: 1 },
  { label: "lint, large module", args: [CLI, path.relative(ROOT, ensureLargeModule().dir)], status: 0 },
];

/** Instructions of one run of `node ...args`: all threads and the main thread. */
function count(args, status, n) {
  const dir = path.join(work, `run-${n}`);
  mkdirSync(dir);
  const r = spawnSync("valgrind", ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${path.join(dir, "cg")}`, process.execPath, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (r.status !== status) throw new Error(`node ${args.join(" ")} exited ${r.status} under valgrind (expected ${status}):\n${r.stderr}`);
  let all = 0;
  let main = 0;
  for (const f of readdirSync(dir)) {
    const m = /^totals: (\d+)$/m.exec(readFileSync(path.join(dir, f), "utf8"));
    if (!m) continue;
    all += Number(m[1]);
    if (f.endsWith("-01")) main = Number(m[1]);
  }
  rmSync(dir, { recursive: true, force: true });
  return { all, main };
}

const results = COMMANDS.map(() => ({ all: [], main: [] }));
let n = 0;
try {
  for (let i = 0; i < runs; i++) {
    COMMANDS.forEach((c, k) => {
      const r = count(c.args, c.status, n++);
      results[k].all.push(r.all);
      results[k].main.push(r.main);
    });
    process.stderr.write(`cold-instructions: ${i + 1}/${runs}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const M = (x) => (x / 1e6).toFixed(1).padStart(6);
const base = median(results[0].all);
process.stdout.write(`instructions (millions), median of ${runs} interleaved runs under callgrind:\n`);
process.stdout.write(`  ${"".padEnd(22)} ${"all".padStart(6)} ${"main".padStart(6)}  ratio to node -e ""\n`);
COMMANDS.forEach((c, k) => {
  const all = median(results[k].all);
  process.stdout.write(`  ${c.label.padEnd(22)} ${M(all)} ${M(median(results[k].main))}  ${(all / base).toFixed(2)}×\n`);
});

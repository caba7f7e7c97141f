// Parser throughput, run by bench/run.mjs in a fresh process of its own (so
// the harness's heap does not slow the collector): reads the files named on
// stdin (one per line), parses them all with parseHcl RUNS times after two
// warm-up passes, and prints per-run read/parse wall and CPU times as JSON.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { parseHcl } = await import(pathToFileURL(path.join(ROOT, "dist", "index.js")).href);
const runs = Number(process.argv[2] ?? 5);
const files = readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
const WARMUP = 2;
const out = { read: [], parse: [], cpu: [], diagnostics: 0 };
for (let i = 0; i < runs + WARMUP; i++) {
  const t0 = performance.now();
  const texts = files.map((f) => readFileSync(f, "utf8"));
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  let diags = 0;
  for (let k = 0; k < texts.length; k++) diags += parseHcl(texts[k], files[k]).diagnostics.length;
  const t2 = performance.now();
  const c2 = process.cpuUsage(c1);
  if (i < WARMUP) {
    out.diagnostics = diags;
    continue;
  }
  out.read.push(t1 - t0);
  out.parse.push(t2 - t1);
  out.cpu.push((c2.user + c2.system) / 1000);
}
process.stdout.write(JSON.stringify(out) + "\n");

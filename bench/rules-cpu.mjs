// CPU time of the rules alone over the generated corpus (not a test):
//
//   node --expose-gc bench/rules-cpu.mjs [--runs 5] [--dirs 3] [BUNDLE ...]
//
// BUNDLE is a copy of a build's dist/index.js (default: this checkout's).
// Every module keeps a parse cache per bundle, so after a warm-up round
// nothing is parsed: a module's full lint minus its lint with only
// syntax/parse is the rules' CPU time (process.cpuUsage). With two or more
// bundles (a build before and after a change), they are loaded into the
// same process and run module by module in rotating order, so the load of
// a shared machine falls on all of them alike; compare them only this way.
// --dirs limits the corpus to its first N of 10 top-level directories (50
// modules each) to bound the heap the parse caches keep.
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.mjs";

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "5" }, dirs: { type: "string", default: "3" } },
});
if (typeof globalThis.gc !== "function") {
  process.stderr.write("bench/rules-cpu.mjs: run it with node --expose-gc\n");
  process.exit(2);
}
const bundles = positionals.length > 0 ? positionals : [path.join(BENCH, "..", "dist", "index.js")];
const corpus = path.join(BENCH, "corpus");
if (!existsSync(corpus)) generateCorpus(corpus);
const libs = [];
for (const b of bundles) libs.push(await import(pathToFileURL(path.resolve(b)).href));

const dirs = [];
(function walk(d) {
  const entries = readdirSync(d, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && /\.(tf|tofu)(\.json)?$/.test(e.name))) dirs.push(d);
  for (const e of entries) if (e.isDirectory()) walk(path.join(d, e.name));
})(corpus);
const used = dirs.sort().filter((d) => Number(path.relative(corpus, d).split(path.sep)[0]) < Number(values.dirs));
const caches = libs.map(() => new Map(used.map((d) => [d, new Map()])));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const time = (k, dir, opts) => {
  const t0 = cpuMs();
  libs[k].lintModule(dir, { ...opts, parseCache: caches[k].get(dir) });
  return cpuMs() - t0;
};
const LOAD_ONLY = { only: ["syntax/parse"] };
const totals = libs.map(() => ({ load: 0, full: 0 }));
for (let round = -1; round < Number(values.runs); round++) {
  globalThis.gc();
  used.forEach((dir, i) => {
    for (let j = 0; j < libs.length; j++) {
      const k = (i + j + Math.max(round, 0)) % libs.length;
      const load = time(k, dir, LOAD_ONLY);
      const full = time(k, dir, {});
      if (round >= 0) {
        totals[k].load += load;
        totals[k].full += full;
      }
    }
  });
}
for (let k = 0; k < libs.length; k++) {
  const t = totals[k];
  process.stdout.write(
    `${bundles[k]}: ${used.length} modules x ${values.runs} rounds: load only ${t.load.toFixed(0)} ms, full lint ${t.full.toFixed(0)} ms, ` +
      `rules ${(t.full - t.load).toFixed(0)} ms CPU (${((100 * (t.full - t.load)) / t.full).toFixed(1)}% of the full lint)\n`,
  );
}

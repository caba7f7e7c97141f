// The parser on a corpus, with tree-sitter-hcl as a reference, in one fresh
// process of its own (run by bench/scale.mjs with --expose-gc). Reads the
// files named on stdin (one per line), then:
//   1. times parseHcl over every file, and tree-sitter-hcl (web-tree-sitter
//      with the grammar's prebuilt WASM) over the native-syntax ones
//      (.tf/.tofu/.hcl: tree-sitter-hcl has no JSON syntax), interleaved run
//      by run after warm-up passes, wall-clock and CPU time;
//   2. parses every file once more keeping all the trees, and reports the
//      heap they hold (heapUsed after a full GC, less the same before; a
//      corpus under 4 MB is parsed that many times over, all kept, and the
//      figure divided by as many).
// Prints one JSON object on stdout.
//
//   node --expose-gc bench/reference.mjs RUNS [--no-tree-sitter] < files
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { parseHcl } = await import(pathToFileURL(path.join(ROOT, "dist", "index.js")).href);
const runs = Number(process.argv[2] ?? 5);
const wantTreeSitter = !process.argv.includes("--no-tree-sitter");
const files = readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
const texts = files.map((f) => readFileSync(f, "utf8"));
const isNative = (f) => !f.endsWith(".json");
const native = [];
for (let k = 0; k < files.length; k++) if (isNative(files[k])) native.push(k);
const bytes = (idx) => idx.reduce((n, k) => n + Buffer.byteLength(texts[k]), 0);
const all = files.map((_, k) => k);

/** Loads web-tree-sitter and the HCL grammar; a reason string when either is missing or does not load. */
async function loadTreeSitter() {
  const require = createRequire(import.meta.url);
  let wasmPath;
  let runtime;
  try {
    wasmPath = path.join(path.dirname(require.resolve("@tree-sitter-grammars/tree-sitter-hcl/package.json")), "tree-sitter-terraform.wasm");
    runtime = await import("web-tree-sitter");
  } catch (err) {
    return { reason: `web-tree-sitter or @tree-sitter-grammars/tree-sitter-hcl is not installed (${err.code ?? err.message}); run npm install` };
  }
  try {
    const { Parser, Language } = runtime;
    await Parser.init();
    const language = await Language.load(wasmPath);
    const parser = new Parser();
    parser.setLanguage(language);
    const runtimeVersion = JSON.parse(readFileSync(path.join(path.dirname(require.resolve("web-tree-sitter")), "package.json"), "utf8")).version;
    const grammarVersion = JSON.parse(readFileSync(require.resolve("@tree-sitter-grammars/tree-sitter-hcl/package.json"), "utf8")).version;
    return { parser, abi: language.abiVersion, runtimeVersion, grammarVersion, wasm: path.basename(wasmPath) };
  } catch (err) {
    return { reason: `tree-sitter-hcl's WASM did not load in web-tree-sitter: ${err.message}` };
  }
}

function timeOurs(idx) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let diagnostics = 0;
  for (const k of idx) diagnostics += parseHcl(texts[k], files[k]).diagnostics.length;
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, diagnostics };
}

function timeTreeSitter(parser, idx) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let errors = 0;
  for (const k of idx) {
    const tree = parser.parse(texts[k]);
    if (tree.rootNode.hasError) errors++;
    tree.delete();
  }
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, errors };
}

const ts = wantTreeSitter ? await loadTreeSitter() : { reason: "--no-tree-sitter" };
const out = {
  files: files.length,
  bytes: bytes(all),
  nativeFiles: native.length,
  nativeBytes: bytes(native),
  ours: [],
  oursNative: [],
  treeSitter: ts.parser ? { abi: ts.abi, runtimeVersion: ts.runtimeVersion, grammarVersion: ts.grammarVersion, wasm: ts.wasm, runs: [], errors: 0 } : { reason: ts.reason },
  diagnostics: 0,
  heap: null,
};

// tree-sitter-hcl is ~10× slower: fewer of its runs, each interleaved with ours.
const WARMUP = 2;
const tsRuns = Math.max(1, Math.min(runs, 3));
for (let i = 0; i < runs + WARMUP; i++) {
  const a = timeOurs(all);
  const n = timeOurs(native);
  if (i < WARMUP) {
    out.diagnostics = a.diagnostics;
    if (ts.parser && i === 0) out.treeSitter.errors = timeTreeSitter(ts.parser, native).errors;
    continue;
  }
  out.ours.push(a);
  out.oursNative.push(n);
  if (ts.parser && i - WARMUP < tsRuns) out.treeSitter.runs.push(timeTreeSitter(ts.parser, native));
}

// Heap held by the trees of every file at once.
if (typeof globalThis.gc === "function") {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  // A small corpus is parsed several times over (all trees kept) so that
  // what it holds stands well above the collector's noise.
  const copies = Math.min(2000, Math.max(1, Math.ceil(4e6 / Math.max(1, out.bytes))));
  const keep = [];
  for (let c = 0; c < copies; c++) for (const k of all) keep.push(parseHcl(texts[k], files[k]));
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  out.heap = { bytes: (after - before) / copies, perSourceByte: (after - before) / (out.bytes * copies), trees: keep.length / copies, copies };
}
process.stdout.write(JSON.stringify(out) + "\n");

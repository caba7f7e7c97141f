// Warm re-lint latency of the language server (run by bench/run.mjs, or on
// its own: `node bench/lsp.mjs [edits]`; prints JSON).
//
// For each example module: start `tfcapi-lint lsp --stdio` (the built CLI)
// with the default settings, through vscode-jsonrpc, open outputs.tf, warm
// up, then make unsaved edits (a comment line inserted at the top and removed
// again, so every finding of the file moves) and time each edit until the
// diagnostics of that document version arrive:
//   - work: the server's own lint time of the run (its tfcapi-lint/stats);
//   - an idle edit: the edit is sent once the window after the last run has
//     passed (the server's debounceMs and a margin), so the server lints it
//     at once (what a user typing at a steady pace waits);
//   - an edit in a burst: sent 10 ms after the previous diagnostics, within
//     that window, so the server waits debounceMs before linting it.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { median } from "./common.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "bin", "tfcapi-lint.js");
export const MODULES = ["examples/cluster-aws", "examples/machine-aws", "examples/machinepool-aws", "examples/broken-machinepool"];

function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * Time `edits` unsaved edits of one module's outputs.tf, with the default
 * settings; each edit is sent `pause(debounceMs)` ms after the previous
 * edit's diagnostics arrived.
 */
async function measure(moduleRel, edits, warmup, pause) {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, [CLI, "lsp", "--stdio"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "inherit"] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const file = path.join(ROOT, moduleRel, "outputs.tf");
  const uri = pathToFileURL(file).href;
  let waiting = null;
  conn.onNotification("textDocument/publishDiagnostics", (p) => {
    if (waiting && p.uri === uri && p.version === waiting.version) {
      const w = waiting;
      waiting = null;
      w.resolve(performance.now());
    }
  });
  conn.listen();
  const arrival = (version) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`bench: no diagnostics for version ${version} of ${uri}`)), 30_000);
      waiting = { version, resolve: (at) => (clearTimeout(t), resolve(at)) };
    });
  await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await conn.sendNotification("initialized", {});
  const { debounceMs } = await conn.sendRequest("tfcapi-lint/stats");
  const original = readFileSync(file, "utf8");
  let version = 1;
  let got = arrival(version);
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "terraform", version, text: original } });
  await got;
  const times = [];
  const works = [];
  const cpus = [];
  for (let i = 0; i < warmup + edits; i++) {
    await new Promise((r) => setTimeout(r, pause(debounceMs)));
    version++;
    const inserted = i % 2 === 0;
    const change = inserted
      ? { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `# edit ${i}\n` }
      : { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: "" };
    got = arrival(version);
    const t0 = performance.now();
    await conn.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
    const at = await got;
    if (i >= warmup) {
      times.push(at - t0);
      const stats = await conn.sendRequest("tfcapi-lint/stats");
      works.push(stats.lastWorkMs);
      cpus.push(stats.lastCpuMs);
    }
  }
  await conn.sendRequest("shutdown");
  await conn.sendNotification("exit");
  const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on("exit", resolve)));
  conn.dispose();
  if (code !== 0) throw new Error(`bench: the server exited with ${code}`);
  return { debounceMs, times, works, cpus };
}

/** Every module: idle edits (the window after the last run passed, plus 25 ms) and edits in a burst (10 ms after the last diagnostics). */
export async function benchLsp(edits = 40, warmup = 15) {
  const rows = [];
  let debounceMs;
  for (const mod of MODULES) {
    const idle = await measure(mod, edits, warmup, (d) => d + 25);
    const burst = await measure(mod, Math.max(10, edits >> 1), 5, () => 10);
    debounceMs = idle.debounceMs;
    rows.push({
      module: mod,
      workMedian: median(idle.works),
      workP90: quantile(idle.works, 0.9),
      cpuMedian: median(idle.cpus),
      idleMedian: median(idle.times),
      idleP90: quantile(idle.times, 0.9),
      burstMedian: median(burst.times),
      burstP90: quantile(burst.times, 0.9),
    });
  }
  return { edits, warmup, debounceMs, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const n = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 40;
  process.stdout.write(`${JSON.stringify(await benchLsp(n), null, 2)}\n`);
}

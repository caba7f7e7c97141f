/**
 * The worker threads: a small pool that lints modules, and the entry point
 * each worker runs (lintWorkerRequest).
 *
 * The workers lint many modules at once (`--recursive`, several paths:
 * lintOnWorkers, a small pool of `--jobs` threads); each result is the
 * structured clone of what lintTarget (lint-module.ts) returns on the main
 * thread. Which modules go to the workers is decided in lint-all.ts.
 *
 * Only the bundled CLI can start the workers (they load the same bundle);
 * from the sources (tests importing src/) the main thread lints everything.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { ConfigError, type ConfigResolver } from "../config/load.js";
import type { CliOverrides } from "../config/effective.js";
import { UsageError } from "./args.js";
import { bundleFile } from "./bundle.js";
import { lintTarget, type ModuleRequest, type LintedTarget } from "./lint-module.js";
import { cliOverrides, configResolver, moduleConfig, planModule } from "./module-plans.js";
import { checkOptions } from "./options.js";

/** What a worker says about one request; null when the worker died (or never started) before answering. */
export type WorkerReply = { ok: true; result: LintedTarget } | { ok: false; error: string; kind?: WorkerErrorKind } | null;

/** Which of the CLI's own errors a worker met (it is thrown again as that class on the main thread). */
export type WorkerErrorKind = "config" | "usage";

// Runs in the worker: load the bundle through its loader, then lint each
// request sent (one at a time) until the pool terminates the worker.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const loader = require(workerData.loader);
const say = (m) => {
  try {
    parentPort.postMessage(m);
  } catch {
    // Not structured-cloneable (say, a plugin put a function in a finding):
    // the main thread lints this module itself.
    parentPort.postMessage({ id: m.id, ok: null });
  }
};
parentPort.on("message", ({ id, request }) => {
  loader.lintWorkerRequest(request).then(
    (result) => say({ id, ok: true, result }),
    (err) => say({ id, ok: false, error: err && err.message ? err.message : String(err), kind: err && err.tfcapiKind }),
  );
});
`;

/** dist/cli-loader.cjs when this code runs from the bundle (dist/cli.cjs), else undefined. */
function bundleLoader(): string | undefined {
  const file = bundleFile("cli.cjs");
  return file === undefined ? undefined : path.join(path.dirname(file), "cli-loader.cjs");
}

/** Whether lintOnWorkers can start workers (only from the bundled CLI). */
export function workersAvailable(): boolean {
  return bundleLoader() !== undefined;
}

/**
 * Lints the requests on up to `jobs` worker threads, every worker taking the next request when
 * it is done with one. The replies are in the order of the requests. A worker
 * that dies takes no more requests; its request (and, when no worker is left,
 * every request not yet sent) gets null, for the caller to lint on its own
 * thread. Null as a whole when no worker can be started.
 */
export async function lintOnWorkers(requests: readonly ModuleRequest[], jobs: number): Promise<WorkerReply[] | null> {
  const loader = bundleLoader();
  if (loader === undefined) return null;
  // Loaded only here: the module costs start-up time on every other run.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  const replies: WorkerReply[] = new Array<WorkerReply>(requests.length).fill(null);
  let next = 0;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      if (next >= requests.length) return resolve();
      let current = -1;
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { loader },
        stdout: false,
        stderr: false,
      });
      const send = (): void => {
        if (next >= requests.length) {
          current = -1;
          void worker.terminate();
          return;
        }
        current = next++;
        worker.postMessage({ id: current, request: requests[current] });
      };
      worker.on("message", (m: { id: number; ok: boolean | null }) => {
        if (m.id !== current) return;
        const { id: _, ...reply } = m;
        replies[current] = reply.ok === null ? null : (reply as NonNullable<WorkerReply>);
        send();
      });
      // A crash (or an error at start-up) leaves the current request's reply null.
      worker.on("error", () => {});
      worker.on("exit", () => resolve());
      send();
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, requests.length)) }, one));
  return replies;
}

/** An error a worker met, as its message and kind (thrown again on the main thread as the CLI's own error class: asCliError). */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly kind: WorkerErrorKind | undefined,
  ) {
    super(message);
  }
}

/** A worker's error as the CLI's own error class, so that it is printed as on the main thread. */
export function asCliError(err: WorkerError): Error {
  if (err.kind === "config") return new ConfigError(err.message);
  if (err.kind === "usage") return new UsageError(err.message);
  return new Error(err.message);
}

/**
 * The worker side: lints one module as the main thread would.
 */
export async function lintWorkerRequest(req: ModuleRequest): Promise<LintedTarget> {
  try {
    return await lintOnThisWorker(req);
  } catch (err) {
    // The class does not cross the thread boundary: say which one it was.
    if (err instanceof ConfigError) throw Object.assign(err, { tfcapiKind: "config" });
    if (err instanceof UsageError) throw Object.assign(err, { tfcapiKind: "usage" });
    throw err;
  }
}

async function lintOnThisWorker(req: ModuleRequest): Promise<LintedTarget> {
  const args = req.args;
  // A pool worker lints many modules of one run: configs (and the plugins
  // they list) are read once per worker, as on the main thread.
  const key = JSON.stringify([args, req.cwd, req.home]);
  if (workerRun?.key !== key) {
    const checked = checkOptions(args, req.cwd);
    workerRun = { key, resolver: configResolver(args, req.cwd, req.home), cli: cliOverrides(args, checked.role) };
  }
  const lint = planModule(args, req.target, await moduleConfig(req.target, workerRun.resolver), workerRun.cli, req.stdin);
  return lintTarget(args, { target: req.target, lint, cwd: req.cwd, home: req.home }, req.onlyIfLoads);
}
let workerRun: { key: string; resolver: ConfigResolver; cli: CliOverrides } | undefined;

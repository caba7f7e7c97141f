/**
 * Modules nested deeper than the main thread's stack allows.
 *
 * The parser, the tree walkers and the rules recurse once or more per level
 * of nesting, and Node's main thread has under 1 MB of stack: there the
 * parser stops at MAX_DEPTH (256) levels. Terraform has no such limit, so
 * a module whose parse stops there is linted again, from scratch, on a worker
 * thread with a stack of DEEP_STACK_MB and a limit of DEEP_NESTING_LIMIT
 * levels. Measured through the whole CLI (parser, module model, graph, every
 * rule, formatters) at 4,990 levels of each kind of nesting: 4 MB of stack
 * is not enough for objects and `for` expressions, 8 MB is for all of them;
 * 64 MB leaves a wide margin (the stack is reserved, not used, until needed).
 * Beyond the limit the clear "Nesting too deep" error stays.
 *
 * The same workers lint many modules at once (`--recursive`, several paths:
 * lintOnWorkers, a small pool of `--jobs` threads); each result is the
 * structured clone of what lintTarget returns on the main thread.
 *
 * Only the bundled CLI can start the workers (they load the same bundle);
 * from the sources (tests importing src/) the main thread lints everything.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { CliArgs } from "./args.js";
import type { Target } from "./paths.js";
import type { LintOptions } from "../lint/engine.js";
import type { LintedTarget } from "./run.js";

/** Nesting levels a module may reach on the worker's stack. */
export const DEEP_NESTING_LIMIT = 5000;
/** The worker thread's stack. */
export const DEEP_STACK_MB = 64;

export interface DeepRequest {
  args: CliArgs;
  target: Target;
  /** The run's working and home directories (config lookup). */
  cwd: string;
  home: string;
  stdin?: LintOptions["stdin"];
  /** See lintTarget: lint only when the module loads one of these directories. */
  onlyIfLoads?: string[];
}

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
  loader.lintDeepRequest(request).then(
    (result) => say({ id, ok: true, result }),
    (err) => say({ id, ok: false, error: err && err.message ? err.message : String(err), kind: err && err.tfcapiKind }),
  );
});
`;

/** dist/cli-loader.cjs when this code runs from the bundle (dist/cli.cjs), else undefined. */
function bundleLoader(): string | undefined {
  let file: string;
  try {
    file = fileURLToPath(import.meta.url);
  } catch {
    return undefined;
  }
  if (path.basename(file) !== "cli.cjs") return undefined;
  return path.join(path.dirname(file), "cli-loader.cjs");
}

/** Whether lintOnWorkers can start workers (only from the bundled CLI). */
export function workersAvailable(): boolean {
  return bundleLoader() !== undefined;
}

/**
 * Lints the requests on up to `jobs` worker threads (each with the large
 * stack and nesting limit above), every worker taking the next request when
 * it is done with one. The replies are in the order of the requests. A worker
 * that dies takes no more requests; its request (and, when no worker is left,
 * every request not yet sent) gets null, for the caller to lint on its own
 * thread. Null as a whole when no worker can be started.
 */
export async function lintOnWorkers(requests: readonly DeepRequest[], jobs: number): Promise<WorkerReply[] | null> {
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
        resourceLimits: { stackSizeMb: DEEP_STACK_MB },
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

/**
 * Lints one module on a worker thread with a large stack; null when no
 * worker can be started or it died (then the caller keeps its own result).
 */
export async function lintOnDeepStack(request: DeepRequest): Promise<LintedTarget | null> {
  const replies = await lintOnWorkers([request], 1);
  const reply = replies?.[0] ?? null;
  if (reply === null) return null;
  if (!reply.ok) throw new WorkerError(reply.error, reply.kind);
  return reply.result;
}

/** An error a worker met, as its message and kind (run.ts throws it again as the CLI's own error class). */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly kind: WorkerErrorKind | undefined,
  ) {
    super(message);
  }
}

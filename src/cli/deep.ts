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
 * Only the bundled CLI can start the worker (it loads the same bundle);
 * from the sources (tests importing src/) the main thread's result stands.
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

type DeepReply = { ok: true; result: LintedTarget } | { ok: false; error: string };

// Runs in the worker: load the bundle through its loader and lint.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const loader = require(workerData.loader);
loader.lintDeepRequest(workerData.request).then(
  (result) => parentPort.postMessage({ ok: true, result }),
  (err) => parentPort.postMessage({ ok: false, error: err && err.message ? err.message : String(err) }),
);
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

/**
 * Lints one module on a worker thread with a large stack; null when no
 * worker can be started (then the caller keeps its own result).
 */
export async function lintOnDeepStack(request: DeepRequest): Promise<LintedTarget | null> {
  const loader = bundleLoader();
  if (loader === undefined) return null;
  // Loaded only here: the module costs start-up time on every other run.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  return new Promise((resolve, reject) => {
    let reply: DeepReply | undefined;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { loader, request },
      resourceLimits: { stackSizeMb: DEEP_STACK_MB },
      stdout: false,
      stderr: false,
    });
    worker.on("message", (m: DeepReply) => {
      reply = m;
    });
    worker.on("error", (err) => reject(err));
    worker.on("exit", () => {
      if (reply === undefined) resolve(null);
      else if (reply.ok) resolve(reply.result);
      else reject(new Error(reply.error));
    });
  });
}

/**
 * Modules nested deeper than the main thread's stack allows.
 *
 * The parser, the tree walkers and the rules recurse once or more per level
 * of nesting, and Node's main thread has under 1 MB of stack: there the
 * parser stops at MAX_DEPTH (256) levels. Terraform has no such limit, so
 * a module whose parse stops there is linted again, from scratch, on a worker
 * thread with a stack of DEEP_STACK_MB and a limit of DEEP_NESTING_LIMIT
 * levels (the module lint: worker-pool.ts; `schema`: schema.ts; `image`:
 * image-command.ts). Measured through the whole CLI (parser, module model,
 * graph, every rule, formatters) at 4,990 levels of each kind of nesting:
 * 4 MB of stack is not enough for objects and `for` expressions, 8 MB is for
 * all of them; 64 MB leaves a wide margin (the stack is reserved, not used,
 * until needed). Beyond the limit the clear "Nesting too deep" error stays.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** Nesting levels a module may reach on the worker's stack. */
export const DEEP_NESTING_LIMIT = 5000;
/** The worker thread's stack. */
export const DEEP_STACK_MB = 64;

/**
 * Runs a whole command again on a worker thread with the large stack:
 * `source` runs there with `workerData` and posts `{ code, stdout, stderr }`
 * once; what it wrote is then written to `io`, and its code returned. A
 * worker that fails, or stops without an answer, gives `failCode` and a
 * message after `prefix` (the command's own, e.g. "tfcapi-lint schema: ").
 */
export function commandOnDeepStack(source: string, workerData: Record<string, unknown>, io: { stdout(t: string): void; stderr(t: string): void }, prefix: string, failCode: number): Promise<number> {
  // Loaded only here: the module costs start-up time on every other run.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  return new Promise((resolve) => {
    let reply: { code: number; stdout: string; stderr: string } | undefined;
    const worker = new Worker(source, {
      eval: true,
      workerData,
      resourceLimits: { stackSizeMb: DEEP_STACK_MB },
      stdout: false,
      stderr: false,
    });
    worker.on("message", (m: typeof reply) => {
      reply = m;
    });
    worker.on("error", (err) => {
      reply = { code: failCode, stdout: "", stderr: `${prefix}${err.message}\n` };
    });
    worker.on("exit", () => {
      const r = reply ?? { code: failCode, stdout: "", stderr: `${prefix}the worker thread stopped without an answer\n` };
      if (r.stdout !== "") io.stdout(r.stdout);
      if (r.stderr !== "") io.stderr(r.stderr);
      resolve(r.code);
    });
  });
}

/**
 * The bundle this code runs from, when it is `name` (cli.cjs, image.cjs),
 * else undefined: from the sources (tests importing src/) no worker can load
 * the code, so the work stays on the main thread.
 */
export function bundleFile(name: string): string | undefined {
  let file: string;
  try {
    file = fileURLToPath(import.meta.url);
  } catch {
    return undefined;
  }
  return path.basename(file) === name ? file : undefined;
}

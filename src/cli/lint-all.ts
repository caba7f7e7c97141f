/**
 * Lints (and fixes) every planned module of a run: on the worker pool when
 * `--jobs`, or where it is not given the default (jobs.ts), asks for two
 * workers or more and the bundle can start them, else on this thread,
 * one after another.
 */
import * as path from "node:path";
import type { LintOptions } from "../lint/engine.js";
import { inScope, type FixScope } from "../lint/apply-fixes.js";
import type { CliArgs } from "./args.js";
import type { ResultCache } from "./cache.js";
import { nodeOs } from "./io.js";
import { defaultJobs, moduleBytes, readCpuQuota } from "./jobs.js";
import { lintTarget, type LintedTarget } from "./lint-module.js";
import type { ModulePlan } from "./module-plans.js";
import { realOf } from "./paths.js";
import { asCliError, lintOnWorkers, workersAvailable, WorkerError, type WorkerReply } from "./worker-pool.js";

/** How many worker threads lint the plans: --jobs, else where workers pay (jobs.ts); 1 = this thread. */
function jobsFor(args: CliArgs, plans: readonly ModulePlan[]): number {
  if (args.jobs !== undefined) return Math.min(args.jobs, plans.length);
  if (plans.length < 2) return 1;
  return defaultJobs({ cores: nodeOs().availableParallelism(), quota: readCpuQuota(), modules: plans.length, bytes: () => moduleBytes(plans.map((p) => p.target.dir)) });
}

/**
 * Lints (and fixes) every plan, in the order of the plans, with results as
 * lintTarget gives them one after another on this thread. With several jobs
 * the modules are linted on worker threads first, without --fix; with --fix
 * a module is then linted and fixed here again, in order, when its report
 * holds a fix or an earlier module wrote a file in a directory it loads
 * (a module's fixes may write its local children's files, which other
 * targets also read). A worker that died leaves its module to this thread;
 * an error a worker met is thrown here when that module's turn comes.
 *
 * With a result cache (--cache, never with --fix), a module whose stored
 * outcome still holds is not linted; the others are, here or on the
 * workers, and stored.
 */
export async function lintPlans(
  args: CliArgs,
  plans: readonly ModulePlan[],
  stdin: LintOptions["stdin"],
  onlyIfLoads: (plan: ModulePlan) => string[] | undefined,
  cache: ResultCache | null = null,
): Promise<LintedTarget[]> {
  // The cache is looked up on this thread; only the misses go to the workers.
  const cached = plans.map((plan) => (cache !== null && !args.fix ? cache.lookup(plan, onlyIfLoads(plan)) : null));
  const toLint = plans.flatMap((plan, i) => (cached[i] === null ? [i] : []));
  const jobs = jobsFor(args, toLint.map((i) => plans[i]!));
  const replies: WorkerReply[] = new Array<WorkerReply>(plans.length).fill(null);
  if (jobs >= 2 && stdin === undefined && workersAvailable()) {
    const readOnly: CliArgs = { ...args, fix: false };
    const got = await lintOnWorkers(
      toLint.map((i) => {
        const plan = plans[i]!;
        const only = onlyIfLoads(plan);
        return { args: readOnly, target: plan.target, cwd: plan.cwd, home: plan.home, ...(only ? { onlyIfLoads: only } : {}) };
      }),
      jobs,
    );
    if (got !== null) for (const [n, i] of toLint.entries()) replies[i] = got[n] ?? null;
  }
  const out: LintedTarget[] = [];
  const writtenDirs = new Set<string>();
  for (const [i, plan] of plans.entries()) {
    const hit = cached[i];
    if (hit) {
      out.push(hit);
      continue;
    }
    const reply = replies[i] ?? null;
    if (reply !== null && !reply.ok) throw asCliError(new WorkerError(reply.error, reply.kind));
    let linted: LintedTarget;
    if (reply !== null && !(args.fix && fixAgain(reply.result, plan, writtenDirs, args.fixUnsafe ? "all" : "safe"))) {
      linted = reply.result;
      // What fixOnDisk says of a module it has nothing to fix in.
      if (args.fix && !linted.skipped && linted.outcome.kind === "report" && linted.outcome.readErrors.length === 0) {
        linted = { ...linted, fixed: { written: [], applied: 0, notes: [], writeErrors: [] } };
      }
    } else {
      linted = lintTarget(args, plan, onlyIfLoads(plan));
    }
    cache?.store(plan, onlyIfLoads(plan), linted);
    for (const file of linted.fixed?.written ?? []) {
      // A module file may be a symbolic link: the directory of the file it points to changed too.
      const abs = path.join(plan.target.dir, ...file.split("/"));
      writtenDirs.add(realOf(path.dirname(abs)));
      writtenDirs.add(path.dirname(realOf(abs)));
    }
    out.push(linted);
  }
  return out;
}

/** Whether --fix must lint a module again on this thread (see lintPlans). */
function fixAgain(linted: LintedTarget, plan: ModulePlan, writtenDirs: ReadonlySet<string>, scope: FixScope): boolean {
  if (linted.skipped) return writtenDirs.size > 0;
  if (linted.outcome.kind === "report" && linted.outcome.report.findings.some((f) => f.fix !== undefined && inScope(f.fix, scope))) return true;
  return [plan.target.dir, ...linted.nested].some((d) => writtenDirs.has(realOf(d)));
}

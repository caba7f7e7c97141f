/**
 * One planned module linted (and fixed with --fix), on whichever thread:
 * the main thread calls it for each module, and a worker thread of the pool
 * (workers.ts) calls it for the modules it is sent. What it returns crosses
 * the thread boundary, so it holds the report but not the syntax trees.
 */
import * as path from "node:path";
import { lintModule, type LintOptions, type LintOutcome, type ReadError } from "../lint/engine.js";
import type { ModuleReport } from "../lint/result.js";
import type { CliArgs } from "./args.js";
import { InputRecorder, type ReadInputs } from "./cache-inputs.js";
import { fixOnDisk, type FixSummary } from "./fix-run.js";
import type { ModulePlan } from "./module-plans.js";
import { realOf, type Target } from "./paths.js";

/** A lint outcome without the loaded syntax trees. */
export type ModuleOutcome = Exclude<LintOutcome, { kind: "report" }> | { kind: "report"; report: ModuleReport; readErrors: ReadError[] };

/** One module linted (and fixed): the report without syntax trees, and the local children it loaded. */
export interface LintedTarget {
  outcome: ModuleOutcome;
  nested: string[];
  /** What --fix did (the main thread adds it to the run's tally). */
  fixed?: FixSummary;
  /** Set when the module was linted only for the files named below it, and loads none of them. */
  skipped?: true;
  /** With --cache: what the lint read (cache.ts stores the result under it); absent when the result must not be stored. */
  inputs?: ReadInputs;
}

/** A module to lint on a worker thread: what that thread needs to plan it again. */
export interface ModuleRequest {
  args: CliArgs;
  target: Target;
  /** The run's working and home directories (config lookup). */
  cwd: string;
  home: string;
  stdin?: LintOptions["stdin"];
  /** See lintTarget: lint only when the module loads one of these directories. */
  onlyIfLoads?: string[];
}

function withoutTrees(outcome: LintOutcome): LintedTarget {
  if (outcome.kind !== "report") return { outcome, nested: [] };
  return {
    // Keep the report, not the syntax trees (memory on large trees).
    outcome: { kind: "report", report: outcome.report, readErrors: outcome.readErrors },
    nested: outcome.load.units.slice(1).map((u) => path.resolve(u.dir)),
  };
}

/**
 * Lints one planned module and applies --fix. With `onlyIfLoads` (a directory above module files named one
 * by one), the module is of interest (and only fixed) when it loads one of
 * those directories.
 */
export function lintTarget(args: CliArgs, plan: ModulePlan, onlyIfLoads?: readonly string[]): LintedTarget {
  const opts = plan.lint.options;
  const stdin = opts.stdin;
  // --cache records what the lint reads (never for --stdin's text).
  const recorder = args.cache && !stdin ? new InputRecorder() : null;
  const outcome = lintModule(plan.target.dir, recorder ? { ...opts, loadLog: recorder } : opts);
  const inputs = recorder ? recorded(recorder, outcome) : null;
  const withInputs = (t: LintedTarget): LintedTarget => (inputs ? { ...t, inputs } : t);
  if (onlyIfLoads) {
    const wanted = new Set(onlyIfLoads);
    if (outcome.kind !== "report" || !outcome.load.units.slice(1).some((u) => wanted.has(realOf(u.dir)))) return withInputs({ outcome: withoutTrees(outcome).outcome, nested: [], skipped: true });
  }
  if (args.fix && outcome.kind === "report" && outcome.readErrors.length === 0) {
    const run = fixOnDisk(plan.target.dir, opts, outcome, args.fixUnsafe ? "all" : "safe");
    const linted: LintedTarget = { ...withoutTrees(run.outcome), fixed: { written: run.written, applied: run.applied, notes: run.notes, writeErrors: run.writeErrors } };
    // The outcome is of what was read only when --fix wrote nothing.
    return run.written.length === 0 && run.writeErrors.length === 0 ? withInputs(linted) : linted;
  }
  return withInputs(withoutTrees(outcome));
}

/** What the recorder saw, made ReadInputs for the outcome (null: not to be stored). */
function recorded(recorder: InputRecorder, outcome: LintOutcome): ReadInputs | null {
  return outcome.kind === "report" ? recorder.finish(outcome.load, outcome.report.sources) : recorder.finish(null, null);
}

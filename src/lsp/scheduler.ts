/**
 * The scheduler room: the tracked modules (every open module file makes its
 * directory one), when each is linted, and linting in steps.
 *
 * When a module is linted (leading edge): a change to any file it loaded
 * that finds the module idle (no run under way, no run waiting, and its last
 * run ended more than `debounceMs` ago) starts a run at once. A change that
 * comes while a run is under way, or within `debounceMs` after the last one
 * ended, is part of a burst: the burst is linted once, `debounceMs` after
 * its last change (each change of the burst restarts that wait). A run that
 * is still under way when the wait ends is abandoned at its next yield and
 * the burst's run starts as soon as it has stopped. So the newest version is
 * always linted, typing at a steady pace is linted keystroke by keystroke,
 * and fast typing waits for a pause.
 *
 * Linting runs in steps (lint/engine.ts lintSteps): after a slice of work the
 * server yields to its event loop, and a run whose module changed meanwhile
 * is abandoned; a finished run whose module changed is not published.
 */
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { lintModule, lintSteps, type EngineOptions as LintOptions, type LintOutcome } from "../lint/engine.js";
import type { ParseCache } from "../terraform/load.js";
import type { Configuration, Settings } from "./configuration.js";
import { makeResult, type DiagnosticsBoard, type Placed, type Result } from "./diagnostics.js";
import type { Documents } from "./documents.js";

/** Work between two yields to the event loop while linting. */

export interface Tracked {
  dir: string;
  generation: number;
  /** Syntax trees of the files as last linted (only changed files are parsed again). */
  parseCache: ParseCache;
  /** The wait of a burst (see above): when it ends, the burst is linted. */
  timer: NodeJS.Timeout | null;
  result: Result | null;
  /** A run of this module is under way (its config loading or between two slices). */
  running: boolean;
  /** A burst's wait ended while a run was under way: lint again as soon as that run stops. */
  again: boolean;
  /** A change found the module idle: its run starts once the message that brought the change has been handled. */
  soon: boolean;
  /** Until when (performance.now()) a change still belongs to the last burst: the end of the last run plus debounceMs. */
  busyUntil: number;
}

/** The findings shown in one file by one tracked module. */
export interface Shown {
  m: Tracked;
  result: Result;
  rel: string;
  list: Placed[];
}

/**
 * Lint runs: finished, abandoned; started at once on a change to an idle
 * module (leading) and after a burst's wait (waited); wall-clock and CPU
 * milliseconds of the last finished one (yields excluded).
 */
export interface Stats {
  runs: number;
  abandoned: number;
  leading: number;
  waited: number;
  lastWorkMs: number;
  lastCpuMs: number;
  workMs: number[];
}

/** A finished run: its options, its outcome, and its wall-clock and CPU time without the yields. */
interface Slices {
  opts: LintOptions;
  outcome: LintOutcome;
  work: number;
  cpuMicros: number;
}

/**
 * A module linted in slices of `sliceMs` of work, yielding to the event loop between
 * them; null when `stale()` holds at a yield (the run is abandoned there).
 * Working out the options (`optionsOf`) counts as work of the run.
 */
async function lintInSlices(dir: string, parseCache: ParseCache, sliceMs: number, optionsOf: () => LintOptions, stale: () => boolean): Promise<Slices | null> {
  let t = performance.now();
  let work = 0;
  let cpu = process.cpuUsage();
  let cpuMicros = 0;
  const opts = optionsOf();
  const cached = { ...opts, parseCache };
  const steps = lintSteps(dir, cached);
  let outcome: LintOutcome;
  for (;;) {
    const r = steps.next();
    if (r.done) {
      outcome = r.value;
      break;
    }
    if (performance.now() - t >= sliceMs) {
      work += performance.now() - t;
      const d = process.cpuUsage(cpu);
      cpuMicros += d.user + d.system;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (stale()) {
        steps.return(undefined as unknown as LintOutcome);
        return null;
      }
      t = performance.now();
      cpu = process.cpuUsage();
    }
  }
  outcome = syntaxOnlyWithoutRole(dir, outcome, cached);
  work += performance.now() - t;
  const d = process.cpuUsage(cpu);
  cpuMicros += d.user + d.system;
  return { opts, outcome, work, cpuMicros };
}

/**
 * A module that shows no role yet (a new file, a helper module): the
 * contract rules cannot run, but what Terraform would reject can.
 */
function syntaxOnlyWithoutRole(dir: string, outcome: LintOutcome, opts: LintOptions): LintOutcome {
  if (outcome.kind !== "usage-error" || outcome.noRole !== true) return outcome;
  return lintModule(dir, { ...opts, role: "cluster", only: ["syntax/parse", "syntax/one-line-block"] });
}

export class Scheduler {
  private readonly modules = new Map<string, Tracked>();
  readonly stats: Stats = { runs: 0, abandoned: 0, leading: 0, waited: 0, lastWorkMs: 0, lastCpuMs: 0, workMs: [] };

  constructor(
    private readonly settings: Settings,
    private readonly documents: Documents,
    private readonly configuration: Configuration,
    private readonly board: DiagnosticsBoard,
    private readonly log: (text: string) => void,
  ) {}

  /** The tracked module of a directory. */
  get(dir: string): Tracked | undefined {
    return this.modules.get(dir);
  }

  /** Whether a run of some module is in progress (between two slices). */
  get linting(): boolean {
    for (const m of this.modules.values()) if (m.running) return true;
    return false;
  }

  track(dir: string): Tracked {
    let m = this.modules.get(dir);
    if (!m) this.modules.set(dir, (m = { dir, generation: 0, parseCache: new Map(), timer: null, result: null, running: false, again: false, soon: false, busyUntil: 0 }));
    return m;
  }

  /** Stop tracking a directory; what it showed goes away. */
  untrack(dir: string): void {
    const m = this.modules.get(dir);
    if (m) this.calm(m);
    this.modules.delete(dir);
    this.board.contribute(`module:${dir}`, new Map());
  }

  /** Stop every timer and forget every module (shutdown). */
  stop(): void {
    for (const m of this.modules.values()) this.calm(m);
    this.modules.clear();
  }

  /** No wait and no run to follow for this module any more. */
  private calm(m: Tracked): void {
    if (m.timer) clearTimeout(m.timer);
    m.timer = null;
    m.again = false;
  }

  /** The module changed: lint it at once when it is idle, else (a burst) after the wait (see the top of this file). */
  private schedule(m: Tracked): void {
    m.generation++;
    // A run starts right after this message: it lints this change too.
    if (m.soon) return;
    if (m.timer === null && !m.running && !m.again && performance.now() >= m.busyUntil) {
      // Once the handlers of this message are done (opening a document also reports its content as changed).
      m.soon = true;
      queueMicrotask(() => {
        m.soon = false;
        if (this.modules.get(m.dir) !== m) return;
        this.stats.leading++;
        this.start(m);
      });
      return;
    }
    if (m.timer) clearTimeout(m.timer);
    m.timer = setTimeout(() => {
      m.timer = null;
      if (m.running) {
        // That run is stale now: it stops at its next yield, then this burst is linted.
        m.again = true;
        return;
      }
      this.stats.waited++;
      this.start(m);
    }, this.settings.debounceMs);
  }

  /** Lint the module's current state now; a burst's wait still running is covered by this run. */
  private start(m: Tracked): void {
    this.calm(m);
    void this.lintAsync(m);
  }

  /** A run of `m` stopped (finished or abandoned): the next burst window opens, and a burst that waited for it starts. */
  private stopped(m: Tracked): void {
    m.running = false;
    m.busyUntil = performance.now() + this.settings.debounceMs;
    if (m.again && this.modules.get(m.dir) === m) {
      this.stats.waited++;
      this.start(m);
    }
  }

  /** Re-lint every tracked module. */
  scheduleAll(): void {
    for (const m of this.modules.values()) this.schedule(m);
  }

  /** Re-lint every tracked module that reads `abs`, and the module of its directory. */
  changed(abs: string): void {
    const dir = path.dirname(abs);
    for (const m of this.modules.values()) {
      if (m.dir === dir || m.result?.read.has(abs)) this.schedule(m);
    }
  }

  private stale(m: Tracked, generation: number): boolean {
    return m.generation !== generation || this.modules.get(m.dir) !== m;
  }

  private async lintAsync(m: Tracked): Promise<void> {
    const generation = m.generation;
    m.running = true;
    try {
      const run = await this.lintNow(m, generation);
      if (run === null || this.stale(m, generation)) {
        this.stats.abandoned++;
        return;
      }
      m.result = this.result(generation, run.outcome, run.opts);
      const stats = this.stats;
      stats.runs++;
      stats.lastWorkMs = run.work;
      stats.lastCpuMs = run.cpuMicros / 1000;
      stats.workMs.push(run.work);
      if (stats.workMs.length > 1000) stats.workMs.shift();
      this.board.showModule(m.dir, m.result);
    } catch (err) {
      this.log(`linting ${m.dir} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.stopped(m);
    }
  }

  /** The run itself: the module's config (loaded first when it must be), then the lint in slices; null when it went stale. */
  private async lintNow(m: Tracked, generation: number): Promise<Slices | null> {
    const loading = this.configuration.prepare(m.dir);
    if (loading) {
      await loading;
      if (this.stale(m, generation)) return null;
    }
    return lintInSlices(m.dir, m.parseCache, this.settings.sliceMs, () => this.configuration.optionsFor(m.dir), () => this.stale(m, generation));
  }

  private result(generation: number, outcome: LintOutcome, opts: LintOptions): Result {
    const docs = this.documents;
    const baseline = outcome.kind === "report" ? this.configuration.baselineFor(outcome.report.dir) : null;
    return makeResult(generation, outcome, opts, this.settings.encoding, this.settings.relatedInformation ? (abs) => docs.uriOf(abs) : undefined, baseline);
  }

  /** The module's result for its current state, linting now when the last one is stale. */
  current(m: Tracked): Result | null {
    if (m.result && m.result.generation === m.generation) return m.result;
    const opts = this.configuration.optionsFor(m.dir);
    const cached = { ...opts, parseCache: m.parseCache };
    const result = this.result(m.generation, syntaxOnlyWithoutRole(m.dir, lintModule(m.dir, cached), cached), opts);
    m.result = result;
    this.board.showModule(m.dir, result);
    return result;
  }

  /** Findings shown in the file `abs`, with the module result they come from (its own module first). */
  shownIn(abs: string): Shown[] {
    const out: Shown[] = [];
    const own = this.modules.get(path.dirname(abs));
    const order = own ? [own, ...[...this.modules.values()].filter((x) => x !== own)] : [...this.modules.values()];
    for (const m of order) {
      const rel = path.relative(m.dir, abs).split(path.sep).join("/");
      if (rel.startsWith("../") || path.isAbsolute(rel)) continue;
      if (m !== own && !m.result?.read.has(abs)) continue;
      const result = this.current(m);
      if (!result) continue;
      const list = result.placed.get(rel);
      if (list && list.length > 0) out.push({ m, result, rel, list });
    }
    return out;
  }
}

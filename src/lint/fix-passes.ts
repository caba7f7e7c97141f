/**
 * Fixes in passes, in memory: the fixes of a lint applied, the module linted
 * again with the fixed texts as an overlay, and so on until a pass changes
 * nothing. One sequence for `--fix`, `--fix-dry-run` and the language
 * server's Fix all; each says in its own words what the events mean.
 */
import * as path from "node:path";
import { lintModule, type EngineOptions, type LintOutcome } from "./engine.js";
import { fixesByFile, fixFileText, inScope, MAX_FIX_PASSES, type FixScope } from "./apply-fixes.js";
import type { ModuleReport } from "./result.js";
import type { Finding } from "./types.js";

/** A module's findings and the texts they were found in: a first lint, or a report (--fix-dry-run). */
export interface FixBase {
  kind: "report";
  report: Pick<ModuleReport, "findings" | "sources">;
}

/** What happened on the way, in order. */
export type PassEvent =
  /** A fix that edits outside the node it was computed for: never applied. */
  | { kind: "edit-outside"; finding: Finding }
  /** A pass's fixes of `file` refused (syntax errors before or after); `earlier`: fixes earlier passes applied to it. */
  | { kind: "refused"; file: string; reason: string; syntaxError?: string; earlier?: number }
  /** A rule whose fixes still changed `files` after MAX_FIX_PASSES passes: the passes ran again without its fixes. */
  | { kind: "unsettled"; ruleId: string; files: string[] };

/** What a sequence of passes left, in memory (nothing written). */
export interface Passes<First extends FixBase> {
  outcome: First | LintOutcome;
  /** Fixed texts (without BOM) by module-relative path, of files the passes changed. */
  texts: Map<string, string>;
  /** Fixes applied per file, over every pass. */
  applied: Map<string, number>;
  events: PassEvent[];
}

/** How the passes run. */
export interface PassSettings {
  /** A file's text before any fix (undefined: leave the file alone). */
  baseText: (file: string) => string | undefined;
  /** The safe fixes only, or every fix. */
  scope: FixScope;
}

/**
 * Passes until stable. A rule whose fixes still change a file after
 * MAX_FIX_PASSES passes (a fix that undoes itself, or grows the text each
 * time) does not settle: the passes run again from `first` without that
 * rule's fixes (an "unsettled" event names it). Nothing is applied ten times.
 */
export function settledPasses<First extends FixBase>(dir: string, opts: EngineOptions, first: First, how: PassSettings): Passes<First> {
  const skip = new Set<string>();
  const events: PassEvent[] = [];
  for (;;) {
    const run = runPasses(dir, opts, first, skip, how, events);
    // Each round leaves out at least one more rule, so this ends.
    if (run.unsettled.size === 0) return { outcome: run.outcome, texts: run.texts, applied: run.applied, events };
    for (const [ruleId, files] of [...run.unsettled].sort(([a], [b]) => (a < b ? -1 : 1))) {
      events.push({ kind: "unsettled", ruleId, files });
      skip.add(ruleId);
    }
  }
}

/**
 * Fix passes until a pass changes nothing or MAX_FIX_PASSES is reached; the
 * fixes of the rules in `skip` are left out, and so are the unsafe ones
 * unless the scope is "all". `unsettled`: the rules whose fixes would still
 * change a file after the last pass, with those files.
 */
function runPasses<First extends FixBase>(dir: string, opts: EngineOptions, first: First, skip: ReadonlySet<string>, how: PassSettings, events: PassEvent[]) {
  let outcome: First | LintOutcome = first;
  const texts = new Map<string, string>();
  const applied = new Map<string, number>();
  const textOf = (file: string): string | undefined => texts.get(file) ?? how.baseText(file);
  let settled = false;
  for (let pass = 0; pass < MAX_FIX_PASSES && outcome.kind === "report"; pass++) {
    const refused: Finding[] = [];
    const byFile = fixesByFile(outcome.report.findings.filter((f) => !skip.has(f.ruleId)), refused, how.scope);
    for (const finding of refused) events.push({ kind: "edit-outside", finding });
    let changed = false;
    for (const [file, fixes] of byFile) {
      const text = textOf(file);
      if (text === undefined || text !== outcome.report.sources.get(file)) continue;
      const result = fixFileText(file, text, fixes);
      if (result.kind === "refused") {
        const earlier = applied.get(file);
        events.push({ kind: "refused", file, reason: result.reason, ...(result.syntaxError !== undefined ? { syntaxError: result.syntaxError } : {}), ...(earlier ? { earlier } : {}) });
      }
      if (result.kind !== "fixed") continue;
      texts.set(file, result.text);
      applied.set(file, (applied.get(file) ?? 0) + result.applied);
      changed = true;
    }
    if (!changed) {
      settled = true;
      break;
    }
    outcome = lintModule(dir, withTexts(dir, opts, texts));
  }
  const unsettled = settled ? new Map<string, string[]>() : rulesStillFixing(outcome, textOf, skip, how.scope);
  return { outcome, texts, applied, unsettled };
}

/** Rules (not in `skip`) whose own fixes would change a file of `outcome` once more, with those files. */
function rulesStillFixing(outcome: FixBase | LintOutcome, textOf: (file: string) => string | undefined, skip: ReadonlySet<string>, scope: FixScope): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (outcome.kind !== "report") return out;
  const ids = new Set(outcome.report.findings.filter((f) => f.fix && !f.suppressed && !skip.has(f.ruleId) && inScope(f.fix, scope)).map((f) => f.ruleId));
  for (const id of ids) {
    const files: string[] = [];
    for (const [file, fixes] of fixesByFile(outcome.report.findings.filter((f) => f.ruleId === id), undefined, scope)) {
      const text = textOf(file);
      if (text !== undefined && fixFileText(file, text, fixes).kind === "fixed") files.push(file);
    }
    if (files.length > 0) out.set(id, files.sort());
  }
  return out;
}

/**
 * The options to lint `dir` again with the fixed `texts` in place of the
 * files'. The text read from --stdin (--fix-dry-run) becomes an overlay
 * entry too, so that its fixed text replaces it.
 */
function withTexts(dir: string, opts: EngineOptions, texts: ReadonlyMap<string, string>): EngineOptions {
  const overlay = new Map<string, string>();
  const { stdin, ...rest } = opts;
  if (stdin) for (const abs of [path.resolve(stdin.path), path.resolve(dir, stdin.path)]) overlay.set(abs, stdin.text);
  for (const [file, text] of opts.overlay ?? []) overlay.set(path.resolve(file), text);
  for (const [file, text] of texts) overlay.set(path.resolve(dir, ...file.split("/")), text);
  return { ...rest, overlay };
}

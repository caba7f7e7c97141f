/**
 * Helpers shared by the formatters: paths, severity order, counting, text
 * sanitising. Nothing here knows a particular output format.
 */
import * as path from "node:path";
import type { BaselineReport, ModuleReport, ReadProblem, RunReport, Summary, WarningLimit } from "../lint/result.js";
import { SEVERITY_RANK, type Finding, type RuleDefinition, type Severity } from "../lint/types.js";

/** Converts an OS path to `/` separators (no-op on POSIX). */
export function toSlash(p: string): string {
  return path.sep === "\\" ? p.split("\\").join("/") : p;
}

/**
 * `target` relative to `base`, `/`-separated; `"."` when they are the same
 * directory. Works on absolute paths only (both come from the run report).
 */
export function relativePath(base: string, target: string): string {
  const rel = toSlash(path.relative(base, target));
  return rel === "" ? "." : rel;
}

/** Where a read problem is shown: its path relative to `base`, or the name it is known by (an image reference). */
export function problemPath(base: string, e: ReadProblem): string {
  return e.shownAs ?? relativePath(base, e.path);
}

/** Absolute path of a finding's file (or the module directory for file ""). */
export function absoluteFile(mod: ModuleReport, file: string): string {
  return file === "" ? mod.dir : path.join(mod.dir, ...file.split("/"));
}

/**
 * Where to show a finding (or a module-level finding's module) relative to
 * `base`. In an image report a file is a path inside the image, shown as is,
 * and the image itself is shown as its reference.
 */
export function displayPath(base: string, mod: ModuleReport, file: string): string {
  if (mod.image) return file === "" ? mod.image.ref : file;
  return relativePath(base, absoluteFile(mod, file));
}

/** A finding about the module as a whole (something missing): file "". */
export function isModuleLevel(f: Finding): boolean {
  return f.file === "";
}

/**
 * Does the finding point at a line? False for module-level findings and for
 * file-level ones (a file given but line 0, e.g. a file that cannot be read).
 */
export function hasPosition(f: Finding): boolean {
  return f.file !== "" && f.range.start.line >= 1;
}

export function visibleFindings(mod: ModuleReport): Finding[] {
  return mod.findings.filter((f) => !f.suppressed);
}

export function suppressedFindings(mod: ModuleReport): Finding[] {
  return mod.findings.filter((f) => f.suppressed);
}

export function addSummaries(summaries: Summary[]): Summary {
  const total: Summary = { error: 0, warning: 0, info: 0 };
  for (const s of summaries) {
    total.error += s.error;
    total.warning += s.warning;
    total.info += s.info;
  }
  return total;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `2 errors, 1 warning, 0 info` */
export function countsText(s: Summary): string {
  return `${plural(s.error, "error")}, ${plural(s.warning, "warning")}, ${s.info} info`;
}

export function totalOf(s: Summary): number {
  return s.error + s.warning + s.info;
}

/** Does a finding of this severity fail the run (severity at or above `failOn`)? */
export function failsRun(severity: Severity, failOn: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[failOn];
}

/** Counts of hidden findings in words: "3 warnings", "1 info", "2 warnings and 1 info". */
function hiddenCountsText(c: { warning: number; info: number }): string {
  return [c.warning > 0 ? plural(c.warning, "warning") : "", c.info > 0 ? `${c.info} info` : ""].filter((w) => w !== "").join(" and ");
}

/**
 * Why modules fail although `--quiet` shows nothing that would: "3
 * warnings hidden by --quiet fail the run (--strict)", or "2 warnings
 * hidden by --quiet count toward --max-warnings 1" (an exceeded warning
 * limit); null when the hidden findings fail nothing.
 */
export function quietFailureText(run: RunReport, mods: readonly ModuleReport[]): string | null {
  const failing = { warning: 0, info: 0 };
  let hiddenWarnings = 0;
  const settings: string[] = [];
  for (const m of mods) {
    const q = m.quietHidden;
    if (!q) continue;
    failing.warning += q.failing.warning;
    failing.info += q.failing.info;
    hiddenWarnings += q.hidden.warning;
    if (q.failing.warning + q.failing.info > 0 && !settings.includes(q.failSetting)) settings.push(q.failSetting);
  }
  const n = failing.warning + failing.info;
  if (n > 0) return `${hiddenCountsText(failing)} hidden by --quiet ${n === 1 ? "fails" : "fail"} the run (${settings.join(", ")})`;
  const limit = run.warningLimit;
  if (limit && hiddenWarnings > 0) return `${plural(hiddenWarnings, "warning")} hidden by --quiet ${hiddenWarnings === 1 ? "counts" : "count"} toward ${limit.setting} ${limit.max}`;
  return null;
}

/** "3 warnings, more than --max-warnings 2", with how many of them --quiet hid. */
export function warningLimitText(w: WarningLimit): string {
  const hidden = w.hidden !== undefined && w.hidden > 0 ? ` (${w.hidden} hidden by --quiet)` : "";
  return `${plural(w.warnings, "warning")}${hidden}, more than ${w.setting} ${w.max}`;
}

/** Splits text into lines on `\r\n`, `\n` or a lone `\r`. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * Replaces C0 control characters (except tab) and DEL by U+FFFD so that
 * user-controlled text cannot drive the terminal. One UTF-16 unit in, one
 * out: columns keep lining up.
 */
export function sanitizeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\ufffd");
}

/** A message on one line: line breaks become single spaces, controls are replaced. */
export function oneLine(message: string): string {
  return sanitizeControls(message.replace(/\r\n|\r|\n/g, " "));
}

/** The rule definitions by id. */
export function ruleMap(rules: readonly RuleDefinition[]): Map<string, RuleDefinition> {
  const map = new Map<string, RuleDefinition>();
  for (const r of rules) if (!map.has(r.id)) map.set(r.id, r);
  return map;
}

/** The directory GitHub paths are relative to: GITHUB_WORKSPACE, else the working directory. */
export function githubBaseDir(run: RunReport, env: Record<string, string | undefined>): string {
  const ws = env.GITHUB_WORKSPACE;
  return ws !== undefined && ws !== "" ? ws : run.cwd;
}

/** Every finding of the run, with its module, in report order. */
export function allFindings(run: RunReport): Array<{ mod: ModuleReport; finding: Finding }> {
  const out: Array<{ mod: ModuleReport; finding: Finding }> = [];
  for (const mod of run.modules) for (const finding of mod.findings) out.push({ mod, finding });
  return out;
}

export { roleSourceText } from "../lint/result.js";

/** `3 findings in the baseline` */
export function baselinedText(n: number): string {
  return `${plural(n, "finding")} in the baseline`;
}

/**
 * What a report says of the baseline's entries besides the findings: each
 * expired entry that still matches (its findings count again), and the
 * entries that match fewer findings than their count, with the command
 * that drops them. One line each; empty when there is nothing to say.
 */
export function baselineNotes(b: BaselineReport): string[] {
  const out: string[] = [];
  for (const e of b.expired) {
    out.push(`baseline ${e.file}: the entry for ${e.rule} on ${e.subject} in ${e.module} expired on ${e.expires}: its ${plural(e.matched, "finding")} count${e.matched === 1 ? "s" : ""} again; fix ${e.matched === 1 ? "it" : "them"}, or give the entry a later "expires" date`);
  }
  if (b.unmatched.length > 0) {
    const n = b.unmatched.length;
    out.push(`baseline: ${n} ${n === 1 ? "entry matches" : "entries match"} fewer findings than ${n === 1 ? "its" : "their"} count (fixed or renamed); drop ${n === 1 ? "it" : "them"} with: ${b.pruneCommand}`);
    for (const e of b.unmatched) out.push(`  ${e.file}: ${e.module} ${e.rule} ${e.subject} (count ${e.count}, matched ${e.matched})`);
  }
  return out;
}

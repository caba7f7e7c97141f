/**
 * The GitHub job summary for `--format github`: every unsuppressed finding
 * in a Markdown table per module (annotations stop at 10 per type; the
 * summary has them all).
 *
 * GitHub accepts at most 1 MiB of summary per step, counting what earlier
 * commands of the same step appended; past that it drops the whole summary.
 * So the table stops before the budget runs out and says how many findings
 * it left out.
 */
import { appendFileSync, statSync } from "node:fs";
import type { RunReport } from "../lint/result.js";
import { ruleDocUrl } from "./docs.js";
import {
  displayPath,
  countsText,
  baselinedText,
  baselineNotes,
  githubBaseDir,
  hasPosition,
  isModuleLevel,
  plural,
  quietFailureText,
  suppressedFindings,
  visibleFindings,
} from "./util.js";

/** GitHub's limit on a step's summary, in bytes. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** Kept free for headings and count lines after the rows stop. */
const RESERVE = 16 * 1024;

/** Escapes text for a Markdown table cell (GitHub-flavoured). */
export function markdownCell(text: string): string {
  return text.replace(/[\\`*_[\]<>|~&#!]/g, (ch) => `\\${ch}`).replace(/\r\n|\r|\n/g, "<br>");
}

/**
 * The summary Markdown. `budget` is how many bytes it may take; rows that
 * would go past it (less a reserve for the closing lines) are left out and
 * counted instead.
 */
export function stepSummaryMarkdown(
  run: RunReport,
  env: Record<string, string | undefined>,
  budget: number = STEP_SUMMARY_LIMIT,
): string {
  const base = githubBaseDir(run, env);
  const out: string[] = [];
  let used = 0;
  let full = false;
  const push = (...lines: string[]) => {
    out.push(...lines);
    for (const l of lines) used += Buffer.byteLength(l, "utf8") + 1;
  };
  push("## tfcapi-lint", "");
  const rules = new Map(run.rules.map((r) => [r.id, r]));
  for (const mod of run.modules) {
    push(`### ${markdownCell(displayPath(base, mod, ""))} (${mod.role})`, "");
    const findings = visibleFindings(mod);
    const hiddenFailure = quietFailureText(run, [mod]);
    if (findings.length === 0 && hiddenFailure !== null) {
      // Findings --quiet hid fail the run: never "No problems." above a failed step.
      push(`No problems shown, but ${markdownCell(hiddenFailure)}.`, "");
    } else if (findings.length === 0) {
      push("No problems.", "");
    } else {
      let omitted = 0;
      const rows: string[] = [];
      for (const f of findings) {
        const path = displayPath(base, mod, f.file);
        const loc = isModuleLevel(f)
          ? `${path} (module)`
          : hasPosition(f)
            ? `${path}:${f.range.start.line}:${f.range.start.column}`
            : path;
        const row = `| ${f.severity} | [${markdownCell(f.ruleId)}](${ruleDocUrl(f.ruleId, rules.get(f.ruleId))}) | ${markdownCell(loc)} | ${markdownCell(f.message)} |`;
        const size = Buffer.byteLength(row, "utf8") + 1;
        if (full || used + size > budget - RESERVE) {
          full = true;
          omitted++;
          continue;
        }
        rows.push(row);
        used += size;
      }
      if (rows.length > 0) push("| Severity | Rule | Location | Message |", "| --- | --- | --- | --- |", ...rows, "");
      if (omitted > 0) push(`${plural(omitted, "more finding")} not listed: the job summary is limited to 1 MiB.`, "");
    }
    const suppressed = suppressedFindings(mod).length;
    const sup = suppressed > 0 ? `, ${suppressed} suppressed` : "";
    // With a baseline in use: new findings are the counts above; known ones are counted apart.
    const known = run.baseline ? `; ${baselinedText(mod.baselined?.length ?? 0)}` : "";
    push(`${countsText(mod.summary)}${sup}${known}.`, "");
  }
  if (run.baseline) {
    const notes = baselineNotes(run.baseline);
    if (notes.length > 0) push(...notes.map((n) => (n.startsWith("  ") ? `- ${markdownCell(n.trim())}` : markdownCell(n))), "");
  }
  return out.join("\n");
}

/**
 * Appends the job summary to the file named by `GITHUB_STEP_SUMMARY`.
 * Returns null when the variable is unset, else the path written and, if
 * the write failed, the reason (never throws).
 */
export function writeStepSummary(
  run: RunReport,
  env: Record<string, string | undefined>,
): { path: string; error?: string } | null {
  const target = env.GITHUB_STEP_SUMMARY;
  if (target === undefined || target === "") return null;
  let existing = 0;
  try {
    existing = statSync(target).size;
  } catch {
    // No file yet: the whole budget is ours.
  }
  try {
    appendFileSync(target, stepSummaryMarkdown(run, env, STEP_SUMMARY_LIMIT - existing), "utf8");
    return { path: target };
  } catch (err) {
    return { path: target, error: writeErrorText(err) };
  }
}

/** Why the summary file could not be written, in words (never the system's "EACCES: ..." text). */
function writeErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOENT") return "its directory does not exist";
  if (code === "ENOTDIR") return "a component of its path is not a directory";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOSPC") return "no space left on device";
  return code ?? (err instanceof Error ? err.message : String(err));
}

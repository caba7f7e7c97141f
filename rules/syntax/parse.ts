import type { Diagnostic, Range } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";

/** The diagnostic code syntax/one-line-block reports instead. */
export const ONE_LINE_BLOCK_CODE = "one-line-block";

/** At most this many syntax findings per file; one more says how many were left out. */
export const MAX_PARSE_FINDINGS_PER_FILE = 10;

/** "Summary: detail." as one line. */
export function diagnosticMessage(d: Diagnostic): string {
  const summary = d.summary.trim();
  const detail = d.detail.trim().replace(/\s*\n\s*/g, " ");
  if (detail === "") return summary;
  return `${summary}: ${detail}`;
}

interface Shown {
  message: string;
  range: Range;
  severity: "error" | "warning";
  /** Where the parser saw the problem, when the finding points elsewhere (an unclosed heredoc's end of file). */
  related?: { range: Range; message: string };
}

const INVALID_CHARACTER = "Invalid character";
const MULTI_LINE_STRING = "Invalid multi-line string";
const UNTERMINATED_STRING = "Unterminated template string";

/**
 * The findings for one file's diagnostics, one per cause rather than one per
 * character or line, as `terraform` would list them once it is read:
 *  - a run of adjacent invalid characters of the same kind (HashiCorp's
 *    parser reports each one) is one finding over the whole run;
 *  - once a quoted string is left unterminated, every later line that holds
 *    a quote gets an "Invalid multi-line string" (the quotes pair up the
 *    wrong way from there on): only the first, at the string itself, is
 *    shown; the others are counted as hidden;
 *  - at most MAX_PARSE_FINDINGS_PER_FILE findings (in position order), then
 *    one that says how many more the file has.
 * The parser's own diagnostics stay as HashiCorp reports them, except that
 * a heredoc never closed is shown at its `<<MARKER` (HashiCorp's parser
 * points at the end of the file, far from where the fix goes), with the end
 * of the file as its related location.
 */
export function parseFindings(diagnostics: readonly Diagnostic[], file: string): Shown[] {
  const byPosition = <T>(items: T[], range: (x: T) => Range): T[] =>
    items
      .map((x, i) => ({ x, i }))
      .sort((a, b) => range(a.x).start.offset - range(b.x).start.offset || a.i - b.i)
      .map((e) => e.x);
  const relevant = diagnostics.filter((d) => d.code !== ONE_LINE_BLOCK_CODE);
  const unterminated = byPosition(
    relevant.filter((d) => d.summary === UNTERMINATED_STRING),
    (d) => d.subject,
  )[0];
  const items: Shown[] = [];
  const hidden: Range[] = [];
  // Runs of adjacent invalid characters with the same explanation.
  let run: { d: Diagnostic; end: Range["end"]; count: number } | undefined;
  const flushRun = () => {
    if (run === undefined) return;
    const { d, end, count } = run;
    run = undefined;
    const message =
      count === 1 ? diagnosticMessage(d) : `${INVALID_CHARACTER}: ${count} characters in a row here have no meaning in HCL; remove them.`;
    items.push({ message, range: { start: d.subject.start, end }, severity: d.severity });
  };
  for (const d of byPosition(
    relevant.filter((d) => d.summary === INVALID_CHARACTER),
    (d) => d.subject,
  )) {
    if (run !== undefined && run.d.detail === d.detail && run.end.offset === d.subject.start.offset) {
      run.end = d.subject.end;
      run.count++;
      continue;
    }
    flushRun();
    run = { d, end: d.subject.end, count: 1 };
  }
  flushRun();
  for (const d of relevant) {
    if (d.summary === INVALID_CHARACTER) continue;
    if (d.summary === MULTI_LINE_STRING && unterminated !== undefined && d.subject.start.offset > unterminated.subject.start.offset) {
      hidden.push(d.subject);
      continue;
    }
    if (d.opener !== undefined) {
      // An unclosed heredoc: shown at its `<<MARKER`, with the end of the file as the place the parser stopped.
      items.push({ message: diagnosticMessage(d), range: d.opener, severity: d.severity, related: { range: d.subject, message: "the file ends here, still inside the heredoc" } });
      continue;
    }
    items.push({ message: diagnosticMessage(d), range: d.subject, severity: d.severity });
  }
  const shown = byPosition(items, (s) => s.range);
  if (shown.length <= MAX_PARSE_FINDINGS_PER_FILE && hidden.length === 0) return shown;
  const kept = shown.slice(0, MAX_PARSE_FINDINGS_PER_FILE);
  const leftOut = byPosition([...shown.slice(MAX_PARSE_FINDINGS_PER_FILE).map((s) => s.range), ...hidden], (r) => r);
  const more = leftOut.length;
  // The summary points at the first problem it stands for.
  kept.push({ message: `and ${more} more syntax ${more === 1 ? "error" : "errors"} in ${file}`, range: leftOut[0]!, severity: "error" });
  return kept;
}

export default defineRule({
  id: "syntax/parse",
  provenance: "syntax",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "Every module file parses as HCL native or JSON syntax",
  scope: "all",
  fixable: false,
  tags: ["syntax"],
  check(ctx) {
    for (const file of ctx.unit.allFiles) {
      for (const f of parseFindings(file.diagnostics, file.path)) {
        ctx.report({
          message: f.message,
          file: file.path,
          range: f.range,
          ...(f.severity === "warning" ? { severity: "warning" as const } : {}),
          ...(f.related ? { related: [{ file, range: f.related.range, message: f.related.message }] } : {}),
        });
      }
    }
  },
});

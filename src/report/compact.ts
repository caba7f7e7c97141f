/**
 * One line per unsuppressed finding and nothing else, for editors and
 * problem matchers:
 *
 *   modules/pool/outputs.tf:12:11: warning: provider_id_list is not sorted [output/provider-id-list-shape]
 *
 * Paths are relative to the working directory; a finding about the module as
 * a whole uses the module directory with `:0:0` (one about a whole file: the
 * file with `:0:0`; a file or directory that cannot be read: its path with
 * `:0:0`, severity error and `[read-error]`). Line breaks inside a message
 * become spaces, so every finding stays on one line. A clean run prints
 * nothing. The regular expression below parses a line (paths may contain
 * spaces; the first `:line:col: severity: ` after the path is taken, so a
 * message that itself looks like a location cannot shift the fields).
 */
import { problemId, type FormatOptions, type RunReport } from "../lint/result.js";
import { displayPath, hasPosition, oneLine, problemPath, visibleFindings } from "./util.js";

/**
 * For a VS Code problem matcher: groups 1 file, 2 line, 3 column,
 * 4 severity, 5 message, 6 rule id.
 */
export const COMPACT_PATTERN = "^(.+?):(\\d+):(\\d+): (error|warning|info): (.*) \\[([^\\]]+)\\]$";

export function formatCompact(run: RunReport, _opts: FormatOptions): string {
  const lines: string[] = [];
  for (const mod of run.modules) {
    for (const f of visibleFindings(mod)) {
      const file = oneLine(displayPath(run.cwd, mod, f.file));
      const pos = hasPosition(f) ? `${f.range.start.line}:${f.range.start.column}` : "0:0";
      lines.push(`${file}:${pos}: ${f.severity}: ${oneLine(f.message)} [${f.ruleId}]`);
    }
  }
  for (const e of run.readErrors ?? []) {
    lines.push(`${oneLine(problemPath(run.cwd, e))}:0:0: error: ${oneLine(e.message)} [${problemId(e)}]`);
  }
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}

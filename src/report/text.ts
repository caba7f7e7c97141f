/**
 * The human format (default): findings grouped by file, each with a code
 * frame, then totals, the role and how it was chosen, and the file set.
 *
 *   modules/pool/outputs.tf
 *     12:11  warning  provider_id_list is not wrapped in sort()  output/provider-id-list-shape
 *         12 |   value = local.ids
 *            |           ^^^^^^^^^
 *     via modules/pool/locals.tf:3:9  local.ids
 *
 *   modules/pool
 *     -      error    output "health" is not declared  output/health
 *
 *   ✖ 2 problems (1 error, 1 warning, 0 info)
 *   role: machinepool (detected: declares provider_id_list)
 *   file set: terraform
 *
 * A finding that followed a value (Finding.related) lists each hop on a
 * "via" line under its frame. Paths are relative to the working directory.
 * Suppressed findings are not shown (only counted); with a baseline in use
 * neither are baselined ones ("N findings in the baseline" in the totals),
 * and its expired and unmatched entries follow the totals. With several modules
 * each gets a section headed by its path, followed by a grand total.
 * Colours only when `opts.color`.
 */
import pc from "picocolors";
import type { FormatOptions, ModuleReport, ReadProblem, RunReport, Summary } from "../lint/result.js";
import type { Finding, Severity } from "../lint/types.js";
import { frameParts, SourceLines } from "./frame.js";
import {
  addSummaries,
  baselinedText,
  baselineNotes,
  countsText,
  displayPath,
  hasPosition,
  oneLine,
  plural,
  quietFailureText,
  roleSourceText,
  sanitizeControls,
  splitLines,
  suppressedFindings,
  totalOf,
  visibleFindings,
  warningLimitText,
} from "./util.js";

type Colors = ReturnType<typeof pc.createColors>;

function severityColor(c: Colors, severity: Severity): (s: string) => string {
  if (severity === "error") return c.red;
  if (severity === "warning") return c.yellow;
  return c.cyan;
}

/** Detection evidence shown on the role line (the JSON and SARIF reports carry all of it). */
const MAX_EVIDENCE = 3;

function roleLine(mod: ModuleReport): string {
  let how = roleSourceText(mod);
  if (mod.roleSource === "detected" && mod.roleEvidence.length > 0) {
    const shown = mod.roleEvidence.slice(0, MAX_EVIDENCE).join("; ");
    const more = mod.roleEvidence.length - MAX_EVIDENCE;
    how = `detected: ${shown}${more > 0 ? `; and ${more} more` : ""}`;
  }
  return `role: ${mod.role} (${sanitizeControls(how)})`;
}

function fileSetLine(mod: ModuleReport): string {
  const what =
    mod.fileSet === "opentofu"
      ? "opentofu (.tofu, .tofu.json, and .tf/.tf.json without a .tofu twin)"
      : "terraform (.tf, .tf.json)";
  return `file set: ${what}`;
}

interface Group {
  header: string;
  findings: Finding[];
}

/** Groups visible findings by displayed path, module-level ones under the module path. */
function groupFindings(run: RunReport, mod: ModuleReport): Group[] {
  const groups = new Map<string, Group>();
  for (const f of visibleFindings(mod)) {
    const header = displayPath(run.cwd, mod, f.file);
    let g = groups.get(header);
    if (!g) {
      g = { header, findings: [] };
      groups.set(header, g);
    }
    g.findings.push(f);
  }
  return [...groups.values()];
}

/** Message lines: a multi-line message keeps its breaks, controls replaced. */
function messageLines(message: string): string[] {
  return splitLines(message).map(sanitizeControls);
}

/**
 * The path a finding followed, one indented line per hop under its frame:
 * `    via modules/pool/locals.tf:3:9  local.ids`.
 */
function viaLines(f: Finding, where: (file: string) => string, c: Colors): string[] {
  return (f.related ?? []).map((r) => {
    const pos = r.range.start.line >= 1 ? `:${r.range.start.line}:${r.range.start.column}` : "";
    return `    ${c.dim("via")} ${sanitizeControls(where(r.file))}${pos}  ${oneLine(r.message)}`;
  });
}

function formatGroup(group: Group, lines: SourceLines, c: Colors, where: (file: string) => string): string[] {
  const out: string[] = [c.underline(sanitizeControls(group.header))];
  const positions = group.findings.map((f) =>
    hasPosition(f) ? `${f.range.start.line}:${f.range.start.column}` : "-",
  );
  const posWidth = Math.max(...positions.map((p) => p.length));
  const sevWidth = Math.max(...group.findings.map((f) => f.severity.length));
  group.findings.forEach((f, i) => {
    const color = severityColor(c, f.severity);
    const pos = c.dim(positions[i]) + " ".repeat(posWidth - positions[i].length);
    const sev = color(f.severity) + " ".repeat(sevWidth - f.severity.length);
    const msg = messageLines(f.message);
    const indent = " ".repeat(2 + posWidth + 2 + sevWidth + 2);
    const body = msg.map((m, k) => (k === 0 ? m : indent + m)).join("\n");
    out.push(`  ${pos}  ${sev}  ${body}  ${c.dim(f.ruleId)}`);
    const src = hasPosition(f) ? lines.line(f.file, f.range.start.line) : undefined;
    if (src !== undefined) {
      const parts = frameParts(src, f.range);
      const num = String(parts.lineNumber);
      const gutter = " ".repeat(4 + num.length);
      out.push(`    ${c.dim(`${num} |`)} ${parts.source}`.trimEnd());
      out.push(`${gutter}${c.dim(" |")} ${parts.pad}${color(parts.carets)}`);
    }
    out.push(...viaLines(f, where, c));
  });
  return out;
}

interface Tally {
  counts: Summary;
  suppressed: number;
  /** Findings a baseline entry matched (null: no baseline in use). */
  baselined: number | null;
  /** Visible findings with a safe fix (--fix applies it). */
  fixable: number;
  /** Visible findings with an unsafe fix (only --fix-unsafe applies it). */
  fixableUnsafe: number;
  readErrors: number;
  /** What the run could not do, in words: "1 read error", "1 rule failure", or both. */
  unread: string;
}

function unreadWords(errors: readonly ReadProblem[]): string {
  const rules = errors.filter((e) => e.ruleFailure === true).length;
  const roles = errors.filter((e) => e.roleUnknown === true).length;
  const reads = errors.length - rules - roles;
  const words = [reads > 0 ? plural(reads, "read error") : "", rules > 0 ? plural(rules, "rule failure") : "", roles > 0 ? `${plural(roles, "module")} of unknown role` : ""];
  return words.filter((w) => w !== "").join(" and ");
}

function tallyOf(mods: ModuleReport[], errors: readonly ReadProblem[], withBaseline: boolean): Tally {
  const readErrors = errors.length;
  return {
    counts: addSummaries(mods.map((m) => m.summary)),
    suppressed: mods.reduce((n, m) => n + suppressedFindings(m).length, 0),
    baselined: withBaseline ? mods.reduce((n, m) => n + (m.baselined?.length ?? 0), 0) : null,
    fixable: mods.reduce((n, m) => n + visibleFindings(m).filter((f) => f.fix !== undefined && f.fix.kind === "safe").length, 0),
    fixableUnsafe: mods.reduce((n, m) => n + visibleFindings(m).filter((f) => f.fix !== undefined && f.fix.kind !== "safe").length, 0),
    readErrors,
    unread: unreadWords(errors),
  };
}

/**
 * `✖ 3 problems (2 errors, 1 warning, 0 info), 1 suppressed, 1 fixable with --fix` or `✔ no problems`;
 * findings whose fix is unsafe are counted apart: `, 1 fixable with --fix, 1 with --fix-unsafe`.
 * With read errors never "no problems": what could not be read was not checked.
 */
function totalsLine(t: Tally, c: Colors, suffix = "", hiddenFailure: string | null = null): string {
  const total = totalOf(t.counts);
  const base = t.baselined !== null && t.baselined > 0 ? `, ${baselinedText(t.baselined)}` : "";
  const sup = (t.suppressed > 0 ? `, ${t.suppressed} suppressed` : "") + base;
  const unread = t.unread;
  // Findings --quiet hid that fail the run: never "no problems" beside them.
  const hidden = hiddenFailure !== null ? `; ${hiddenFailure}` : "";
  if (total === 0 && t.readErrors > 0) return `${c.red(c.bold("✖"))} ${c.bold(`not fully linted${suffix}: ${unread}`)}${sup}${hidden}`;
  if (total === 0 && hiddenFailure !== null) return `${c.red(c.bold("✖"))} ${c.bold(`no problems shown${suffix}, but ${hiddenFailure}`)}${sup}`;
  if (total === 0) return c.green(`✔ no problems${suffix}`) + (sup ? ` (${sup.slice(2)})` : "");
  const fixWords = [t.fixable > 0 ? `${t.fixable} fixable with --fix` : "", t.fixableUnsafe > 0 ? `${t.fixableUnsafe}${t.fixable > 0 ? "" : " fixable"} with --fix-unsafe` : ""];
  const fix = fixWords.filter((w) => w !== "").map((w) => `, ${w}`).join("");
  const mark = t.counts.error > 0 || t.readErrors > 0 ? c.red(c.bold("✖")) : c.yellow(c.bold("✖"));
  const unreadText = t.readErrors > 0 ? `, and ${unread}` : "";
  return `${mark} ${c.bold(`${plural(total, "problem")}${suffix} (${countsText(t.counts)})`)}${sup}${fix}${unreadText}${hidden}`;
}

function readErrorLines(errors: readonly ReadProblem[], c: Colors): string[] {
  return errors.map((e) => `${c.red("error")}  ${sanitizeControls(e.message)}  ${c.dim(e.ruleFailure === true ? "(rule failed)" : "(not linted)")}`);
}

function formatModule(run: RunReport, mod: ModuleReport, c: Colors, withHeader: boolean): string[] {
  const out: string[] = [];
  if (mod.image) {
    const img = mod.image;
    out.push(c.bold(sanitizeControls(`image ${img.ref} (${img.digest}) platforms ${img.platforms.join(", ")}`)), "");
  } else if (withHeader) out.push(c.bold(`module ${sanitizeControls(displayPath(run.cwd, mod, ""))}`), "");
  const lines = new SourceLines(mod.sources);
  for (const group of groupFindings(run, mod)) {
    out.push(...formatGroup(group, lines, c, (file) => displayPath(run.cwd, mod, file)), "");
  }
  const unread = (run.readErrors ?? []).filter((e) => e.moduleDir === mod.dir);
  if (unread.length > 0) out.push(...readErrorLines(unread, c), "");
  out.push(totalsLine(tallyOf([mod], unread, run.baseline !== undefined), c, "", quietFailureText(run, [mod])));
  out.push(c.dim(roleLine(mod)));
  out.push(c.dim(fileSetLine(mod)));
  return out;
}

export function formatText(run: RunReport, opts: FormatOptions): string {
  const c = pc.createColors(opts.color);
  const many = run.modules.length > 1;
  const moduleDirs = new Set(run.modules.map((m) => m.dir));
  const orphans = (run.readErrors ?? []).filter((e) => e.moduleDir === undefined || !moduleDirs.has(e.moduleDir));
  // Paths that gave no module are listed after the modules, just above the
  // total; the module sections then get headers so that a module's "no
  // problems" is not read as the run's.
  const sections = run.modules.map((mod) => formatModule(run, mod, c, many || orphans.length > 0).join("\n"));
  if (orphans.length > 0) sections.push(readErrorLines(orphans, c).join("\n"));
  let out = sections.join("\n\n");
  const allErrors = run.readErrors ?? [];
  if (many || (orphans.length > 0 && (run.modules.length > 0 || allErrors.length > 0))) {
    if (run.modules.length === 0) out += `\n\n${c.red(c.bold("✖"))} ${c.bold(`nothing linted: ${unreadWords(allErrors)}`)}`;
    else out += `\n\n${totalsLine(tallyOf(run.modules, allErrors, run.baseline !== undefined), c, many ? ` in ${plural(run.modules.length, "module")}` : "", quietFailureText(run, run.modules))}`;
  }
  if (run.warningLimit) {
    out += `${out === "" ? "" : "\n"}${c.red(c.bold("✖"))} ${warningLimitText(run.warningLimit)}`;
  }
  // The baseline's expired and unmatched entries, after the totals.
  for (const line of run.baseline ? baselineNotes(run.baseline) : []) out += `${out === "" ? "" : "\n"}${line.startsWith(" ") ? c.dim(line) : c.yellow(line)}`;
  return out === "" ? "" : out + "\n";
}

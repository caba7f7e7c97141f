/**
 * The JSON report, compatible with the reference linter's document: keys
 * `module`, `contract`, `role`, `findings`, `summary` in that order, finding
 * keys `id`, `severity`, `file`, `line`, `message` first. Our additions come
 * after the reference keys (reference consumers ignore unknown keys):
 * per finding `column`, `endLine`, `endColumn`, `ruleUrl`, and `related`
 * (the hops the rule followed; only on findings that have some, so the
 * others keep the reference's shape); per document
 * `roleSource`, `fileSet` and `suppressed` (suppressed findings with the
 * justification and where the ignore comment is); when findings
 * `--quiet` hid fail the run, the summary's `hiddenByQuiet` counts and
 * `quietFailure` (why it fails on findings it does not show).
 *
 * With a baseline in use (and only then) each module's document also gets
 * `baselined` (the findings the baseline matched, which `findings` and
 * `summary` leave out) and `baseline` (its file, its expired entries and
 * those matching fewer findings than their count, the prune command).
 *
 * A module-level finding keeps the reference's position `file: ""`,
 * `line: 0` (and column/end 0); a finding about a whole file has its file
 * and line 0. One module → one object (as the reference);
 * several → an array of them. 2-space indent, trailing newline.
 *
 * What could not be read is listed, never dropped: a module's document gets
 * `readErrors` (file relative to the module, message); a path that gave no
 * module (an unreadable directory, --stdin text that is not UTF-8) gets a
 * document of the same keys of its own, with `role: ""` and no findings.
 */
import * as path from "node:path";
import { entryNotes } from "../lint/baseline.js";
import type { BaselineEntryState, BaselineReport, FormatOptions, ModuleReport, ReadProblem, RunReport, Summary } from "../lint/result.js";
import type { Finding, RuleDefinition, Severity } from "../lint/types.js";
import { ruleDocUrl } from "./docs.js";
import { hasPosition, problemPath, quietFailureText, suppressedFindings, visibleFindings } from "./util.js";

export interface JsonFinding {
  id: string;
  severity: Severity;
  file: string;
  line: number;
  message: string;
  column: number;
  endLine: number;
  endColumn: number;
  ruleUrl: string;
  /**
   * The path the rule followed (Finding.related), from the finding to the
   * value's origin; absent when the rule followed nothing.
   */
  related?: JsonRelated[];
}

/** One hop of a finding's path, positioned as findings are. */
export interface JsonRelated {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

export interface JsonSuppressedFinding extends JsonFinding {
  justification: string;
  /** The ignore comment: file relative to the module, 1-based line. */
  suppressedBy: { file: string; line: number };
}

/** The reference's counts, then (only when findings `--quiet` hid fail the run) how many it hid and why it fails. */
export interface JsonSummary extends Summary {
  hiddenByQuiet?: { warning: number; info: number };
  quietFailure?: string;
}

export interface JsonModuleDocument {
  module: string;
  contract: string;
  role: string;
  findings: JsonFinding[];
  summary: JsonSummary;
  roleSource: string;
  fileSet: string;
  suppressed: JsonSuppressedFinding[];
  /** Present only when something could not be read: `file` relative to the module ("" for the directory). */
  readErrors?: { file: string; message: string }[];
  /** Present only when a baseline is in use: the findings it matched (not in `findings` or `summary`). */
  baselined?: JsonFinding[];
  /** Present only when a baseline is in use: its file, and its entries for this module that are expired or match fewer findings than their count. */
  baseline?: JsonBaseline;
}

/** A module's baseline in the JSON report. */
export interface JsonBaseline {
  file: string;
  expired: JsonBaselineEntry[];
  unmatched: JsonBaselineEntry[];
  /** The command that drops the unmatched entries (present when there are some). */
  pruneCommand?: string;
}

export type JsonBaselineEntry = Pick<BaselineEntryState, "rule" | "subject" | "count" | "matched" | "reason" | "expires">;

/** A run's rules by id (their docs URLs: a plugin rule carries its own). */
type RuleOf = (id: string) => RuleDefinition | undefined;

function jsonFinding(f: Finding, ruleOf: RuleOf): JsonFinding {
  const moduleLevel = !hasPosition(f);
  return {
    id: f.ruleId,
    severity: f.severity,
    file: f.file,
    line: moduleLevel ? 0 : f.range.start.line,
    message: f.message,
    column: moduleLevel ? 0 : f.range.start.column,
    endLine: moduleLevel ? 0 : f.range.end.line,
    endColumn: moduleLevel ? 0 : f.range.end.column,
    ruleUrl: ruleDocUrl(f.ruleId, ruleOf(f.ruleId)),
    ...(f.related && f.related.length > 0
      ? {
          related: f.related.map((r) => ({
            file: r.file,
            line: r.range.start.line,
            column: r.range.start.column,
            endLine: r.range.end.line,
            endColumn: r.range.end.column,
            message: r.message,
          })),
        }
      : {}),
  };
}

/** The image command's document: `image` in place of `module`. */
export type JsonImageDocument = Omit<JsonModuleDocument, "module"> & { image: { ref: string; digest: string; platforms: string[] } };

export function jsonDocument(mod: ModuleReport, ruleOf: RuleOf): JsonModuleDocument | JsonImageDocument {
  const doc = moduleDocument(mod, ruleOf);
  if (!mod.image) return doc;
  const { module: _module, ...rest } = doc;
  return { image: { ref: mod.image.ref, digest: mod.image.digest, platforms: [...mod.image.platforms] }, ...rest };
}

function moduleDocument(mod: ModuleReport, ruleOf: RuleOf): JsonModuleDocument {
  return {
    module: mod.module,
    contract: mod.contract,
    role: mod.role,
    findings: visibleFindings(mod).map((f) => jsonFinding(f, ruleOf)),
    summary: { error: mod.summary.error, warning: mod.summary.warning, info: mod.summary.info },
    roleSource: mod.roleSource,
    fileSet: mod.fileSet,
    suppressed: suppressedFindings(mod).map((f) => ({
      ...jsonFinding(f, ruleOf),
      justification: f.suppressed?.justification ?? "",
      suppressedBy: { file: f.suppressed?.file ?? "", line: f.suppressed?.line ?? 0 },
    })),
  };
}

function readErrorsOf(dir: string, errors: readonly ReadProblem[]): { file: string; message: string }[] {
  return errors.map((e) => ({ file: e.path === dir ? "" : path.relative(dir, e.path).split(path.sep).join("/"), message: e.message }));
}

/** A module's `baselined` findings and `baseline` entries (only when a baseline is in use). */
function baselineKeys(b: BaselineReport, mod: ModuleReport, ruleOf: RuleOf): Pick<JsonModuleDocument, "baselined" | "baseline"> {
  const entry = (e: BaselineEntryState): JsonBaselineEntry => ({
    rule: e.rule,
    subject: e.subject,
    count: e.count,
    matched: e.matched,
    ...entryNotes(e),
  });
  const unmatched = b.unmatched.filter((e) => e.moduleDir === mod.dir).map(entry);
  return {
    baselined: (mod.baselined ?? []).map((f) => jsonFinding(f, ruleOf)),
    ...(mod.baselineFile !== undefined
      ? {
          baseline: {
            file: mod.baselineFile,
            expired: b.expired.filter((e) => e.moduleDir === mod.dir).map(entry),
            unmatched,
            ...(unmatched.length > 0 ? { pruneCommand: b.pruneCommand } : {}),
          },
        }
      : {}),
  };
}

export function formatJson(run: RunReport, _opts: FormatOptions): string {
  const errors = run.readErrors ?? [];
  const rules = new Map(run.rules.map((r) => [r.id, r]));
  const ruleOf: RuleOf = (id) => rules.get(id);
  const docs = run.modules.map((mod) => {
    const doc = jsonDocument(mod, ruleOf);
    // Findings --quiet hid that fail the run: counted, and why (hidden ones that fail nothing change nothing).
    const why = quietFailureText(run, [mod]);
    if (mod.quietHidden && why !== null) doc.summary = { ...doc.summary, hiddenByQuiet: { ...mod.quietHidden.hidden }, quietFailure: why };
    const own = errors.filter((e) => e.moduleDir === mod.dir);
    if (own.length > 0) doc.readErrors = readErrorsOf(mod.dir, own);
    if (run.baseline) Object.assign(doc, baselineKeys(run.baseline, mod, ruleOf));
    return doc;
  });
  // What could not be read outside any linted module gets a document of
  // the same shape, named by the path, with no role and no findings.
  const moduleDirs = new Set(run.modules.map((m) => m.dir));
  for (const e of errors) {
    if (e.moduleDir !== undefined && moduleDirs.has(e.moduleDir)) continue;
    docs.push({
      module: problemPath(run.cwd, e),
      contract: "v1alpha1",
      role: "",
      findings: [],
      summary: { error: 0, warning: 0, info: 0 },
      roleSource: "",
      fileSet: "",
      suppressed: [],
      readErrors: [{ file: "", message: e.message }],
    });
  }
  const value = docs.length === 1 ? docs[0] : docs;
  return JSON.stringify(value, null, 2) + "\n";
}

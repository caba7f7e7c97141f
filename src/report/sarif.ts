/**
 * SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
 *
 * One run per invocation, holding every module. GitHub rejects an upload
 * whose file has two runs with the same tool identity and category (the
 * July-2025 change), so one run per file is the only layout that works for
 * every invocation. With one module its repository-relative path names the
 * category (`automationDetails.id` = `tfcapi-lint/<module-path>/`), so
 * workflows that lint several modules in separate steps keep separate alert
 * sets. With several modules the run's category is `tfcapi-lint/` and each
 * result names its module in `properties.module`.
 *
 * URIs are relative to the repository root (what GitHub resolves against);
 * `%SRCROOT%` is declared in `originalUriBaseIds` so the file is also valid
 * SARIF for tools that do resolve base ids. A finding about the module as a
 * whole (something missing) is located in the file where the declaration
 * belongs (`homeFileOf`: the module's variables file for a missing input,
 * its outputs file for a missing output, else its first file; GitHub cannot
 * show a directory) with `region.startLine` 1: GitHub needs a location and
 * treats a start line as required, and there is no better line for a
 * declaration that does not exist. A finding about a whole file gets the
 * same region.
 *
 * What could not be read makes `executionSuccessful` false, with one
 * `toolExecutionNotifications` entry naming each file or directory.
 *
 * The path a rule followed to the value it reports (Finding.related)
 * becomes `relatedLocations` and a `codeFlows` thread (see pathOf).
 *
 * With a baseline in use (and only then) the run also holds the baselined
 * findings: every result gets `baselineState` (`new`, or `unchanged` with an
 * external suppression for a baselined one), and the baseline's expired and
 * unmatched entries are notifications of the invocation.
 *
 * An autofix becomes `fixes[]` (replacements by UTF-16 character offset),
 * which SARIF viewers can offer; GitHub ignores it.
 *
 * Fingerprints: `partialFingerprints["tfcapiLint/v1"]` hashes the rule id,
 * the file and the finding's first source line with all whitespace removed,
 * plus the occurrence index among findings with the same three values. No
 * line numbers go in, so an edit elsewhere in the file does not turn the
 * alert into a new one. GitHub's own `primaryLocationLineHash` is left to
 * upload-sarif, which computes it (a value we computed differently would be
 * reported as inconsistent).
 */
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { problemId, type BaselineReport, type FormatOptions, type ModuleReport, type RunReport } from "../lint/result.js";
import { compareFindings } from "../lint/engine.js";
import { fixKindOf, fixKindsOf, type Finding, type Fix, type RuleDefinition, type Severity, type TextEdit } from "../lint/types.js";
import { firstParagraph, REPOSITORY_URL, ruleDoc, ruleDocUrl } from "./docs.js";
import { displayPath, hasPosition, isModuleLevel, relativePath, ruleMap, splitLines } from "./util.js";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
export const FINGERPRINT_KEY = "tfcapiLint/v1";
/** GitHub truncates descriptions longer than this. */
const MAX_DESCRIPTION = 1024;

type SarifLevel = "error" | "warning" | "note";

const LEVEL: Record<Severity, SarifLevel> = { error: "error", warning: "warning", info: "note" };
const PROBLEM_SEVERITY: Record<Severity, string> = { error: "error", warning: "warning", info: "recommendation" };

function level(severity: Severity): SarifLevel {
  return LEVEL[severity];
}

/** Looks up a rule's documentation page (Markdown) by id. */
export type DocLookup = (id: string) => string | null;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

/** `output/provider-id-list-shape` → `OutputProviderIdListShape` (SARIF recommends Pascal case). */
export function ruleName(id: string): string {
  const name = id
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== "")
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join("");
  return truncate(name || "Rule", 255);
}

/**
 * A rule's SARIF descriptor. `fallbackSeverity` is used for an id that has
 * no definition in the run (it only appears in findings).
 */
function ruleDescriptor(
  id: string,
  def: RuleDefinition | undefined,
  fallbackSeverity: Severity,
  docs: DocLookup,
): Record<string, unknown> {
  const severity = def?.severity ?? fallbackSeverity;
  const url = ruleDocUrl(id, def);
  const summary = def?.summary.trim() || id;
  const page = docs(id);
  const full = (page !== null ? firstParagraph(page) : null) ?? summary;
  const prefix = id.includes("/") ? id.slice(0, id.indexOf("/")) : id;
  const tags = [...new Set([...(def?.tags ?? []), prefix])].slice(0, 20);
  const descriptor: Record<string, unknown> = {
    id,
    name: ruleName(id),
    shortDescription: { text: truncate(summary, MAX_DESCRIPTION) },
    fullDescription: { text: truncate(full, MAX_DESCRIPTION) },
    help:
      page !== null
        ? { text: page, markdown: page }
        : { text: `${summary}\n\nDocumentation: ${url}`, markdown: `${summary}\n\n[Documentation](${url})` },
    helpUri: url,
  };
  descriptor.defaultConfiguration = { level: level(severity) };
  const fixKinds = def ? fixKindsOf(def) : [];
  descriptor.properties = {
    tags,
    precision: "very-high",
    "problem.severity": PROBLEM_SEVERITY[severity],
    // The kinds of fix the rule gives (safe: --fix applies it; unsafe: it changes the plan), for fixable rules only.
    ...(fixKinds.length > 0 ? { fixKinds: [...fixKinds] } : {}),
  };
  return descriptor;
}

/** Repository-relative, `/`-separated path → URI reference (each segment percent-encoded). */
function toUri(relPath: string): string {
  return relPath
    .split("/")
    .map((segment) => (segment === "." || segment === ".." ? segment : encodeURIComponent(segment)))
    .join("/");
}

/** The module directory relative to the repository root (`.` for the root itself). */
function modulePath(run: RunReport, mod: ModuleReport): string {
  return displayPath(run.repoRoot, mod, "");
}

function directoryUri(run: RunReport, mod: ModuleReport): string {
  const rel = modulePath(run, mod);
  return rel === "." ? "./" : `${toUri(rel)}/`;
}

function region(range: Finding["range"]): Record<string, number> {
  const startLine = Math.max(1, range.start.line);
  const startColumn = Math.max(1, range.start.column);
  let endLine = Math.max(startLine, range.end.line);
  let endColumn = Math.max(1, range.end.column);
  if (endLine === startLine && endColumn < startColumn) endColumn = startColumn;
  if (range.end.line < 1) {
    endLine = startLine;
    endColumn = startColumn;
  }
  return { startLine, startColumn, endLine, endColumn };
}

/**
 * The file a finding about the module as a whole is shown in: where a
 * declaration of its kind belongs (inputs in the variables file, outputs in
 * the outputs file, version constraints in the terraform block's file),
 * else the module's first file. Null when the module has no file.
 */
export function homeFileOf(mod: ModuleReport, ruleId: string): string | null {
  const home = mod.homeFiles;
  if (!home) return null;
  const prefix = ruleId.slice(0, ruleId.indexOf("/") + 1);
  if (prefix === "input/" || prefix === "bootstrap/") return home.variable;
  if (prefix === "output/") return home.output;
  if (prefix === "version/") return home.terraform;
  return home.first;
}

function physicalLocation(run: RunReport, mod: ModuleReport, f: Finding): Record<string, unknown> {
  let uri: string;
  if (isModuleLevel(f)) {
    const home = homeFileOf(mod, f.ruleId);
    uri = home === null ? directoryUri(run, mod) : toUri(displayPath(run.repoRoot, mod, home));
  } else {
    uri = toUri(displayPath(run.repoRoot, mod, f.file));
  }
  return { artifactLocation: { uri, uriBaseId: "%SRCROOT%" }, region: hasPosition(f) ? region(f.range) : { startLine: 1 } };
}

/**
 * The path a finding followed (Finding.related), in both SARIF forms:
 * `relatedLocations` (each hop with an id, its region and label; viewers
 * list them), and one `codeFlows` thread (the finding's own location first,
 * then the hops in the order the rule followed them) for viewers that show
 * the order ("show paths" in GitHub code scanning).
 */
function pathOf(run: RunReport, mod: ModuleReport, f: Finding, own: Record<string, unknown>, text: string): Record<string, unknown> {
  const hops = (f.related ?? []).map((r) => ({
    physicalLocation: {
      artifactLocation: { uri: toUri(displayPath(run.repoRoot, mod, r.file)), uriBaseId: "%SRCROOT%" },
      region: region(r.range),
    },
    message: { text: r.message },
  }));
  if (hops.length === 0) return {};
  return {
    relatedLocations: hops.map((h, i) => ({ id: i + 1, ...h })),
    codeFlows: [
      {
        threadFlows: [
          {
            locations: [{ location: { physicalLocation: own, message: { text } } }, ...hops.map((location) => ({ location }))],
          },
        ],
      },
    ],
  };
}

/** The text a fingerprint is taken from: the finding's first source line without whitespace. */
function fingerprintText(mod: ModuleReport, f: Finding): string {
  if (hasPosition(f)) {
    const text = mod.sources.get(f.file);
    if (text !== undefined) {
      const line = splitLines(text.replace(/^\uFEFF/, ""))[f.range.start.line - 1];
      if (line !== undefined) return line.replace(/\s+/g, "");
    }
  }
  return f.message.replace(/\s+/g, " ").trim();
}

class Fingerprinter {
  private readonly seen = new Map<string, number>();

  next(ruleId: string, file: string, text: string): string {
    const key = `${ruleId}\u0000${file}\u0000${text}`;
    const index = this.seen.get(key) ?? 0;
    this.seen.set(key, index + 1);
    const hash = createHash("sha256").update(key).digest("hex").slice(0, 32);
    return `${hash}:${index + 1}`;
  }
}

/**
 * A finding's autofix as a SARIF fix: one artifact change per file, edits as
 * replacements by character offset (UTF-16 code units, as `columnKind`).
 */
function sarifFix(run: RunReport, mod: ModuleReport, fix: Fix): Record<string, unknown> {
  const byFile = new Map<string, TextEdit[]>();
  for (const edit of fix.edits) {
    const list = byFile.get(edit.file);
    if (list) list.push(edit);
    else byFile.set(edit.file, [edit]);
  }
  return {
    description: { text: fix.description },
    artifactChanges: [...byFile].map(([file, edits]) => ({
      artifactLocation: { uri: toUri(displayPath(run.repoRoot, mod, file)), uriBaseId: "%SRCROOT%" },
      replacements: edits.map((e) => ({
        deletedRegion: { charOffset: e.start, charLength: Math.max(0, e.end - e.start) },
        ...(e.text !== "" ? { insertedContent: { text: e.text } } : {}),
      })),
    })),
    // safe: --fix applies it; unsafe: it changes the plan (only --fix-unsafe applies it).
    properties: { kind: fixKindOf(fix) },
  };
}

function moduleProperties(run: RunReport, mod: ModuleReport): Record<string, unknown> {
  return {
    module: mod.module,
    path: modulePath(run, mod),
    role: mod.role,
    roleSource: mod.roleSource,
    roleEvidence: [...mod.roleEvidence],
    fileSet: mod.fileSet,
  };
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The SARIF log as a plain object. `docs` finds rule pages (injectable for tests; by default the run's rules' pages). */
export function buildSarif(run: RunReport, lookup?: DocLookup): Record<string, unknown> {
  const defs = ruleMap(run.rules);
  const docs: DocLookup = lookup ?? ((id) => ruleDoc(id, defs.get(id)));
  const ruleIds: string[] = [...defs.keys()];
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const undefinedSeverity = new Map<string, Severity>();
  for (const mod of run.modules) {
    for (const f of findingsOf(run, mod)) {
      if (!ruleIndex.has(f.ruleId)) {
        ruleIndex.set(f.ruleId, ruleIds.length);
        ruleIds.push(f.ruleId);
        undefinedSeverity.set(f.ruleId, f.severity);
      }
    }
  }
  const many = run.modules.length !== 1;
  const fingerprints = new Fingerprinter();
  const results: Record<string, unknown>[] = [];
  for (const mod of run.modules) {
    // Each baselined finding with its entry's reason (the suppression's justification).
    const baselined = new Map((mod.baselined ?? []).map((f, i) => [f, mod.baselineReasons?.[i] ?? ""]));
    for (const f of findingsOf(run, mod)) {
      const location = physicalLocation(run, mod, f);
      const fileKey = isModuleLevel(f) ? `${modulePath(run, mod)}/` : displayPath(run.repoRoot, mod, f.file);
      const text = f.message.trim() === "" ? defs.get(f.ruleId)?.summary || f.ruleId : f.message;
      const result: Record<string, unknown> = {
        ruleId: f.ruleId,
        ruleIndex: ruleIndex.get(f.ruleId),
        level: level(f.severity),
        message: { text },
        locations: [{ physicalLocation: location }],
        ...pathOf(run, mod, f, location, text),
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprints.next(f.ruleId, fileKey, fingerprintText(mod, f)) },
      };
      if (f.fix && f.fix.edits.length > 0) result.fixes = [sarifFix(run, mod, f.fix)];
      if (f.suppressed) {
        const suppression: Record<string, unknown> = { kind: "inSource" };
        if (f.suppressed.justification.trim() !== "") suppression.justification = f.suppressed.justification;
        if (f.suppressed.file !== "" && f.suppressed.line >= 1) {
          const uri = toUri(displayPath(run.repoRoot, mod, f.suppressed.file));
          suppression.location = {
            physicalLocation: { artifactLocation: { uri, uriBaseId: "%SRCROOT%" }, region: { startLine: f.suppressed.line } },
          };
        }
        result.suppressions = [suppression];
      }
      if (run.baseline) {
        // With a baseline in use: whether the finding is in it, and if so an external suppression.
        result.baselineState = baselined.has(f) ? "unchanged" : "new";
        const reason = baselined.get(f);
        if (reason !== undefined) result.suppressions = [{ kind: "external", ...(reason.trim() !== "" ? { justification: reason } : {}) }];
      }
      if (many) result.properties = { module: modulePath(run, mod) };
      results.push(result);
    }
  }

  const driver: Record<string, unknown> = {
    name: "tfcapi-lint",
    informationUri: REPOSITORY_URL,
  };
  if (SEMVER.test(run.toolVersion)) driver.semanticVersion = run.toolVersion;
  else driver.version = run.toolVersion;
  driver.rules = ruleIds.map((id) =>
    ruleDescriptor(id, defs.get(id), undefinedSeverity.get(id) ?? "warning", docs),
  );

  const properties: Record<string, unknown> = {};
  if (run.modules.length === 1) {
    const mod = run.modules[0];
    properties.role = mod.role;
    properties.roleSource = mod.roleSource;
    properties.fileSet = mod.fileSet;
  }
  properties.modules = run.modules.map((m) => moduleProperties(run, m));

  const category = run.modules.length === 1 ? `tfcapi-lint/${modulePath(run, run.modules[0])}/` : "tfcapi-lint/";
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver },
        automationDetails: { id: category },
        invocations: [invocation(run)],
        originalUriBaseIds: { "%SRCROOT%": { uri: directoryFileUrl(run.repoRoot) } },
        columnKind: "utf16CodeUnits",
        results,
        properties,
      },
    ],
  };
}

/**
 * The run's invocation: not successful when something could not be read,
 * with a notification naming each such file or directory.
 */
function invocation(run: RunReport): Record<string, unknown> {
  const errors = run.readErrors ?? [];
  const notes = run.baseline ? baselineNotifications(run.baseline) : [];
  if (errors.length === 0) return notes.length > 0 ? { executionSuccessful: true, toolExecutionNotifications: notes } : { executionSuccessful: true };
  return {
    executionSuccessful: false,
    toolExecutionNotifications: [...errors.map((e) => {
      if (e.shownAs !== undefined) {
        // No file to point at (an image in a registry): a logical location named as the user named it.
        return {
          level: "error",
          message: { text: e.message },
          descriptor: { id: problemId(e) },
          locations: [{ logicalLocations: [{ name: e.shownAs, fullyQualifiedName: e.shownAs, kind: "resource" }] }],
        };
      }
      const rel = relativePath(run.repoRoot, e.path);
      const uri = e.directory ? (rel === "." ? "./" : `${toUri(rel)}/`) : toUri(rel);
      return {
        level: "error",
        message: { text: e.message },
        descriptor: { id: problemId(e) },
        locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: "%SRCROOT%" } } }],
      };
    }), ...notes],
  };
}

/** The findings of a module a SARIF run holds: with a baseline in use, the baselined ones too, in report order. */
function findingsOf(run: RunReport, mod: ModuleReport): readonly Finding[] {
  if (!run.baseline || !mod.baselined || mod.baselined.length === 0) return mod.findings;
  return [...mod.findings, ...mod.baselined].sort(compareFindings);
}

/** The baseline's expired and unmatched entries as notifications (the run still succeeded). */
function baselineNotifications(b: BaselineReport): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const e of b.expired) {
    out.push({ level: "warning", message: { text: `baseline ${e.file}: the entry for ${e.rule} on ${e.subject} in ${e.module} expired on ${e.expires}; its findings are reported as new` }, descriptor: { id: "baseline-expired" } });
  }
  for (const e of b.unmatched) {
    out.push({ level: "note", message: { text: `baseline ${e.file}: the entry for ${e.rule} on ${e.subject} in ${e.module} matches ${e.matched} of its ${e.count} findings; drop it with: ${b.pruneCommand}` }, descriptor: { id: "baseline-unmatched" } });
  }
  return out;
}

function directoryFileUrl(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith("/") ? href : href + "/";
}

export function formatSarif(run: RunReport, _opts: FormatOptions): string {
  return JSON.stringify(buildSarif(run), null, 2) + "\n";
}

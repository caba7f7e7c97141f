/**
 * The diagnostics room: from a lint outcome to what the client shows.
 * Findings are placed in files (a module-level finding in the file that would
 * hold the missing declaration) and become diagnostics; a board keeps what
 * each owner (a tracked module, a config file) shows in each URI and
 * publishes their union, only where it changed.
 */
import * as path from "node:path";
import type { Diagnostic, DiagnosticRelatedInformation, Range } from "vscode-languageserver/node.js";
import { CONFIG_FILE_NAME } from "../config/load.js";
import type { EngineOptions as LintOptions, LintOutcome } from "../lint/engine.js";
import type { ModuleReport } from "../lint/result.js";
import { matchModule, type BaselineEntry } from "../lint/baseline.js";
import type { Finding, RelatedLocation, Severity } from "../lint/types.js";
import { ruleDocUrl } from "../report/docs.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import type { SourceFile } from "../terraform/module-types.js";
import { moduleFileExtension } from "../terraform/files.js";
import type { Documents } from "./documents.js";
import { TextPositions, type PositionEncoding } from "./positions.js";

export const SOURCE = "tfcapi-lint";

const SEVERITY: Record<Severity, 1 | 2 | 3> = { error: 1, warning: 2, info: 3 };

/** A finding as shown in one file. */
export interface Placed {
  finding: Finding;
  /** Path relative to the module directory of the file it is shown in. */
  file: string;
  /** Module-level finding shown at the top of `file`. */
  moduleLevel: boolean;
  diagnostic: Diagnostic;
}

/** Where a module-level finding goes: the file that would hold the declaration it is about. */
export function moduleLevelFile(ruleId: string, rootFiles: readonly string[]): string | null {
  const stem = ruleId.startsWith("output/")
    ? "outputs"
    : ruleId.startsWith("input/") || ruleId.startsWith("bootstrap/") || ruleId.startsWith("version/")
      ? "variables"
      : ruleId.startsWith("module/")
        ? "versions"
        : null;
  if (stem !== null) {
    const hit = rootFiles.find((f) => {
      const ext = moduleFileExtension(f);
      return ext !== null && f.slice(0, -ext.length) === stem;
    });
    if (hit) return hit;
  }
  return rootFiles[0] ?? null;
}

/** A TextPositions per file text, made once per report. */
export class Indexes {
  private readonly map = new Map<string, TextPositions>();
  constructor(
    private readonly sources: ReadonlyMap<string, string>,
    readonly enc: PositionEncoding,
  ) {}
  get(file: string): TextPositions | null {
    let ix = this.map.get(file);
    if (!ix) {
      const text = this.sources.get(file);
      if (text === undefined) return null;
      this.map.set(file, (ix = new TextPositions(text, this.enc)));
    }
    return ix;
  }
}

/**
 * The unsuppressed findings of a report, by the file (relative path) they
 * are shown in, each linking to its rule's page as `catalogue` (the one
 * the module was linted with) knows it. With `relatedUri` (the client shows related information),
 * a finding's path (Finding.related) becomes the diagnostic's
 * `relatedInformation`: each hop at its range in its file's URI (a hop in a
 * file with no text is left out).
 */
export function placeFindings(report: ModuleReport, indexes: Indexes, catalogue: RuleCatalogue, relatedUri?: (file: string) => string, baseline?: ShownBaseline): Map<string, Placed[]> {
  const out = new Map<string, Placed[]>();
  const rootFiles = [...report.sources.keys()].filter((f) => !f.includes("/")).sort();
  for (const finding of report.findings) {
    if (finding.suppressed) continue;
    const baselined = baseline?.baselined.has(finding) === true;
    if (baselined && baseline!.hide) continue;
    let moduleLevel = finding.file === "" || finding.range.start.line === 0;
    let file = finding.file !== "" ? finding.file : moduleLevelFile(finding.ruleId, rootFiles);
    // A file with no text (a module file link that cannot be resolved, say):
    // shown where module-level findings go rather than not at all.
    if (file !== null && !indexes.get(file)) {
      file = moduleLevelFile(finding.ruleId, rootFiles);
      moduleLevel = true;
    }
    if (file === null) continue;
    const ix = indexes.get(file);
    if (!ix) continue;
    let range: Range;
    if (moduleLevel) {
      range = { start: { line: 0, character: 0 }, end: ix.positionAt(1, ix.lineText(0).length + 1) };
    } else {
      const { start, end } = finding.range;
      range = { start: ix.positionAt(start.line, start.column), end: ix.positionAt(end.line, end.column) };
    }
    const diagnostic: Diagnostic = {
      range,
      // A finding in the baseline is a hint: known, and not counted.
      severity: baselined ? 4 : SEVERITY[finding.severity],
      code: finding.ruleId,
      codeDescription: { href: ruleDocUrl(finding.ruleId, catalogue.rule(finding.ruleId)) },
      source: SOURCE,
      message: baselined ? `${finding.message} (in the baseline ${baseline!.file}; a known ${finding.severity}, not counted)` : finding.message,
    };
    if (relatedUri && finding.related && finding.related.length > 0) {
      const info = relatedInformation(finding.related, indexes, relatedUri);
      if (info.length > 0) diagnostic.relatedInformation = info;
    }
    let list = out.get(file);
    if (!list) out.set(file, (list = []));
    list.push({ finding, file, moduleLevel, diagnostic });
  }
  return out;
}

function relatedInformation(related: readonly RelatedLocation[], indexes: Indexes, uriOf: (file: string) => string): DiagnosticRelatedInformation[] {
  const out: DiagnosticRelatedInformation[] = [];
  for (const r of related) {
    const ix = indexes.get(r.file);
    if (!ix) continue;
    const { start, end } = r.range;
    const range: Range =
      start.line >= 1
        ? { start: ix.positionAt(start.line, start.column), end: ix.positionAt(end.line, end.column) }
        : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    out.push({ location: { uri: uriOf(r.file), range }, message: r.message });
  }
  return out;
}

/** A module's baseline as the server reads it (Configuration.baselineFor). */
export interface ModuleBaseline {
  /** The baseline file's path, as shown in messages. */
  shown: string;
  /** The module's key in it (its directory relative to the file's). */
  key: string;
  entries: ReadonlyMap<string, BaselineEntry>;
  /** Leave baselined findings out (initializationOptions.showBaselined false). */
  hide: boolean;
}

/** What placeFindings does with baselined findings. */
export interface ShownBaseline {
  file: string;
  hide: boolean;
  baselined: ReadonlySet<Finding>;
}

/** A module's lint as the server keeps it: the outcome and what the client is shown of it. */
export interface Result {
  generation: number;
  outcome: LintOutcome;
  opts: LintOptions;
  indexes: Indexes | null;
  /** Shown findings by file path relative to the module directory. */
  placed: Map<string, Placed[]>;
  /** The loaded files by path relative to the module directory. */
  files: Map<string, SourceFile>;
  /** Absolute paths of every file the lint read. */
  read: Set<string>;
}

/**
 * A lint outcome as shown: findings placed with positions in `encoding`;
 * with `relatedUri` (the client shows related information) their paths too.
 */
export function makeResult(generation: number, outcome: LintOutcome, opts: LintOptions, encoding: PositionEncoding, relatedUri?: (abs: string) => string, baseline?: ModuleBaseline | null): Result {
  const result: Result = { generation, outcome, opts, indexes: null, placed: new Map(), files: new Map(), read: new Set() };
  if (outcome.kind === "report") {
    result.indexes = new Indexes(outcome.report.sources, encoding);
    const dir = outcome.report.dir;
    const shown = baseline ? { file: baseline.shown, hide: baseline.hide, baselined: new Set(matchModule(baseline.key, outcome.report.findings, baseline.entries, new Map(), new Date()).baselined) } : undefined;
    result.placed = placeFindings(outcome.report, result.indexes, opts.catalogue, relatedUri ? (file) => relatedUri(path.join(dir, ...file.split("/"))) : undefined, shown);
    for (const u of outcome.load.units) {
      for (const f of u.allFiles) {
        result.files.set(f.path, f);
        result.read.add(f.absPath);
      }
    }
  }
  return result;
}

function diagKey(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}:${d.range.end.line}:${d.range.end.character}:${String(d.code)}:${d.message}`;
}

/** An empty range at the top of a file. */
function top(): Range {
  return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
}

/**
 * Diagnostics by URI, by who contributed them (`module:DIR`, `config:FILE`).
 * A URI shows the union of its owners' diagnostics.
 */
export class DiagnosticsBoard {
  private readonly contributions = new Map<string, Map<string, Diagnostic[]>>();
  private readonly ownerUris = new Map<string, Set<string>>();

  constructor(
    private readonly documents: Documents,
    private readonly send: (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => void,
  ) {}

  /** The owners that show something now. */
  owners(): string[] {
    return [...this.ownerUris.keys()];
  }

  private publish(uri: string): void {
    const byOwner = this.contributions.get(uri);
    const seen = new Set<string>();
    const all: Diagnostic[] = [];
    for (const list of byOwner?.values() ?? []) {
      for (const d of list) {
        const k = diagKey(d);
        if (seen.has(k)) continue;
        seen.add(k);
        all.push(d);
      }
    }
    if (byOwner && byOwner.size === 0) this.contributions.delete(uri);
    // The version of an open document: the one linted (a change since would have made the run stale).
    const version = this.documents.versionOf(uri);
    this.send(version !== undefined ? { uri, version, diagnostics: all } : { uri, diagnostics: all });
  }

  /**
   * Replace everything `owner` shows: the given URIs get these diagnostics,
   * its other URIs none. Only what changed is sent, except for the URIs in
   * `always` (the open documents just linted: the client learns that their
   * new version was linted).
   */
  contribute(owner: string, next: Map<string, Diagnostic[]>, always: ReadonlySet<string> = new Set()): void {
    const before = this.ownerUris.get(owner) ?? new Set<string>();
    const changed = new Set<string>();
    for (const uri of before) {
      if (next.has(uri)) continue;
      this.contributions.get(uri)?.delete(owner);
      changed.add(uri);
    }
    for (const [uri, list] of next) {
      let byOwner = this.contributions.get(uri);
      if (!byOwner) this.contributions.set(uri, (byOwner = new Map()));
      const old = byOwner.get(owner);
      byOwner.set(owner, list);
      if (!always.has(uri) && before.has(uri) && old && old.length === list.length && old.every((d, i) => diagKey(d) === diagKey(list[i]!))) continue;
      changed.add(uri);
    }
    if (next.size === 0) this.ownerUris.delete(owner);
    else this.ownerUris.set(owner, new Set(next.keys()));
    for (const uri of changed) this.publish(uri);
  }

  /** What a tracked module's result shows: its findings, read errors, an ambiguous role; an empty list on its open documents without any. */
  showModule(dir: string, result: Result): void {
    const next = new Map<string, Diagnostic[]>();
    const outcome = result.outcome;
    const docs = this.documents;
    const abs = (rel: string): string => path.join(dir, ...rel.split("/"));
    if (outcome.kind === "report") {
      for (const [rel, list] of result.placed) next.set(docs.uriOf(abs(rel)), list.map((p) => p.diagnostic));
      for (const e of outcome.readErrors) {
        if (e.file === "") continue;
        const uri = docs.uriOf(abs(e.file));
        const list = next.get(uri) ?? [];
        list.push({ range: top(), severity: 1, source: SOURCE, message: e.message });
        next.set(uri, list);
      }
    } else if (outcome.kind === "usage-error" && outcome.noRole !== true) {
      // An ambiguous role: say so on the open documents of the module.
      for (const doc of docs.moduleDocs(dir)) {
        next.set(doc.uri, [{ range: top(), severity: 2, source: SOURCE, message: `${outcome.message} (or set role in ${CONFIG_FILE_NAME})` }]);
      }
    }
    // Open documents of the module without findings get an empty list.
    const linted = new Set<string>();
    for (const doc of docs.moduleDocs(dir)) {
      linted.add(doc.uri);
      if (!next.has(doc.uri)) next.set(doc.uri, []);
    }
    this.contribute(`module:${dir}`, next, linted);
  }
}

/**
 * From a lint report to what the client shows: diagnostics per file (with
 * module-level findings placed in the file that would hold the missing
 * declaration), the edits of quick fixes, and ignore comments to insert.
 * No connection here: server.ts sends what these functions return.
 */
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, DiagnosticRelatedInformation, Range, TextEdit } from "vscode-languageserver/node.js";
import type { Attribute, Body, Range as HclRange } from "../hcl/ast.js";
import type { ModuleReport } from "../lint/result.js";
import type { Finding, Fix, RelatedLocation, Severity } from "../lint/types.js";
import { ruleDocUrl } from "../report/docs.js";
import type { SourceFile } from "../terraform/module-types.js";
import { moduleFileExtension } from "../terraform/files.js";
import { LineIndex, type PositionEncoding } from "./positions.js";

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

export function fileUri(abs: string): string {
  return pathToFileURL(abs).href;
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

/** A LineIndex per file text, made once per report. */
export class Indexes {
  private readonly map = new Map<string, LineIndex>();
  constructor(
    private readonly sources: ReadonlyMap<string, string>,
    readonly enc: PositionEncoding,
  ) {}
  get(file: string): LineIndex | null {
    let ix = this.map.get(file);
    if (!ix) {
      const text = this.sources.get(file);
      if (text === undefined) return null;
      this.map.set(file, (ix = new LineIndex(text, this.enc)));
    }
    return ix;
  }
}

/**
 * The unsuppressed findings of a report, by the file (relative path) they
 * are shown in. With `relatedUri` (the client shows related information),
 * a finding's path (Finding.related) becomes the diagnostic's
 * `relatedInformation`: each hop at its range in its file's URI (a hop in a
 * file with no text is left out).
 */
export function placeFindings(report: ModuleReport, indexes: Indexes, relatedUri?: (file: string) => string): Map<string, Placed[]> {
  const out = new Map<string, Placed[]>();
  const rootFiles = [...report.sources.keys()].filter((f) => !f.includes("/")).sort();
  for (const finding of report.findings) {
    if (finding.suppressed) continue;
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
      severity: SEVERITY[finding.severity],
      code: finding.ruleId,
      codeDescription: { href: ruleDocUrl(finding.ruleId) },
      source: SOURCE,
      message: finding.message,
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

/** The LSP edits of a fix, by file URI; null when an edit falls outside its file. */
export function fixChanges(fix: Fix, dir: string, indexes: Indexes): Record<string, TextEdit[]> | null {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of fix.edits) {
    const ix = indexes.get(e.file);
    if (!ix || e.start < 0 || e.end < e.start || e.end > ix.text.length) return null;
    (changes[fileUri(path.join(dir, ...e.file.split("/")))] ??= []).push({ range: ix.range(e.start, e.end), newText: e.text });
  }
  return changes;
}

/** One edit turning `before` into `after` (their common start and end left alone). */
export function minimalEdit(before: string, after: string, ix: LineIndex): TextEdit | null {
  if (before === after) return null;
  let pre = 0;
  const max = Math.min(before.length, after.length);
  while (pre < max && before.charCodeAt(pre) === after.charCodeAt(pre)) pre++;
  let suf = 0;
  while (suf < max - pre && before.charCodeAt(before.length - 1 - suf) === after.charCodeAt(after.length - 1 - suf)) suf++;
  // Never split a surrogate pair.
  if (pre > 0 && (before.charCodeAt(pre - 1) & 0xfc00) === 0xd800) pre--;
  if (suf > 0 && (before.charCodeAt(before.length - suf) & 0xfc00) === 0xdc00) suf--;
  return { range: ix.range(pre, before.length - suf), newText: after.slice(pre, after.length - suf) };
}

/** The innermost attribute holding `offset`. */
function innermostAttribute(body: Body, offset: number): Attribute | null {
  for (const a of body.attributes) {
    if (a.range.start.offset <= offset && offset < a.range.end.offset) return a;
  }
  for (const b of body.blocks) {
    if (b.range.start.offset <= offset && offset < b.range.end.offset) return innermostAttribute(b.body, offset);
  }
  return null;
}

/** Whether a heredoc within `node` holds 1-based `line` past its first line. */
function insideHeredoc(node: unknown, line: number): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some((n) => insideHeredoc(n, line));
  const n = node as { kind?: unknown; form?: unknown; range?: HclRange };
  if (typeof n.kind === "string" && n.range) {
    if (n.range.end.line < line || n.range.start.line > line) return false;
    if (n.form === "heredoc" && n.range.start.line < line) return true;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k !== "range" && v !== null && typeof v === "object" && insideHeredoc(v, line)) return true;
  }
  return false;
}

/** The innermost block whose body holds `offset` (JSON files). */
function innermostBody(body: Body, offset: number): Body | null {
  for (const b of body.blocks) {
    const r = b.body.range;
    if (r.start.offset <= offset && offset < r.end.offset) return innermostBody(b.body, offset) ?? b.body;
  }
  return null;
}

/** A `"//": "..."` property inserted as the first property of the object whose content starts at `at`. */
function jsonCommentEdit(text: string, at: number, directive: string, ix: LineIndex): TextEdit {
  const prop = `"//": ${JSON.stringify(directive)}`;
  const rest = text.slice(at);
  const ws = /^[ \t]*(\r?\n[ \t]*)?/.exec(rest)![0];
  const empty = rest.slice(ws.length).startsWith("}");
  const newline = /\r?\n[ \t]*/.exec(ws)?.[0];
  const newText = newline !== undefined ? `${newline}${prop}${empty ? "" : ","}` : `${prop}${empty ? "" : ", "}`;
  return { range: ix.range(at, at), newText };
}

/**
 * The comment that ignores `finding`'s rule on its line (and the block or
 * attribute starting there), or in the whole file (`fileLevel`). Native
 * syntax: a `#` comment on its own line above the finding's line (or at the
 * top of the file); JSON: a `"//"` property in the innermost block object
 * holding the finding (or in the top-level object).
 */
export function ignoreEdit(file: SourceFile, finding: Finding, fileLevel: boolean, ix: LineIndex): TextEdit | null {
  const id = finding.ruleId;
  const text = file.hcl.text;
  if (file.hcl.syntax === "json") {
    const directive = fileLevel ? `tfcapi-lint-ignore-file: ${id}` : `tfcapi-lint-ignore: ${id}`;
    const top = file.hcl.body.range.start.offset;
    const open = text.indexOf("{", 0);
    if (open < 0) return null;
    const topContent = text.charCodeAt(top) === 0x7b ? top + 1 : open + 1;
    if (fileLevel) return jsonCommentEdit(text, topContent, directive, ix);
    const body = innermostBody(file.hcl.body, finding.range.start.offset);
    if (body === null) return null;
    return jsonCommentEdit(text, body.range.start.offset, directive, ix);
  }
  if (fileLevel) return { range: ix.range(0, 0), newText: `# tfcapi-lint-ignore-file: ${id}\n` };
  // Above the finding's line; when that line is inside a heredoc, above the
  // attribute holding it: a comment line there would become part of the text.
  let line = finding.range.start.line - 1;
  const holder = innermostAttribute(file.hcl.body, finding.range.start.offset);
  if (holder && holder.range.start.line - 1 < line && insideHeredoc(holder.expr, line + 1)) line = holder.range.start.line - 1;
  const start = ix.lineStart(line);
  const indent = /^[ \t]*/.exec(ix.lineText(line))![0];
  return { range: ix.range(start, start), newText: `${indent}# tfcapi-lint-ignore: ${id}\n` };
}

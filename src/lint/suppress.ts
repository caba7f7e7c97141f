/**
 * Inline ignore comments:
 *
 *   # tfcapi-lint-ignore: <id>[,<id>] [exp:YYYY-MM-DD] [-- reason]
 *   # tfcapi-lint-ignore-file: <id>[,<id>] [exp:YYYY-MM-DD] [-- reason]
 *
 * (also `//` and `/* *\/`; in JSON files a `"//"` key whose string holds the
 * same text). An end-of-line comment covers its line and the innermost
 * attribute or block starting on it; a comment on its own line covers the
 * whole attribute or block starting on the next code line; a `-file` comment
 * covers its file (and, in a root-directory file, findings about the module
 * as a whole). A JSON `"//"` covers the block whose object holds it (the
 * file when it is in the top-level object).
 */
import type { Block, Body, Range } from "../hcl/ast.js";
import { walkBlocks } from "../hcl/walk.js";
import type { SourceFile } from "../terraform/module-types.js";
import type { Finding } from "./types.js";

interface LineCol {
  line: number;
  column: number;
}

export interface Suppression {
  /** SourceFile path the comment is in. */
  file: string;
  ruleIds: string[];
  fileLevel: boolean;
  reason: string;
  /** `exp:` date as written, or null. */
  expires: string | null;
  /** The `exp:` value was not a valid YYYY-MM-DD date. */
  badExpiry: boolean;
  expired: boolean;
  /** The comment (or JSON `"//"` property) itself. */
  range: Range;
  /** Covered span [start, end) by line/column; null when fileLevel or nothing is covered. */
  cover: { start: LineCol; end: LineCol } | null;
  /** Rule ids that suppressed at least one finding. */
  used: Set<string>;
  /** A reason written without `--` (reported once), or null. */
  unseparated: string | null;
}

/** A finding the suppression pass reports about ignore comments. */
export interface MetaFinding {
  ruleId: string;
  file: string;
  range: Range;
  message: string;
}

const DIRECTIVE = /^tfcapi-lint-ignore(-file)?\s*:(.*)$/s;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Directive {
  fileLevel: boolean;
  ruleIds: string[];
  expires: string | null;
  reason: string;
  /** Words after the rule IDs that are no rule IDs: a reason written without `--` (absent when none). */
  unseparated?: string;
}

/** What a rule id looks like (`input/default`): a word with a `/`. */
const ID_SHAPE = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)+$/;

/** Parse the text of a comment (markers included) or of a JSON `"//"` value. */
export function parseDirective(raw: string): Directive | null {
  let text = raw.trim();
  if (text.startsWith("/*")) text = text.slice(2, text.endsWith("*/") ? -2 : undefined);
  else if (text.startsWith("#")) text = text.slice(1);
  else if (text.startsWith("//")) text = text.slice(2);
  text = text.trim();
  const m = DIRECTIVE.exec(text);
  if (!m) return null;
  let rest = m[2]!;
  let reason = "";
  const sep = /(^|\s)--(\s|$)/.exec(rest);
  if (sep) {
    reason = rest.slice(sep.index + sep[0].length).trim();
    rest = rest.slice(0, sep.index);
  }
  const ruleIds: string[] = [];
  let expires: string | null = null;
  let unseparated: string | null = null;
  // The first word is a rule id whatever it looks like; after it, the first
  // word that is neither a rule id nor exp: starts a reason that lacks `--`.
  for (const t of rest.matchAll(/[^\s,]+/g)) {
    const token = t[0];
    if (token.startsWith("exp:")) expires = token.slice(4);
    else if (ruleIds.length === 0 || ID_SHAPE.test(token)) ruleIds.push(token);
    else {
      unseparated = rest.slice(t.index).trim();
      break;
    }
  }
  if (unseparated !== null && reason === "") reason = unseparated;
  return { fileLevel: m[1] !== undefined, ruleIds, expires, reason, ...(unseparated !== null ? { unseparated } : {}) };
}

/** A YYYY-MM-DD date as the UTC time its day starts, or null when it is no such date. */
export function validDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t;
}

const DAY_MS = 86_400_000;

interface Node {
  range: Range;
  depth: number;
}

/**
 * Every attribute and block of `body` with its depth, in source order (a
 * body's attributes, then each block followed by what it holds).
 */
function collectNodes(body: Body, depth: number, out: Node[]): void {
  for (const a of body.attributes) out.push({ range: a.range, depth });
  walkBlocks(body, (block, level) => {
    const d = depth + level;
    out.push({ range: block.range, depth: d });
    for (const a of block.body.attributes) out.push({ range: a.range, depth: d + 1 });
    return [block.body];
  });
}

function before(a: LineCol, b: LineCol): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

function coverFor(node: Node | undefined, line: number): { start: LineCol; end: LineCol } {
  const lineEnd: LineCol = { line: line + 1, column: 1 };
  if (!node) return { start: { line, column: 1 }, end: lineEnd };
  const end = before(node.range.end, lineEnd) ? lineEnd : node.range.end;
  return { start: { line, column: 1 }, end };
}

function lineText(file: SourceFile, line: number): string | null {
  const starts = file.hcl.lineStarts;
  if (line < 1 || line > starts.length) return null;
  const text = file.hcl.text;
  const end = line < starts.length ? starts[line]! : text.length;
  return text.slice(starts[line - 1]!, end);
}

function newSuppression(file: SourceFile, d: Directive, range: Range, now: Date): Suppression {
  let badExpiry = false;
  let expired = false;
  if (d.expires !== null) {
    const t = validDate(d.expires);
    if (t === null) badExpiry = true;
    else expired = now.getTime() >= t + DAY_MS;
  }
  return {
    file: file.path,
    ruleIds: d.ruleIds,
    fileLevel: d.fileLevel,
    reason: d.reason,
    expires: d.expires,
    badExpiry,
    expired,
    range,
    cover: null,
    used: new Set(),
    unseparated: d.unseparated ?? null,
  };
}

function nativeSuppressions(file: SourceFile, now: Date): Suppression[] {
  const out: Suppression[] = [];
  const comments = file.hcl.comments ?? [];
  if (comments.length === 0) return out;
  let nodes: Node[] | null = null;
  const commentStartLines = new Map<number, number>();
  for (const c of comments) if (c.ownLine) commentStartLines.set(c.range.start.line, c.range.end.line);
  for (const c of comments) {
    const d = parseDirective(c.text);
    if (!d) continue;
    const s = newSuppression(file, d, c.range, now);
    out.push(s);
    if (d.fileLevel) continue;
    nodes ??= (() => {
      const list: Node[] = [];
      collectNodes(file.hcl.body, 0, list);
      return list;
    })();
    if (!c.ownLine) {
      const line = c.range.start.line;
      const starting = nodes.filter((n) => n.range.start.line === line);
      const innermost = starting.reduce<Node | undefined>((acc, n) => (!acc || n.depth > acc.depth ? n : acc), undefined);
      s.cover = coverFor(innermost, line);
      continue;
    }
    // Own line: find the next code line, skipping further own-line comments.
    let target = c.range.end.line + 1;
    for (;;) {
      const text = lineText(file, target);
      if (text === null || text.trim() === "") {
        target = -1;
        break;
      }
      const commentEnd = commentStartLines.get(target);
      if (commentEnd === undefined) break;
      target = commentEnd + 1;
    }
    if (target < 0) continue;
    const starting = nodes.filter((n) => n.range.start.line === target);
    const outermost = starting.reduce<Node | undefined>((acc, n) => (!acc || n.depth < acc.depth ? n : acc), undefined);
    s.cover = coverFor(outermost, target);
  }
  return out;
}

function jsonSuppressions(file: SourceFile, now: Date): Suppression[] {
  const out: Suppression[] = [];
  // Pre-order over the blocks (a body's comments, then each nested block's),
  // with an explicit stack: blocks nest without limit.
  const stack: { body: Body; owner: Block | null }[] = [{ body: file.hcl.body, owner: null }];
  while (stack.length > 0) {
    const { body, owner } = stack.pop()!;
    for (const jc of body.jsonComments ?? []) {
      const d = parseDirective(jc.text);
      if (!d) continue;
      const s = newSuppression(file, d, jc.range, now);
      if (owner === null) s.fileLevel = true;
      else if (!s.fileLevel) s.cover = owner.range;
      out.push(s);
    }
    for (let i = body.blocks.length - 1; i >= 0; i--) stack.push({ body: body.blocks[i]!.body, owner: body.blocks[i]! });
  }
  return out;
}

/** Every ignore directive in `files`, in file order. */
export function collectSuppressions(files: readonly SourceFile[], now: Date): Suppression[] {
  const out: Suppression[] = [];
  for (const f of files) {
    if (f.hcl.syntax === "json") out.push(...jsonSuppressions(f, now));
    else out.push(...nativeSuppressions(f, now));
  }
  return out;
}

function covers(s: Suppression, f: Finding, rootFiles: ReadonlySet<string>): boolean {
  if (s.expired || s.badExpiry) return false;
  if (!s.ruleIds.includes(f.ruleId)) return false;
  if (s.fileLevel) return f.file === s.file || (f.file === "" && rootFiles.has(s.file));
  if (f.file !== s.file || !s.cover) return false;
  const at = f.range.start;
  return !before(at, s.cover.start) && before(at, s.cover.end);
}

export interface ApplyOptions {
  /** Is the id a rule the linter knows (registry + engine rules)? */
  isKnownRule(id: string): boolean;
  /** Did the rule run (so an unused ignore of it is meaningful)? */
  isActiveRule(id: string): boolean;
  reportUnused: boolean;
  /** Paths of files directly in the root module directory. */
  rootFiles: ReadonlySet<string>;
}

/**
 * Mark covered findings `suppressed` (in place) and return findings about the
 * ignore comments themselves: unknown rule ids, expired or malformed expiry
 * dates, and (when asked) ignores that suppressed nothing.
 */
export function applySuppressions(findings: Finding[], sups: readonly Suppression[], opts: ApplyOptions): MetaFinding[] {
  for (const f of findings) {
    for (const s of sups) {
      if (!covers(s, f, opts.rootFiles)) continue;
      s.used.add(f.ruleId);
      f.suppressed ??= { justification: s.reason, file: s.file, line: s.range.start.line };
    }
  }
  const meta: MetaFinding[] = [];
  for (const s of sups) {
    const directive = s.fileLevel ? "tfcapi-lint-ignore-file" : "tfcapi-lint-ignore";
    for (const id of s.ruleIds) {
      if (!opts.isKnownRule(id)) {
        meta.push({ ruleId: "lint/unknown-rule", file: s.file, range: s.range, message: `${directive} names "${id}", which is not a tfcapi-lint rule; run "tfcapi-lint rules" for the list` });
      }
    }
    if (s.unseparated !== null) {
      meta.push({
        ruleId: "lint/unknown-rule",
        file: s.file,
        range: s.range,
        message: `"${s.unseparated}" is read as rule IDs; put the reason after "--": ${directive}: ${s.ruleIds.join(",")} -- ${s.unseparated}`,
      });
    }
    if (s.ruleIds.length === 0) {
      meta.push({ ruleId: "lint/unknown-rule", file: s.file, range: s.range, message: `${directive} names no rule; write the rule ID after the colon` });
    }
    if (s.badExpiry) {
      meta.push({ ruleId: "lint/expired-ignore", file: s.file, range: s.range, message: `exp:${s.expires} is not a valid YYYY-MM-DD date, so this ignore suppresses nothing` });
      continue;
    }
    if (s.expired) {
      meta.push({ ruleId: "lint/expired-ignore", file: s.file, range: s.range, message: `ignore of ${s.ruleIds.join(", ")} expired on ${s.expires}: fix the findings or extend the date` });
      continue;
    }
    if (!opts.reportUnused) continue;
    for (const id of s.ruleIds) {
      if (!opts.isKnownRule(id) || !opts.isActiveRule(id) || s.used.has(id)) continue;
      meta.push({ ruleId: "lint/unused-ignore", file: s.file, range: s.range, message: `${directive} for ${id} suppresses nothing; remove it` });
    }
  }
  return meta;
}

/**
 * The edits code actions offer: a fix's edits in the client's positions, one
 * minimal edit between two texts (fix-all), and the ignore comment to insert
 * for a finding. No connection here: actions.ts sends what these return.
 */
import * as path from "node:path";
import type { TextEdit } from "vscode-languageserver/node.js";
import type { Attribute, Body, Expression } from "../hcl/ast.js";
import { pushChildren } from "../hcl/walk.js";
import type { Finding, Fix } from "../lint/types.js";
import type { SourceFile } from "../terraform/module-types.js";
import type { Indexes } from "./diagnostics.js";
import { fileUri } from "./documents.js";
import type { TextPositions } from "./positions.js";

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
export function minimalEdit(before: string, after: string, ix: TextPositions): TextEdit | null {
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

/** The innermost attribute holding `offset` (a loop down the blocks holding it: they nest without limit). */
function innermostAttribute(top: Body, offset: number): Attribute | null {
  let body: Body | null = top;
  while (body !== null) {
    const current: Body = body;
    body = null;
    for (const a of current.attributes) {
      if (a.range.start.offset <= offset && offset < a.range.end.offset) return a;
    }
    for (const b of current.blocks) {
      if (b.range.start.offset <= offset && offset < b.range.end.offset) {
        body = b.body;
        break;
      }
    }
  }
  return null;
}

/**
 * Whether a heredoc within `root` holds 1-based `line` past its first line:
 * the expressions spanning that line, walked with the HCL layer's
 * `pushChildren` (an explicit stack: syntax trees nest without limit).
 */
function insideHeredoc(root: Expression, line: number): boolean {
  const stack: Expression[] = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const r = e.range;
    if (r.end.line < line || r.start.line > line) continue;
    if ((e.kind === "Template" || e.kind === "TemplateWrap") && e.form === "heredoc" && r.start.line < line) return true;
    pushChildren(e, stack, false);
  }
  return false;
}

/** The innermost block body holding `offset` (JSON files); null when no block's does. A loop: blocks nest without limit. */
function innermostBody(top: Body, offset: number): Body | null {
  let found: Body | null = null;
  let body: Body = top;
  for (;;) {
    let next: Body | null = null;
    for (const b of body.blocks) {
      const r = b.body.range;
      if (r.start.offset <= offset && offset < r.end.offset) {
        next = b.body;
        break;
      }
    }
    if (next === null) return found;
    found = next;
    body = next;
  }
}

/** A `"//": "..."` property inserted as the first property of the object whose content starts at `at`. */
function jsonCommentEdit(text: string, at: number, directive: string, ix: TextPositions): TextEdit {
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
export function ignoreEdit(file: SourceFile, finding: Finding, fileLevel: boolean, ix: TextPositions): TextEdit | null {
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

/**
 * Fix builders: every fix a rule offers is made here, so that fixes look
 * alike and look like `terraform fmt` output (two spaces per level, the `=`
 * of consecutive one-line arguments aligned, the file's own line endings).
 * Each builder returns a whole `Fix` whose `within` is the node it was
 * computed for: the applier (apply-fixes.ts) refuses any edit outside it. A builder
 * returns null/undefined when a sound edit would be a guess.
 *
 * - `replaceFix`: replace a node's text.
 * - `wrapInCallFix`: wrap an expression in a function call (native and JSON).
 * - `insertAttributeFix`: add an argument as a block's last argument.
 * - `ignoreChangesFix`: add an attribute to a resource's lifecycle ignore_changes.
 * - `splitOneLineBlockFix`: rewrite a one-line block HCL rejects as a multi-line block.
 *
 * Every fix says what it can do to the plan (`kind`, see FixKind in
 * types.ts): the caller of `replaceFix`, `wrapInCallFix` and
 * `insertAttributeFix` decides, since the same edit is harmless in one place
 * and changes infrastructure in another; an `ignore_changes` entry is always
 * unsafe (Terraform stops managing the attribute); a one-line block split
 * is always safe (the same arguments, laid out over lines).
 */
import type { Attribute, Block, Comment, Expression, File, Range } from "../hcl/ast.js";
import type { Resource, SourceFile } from "../terraform/module-types.js";
import type { Fix, FixKind, TextEdit } from "./types.js";
import { lineIndentAt, newlineOf } from "../hcl/source.js";

export { lineIndentAt, newlineOf };

/** Two extra spaces per level, as `terraform fmt` writes. */
export const INDENT_UNIT = "  ";


/** Offset of the end of the line holding `offset` (before its `\r\n` or `\n`). */
function lineEndAt(text: string, offset: number): number {
  const i = text.indexOf("\n", offset);
  if (i < 0) return text.length;
  return i > 0 && text[i - 1] === "\r" ? i - 1 : i;
}

/** True when only blanks precede `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === "";
}

function nodeOf(r: Range): { start: number; end: number } {
  return { start: r.start.offset, end: r.end.offset };
}

/** `{ kind }`, or nothing when a plain-JavaScript caller gave none (the engine then counts the fix unsafe). */
function kindOf(kind: FixKind | undefined): { kind?: FixKind } {
  return kind === undefined ? {} : { kind };
}

function edit(file: SourceFile, start: number, end: number, text: string): TextEdit {
  return { file: file.path, start, end, text };
}

// ---------------------------------------------------------------- replace, wrap

/** Replace the text of `node` (an expression, an attribute, a block) with `text`; `kind` says what that does to the plan. */
export function replaceFix(file: SourceFile, node: { range: Range }, text: string, description: string, kind: FixKind): Fix {
  return { description, ...kindOf(kind), edits: [edit(file, node.range.start.offset, node.range.end.offset, text)], within: nodeOf(node.range) };
}

/**
 * Wrap `expr` in a call of `fn` (`x` -> `fn(x)`). In JSON syntax only a
 * `"${ ... }"` string can be rewritten without guessing; null otherwise.
 */
export function wrapInCallFix(file: SourceFile, expr: Expression, fn: string, description: string, kind: FixKind): Fix | null {
  const { start, end } = nodeOf(expr.range);
  if (file.hcl.syntax === "native") {
    return { description, ...kindOf(kind), edits: [edit(file, start, start, `${fn}(`), edit(file, end, end, ")")], within: { start, end } };
  }
  if (expr.kind !== "TemplateWrap") return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(file.hcl.text.slice(start, end));
  } catch {
    return null;
  }
  if (typeof decoded !== "string") return null;
  const m = /^\$\{([\s\S]*)\}$/.exec(decoded);
  if (!m || m[1]!.trim() === "") return null;
  return { description, ...kindOf(kind), edits: [edit(file, start, end, JSON.stringify(`\${${fn}(${m[1]!.trim()})}`))], within: { start, end } };
}

// ---------------------------------------------------------------- aligned arguments

/** True for an argument `terraform fmt` aligns: written on one line (a heredoc counts as one line). */
function alignable(text: string, a: Attribute): boolean {
  if (a.range.start.line === a.range.end.line) return true;
  return text.startsWith("<<", a.expr.range.start.offset) && a.nameRange.start.line === a.expr.range.start.line;
}

/**
 * The run of arguments `terraform fmt` aligns with an argument added on the
 * line after `last`: the consecutive one-line arguments ending with `last`,
 * each on the line right after the previous one.
 */
function runEndingWith(text: string, attrs: readonly Attribute[], last: Attribute): Attribute[] {
  const sorted = [...attrs].sort((a, b) => a.range.start.offset - b.range.start.offset);
  let i = sorted.indexOf(last);
  if (i < 0 || !alignable(text, last)) return [];
  const run = [last];
  while (i > 0) {
    const prev = sorted[i - 1]!;
    if (!alignable(text, prev) || prev.range.end.line !== run[0]!.range.start.line - 1) break;
    run.unshift(prev);
    i--;
  }
  return run;
}

/**
 * Edits that put the `=` of every argument of `run` at `width` columns after
 * its name's start; null when one of them is not written `name = value` on
 * one line (then realigning would be a guess).
 */
function realign(file: SourceFile, run: readonly Attribute[], width: number): TextEdit[] | null {
  const text = file.hcl.text;
  const out: TextEdit[] = [];
  for (const a of run) {
    const from = a.nameRange.end.offset;
    const eq = text.indexOf("=", from);
    if (eq < 0 || eq >= a.expr.range.start.offset || !/^[ \t]*$/.test(text.slice(from, eq))) return null;
    const pad = " ".repeat(width - a.name.length + 1);
    if (text.slice(from, eq) !== pad) out.push(edit(file, from, eq, pad));
  }
  return out;
}

/** True when the block's first argument or nested block starts on the line of its `{`. */
function opensWithItem(block: Block): boolean {
  const first = [...block.body.attributes.map((a) => a.range), ...block.body.blocks.map((b) => b.range)].sort((a, b) => a.start.offset - b.start.offset)[0];
  return first !== undefined && first.start.line === block.openBraceRange.end.line;
}

/**
 * Add `name = value` (native) or `"name": value` (JSON) as the block's last
 * argument. Native syntax: on the line after the current last argument, at
 * its indentation, with the `=` aligned as `terraform fmt` aligns the run of
 * one-line arguments it joins (the others of the run are realigned when the
 * new name is the longest); in a block without arguments, on the line after
 * the `{`, one level deeper than the block. Undefined for a one-line block
 * (HCL allows a single argument there: expanding it is syntax/one-line-block's
 * fix) and for a block whose first item shares the line of its `{`.
 */
export function insertAttributeFix(file: SourceFile, block: Block, name: string, value: string, description: string, kind: FixKind): Fix | undefined {
  const within = nodeOf(block.range);
  if (file.hcl.syntax === "json") {
    const e = insertJsonProperty(file, block, name, value);
    return e ? { description, ...kindOf(kind), edits: [e], within } : undefined;
  }
  if (block.singleLine || opensWithItem(block)) return undefined;
  const text = file.hcl.text;
  const nl = newlineOf(text);
  const closeLine = block.closeBraceRange.start.line;
  const attrs = block.body.attributes;
  const last = [...attrs].sort((a, b) => a.range.end.offset - b.range.end.offset)[attrs.length - 1];
  if (last) {
    // The closing brace shares the last argument's line: not valid HCL in a
    // multi-line block, so there is nothing sound to edit.
    if (last.range.end.line >= closeLine || !startsLine(text, last.range.start.offset)) return undefined;
    const indent = lineIndentAt(text, last.range.start.offset);
    const at = file.hcl.lineStarts[last.range.end.line] ?? text.length;
    const run = runEndingWith(text, attrs, last);
    let width = Math.max(name.length, ...run.map((a) => a.name.length));
    let realigned = realign(file, run, width);
    if (realigned === null) {
      // The run is not written `name = value`: add the argument unaligned rather than guess.
      realigned = [];
      width = name.length;
    }
    return { description, ...kindOf(kind), edits: [...realigned, edit(file, at, at, `${indent}${name.padEnd(width)} = ${value}${nl}`)], within };
  }
  const openLine = block.openBraceRange.start.line;
  if (openLine >= closeLine) return undefined;
  const firstBlock = block.body.blocks[0];
  const indent = firstBlock ? lineIndentAt(text, firstBlock.range.start.offset) : lineIndentAt(text, block.range.start.offset) + INDENT_UNIT;
  const at = file.hcl.lineStarts[openLine] ?? text.length;
  return { description, ...kindOf(kind), edits: [edit(file, at, at, `${indent}${name} = ${value}${nl}`)], within };
}

function insertJsonProperty(file: SourceFile, block: Block, name: string, value: string): TextEdit | undefined {
  const text = file.hcl.text;
  const property = `${JSON.stringify(name)}: ${value}`;
  const members = [...block.body.attributes.map((a) => a.range), ...block.body.blocks.map((b) => b.range)];
  members.sort((a, b) => a.end.offset - b.end.offset);
  const last = members[members.length - 1];
  if (!last) {
    const at = block.openBraceRange.end.offset;
    return edit(file, at, at, property);
  }
  // Right after the last member: whatever followed it (a comma, `}`) still fits.
  const at = last.end.offset;
  if (startsLine(text, last.start.offset)) return edit(file, at, at, `,${newlineOf(text)}${lineIndentAt(text, last.start.offset)}${property}`);
  return edit(file, at, at, `, ${property}`);
}

// ---------------------------------------------------------------- lifecycle ignore_changes

/**
 * Add `attribute` to a resource's `lifecycle { ignore_changes }`: extend an
 * existing list, add the argument to an existing lifecycle block (aligned
 * with its arguments), or create the lifecycle block at the end of the
 * resource. Native syntax only; null whenever the edit would be a guess (JSON,
 * override files, one-line resources). Always unsafe: Terraform stops
 * managing the attribute, so the next plan differs.
 */
export function ignoreChangesFix(resource: Resource, attribute: string): Fix | null {
  const file = resource.file;
  if (file.hcl.syntax !== "native") return null;
  if (resource.overriddenBy && resource.overriddenBy.length > 0) return null;
  if (resource.block.singleLine || opensWithItem(resource.block)) return null;
  const text = file.hcl.text;
  const nl = newlineOf(text);
  const description = `Add ${attribute} to lifecycle { ignore_changes }`;
  const within = nodeOf(resource.block.range);
  const fix = (...edits: TextEdit[]): Fix => ({ description, kind: "unsafe", edits, within });
  const lc = resource.lifecycle;
  const inResourceBody = (offset: number): boolean =>
    offset > resource.block.openBraceRange.end.offset && offset < resource.block.closeBraceRange.start.offset;

  if (lc.ignoreChangesAttr) {
    if (!inResourceBody(lc.ignoreChangesAttr.range.start.offset)) return null;
    const tuple = lc.ignoreChangesAttr.expr;
    if (tuple.kind !== "TupleCons") return null;
    const open = tuple.range.start.offset;
    const close = tuple.range.end.offset - 1; // the `]`
    if (text[open] !== "[" || text[close] !== "]") return null;
    if (tuple.exprs.length === 0) return fix(edit(file, open, close + 1, `[${attribute}]`));
    const last = tuple.exprs[tuple.exprs.length - 1]!;
    const afterLast = text.slice(last.range.end.offset, close);
    const commaAt = afterLast.indexOf(",");
    const trailingComma = commaAt >= 0 && afterLast.slice(0, commaAt).trim() === "";
    const multiLine = tuple.range.start.line !== tuple.range.end.line;
    if (!multiLine || last.range.end.line === tuple.range.end.line) {
      if (trailingComma) {
        const at = last.range.end.offset + commaAt + 1;
        return fix(edit(file, at, at, ` ${attribute},`));
      }
      return fix(edit(file, last.range.end.offset, last.range.end.offset, `, ${attribute}`));
    }
    // One element per line: add a line after the last element (and after any end-of-line comment).
    const indent = lineIndentAt(text, last.range.start.offset);
    const eol = lineEndAt(text, last.range.end.offset);
    if (trailingComma) return fix(edit(file, eol, eol, `${nl}${indent}${attribute},`));
    if (eol === last.range.end.offset) return fix(edit(file, eol, eol, `,${nl}${indent}${attribute}`));
    return fix(edit(file, last.range.end.offset, last.range.end.offset, ","), edit(file, eol, eol, `${nl}${indent}${attribute}`));
  }

  const value = `[${attribute}]`;
  if (lc.block) {
    const block = lc.block;
    if (!inResourceBody(block.range.start.offset)) return null;
    if (block.singleLine) {
      const expanded = expandBlockBody(file.hcl, block, [`ignore_changes = ${value}`]);
      if (expanded === null) return null;
      return fix(edit(file, block.openBraceRange.start.offset, block.closeBraceRange.end.offset, expanded));
    }
    const added = insertAttributeFix(file, block, "ignore_changes", value, description, "unsafe");
    return added ? { ...added, within } : null;
  }

  const closeAt = resource.block.closeBraceRange.start.offset;
  if (!startsLine(text, closeAt)) return null;
  const indent = lineIndentAt(text, resource.block.range.start.offset) + INDENT_UNIT;
  const lineStart = text.lastIndexOf("\n", closeAt - 1) + 1;
  const previousLineBlank = lineStart >= 1 && text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart).trim() === "";
  const lifecycle = [
    ...(previousLineBlank ? [] : [""]),
    `${indent}lifecycle {`,
    `${indent}${INDENT_UNIT}ignore_changes = ${value}`,
    `${indent}}`,
  ].join(nl);
  return fix(edit(file, lineStart, lineStart, lifecycle + nl));
}

// ---------------------------------------------------------------- one-line blocks

/**
 * A one-line block's body re-read with one item per line (what
 * syntax/one-line-block's analysis computes when the parser could not keep
 * the block whole): the re-read text, the wrapper block holding the items,
 * and the offset of the original closing brace.
 */
export interface ReReadBody {
  file: File;
  wrapper: Block;
  close: number;
}

/** Re-reads a one-line block's body from its text; null when that fails. */
export type ReReader = (file: File, block: Block) => ReReadBody | null;

/** A replacement of [start, end) in a file. */
interface Replacement {
  start: number;
  end: number;
  text: string;
}

/**
 * Rewrite a block HCL rejects as one-line (more than one argument, a nested
 * block, or an argument on the line of the `{` while the `}` is on a later
 * line) as a multi-line block: one item per line, one level deeper than the
 * block, the `=` of consecutive arguments aligned, comments kept. Null when
 * the block's text holds something the rewrite could not account for.
 * Always safe: the same arguments and blocks, laid out over lines.
 */
export function splitOneLineBlockFix(file: SourceFile, block: Block, reread: ReReader): Fix | null {
  const r = expandOneLineBlock(file.hcl, block, reread);
  if (r === null) return null;
  return {
    description: "Expand the block to one argument per line",
    kind: "safe",
    edits: [edit(file, r.start, r.end, r.text)],
    within: { start: block.range.start.offset, end: Math.max(block.range.end.offset, r.end) },
  };
}

/**
 * How deep one-line blocks inside one-line blocks are expanded: the fix's
 * text grows with the square of the depth (each level indented one step
 * more), so past this no fix is offered (the finding stays).
 */
const MAX_SPLIT_DEPTH = 100;

function expandOneLineBlock(file: File, block: Block, reread: ReReader | undefined, indent?: string, depth = 0): Replacement | null {
  if (depth > MAX_SPLIT_DEPTH) return null;
  const own = indent ?? lineIndentAt(file.text, block.range.start.offset);
  if (block.singleLine || opensWithItem(block)) {
    const text = expandBlockBody(file, block, [], own, reread, depth);
    if (text !== null) return { start: block.openBraceRange.start.offset, end: block.closeBraceRange.end.offset, text };
  }
  if (!reread) return null;
  const split = reread(file, block);
  if (split === null) return null;
  const expanded = expandBlockBody(split.file, split.wrapper, [], own, reread, depth);
  if (expanded === null) return null;
  return { start: block.openBraceRange.start.offset, end: split.close + 1, text: expanded };
}

type Item = { kind: "attr"; node: Attribute; start: number; end: number } | { kind: "block"; node: Block; start: number; end: number };

function itemsOf(block: Block): Item[] {
  const items: Item[] = [
    ...block.body.attributes.map((a): Item => ({ kind: "attr", node: a, start: a.range.start.offset, end: a.range.end.offset })),
    ...block.body.blocks.map((b): Item => ({ kind: "block", node: b, start: b.range.start.offset, end: b.range.end.offset })),
  ];
  return items.sort((a, b) => a.start - b.start);
}

/** A one-line block whose tree body is empty but whose text is not: the re-read blanked it (see splitOneLineBody). */
function isBlankedOneLiner(text: string, block: Block): boolean {
  if (!block.singleLine || block.body.attributes.length > 0 || block.body.blocks.length > 0) return false;
  return text.slice(block.openBraceRange.end.offset, block.closeBraceRange.start.offset).trim() !== "";
}

/** A one-line block HCL rejects: more than one argument, or any nested block. */
function isInvalidOneLineBlock(block: Block): boolean {
  return block.singleLine && (block.body.blocks.length > 0 || block.body.attributes.length > 1);
}

/**
 * The multi-line text that replaces `block` from its opening to its closing
 * brace (inclusive), with `extraLines` appended as further body lines; null
 * when the block's source holds text the syntax tree does not account for
 * (the parser recovered from something we cannot rebuild faithfully). One
 * comma between two items (`{ a = 1, b = 2 }`) is taken as a separator.
 *
 * `indent` is the indentation of the line the block starts on; nested
 * one-line blocks that are themselves invalid are expanded too.
 */
function expandBlockBody(
  file: File,
  block: Block,
  extraLines: readonly string[] = [],
  indent?: string,
  reread?: ReReader,
  depth = 0,
): string | null {
  const text = file.text;
  const nl = newlineOf(text);
  const own = indent ?? lineIndentAt(text, block.range.start.offset);
  const inner = own + INDENT_UNIT;
  const bodyStart = block.openBraceRange.end.offset;
  const bodyEnd = block.closeBraceRange.start.offset;
  if (bodyEnd < bodyStart) return null;
  const items = itemsOf(block);
  const comments: Comment[] = file.comments.filter((c) => c.range.start.offset >= bodyStart && c.range.end.offset <= bodyEnd);

  // Everything between the braces must be an item, a comment, blank, or a
  // comma that separates two items.
  const covered = [
    ...items.map((i) => [i.start, i.end, true] as const),
    ...comments.map((c) => [c.range.start.offset, c.range.end.offset, false] as const),
  ].sort((a, b) => a[0] - b[0]);
  let pos = bodyStart;
  let previousIsItem = false;
  for (const [s, e, isItem] of covered) {
    if (s < pos || e > bodyEnd) return null;
    const gap = text.slice(pos, s).trim();
    if (gap !== "" && !(gap === "," && previousIsItem && isItem)) return null;
    pos = e;
    previousIsItem = isItem;
  }
  if (text.slice(pos, bodyEnd).trim() !== "") return null;

  // Lay out line by line; consecutive arguments get their `=` aligned, as
  // `terraform fmt` does (a comment or a block ends a run).
  type Line = { text: string } | { name: string; value: string };
  const out: Line[] = [];
  let ci = 0;
  for (const item of items) {
    while (ci < comments.length && comments[ci]!.range.start.offset < item.start) out.push({ text: comments[ci++]!.text.trimEnd() });
    if (item.kind === "attr") {
      const a = item.node;
      out.push({ name: a.name, value: text.slice(a.expr.range.start.offset, a.range.end.offset) });
    } else {
      const b = item.node;
      if (isInvalidOneLineBlock(b)) {
        const expanded = expandOneLineBlock(file, b, reread, inner, depth + 1);
        if (expanded === null) return null;
        out.push({ text: text.slice(b.range.start.offset, expanded.start) + expanded.text });
      } else if (reread && isBlankedOneLiner(text, b)) {
        // A one-line block the re-read could not parse whole (it holds a
        // one-line block of its own): re-read it in turn, now that it is on
        // a line of its own; as written when that fails (a later pass splits it).
        const r = expandOneLineBlock(file, b, reread, inner, depth + 1);
        const expanded = r !== null && r.end === b.closeBraceRange.end.offset ? r : null;
        out.push({ text: text.slice(b.range.start.offset, expanded ? expanded.start : b.range.end.offset) + (expanded ? expanded.text : "") });
      } else {
        out.push({ text: text.slice(item.start, item.end) });
      }
    }
  }
  while (ci < comments.length) out.push({ text: comments[ci++]!.text.trimEnd() });
  for (const extra of extraLines) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(.*)$/s.exec(extra);
    out.push(m ? { name: m[1]!, value: m[2]! } : { text: extra });
  }
  const lines: string[] = [];
  for (let i = 0; i < out.length; ) {
    const line = out[i]!;
    if ("text" in line) {
      lines.push(inner + line.text);
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && "name" in out[j]! && !(out[j] as { value: string }).value.includes("\n")) j++;
    if (j === i) j = i + 1; // a multi-line value: on its own, not aligned
    const run = out.slice(i, j) as { name: string; value: string }[];
    const width = run.length > 1 ? Math.max(...run.map((r) => r.name.length)) : 0;
    for (const r of run) lines.push(`${inner}${r.name.padEnd(width)} = ${r.value}`);
    i = j;
  }
  return "{" + nl + lines.join(nl) + nl + own + "}";
}

/**
 * The comparable declarations of one file set of a module, for
 * module/tofu-shadow: each declaration's identity, where it is, and its
 * body as text with comments dropped and whitespace collapsed.
 */
import type { Block, Range } from "../../src/hcl/ast.js";
import type { Module, SourceFile } from "../../src/terraform/model.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

export interface ComparableDecl {
  /** Identity across file sets, also used in messages: `variable "region"`, `local.tags`. */
  key: string;
  file: SourceFile;
  /** Where to report: a block header or an argument name. */
  range: Range;
  /** Body text, comments removed, whitespace collapsed. */
  body: string;
}

/** `text[start, end)` without comments, whitespace runs collapsed to one space. */
export function canonicalText(file: SourceFile, start: number, end: number): string {
  let text = "";
  let at = start;
  for (const c of file.hcl.comments) {
    if (c.range.end.offset <= start || c.range.start.offset >= end) continue;
    text += file.hcl.text.slice(at, Math.max(at, c.range.start.offset)) + " ";
    at = Math.max(at, c.range.end.offset);
  }
  text += file.hcl.text.slice(at, end);
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A declaration whose body text is made on first use: module/tofu-shadow
 * compares bodies only of declarations that sit in two different files.
 */
function lazyDecl(key: string, file: SourceFile, range: Range, start: number, end: number): ComparableDecl {
  let body: string | undefined;
  return {
    key,
    file,
    range,
    get body(): string {
      if (body === undefined) body = canonicalText(file, start, end);
      return body;
    },
  };
}

function blockDecl(key: string, file: SourceFile, block: Block): ComparableDecl {
  return lazyDecl(key, file, blockHeaderRange(block, file.hcl.syntax), block.openBraceRange.end.offset, block.closeBraceRange.start.offset);
}

/** Every declaration module/tofu-shadow compares, keyed by identity. */
export function comparableDeclarations(mod: Module): Map<string, ComparableDecl> {
  const out = new Map<string, ComparableDecl>();
  const add = (d: ComparableDecl): void => {
    if (!out.has(d.key)) out.set(d.key, d);
  };
  for (const v of mod.variables.values()) add(blockDecl(`variable "${v.name}"`, v.file, v.block));
  for (const o of mod.outputs.values()) add(blockDecl(`output "${o.name}"`, o.file, o.block));
  for (const p of mod.providers) {
    const key = p.alias ? `provider "${p.name}" (alias "${p.alias}")` : `provider "${p.name}"`;
    add(blockDecl(key, p.file, p.block));
  }
  for (const r of mod.resources.values()) add(blockDecl(`resource "${r.type}" "${r.name}"`, r.file, r.block));
  for (const d of mod.dataSources.values()) add(blockDecl(`data "${d.type}" "${d.name}"`, d.file, d.block));
  for (const m of mod.moduleCalls.values()) add(blockDecl(`module "${m.name}"`, m.file, m.block));
  for (const l of mod.locals.values()) {
    add(lazyDecl(`local.${l.name}`, l.file, l.attr.nameRange, l.value.range.start.offset, l.value.range.end.offset));
  }
  for (const t of mod.terraformBlocks) {
    for (const b of t.backends) add(blockDecl(`backend "${b.labels[0] ?? ""}"`, t.file, b));
    for (const c of t.clouds) add(blockDecl("cloud block", t.file, c));
    for (const rp of t.requiredProviders) {
      for (const a of rp.body.attributes) {
        add(lazyDecl(`required provider "${a.name}"`, t.file, a.nameRange, a.expr.range.start.offset, a.expr.range.end.offset));
      }
    }
    const rv = t.requiredVersion;
    if (rv) {
      add(lazyDecl("required_version", t.file, rv.nameRange, rv.expr.range.start.offset, rv.expr.range.end.offset));
    }
  }
  return out;
}

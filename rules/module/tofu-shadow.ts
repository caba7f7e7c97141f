/**
 * The comparable declarations of one file set of a module, for
 * module/tofu-shadow: each declaration's identity, where it is, and its
 * body as text with comments dropped and whitespace collapsed.
 */
import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import type { Module, ModuleUnit, SourceFile } from "../../src/terraform/module-types.js";
import type { Block, Range } from "../../src/hcl/ast.js";
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
 * compares bodies only of declarations that sit in two different files. (A
 * class rather than an object literal with a getter: V8 keeps such literals
 * where they hold the module's tree through young-generation collections.)
 */
class LazyDecl implements ComparableDecl {
  private text: string | undefined;
  constructor(
    readonly key: string,
    readonly file: SourceFile,
    readonly range: Range,
    private readonly start: number,
    private readonly end: number,
  ) {}

  get body(): string {
    if (this.text === undefined) this.text = canonicalText(this.file, this.start, this.end);
    return this.text;
  }
}

function lazyDecl(key: string, file: SourceFile, range: Range, start: number, end: number): ComparableDecl {
  return new LazyDecl(key, file, range, start, end);
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

/** The file of the other set with the same stem (`main.tf` <-> `main.tofu`), if any. */
function counterpart(unit: ModuleUnit, file: SourceFile): SourceFile | undefined {
  const swap: Record<SourceFile["extension"], string> = {
    ".tf": ".tofu",
    ".tofu": ".tf",
    ".tf.json": ".tofu.json",
    ".tofu.json": ".tf.json",
  };
  const stem = file.path.slice(0, file.path.length - file.extension.length);
  const want = stem + swap[file.extension];
  return unit.allFiles.find((f) => f.path === want);
}

export default defineRule({
  id: "module/tofu-shadow",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "Terraform and OpenTofu read the same declarations when .tofu files shadow .tf files",
  scope: "root",
  fixable: false,
  // A file that failed to parse may hold the missing use or twin declaration.
  declarationCheck: true,
  tags: ["module", "opentofu"],
  check(ctx) {
    const unit = ctx.unit;
    if (!unit.hasTofu || unit.tofuOnly) return;
    const tf = comparableDeclarations(unit.terraform);
    const tofu = comparableDeclarations(unit.opentofu);

    for (const [key, decl] of tf) {
      if (tofu.has(key)) continue;
      const shadow = counterpart(unit, decl.file);
      const why = shadow
        ? `OpenTofu reads ${shadow.name} instead of ${decl.file.name}`
        : "OpenTofu does not read it";
      ctx.report({
        message: `${key} is declared for Terraform but not for OpenTofu (${why}): declare it in the .tofu file too, or remove it.`,
        file: decl.file.path,
        range: decl.range,
      });
    }

    for (const [key, decl] of tofu) {
      const other = tf.get(key);
      if (!other) {
        const why = counterpart(unit, decl.file)
          ? `Terraform reads ${counterpart(unit, decl.file)!.name} instead`
          : "Terraform ignores .tofu files";
        ctx.report({
          message: `${key} is declared for OpenTofu only (${why}): declare it in the .tf file too, or remove it.`,
          file: decl.file.path,
          range: decl.range,
        });
        continue;
      }
      if (other.file.path === decl.file.path) continue;
      // Bodies in different syntaxes (HCL vs JSON) cannot be compared as text.
      if (other.file.hcl.syntax !== decl.file.hcl.syntax) continue;
      if (other.body === decl.body) continue;
      ctx.report({
        message: `${key} in ${decl.file.name} differs from the one in ${other.file.path}: Terraform and OpenTofu would run different code; make the two identical.`,
        file: decl.file.path,
        range: decl.range,
      });
    }
  },
});

/**
 * The outline: a JSON summary of a parsed file in exactly the shape printed
 * by the `hcl-oracle` development tool (HashiCorp's parser), so the two can
 * be diffed. Ranges use HCL's conventions: `col` counts characters (grapheme
 * clusters) and `byte` is the UTF-8 offset in the original file (a leading
 * BOM counts three bytes but no column).
 */
import type { Attribute, Block, Body, Diagnostic, Expression, Pos, Range } from "./ast.js";
import { parseJson } from "./json.js";
import { parseNative } from "./parser.js";
import { computeLineStarts, stripBom } from "./source.js";
import { collectCalls, collectRefs, traversalText } from "./walk.js";

export interface OutlinePos {
  line: number;
  col: number;
  byte: number;
}
export interface OutlineRange {
  start: OutlinePos;
  end: OutlinePos;
}
export interface OutlineDiag {
  severity: "error" | "warning";
  summary: string;
  detail?: string;
  subject?: OutlineRange;
}
export interface OutlineNamed {
  name: string;
  range: OutlineRange;
}
export interface OutlineExpr {
  kind: string;
  range: OutlineRange;
  calls: OutlineNamed[];
  refs: OutlineNamed[];
}
export interface OutlineAttr {
  name: string;
  range: OutlineRange;
  nameRange: OutlineRange;
  expr: OutlineExpr;
}
export interface OutlineBlock {
  type: string;
  labels: string[];
  range: OutlineRange;
  typeRange: OutlineRange;
  openBrace: OutlineRange;
  closeBrace: OutlineRange;
  body: OutlineBody;
}
export interface OutlineBody {
  attrs: OutlineAttr[];
  blocks: OutlineBlock[];
}
export interface OutlineFile {
  file: string;
  syntax: "native" | "json";
  diags: OutlineDiag[];
  body?: OutlineBody;
}

let segmenter: Intl.Segmenter | undefined;
function graphemeCount(s: string): number {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x300) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s.length;
  segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let n = 0;
  for (const _ of segmenter.segment(s)) n++;
  return n;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Converts parser positions (UTF-16) to HCL positions (characters, UTF-8 bytes). */
class PosConverter {
  private readonly text: string;
  private readonly lineStarts: number[];
  private readonly lineBytes: number[] = [];
  private readonly bom: number;

  constructor(text: string, bom: boolean) {
    this.text = text;
    this.lineStarts = computeLineStarts(text);
    this.bom = bom ? 3 : 0;
    let b = 0;
    for (let l = 0; l < this.lineStarts.length; l++) {
      this.lineBytes.push(b);
      const end = l + 1 < this.lineStarts.length ? this.lineStarts[l + 1] : text.length;
      b += utf8Length(text.slice(this.lineStarts[l], end));
    }
  }

  conv(p: Pos): OutlinePos {
    if (p.line === 0) return { line: 0, col: 0, byte: 0 };
    const l = p.line - 1;
    const ls = this.lineStarts[l] ?? 0;
    const before = this.text.slice(ls, Math.max(ls, p.offset));
    return { line: p.line, col: graphemeCount(before) + 1, byte: this.bom + (this.lineBytes[l] ?? 0) + utf8Length(before) };
  }

  range(r: Range): OutlineRange {
    return { start: this.conv(r.start), end: this.conv(r.end) };
  }
}

function diagOf(c: PosConverter, d: Diagnostic): OutlineDiag {
  const o: OutlineDiag = { severity: d.severity, summary: d.summary };
  if (d.detail !== "") o.detail = d.detail;
  o.subject = c.range(d.subject);
  return o;
}

function exprKind(e: Expression): string {
  return e.kind === "Invalid" ? "LiteralValue" : e.kind;
}

function exprOf(c: PosConverter, e: Expression): OutlineExpr {
  return {
    kind: exprKind(e),
    range: c.range(e.range),
    calls: collectCalls(e).map((f) => ({ name: f.name, range: c.range(f.range) })),
    refs: collectRefs(e).map((r) => ({ name: traversalText(r.traversal), range: c.range(r.range) })),
  };
}

function bodyOf(c: PosConverter, b: Body): OutlineBody {
  const attrs = b.attributes.map((a: Attribute) => ({
    name: a.name,
    range: c.range(a.range),
    nameRange: c.range(a.nameRange),
    expr: exprOf(c, a.expr),
  }));
  attrs.sort((x, y) => x.range.start.byte - y.range.start.byte);
  const blocks = b.blocks.map((bl: Block) => ({
    type: bl.type,
    labels: bl.labels.slice(),
    range: c.range(bl.range),
    typeRange: c.range(bl.typeRange),
    openBrace: c.range(bl.openBraceRange),
    closeBrace: c.range(bl.closeBraceRange),
    body: bodyOf(c, bl.body),
  }));
  return { attrs, blocks };
}

/** The oracle-shaped outline of one file (JSON syntax: diagnostics only). */
export function hclOutline(text: string, filename: string): OutlineFile {
  const { text: stripped, hadBom } = stripBom(text);
  const c = new PosConverter(stripped, hadBom);
  if (filename.endsWith(".json")) {
    const r = parseJson(text, filename);
    return { file: filename, syntax: "json", diags: r.diagnostics.map((d) => diagOf(c, d)) };
  }
  const r = parseNative(text, filename, { compat: true });
  return { file: filename, syntax: "native", diags: r.diagnostics.map((d) => diagOf(c, d)), body: bodyOf(c, r.file.body) };
}

/** Serialises like Go's encoding/json (HTML-safe escapes), one line. */
export function outlineJson(o: OutlineFile): string {
  return JSON.stringify(o).replace(/\\(.)|[<>&\u2028\u2029]/g, (m: string, esc: string | undefined) => {
    if (esc !== undefined) {
      if (esc === "b") return "\\u0008";
      if (esc === "f") return "\\u000c";
      return m;
    }
    return "\\u" + m.charCodeAt(0).toString(16).padStart(4, "0");
  });
}

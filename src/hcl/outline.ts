/**
 * The outline: a JSON summary of a parsed file in exactly the shape printed
 * by the `hcl-oracle` development tool (HashiCorp's parser), so the two can
 * be diffed. Ranges use HCL's conventions: `col` counts characters (grapheme
 * clusters) and `byte` is the UTF-8 offset in the original file (a leading
 * BOM counts three bytes but no column).
 */
import type { Attribute, Block, Body, Diagnostic, Expression, Pos, Range } from "./ast.js";
import { parseJson } from "./json.js";
import { ARGUMENTS_ONLY, type BlockSchema } from "./json-shape.js";
import { parseNativeWithTokens } from "./parser.js";
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

/**
 * Converts parser positions (UTF-16) to HCL positions (characters, UTF-8
 * bytes). HashiCorp's scanner counts grapheme clusters within each token and
 * one column per byte in the blanks between tokens, so on lines with
 * non-ASCII text the columns are rebuilt from the token spans.
 */
class PosConverter {
  private readonly text: string;
  private readonly lineStarts: number[];
  private readonly lineBytes: number[] = [];
  private readonly bom: number;
  private readonly spans: Array<[number, number]>;
  private readonly colCache = new Map<number, Int32Array | null>();

  constructor(text: string, bom: boolean, spans: Array<[number, number]>) {
    this.text = text;
    this.lineStarts = computeLineStarts(text);
    this.bom = bom ? 3 : 0;
    this.spans = spans;
    let b = 0;
    for (let l = 0; l < this.lineStarts.length; l++) {
      this.lineBytes.push(b);
      const end = l + 1 < this.lineStarts.length ? this.lineStarts[l + 1] : text.length;
      b += utf8Length(text.slice(this.lineStarts[l], end));
    }
  }

  /** Column table for a line with non-ASCII characters (null for ASCII lines). */
  private lineCols(l: number): Int32Array | null {
    const cached = this.colCache.get(l);
    if (cached !== undefined) return cached;
    const s = this.lineStarts[l];
    const e = l + 1 < this.lineStarts.length ? this.lineStarts[l + 1] : this.text.length;
    let ascii = true;
    for (let i = s; i < e; i++) {
      if (this.text.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      this.colCache.set(l, null);
      return null;
    }
    const n = e - s;
    const cover = new Int32Array(n + 1);
    const bounds = new Set<number>([0, n]);
    // spans are sorted by start; find the first that may overlap
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid][1] <= s) lo = mid + 1;
      else hi = mid;
    }
    for (let k = Math.max(0, lo - 4); k < this.spans.length && this.spans[k][0] < e; k++) {
      const [a0, b0] = this.spans[k];
      const a = Math.max(a0, s);
      const b = Math.min(b0, e);
      if (b <= a) continue;
      bounds.add(a - s);
      bounds.add(b - s);
      cover[a - s]++;
      cover[b - s]--;
    }
    const sorted = [...bounds].sort((x, y) => x - y);
    const cols = new Int32Array(n + 1);
    let col = 1;
    let depth = 0;
    let ci = 0;
    for (let bi = 0; bi + 1 < sorted.length; bi++) {
      const x = sorted[bi];
      const y = sorted[bi + 1];
      while (ci <= x) depth += cover[ci++];
      if (depth > 0) {
        segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
        for (const seg of segmenter.segment(this.text.slice(s + x, s + y))) {
          for (let k = 0; k < seg.segment.length; k++) cols[x + seg.index + k] = col;
          col++;
        }
      } else {
        for (let i = x; i < y; i++) {
          cols[i] = col;
          const c = this.text.charCodeAt(s + i);
          col += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xdc00 && c <= 0xdfff ? 1 : c >= 0xd800 && c <= 0xdbff ? 3 : 3;
        }
      }
    }
    cols[n] = col;
    this.colCache.set(l, cols);
    return cols;
  }

  conv(p: Pos): OutlinePos {
    if (p.line === 0) return { line: 0, col: 0, byte: 0 };
    const l = p.line - 1;
    const ls = this.lineStarts[l] ?? 0;
    const off = Math.max(ls, p.offset);
    const before = this.text.slice(ls, off);
    const cols = this.lineCols(l);
    const col = cols === null ? off - ls + 1 : cols[Math.min(off - ls, cols.length - 1)];
    return { line: p.line, col, byte: this.bom + (this.lineBytes[l] ?? 0) + utf8Length(before) };
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

/** The outline of a body and of the blocks it holds; blocks nest without limit, so an explicit stack of bodies still to fill. */
function bodyOf(c: PosConverter, root: Body): OutlineBody {
  const top: OutlineBody = { attrs: [], blocks: [] };
  const stack: { body: Body; out: OutlineBody }[] = [{ body: root, out: top }];
  while (stack.length > 0) {
    const { body: b, out } = stack.pop()!;
    const attrs = b.attributes.map((a: Attribute) => ({
      name: a.name,
      range: c.range(a.range),
      nameRange: c.range(a.nameRange),
      expr: exprOf(c, a.expr),
    }));
    attrs.sort((x, y) => x.range.start.byte - y.range.start.byte);
    out.attrs = attrs;
    out.blocks = b.blocks.map((bl: Block) => {
      const body: OutlineBody = { attrs: [], blocks: [] };
      stack.push({ body: bl.body, out: body });
      return {
        type: bl.type,
        labels: bl.labels.slice(),
        range: c.range(bl.range),
        typeRange: c.range(bl.typeRange),
        openBrace: c.range(bl.openBraceRange),
        closeBrace: c.range(bl.closeBraceRange),
        body,
      };
    });
  }
  return top;
}

/** The oracle-shaped outline of one file (JSON syntax: diagnostics only). */
export function hclOutline(text: string, filename: string, jsonSchema: BlockSchema = ARGUMENTS_ONLY): OutlineFile {
  const { text: stripped, hadBom } = stripBom(text);
  if (filename.endsWith(".json")) {
    const r = parseJson(text, filename, jsonSchema);
    // HashiCorp's JSON scanner counts grapheme clusters along the whole line
    const c = new PosConverter(stripped, hadBom, [[0, stripped.length]]);
    return { file: filename, syntax: "json", diags: r.diagnostics.map((d) => diagOf(c, d)) };
  }
  const { result: r, tokens } = parseNativeWithTokens(text, filename, { compat: true });
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < tokens.count; i++) spans.push([tokens.starts[i], tokens.ends[i]]);
  for (const cm of r.file.comments) spans.push([cm.range.start.offset, cm.range.end.offset]);
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const c = new PosConverter(stripped, hadBom, spans);
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

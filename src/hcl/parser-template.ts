/**
 * Templates: quoted strings and heredocs with `${ }` interpolations and
 * `%{ }` directives, escape decoding, `~` whitespace stripping and `<<-`
 * indentation removal.
 */
import { Span, rangeBetween, startOffsetOf } from "./source.js";
import type { Diagnostic, Expression, Range, TemplatePart } from "./ast.js";
import { T } from "./lexer.js";
import { HeredocTemplateNode, TemplateForNode, TemplateIfNode, TemplateInterpNode, TemplateLiteralNode, TemplateNode, TemplateWrapNode } from "./nodes.js";
import { LOOP_TEMPLATE, exact, type ParserState } from "./parser-core.js";
import { parseExpression } from "./parser-expr.js";

export type Flat =
  | { t: "lit"; value: string; range: Range; line: boolean }
  | { t: "interp"; expr: Expression; range: Range; stripLeft: boolean; stripRight: boolean }
  | { t: "if"; cond: Expression; range: Range }
  | { t: "for"; keyVar: string | null; valVar: string; coll: Expression; range: Range }
  | { t: "else" | "endif" | "endfor"; range: Range }
  | { t: "end"; range: Range };

const span = rangeBetween;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0x85 || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x1680 || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}
function trimLeftSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}
function trimRightSpace(s: string): string {
  let i = s.length;
  while (i > 0 && isSpace(s.charCodeAt(i - 1))) i--;
  return i === s.length ? s : s.slice(0, i);
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * Decodes the literal text text[s:e). Quoted literals process backslash
 * escapes; both kinds turn `$${` into `${` and `%%{` into `%{`.
 */
export function decodeLiteral(p: ParserState | null, text: string, s: number, e: number, quoted: boolean, diags: Diagnostic[]): string {
  // Fast path: nothing to decode.
  let needs = false;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if ((quoted && c === 92) || c === 36 || c === 37) {
      needs = true;
      break;
    }
  }
  if (!needs) return text.slice(s, e);
  const out: string[] = [];
  let runStart = s;
  let i = s;
  const rangeOf = (a: number, b: number): Range =>
    p !== null ? p.li.range(a, b) : { start: { line: 0, column: 0, offset: a }, end: { line: 0, column: 0, offset: b } };
  while (i < e) {
    const c = text.charCodeAt(i);
    if ((c === 36 || c === 37) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === 123 && i + 2 < e) {
      out.push(text.slice(runStart, i + 1));
      i += 2; // keep "{" as the start of the next run
      runStart = i;
      continue;
    }
    if (quoted && c === 92) {
      out.push(text.slice(runStart, i));
      const sel = text.charCodeAt(i + 1);
      if (i + 1 >= e) {
        diags.push({
          severity: "error",
          summary: "Invalid escape sequence",
          detail: "A backslash at the end of a string must itself be escaped as `\\\\`.",
          subject: rangeOf(i, i + 1),
        });
        i += 1;
        runStart = i;
        continue;
      }
      let consumed = 2;
      switch (sel) {
        case 110:
          out.push("\n");
          break;
        case 114:
          out.push("\r");
          break;
        case 116:
          out.push("\t");
          break;
        case 34:
          out.push('"');
          break;
        case 92:
          out.push("\\");
          break;
        case 117: // u
        case 85: {
          // U
          const want = sel === 117 ? 4 : 8;
          let k = 0;
          while (k < want && i + 2 + k < e && isHex(text.charCodeAt(i + 2 + k))) k++;
          if (k < want) {
            diags.push({
              severity: "error",
              summary: "Invalid escape sequence",
              detail: `\\${String.fromCharCode(sel)} must be followed by exactly ${want} hexadecimal digits.`,
              subject: rangeOf(i, i + 2 + k),
            });
            consumed = 2 + k;
            break;
          }
          const cp = parseInt(text.slice(i + 2, i + 2 + want), 16);
          if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            diags.push({
              severity: "error",
              summary: "Invalid escape sequence",
              detail: "The escape names a code point that is not a valid Unicode character.",
              subject: rangeOf(i, i + 2 + want),
            });
          } else {
            out.push(String.fromCodePoint(cp));
          }
          consumed = 2 + want;
          break;
        }
        default: {
          // the selector is one character as the user sees it (a grapheme cluster)
          const ch = firstGrapheme(text.slice(i + 1, Math.min(e, i + 17)));
          diags.push({
            severity: "error",
            summary: "Invalid escape sequence",
            detail: `\`\\${ch}\` is not an escape; use \`\\\\\` for a literal backslash.`,
            subject: rangeOf(i, i + 1 + ch.length),
          });
          out.push(ch);
          consumed = 1 + ch.length;
          break;
        }
      }
      i += consumed;
      runStart = i;
      continue;
    }
    i++;
  }
  out.push(text.slice(runStart, e));
  return out.join("");
}

let segmenter: Intl.Segmenter | undefined;

function firstGrapheme(s: string): string {
  const c = s.charCodeAt(0);
  const simple = s.length === 1 || (c < 0x300 && s.charCodeAt(1) < 0x300);
  if (simple) return s.slice(0, 1);
  segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  for (const seg of segmenter.segment(s)) return seg.segment;
  return s.slice(0, 1);
}

/** Parses a template whose opening token (OQuote or OHeredoc) was just read. */
export function parseTemplateAfterOpen(p: ParserState, open: number): Expression {
  const isHeredoc = p.types[open] === T.OHeredoc;
  if (!isHeredoc && p.types[open + 1] === T.QuotedLit && p.types[open + 2] === T.CQuote && p.pos === open + 1) {
    // Fast path for the common `"plain text"`: one literal part, no interpolation.
    const lit = open + 1;
    const close = open + 2;
    const value = decodeLiteral(p, p.text, p.starts[lit], p.ends[lit], true, p.diags);
    p.pos = close + 1;
    p.prev = close;
    const litRange = p.tokRange(lit);
    return new TemplateNode([new TemplateLiteralNode(value, litRange)], "quoted", p.tokSpan(open, close));
  }
  const end = isHeredoc ? T.CHeredoc : T.CQuote;
  const hd = isHeredoc ? p.tk.heredocs.get(open) : undefined;
  const openRange = p.tokRange(open);
  // `<<MARKER` / `<<-MARKER` without the line break the token also holds.
  const opener = hd !== undefined ? { range: p.offsets(p.starts[open], p.starts[open] + 2 + (hd.indented ? 1 : 0) + hd.marker.length), marker: hd.marker, indented: hd.indented } : undefined;
  const read = parseTemplateParts(p, end, isHeredoc, opener);
  const flat = hd?.indented ? flushHeredoc(read) : read;
  const closeRange = p.prevRange();
  const range = span(openRange, closeRange);
  const form = isHeredoc ? "heredoc" : "quoted";
  const passthru = flat.length === 2 && flat[0].t === "interp";
  const parts = buildTemplateParts(p, flat);
  if (passthru && flat[0].t === "interp") {
    return new TemplateWrapNode(flat[0].expr, form, range);
  }
  if (hd !== undefined) return new HeredocTemplateNode(parts, range, { marker: hd.marker, indented: hd.indented });
  return new TemplateNode(parts, form, range);
}

/** The parts a template loop has read and its two flags (its progress in a deep parse: see ParserState.resume). */
interface TemplateProgress {
  parts: Flat[];
  ltrimNext: boolean;
  nextCanTrimPrev: boolean;
}

/**
 * Parses the parts of a template up to the closing token `end`. Used for
 * quoted strings, heredocs, and (with `end` = EOF) standalone templates.
 */
export function parseTemplateParts(p: ParserState, end: number, heredoc: boolean, opener?: { range: Range; marker: string; indented: boolean }): Flat[] {
  const startRange = p.nextRange();
  const mark = p.mark();
  const loop = p.resume<TemplateProgress>(LOOP_TEMPLATE);
  const progress: TemplateProgress = loop.at !== undefined ? loop.at.items : { parts: [], ltrimNext: false, nextCanTrimPrev: false };
  const parts = progress.parts;
  let ltrimNext = progress.ltrimNext;
  let nextCanTrimPrev = progress.nextCanTrimPrev;
  if (loop.at !== undefined) parts.length = loop.at.n;
  let endRange: Range;
  for (;;) {
    if (loop.key >= 0) {
      progress.ltrimNext = ltrimNext;
      progress.nextCanTrimPrev = nextCanTrimPrev;
      p.keepProgress(loop.key, mark, parts.length, progress);
    }
    const next = p.read();
    const ty = p.types[next];
    if (ty === end) {
      endRange = p.tokRange(next);
      break;
    }
    const ltrim = ltrimNext;
    ltrimNext = false;
    const canTrimPrev = nextCanTrimPrev;
    nextCanTrimPrev = false;
    if (ty === T.QuotedLit || ty === T.StringLit) {
      let value = decodeLiteral(p, p.text, p.starts[next], p.ends[next], ty === T.QuotedLit, p.diags);
      if (ltrim) value = trimLeftSpace(value);
      parts.push({ t: "lit", value, range: p.tokRange(next), line: ty === T.StringLit });
      nextCanTrimPrev = true;
      continue;
    }
    if (ty === T.TemplateInterp || ty === T.TemplateControl) {
      const openTxt = p.tokText(next);
      const stripLeft = openTxt.length === 3;
      if (canTrimPrev && stripLeft && parts.length > 0) {
        const prev = parts[parts.length - 1];
        if (prev.t === "lit") prev.value = trimRightSpace(prev.value);
      }
      const nextRange = p.tokRange(next);
      p.pushNL(false);
      if (ty === T.TemplateInterp) {
        const expr = parseExpression(p);
        const close = p.peek();
        const cty = p.types[close];
        let stripRight = false;
        if (cty !== T.TemplateSeqEnd) {
          if (!p.recovery) {
            if (cty === T.EOF) {
              p.error("Unclosed template interpolation sequence", "The file ends inside this `${`; add the closing `}`.", startRange);
            } else if (cty === T.Colon) {
              p.error(
                "Extra characters after interpolation expression",
                "A colon cannot follow an interpolated expression. If this is meant for another language, escape the opening as `$${`.",
                p.tokRange(close),
              );
            } else if ((cty === T.CQuote || cty === T.OQuote) && end === T.CQuote) {
              p.error("Unclosed template interpolation sequence", "The string ends inside this `${`; add the closing `}`.", startRange);
            } else {
              p.error(
                "Extra characters after interpolation expression",
                "Only one expression may appear between `${` and `}`. If this is meant for another language (a shell script, for instance), escape the opening as `$${`.",
                p.tokRange(close),
              );
            }
          }
          p.recover(T.TemplateSeqEnd);
        } else {
          p.read();
          if (p.ends[close] - p.starts[close] === 2) {
            ltrimNext = true;
            stripRight = true;
          }
        }
        p.popNL();
        parts.push({ t: "interp", expr, range: span(nextRange, p.tokRange(close)), stripLeft, stripRight });
        continue;
      }
      // %{ directive }
      const kw = p.peek();
      if (p.types[kw] !== T.Ident) {
        p.errorUnlessRecovering(
          "Invalid template directive",
          "`%{` must be followed by a directive keyword: if, else, endif, for or endfor.",
          p.tokRange(kw),
        );
        p.recover(T.TemplateSeqEnd);
        p.popNL();
        continue;
      }
      p.read();
      const word = p.tokText(kw);
      let ok = true;
      if (word === "if") {
        const cond = parseExpression(p);
        parts.push({ t: "if", cond, range: span(nextRange, p.nextRange()) });
      } else if (word === "else" || word === "endif" || word === "endfor") {
        parts.push({ t: word, range: span(nextRange, p.nextRange()) });
      } else if (word === "for") {
        ok = false;
        const forErr = (detail: string): void => p.errorUnlessRecovering("Invalid 'for' directive", detail, p.nextRange());
        if (p.peekType() !== T.Ident) {
          forErr("`for` must be followed by a variable name.");
        } else {
          let keyVar: string | null = null;
          let valVar = p.tokText(p.read());
          let good = true;
          if (p.peekType() === T.Comma) {
            keyVar = valVar;
            p.read();
            if (p.peekType() !== T.Ident) {
              forErr("A second variable name is needed after the comma.");
              good = false;
            } else valVar = p.tokText(p.read());
          }
          if (good && !p.isKeyword(p.peek(), "in")) {
            forErr("The variable names must be followed by `in` and the collection.");
            good = false;
          }
          if (good) {
            p.read();
            const coll = parseExpression(p);
            parts.push({ t: "for", keyVar, valVar, coll, range: span(nextRange, p.nextRange()) });
            ok = true;
          }
        }
        if (!ok) {
          p.recover(T.TemplateSeqEnd);
          p.popNL();
          continue;
        }
      } else {
        const known = ["if", "for", "else", "endif", "endfor"];
        const guess = known.find((k) => editDistance(k, word) <= 2);
        p.errorUnlessRecovering(
          "Invalid template control keyword",
          `\`${word}\` is not a template directive.${guess !== undefined ? ` Did you mean \`${guess}\`?` : ""}`,
          p.tokRange(kw),
        );
        p.recover(T.TemplateSeqEnd);
        p.popNL();
        continue;
      }
      const close = p.peek();
      if (p.types[close] !== T.TemplateSeqEnd) {
        p.errorUnlessRecovering(`Extra characters in ${word} marker`, "Close the directive with `}` right after its expression.", p.tokRange(close));
        p.recover(T.TemplateSeqEnd);
      } else {
        p.read();
        if (p.ends[close] - p.starts[close] === 2) ltrimNext = true;
      }
      p.popNL();
      continue;
    }
    // Anything else (EOF, a newline in a quoted string, ...) ends the template.
    if (heredoc && opener !== undefined) {
      // Subject as HashiCorp's parser reports it (where the text ends); the opener is where a reader must look.
      p.errorUnlessRecovering(
        "Unterminated template string",
        `The heredoc opened with <<${opener.indented ? "-" : ""}${opener.marker} is never closed; add a line holding only ${opener.marker} where its text ends.`,
        p.tokRange(next),
        { opener: opener.range },
      );
    } else {
      p.errorUnlessRecovering(
        "Unterminated template string",
        heredoc ? "The heredoc has no closing marker line; add one with the marker word alone on its line." : "The string is never closed; add the closing quote.",
        p.tokRange(next),
      );
    }
    const fin = p.recover(end);
    endRange = p.tokRange(fin);
    break;
  }
  if (parts.length === 0) {
    const at = startOffsetOf(startRange);
    parts.push({ t: "lit", value: "", range: p.offsets(at, at), line: false });
  }
  parts.push({ t: "end", range: endRange });
  return parts;
}

function editDistance(a: string, b: string): number {
  const dp: number[] = [];
  for (let j = 0; j <= b.length; j++) dp.push(j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/**
 * `<<-` heredocs: the parts with the smallest common leading-space count
 * removed from every line (new parts: the parts read are not changed, a
 * deep parse may read them again, see ParserState.resume).
 */
function flushHeredoc(parts: Flat[]): Flat[] {
  let minSpaces = Number.MAX_SAFE_INTEGER;
  let newline = true;
  // The indexes of the literals that start a line.
  const adjust: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (newline) {
      newline = false;
      let spaces: number;
      if (part.t === "lit") {
        const trimmed = trimLeftSpace(part.value);
        if (trimmed.length === 0 && part.value.endsWith("\n")) {
          spaces = Number.MAX_SAFE_INTEGER;
        } else {
          spaces = countChars(part.value.slice(0, part.value.length - trimmed.length));
          adjust.push(i);
        }
      } else if (part.t === "end") {
        break;
      } else {
        spaces = 0;
      }
      if (spaces < minSpaces) minSpaces = spaces;
    }
    if (part.t === "lit" && part.value.endsWith("\n")) newline = true;
  }
  if (minSpaces === Number.MAX_SAFE_INTEGER) return parts;
  const out = parts.slice();
  for (const i of adjust) {
    const lit = parts[i] as Extract<Flat, { t: "lit" }>;
    const cut = codeUnitsForChars(lit.value, minSpaces);
    // The cut spaces are on the literal's first line: its start moves right by `cut`.
    const r = lit.range;
    const range: Range = r instanceof Span ? new Span(r.lines, r.startOffset + cut, r.endOffset) : { start: { ...r.start, column: r.start.column + cut, offset: r.start.offset + cut }, end: r.end };
    out[i] = { t: "lit", value: lit.value.slice(cut), range, line: lit.line };
  }
  return out;
}

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) continue;
    n++;
  }
  return n;
}

function codeUnitsForChars(s: string, chars: number): number {
  let i = 0;
  let n = 0;
  while (i < s.length && n < chars) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    n++;
  }
  return i;
}

/**
 * Builds the nested part tree (if/for directives) from the flat list, with
 * HashiCorp's diagnostics for unbalanced directives. An unbalanced `if` or
 * `for` is kept with the parts read so far (in compat mode it is dropped, as
 * HashiCorp's parser replaces it with a placeholder).
 */
export function buildTemplateParts(p: ParserState, flat: Flat[]): TemplatePart[] {
  // fast path: no directives
  let simple = true;
  for (const f of flat) {
    if (f.t !== "lit" && f.t !== "interp" && f.t !== "end") {
      simple = false;
      break;
    }
  }
  if (simple) {
    const out: TemplatePart[] = [];
    for (const f of flat) {
      if (f.t === "lit") out.push(new TemplateLiteralNode(f.value, f.range));
      else if (f.t === "interp") out.push(new TemplateInterpNode(f.expr, f.range, f.stripLeft, f.stripRight));
    }
    return exact(out);
  }
  const err = (summary: string, detail: string, subject: Range): void => {
    p.error(summary, detail, subject);
  };
  const all: TemplatePart[] = [];
  // The open `%{ if }` / `%{ for }` directives, innermost last (they nest to any depth).
  const open: Directive[] = [];
  let idx = 0;
  for (;;) {
    const next = flat[idx];
    const top = open.length > 0 ? open[open.length - 1] : null;
    if (top === null && next.t === "end") break;
    if (top !== null && (next.t === "end" || next.t === "else" || next.t === "endif" || next.t === "endfor")) {
      if (next.t !== "end") idx++;
      if (closeDirective(top, next, err)) open.pop();
      continue;
    }
    const out = top === null ? all : top.cur;
    idx++;
    switch (next.t) {
      case "lit":
        out.push(new TemplateLiteralNode(next.value, next.range));
        break;
      case "interp":
        out.push(new TemplateInterpNode(next.expr, next.range, next.stripLeft, next.stripRight));
        break;
      case "if":
      case "for": {
        const body: TemplatePart[] = [];
        open.push({ f: next, body, elseParts: null, cur: body, out, keep: !p.compat });
        break;
      }
      default:
        err(`Unexpected ${next.t} directive`, "This directive has no matching opening `%{ if }` or `%{ for }`.", next.range);
        break;
    }
  }
  return all;
}

/** An open `%{ if }` or `%{ for }` directive while the part tree is built. */
interface Directive {
  f: Extract<Flat, { t: "if" | "for" }>;
  /** The parts of the `if` branch or of the `for` body. */
  body: TemplatePart[];
  elseParts: TemplatePart[] | null;
  /** Where the next parts go (body or elseParts). */
  cur: TemplatePart[];
  /** Where the finished directive goes. */
  out: TemplatePart[];
  /** Whether an unbalanced directive is kept (not in compat mode: HashiCorp's parser drops it). */
  keep: boolean;
}

/**
 * Handles an end, else, endif or endfor part met inside the open directive
 * `d`; returns whether `d` is finished (it is then added to its list, or
 * dropped when unbalanced in compat mode).
 */
function closeDirective(d: Directive, next: Flat, err: (summary: string, detail: string, subject: Range) => void): boolean {
  const f = d.f;
  const line = f.range.start.line;
  const finish = (end: Range, balanced: boolean): true => {
    const node =
      f.t === "if"
        ? new TemplateIfNode(f.cond, d.body, d.elseParts, span(f.range, end))
        : new TemplateForNode(f.keyVar, f.valVar, f.coll, d.body, span(f.range, end));
    if (balanced || d.keep) d.out.push(node);
    return true;
  };
  if (f.t === "if") {
    if (next.t === "end") {
      err("Unexpected end of template", `The \`%{ if }\` on line ${line} has no matching \`%{ endif }\`.`, next.range);
      return finish(next.range, false);
    }
    if (next.t === "else" && d.cur === d.body) {
      d.elseParts = [];
      d.cur = d.elseParts;
      return false;
    }
    if (next.t === "endif") return finish(next.range, true);
    if (next.t === "else") {
      err("Unexpected else directive", `The \`%{ if }\` on line ${line} already has an \`%{ else }\`.`, next.range);
    } else {
      err("Unexpected endfor directive", `An \`%{ endif }\` is needed first, for the \`%{ if }\` on line ${line}.`, next.range);
    }
    return finish(next.range, false);
  }
  if (next.t === "end") {
    err("Unexpected end of template", `The \`%{ for }\` on line ${line} has no matching \`%{ endfor }\`.`, next.range);
    return finish(next.range, false);
  }
  if (next.t === "endfor") return finish(next.range, true);
  if (next.t === "else") {
    err("Unexpected else directive", "A `%{ for }` directive has no `%{ else }` clause.", next.range);
  } else {
    err("Unexpected endif directive", `An \`%{ endfor }\` is needed first, for the \`%{ for }\` on line ${line}.`, next.range);
  }
  return finish(next.range, false);
}

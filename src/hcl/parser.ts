/**
 * HCL native syntax parser: bodies, attributes and blocks, plus the entry
 * points for whole files, standalone expressions and standalone templates.
 * Never throws on any input: problems become diagnostics and the tree is
 * kept as complete as possible.
 */
import type { Attribute, Block, Body, Comment, Diagnostic, Expression, File, ParseResult, Pos, Range } from "./ast.js";
import { T, lex, releaseTokens, type Tokens } from "./lexer.js";
import { LOOP_BODY, NEST_BODY, ParserState, endOf, exact, join, nest, parseAnyDepth } from "./parser-core.js";
import { parseExpression } from "./parser-expr.js";
import { buildTemplateParts as templatePartsOf, decodeLiteral, parseTemplateParts, type Flat } from "./parser-template.js";
import { AttributeNode, BlockNode, BodyNode, InvalidNode, TemplateNode, TemplateWrapNode } from "./nodes.js";
import { LineIndex, ShiftedLineIndex, computeLineStarts, endOffsetOf, indexAt, rangeBetween, startOffsetOf, stripBom, type RangeMaker } from "./source.js";

export { parseExpression } from "./parser-expr.js";

const span = rangeBetween;

export interface NativeOptions {
  /** Reproduce HashiCorp's exact ranges after errors and omit lenient recovery (outline). */
  compat?: boolean;
}

/** Parses a native-syntax file. A leading BOM is removed first (positions are relative to the rest). */
export function parseNative(input: string, filename: string, opts: NativeOptions = {}): ParseResult {
  // The tokens do not escape (the tree holds no reference to them): lex into reused arrays.
  const { result, tokens } = parseNativeWithTokens(input, filename, opts, true);
  releaseTokens(tokens);
  return result;
}

/**
 * parseNative, also returning the token spans (for HCL-compatible column
 * counting in outline.ts). With `pooled`, the caller must hand the tokens
 * back with releaseTokens once done with them.
 */
export function parseNativeWithTokens(
  input: string,
  filename: string,
  opts: NativeOptions = {},
  pooled = false,
): { result: ParseResult; tokens: Tokens } {
  const { text } = stripBom(input);
  const lineStarts = computeLineStarts(text);
  const li = new LineIndex(lineStarts);
  const tk = lex(text, false, pooled);
  let p = new ParserState(text, tk, li);
  p.compat = opts.compat === true;
  const lexDiags = checkInvalidTokens(p, tk);
  const comments = fillComments(li, tk.comments);
  let body: Body;
  try {
    const done = parseAnyDepth(p, parseFileBody);
    p = done.p;
    body = done.value;
  } catch (e) {
    // Defensive: a bug must not take the linter down; report it as a diagnostic.
    body = new BodyNode(exact([]), exact([]), li.range(0, text.length));
    p.diags.push({
      severity: "error",
      summary: "Internal parser error",
      detail: `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}); please report this file.`,
      subject: li.range(0, 0),
    });
  }
  body.range = li.range(0, text.length);
  const file: File = { filename, syntax: "native", text, body, comments, lineStarts };
  return { result: { file, diagnostics: [...lexDiags, ...p.diags] }, tokens: tk };
}

/** True when no line break lies in text[from, to). */
function onOneLine(text: string, from: number, to: number): boolean {
  const nl = text.indexOf("\n", from);
  return nl === -1 || nl >= to;
}

function fillComments(li: LineIndex, comments: Comment[]): Comment[] {
  for (const c of comments) c.range = li.range(c.range.start.offset, c.range.end.offset);
  return comments;
}

/** Diagnostics for tokens that are never valid (reported once per kind, like HashiCorp's scanner check). */
function checkInvalidTokens(p: ParserState, tk: Tokens): Diagnostic[] {
  const out: Diagnostic[] = [];
  let bitwise = 0;
  let backtick = 0;
  let apostrophe = 0;
  let semicolon = 0;
  let badUtf8 = 0;
  const add = (summary: string, detail: string, i: number): void => {
    out.push({ severity: "error", summary, detail, subject: p.tokRange(i) });
  };
  const types = tk.types;
  for (let i = 0; i < tk.count; i++) {
    const ty = types[i];
    if (ty < T.BitwiseAnd) continue;
    switch (ty) {
      case T.BitwiseAnd:
      case T.BitwiseOr:
      case T.BitwiseXor:
      case T.BitwiseNot:
        if (bitwise < 4) {
          const hint =
            ty === T.BitwiseAnd ? " Use `&&` for a logical AND." : ty === T.BitwiseOr ? " Use `||` for a logical OR." : ty === T.BitwiseNot ? " Use `!` for a logical NOT." : "";
          add("Unsupported operator", `HCL has no bitwise operators.${hint}`, i);
          bitwise++;
        }
        break;
      case T.Backtick:
        if (backtick % 2 === 0) add("Invalid character", "Backticks do not delimit strings in HCL; use a heredoc (`<<EOT`) for multi-line text.", i);
        if (backtick <= 2) backtick++;
        break;
      case T.Apostrophe:
        if (apostrophe % 2 === 0) add("Invalid character", 'Strings use double quotes (") in HCL, not single quotes.', i);
        if (apostrophe <= 2) apostrophe++;
        break;
      case T.Semicolon:
        if (semicolon < 1) {
          add("Invalid character", "Semicolons are not used in HCL: separate arguments with newlines and list items with commas.", i);
          semicolon++;
        }
        break;
      case T.BadUTF8:
        if (badUtf8 < 1) {
          add("Invalid character encoding", "The file is not valid UTF-8; save it with UTF-8 encoding.", i);
          badUtf8++;
        }
        break;
      case T.QuotedNewline:
        add(
          "Invalid multi-line string",
          "A quoted string must close on the line where it starts; write `\\n` for a line break or use a heredoc (`<<EOT`).",
          i,
        );
        break;
      case T.Invalid: {
        const ch = p.tokText(i);
        if (ch === "\u201c" || ch === "\u201d") {
          add("Invalid character", 'Typographic ("curly") quotes are not string delimiters; replace them with a plain double quote (").', i);
        } else {
          add("Invalid character", "This character has no meaning in HCL; remove it.", i);
        }
        break;
      }
    }
  }
  return out;
}

function parseFileBody(p: ParserState): Body {
  return parseBody(p, T.EOF, null);
}

/** Parses a block's body after its `{` (the token just read) up to and including its `}`. */
function parseBlockBody(p: ParserState): Body {
  return parseBody(p, T.CBrace, p.tokRange(p.prev));
}

/** The items a body loop has read (kept as its progress in a deep parse: see ParserState.resume). */
interface BodyItems {
  attributes: Attribute[];
  blocks: Block[];
  /** The attributes by name, once there are more than 16 (null before). */
  byName: Map<string, Attribute> | null;
  blockCount?: number;
}

/**
 * Parses body items until `end` (EOF for the file, CBrace for a block) and
 * consumes the end token. `openRange` is the block's `{` (for diagnostics).
 */
function parseBody(p: ParserState, end: number, openRange: Range | null): Body {
  const startTok = p.prev;
  const startOff = startTok >= 0 ? p.ends[startTok] : 0;
  const mark = p.mark();
  const loop = p.resume<BodyItems>(LOOP_BODY);
  const items: BodyItems = loop.at !== undefined ? loop.at.items : { attributes: [], blocks: [], byName: null };
  const { attributes, blocks } = items;
  if (loop.at !== undefined) {
    attributes.length = loop.at.n;
    blocks.length = items.blockCount ?? 0;
  }
  // Attribute names seen so far: a linear scan for small bodies, a map once it grows.
  let byName = items.byName;
  // the body ends where the token endTok starts (-1: an empty range at the start)
  let endTok = -1;
  for (;;) {
    if (loop.key >= 0) {
      items.byName = byName;
      items.blockCount = blocks.length;
      p.keepProgress(loop.key, mark, attributes.length, items);
    }
    const next = p.peek();
    const ty = p.types[next];
    if (ty === end) {
      p.read();
      endTok = next;
      break;
    }
    if (ty === T.Newline) {
      p.read();
      continue;
    }
    if (ty === T.Ident) {
      const item = parseBodyItem(p);
      if (item === null) continue;
      if (item.kind === "Block") {
        blocks.push(item);
      } else {
        let existing: Attribute | undefined;
        if (byName !== null) {
          existing = byName.get(item.name);
        } else {
          for (let k = 0; k < attributes.length; k++) {
            if (attributes[k].name === item.name) {
              existing = attributes[k];
              break;
            }
          }
        }
        if (existing !== undefined) {
          p.error(
            "Attribute redefined",
            `"${item.name}" is already set on line ${existing.nameRange.start.line}; an argument can be set only once per block. Remove one of them.`,
            item.nameRange,
            { code: "attribute-redefined" },
          );
        } else {
          attributes.push(item);
          if (byName !== null) {
            byName.set(item.name, item);
          } else if (attributes.length > 16) {
            byName = new Map();
            for (const a of attributes) byName.set(a.name, a);
          }
        }
      }
      continue;
    }
    const bad = p.read();
    if (!p.recovery) {
      if (ty === T.OQuote) {
        p.error("Invalid argument name", "Argument names are written without quotes.", p.tokRange(bad));
      } else if (ty === T.EOF) {
        p.error(
          "Unclosed configuration block",
          "This block's `{` has no matching `}` before the end of the file; check the brace nesting.",
          openRange ?? p.tokRange(bad),
        );
      } else {
        p.error(
          "Argument or block definition required",
          "Only arguments (`name = value`) and blocks (`type \"label\" { ... }`) can appear here.",
          p.tokRange(bad),
        );
      }
    }
    endTok = p.recover(end);
    break;
  }
  const start = startTok >= 0 ? p.ends[startTok] : 0;
  const endAt = endTok >= 0 && p.starts[endTok] > startOff ? p.starts[endTok] : start;
  return new BodyNode(exact(attributes), exact(blocks), p.offsets(start, endAt));
}

function parseBodyItem(p: ParserState): Attribute | Block | null {
  const ident = p.read();
  const nt = p.peekType();
  if (nt === T.Equal) return finishAttribute(p, ident, false);
  if (nt === T.OQuote || nt === T.OBrace || nt === T.Ident) return finishBlock(p, ident);
  p.recoverAfterBodyItem();
  p.error(
    "Argument or block definition required",
    "Write `name = value` to set an argument, or add `{` to open a block.",
    p.tokRange(ident),
  );
  return null;
}

function finishAttribute(p: ParserState, ident: number, singleLine: boolean): Attribute {
  p.read(); // "="
  const identRange = p.tokRange(ident);
  const m = p.mark();
  const expr = parseExpression(p);
  // the last token of the attribute, as HashiCorp's parser sees it
  let endTok: number;
  if (p.recovery && p.hasErrorsSince(m)) {
    endTok = p.prev;
    p.recoverAfterBodyItem();
  } else if (!singleLine) {
    const end = p.peek();
    const ety = p.types[end];
    if (ety !== T.Newline && ety !== T.EOF && !(p.lenient && (ety === T.Ident || ety === T.CBrace))) {
      if (!p.recovery) {
        if (ety === T.Comma) {
          p.error("Unexpected comma after argument", "Arguments are separated by newlines, not commas; remove the comma.", p.tokRange(end));
        } else {
          p.error("Missing newline after argument", "Put each argument on its own line.", p.tokRange(end));
        }
      }
      endTok = p.prev;
      p.recoverAfterBodyItem();
    } else {
      endTok = p.prev;
      if (ety === T.Newline || ety === T.EOF) p.read();
    }
  } else {
    endTok = p.prev;
  }
  const range =
    p.compat || endOf(expr) < identRange.endOffset ? span(identRange, p.tokRange(endTok)) : join(identRange, expr);
  return new AttributeNode(p.name(ident), expr, range);
}

/** A quoted block label (no templates allowed); returns its value and range. */
function parseQuotedLabel(p: ParserState): { value: string; range: Range } {
  const oq = p.read();
  if (p.types[oq + 1] === T.QuotedLit && p.types[oq + 2] === T.CQuote) {
    // fast path: a plain label
    const lit = oq + 1;
    const value = decodeLiteral(p, p.text, p.starts[lit], p.ends[lit], true, p.diags);
    p.pos = oq + 3;
    p.prev = oq + 2;
    return { value, range: p.tokSpan(oq, oq + 2) };
  }
  const oqRange = p.tokRange(oq);
  let value = "";
  let endRange: Range;
  for (;;) {
    const t = p.read();
    const ty = p.types[t];
    if (ty === T.CQuote) {
      endRange = p.tokRange(t);
      break;
    }
    if (ty === T.QuotedLit) {
      value += decodeLiteral(p, p.text, p.starts[t], p.ends[t], true, p.diags);
      continue;
    }
    if (ty === T.TemplateInterp || ty === T.TemplateControl) {
      const which = ty === T.TemplateInterp ? "$" : "%";
      p.error(
        "Invalid string literal",
        `A block label cannot contain template sequences; write \`${which}${which}{\` for a literal \`${which}{\`.`,
        p.tokRange(t),
      );
      value += `${which}{ ... }`;
      p.recover(T.TemplateSeqEnd);
      continue;
    }
    if (ty === T.EOF) {
      p.error("Unterminated string literal", "The label's closing quote is missing.", p.tokRange(t));
      endRange = p.tokRange(t);
      break;
    }
    p.error("Invalid string literal", "A block label must be a plain quoted string.", p.tokRange(t));
    p.recover(T.CQuote);
    endRange = p.prevRange();
    break;
  }
  return { value, range: span(oqRange, endRange) };
}

/** A block with an empty body, for a header that could not be completed (the brace range stands in for both braces). */
function emptyBlock(
  type: string,
  typeRange: Range,
  labels: string[],
  labelRanges: Range[],
  braceRange: Range,
  range: Range,
  singleLine: boolean,
): Block {
  return new BlockNode(type, exact(labels), labelRanges, braceRange, braceRange, new BodyNode(exact([]), exact([]), braceRange), range, singleLine);
}

function finishBlock(p: ParserState, ident: number): Block {
  const identRange = p.tokRange(ident);
  const type = p.name(ident);
  const labels: string[] = [];
  const labelRanges: Range[] = [];
  let oBrace = -1;
  for (;;) {
    const tok = p.peek();
    const ty = p.types[tok];
    if (ty === T.OBrace) {
      oBrace = p.read();
      break;
    }
    if (ty === T.OQuote) {
      const l = parseQuotedLabel(p);
      labels.push(l.value);
      labelRanges.push(l.range);
      continue;
    }
    if (ty === T.Ident) {
      p.read();
      labels.push(p.tokText(tok));
      labelRanges.push(p.tokRange(tok));
      continue;
    }
    if (ty === T.Equal) {
      p.error("Invalid block definition", "A block is written without `=`; remove it (or, for an argument, drop the labels).", p.tokRange(tok));
    } else if (ty === T.Newline) {
      p.error("Invalid block definition", "The block's opening `{` must be on the same line as its type and labels.", p.tokRange(tok));
    } else if (!p.recovery) {
      p.error("Invalid block definition", "A block header may contain only quoted labels, followed by `{`.", p.tokRange(tok));
    }
    p.recoverAfterBodyItem();
    return emptyBlock(type, identRange, labels, labelRanges, identRange, identRange, false);
  }
  const openRange = p.tokRange(oBrace);
  let body: Body;
  let closeRange: Range;
  let oneLineDiag: Diagnostic | undefined;
  const first = p.peekType();
  if (first === T.Newline || first === T.EOF || first === T.CBrace) {
    body = nest(p, NEST_BODY, parseBlockBody);
    closeRange = p.prevRange();
  } else {
    // The lenient re-parse below, only from a strict parse: a lenient parse
    // that meets a one-line block with a problem has already failed (its
    // diagnostics keep an error, whatever a re-parse of this block gives, and
    // its caller drops everything it made), so it need not re-parse the
    // block; nested one-line blocks cost one re-parse in all instead of one
    // per level (each rescanning the rest of the line). What a lenient parse
    // keeps for a deep retry does not change either: the outcome of any
    // parse around this block holds the error, and only a lenient parse,
    // failing with it, replays that outcome.
    const fork = p.compat || p.lenient ? null : p.fork();
    const mark = p.mark();
    const single = parseSingleAttrBody(p);
    if (single.diag !== undefined) oneLineDiag = single.diag;
    const close = p.peek();
    const cty = p.types[close];
    if (cty === T.CBrace) {
      p.read();
    } else {
      // Which follow-up tokens HashiCorp's parser complains about (found empirically).
      if (cty === T.EOF) {
        if (!p.recovery) {
          p.error("Unclosed configuration block", "This block's `{` has no matching `}` before the end of the file.", openRange);
        }
      } else if (!p.recovery || cty === T.Newline || cty === T.Comma) {
        const d: Diagnostic = {
          severity: "error",
          summary: "Invalid single-argument block definition",
          detail:
            "A block opened and closed on one line may hold only one argument. Put each argument or nested block on its own line, with the closing brace on a line of its own.",
          subject: p.tokRange(close),
          code: "one-line-block",
        };
        p.diags.splice(mark, 0, d);
        oneLineDiag ??= d;
      }
      p.recover(T.CBrace);
    }
    closeRange = p.prevRange();
    const closeTok = p.prev;
    const bodyStart = endOffsetOf(openRange);
    if (single.attr !== null) {
      body = new BodyNode([single.attr], exact([]), p.offsets(bodyStart, startOffsetOf(closeRange)));
    } else {
      body = new BodyNode(exact([]), exact([]), p.offsets(bodyStart, startOffsetOf(closeRange)));
    }
    if (oneLineDiag !== undefined && fork !== null) {
      // Re-parse the body leniently (items may share a line) so that all
      // its items reach the tree. When that works, continue after the
      // block's real closing brace with only the one-line diagnostic kept;
      // HashiCorp's parser instead skips ahead and may lose the rest of the file.
      const lenient = fork;
      lenient.lenient = true;
      lenient.recovery = false;
      const lb = nest(lenient, NEST_BODY, parseBlockBody);
      if (!lenient.hasErrorsSince(0) && lenient.types[lenient.prev] === T.CBrace) {
        const lbClose = lenient.tokRange(lenient.prev);
        body = new BodyNode(lb.attributes, lb.blocks, p.offsets(bodyStart, lbClose.startOffset));
        closeRange = lbClose;
        if (lenient.prev !== closeTok) {
          p.pos = lenient.pos;
          p.prev = lenient.prev;
        }
        p.recovery = fork.recoveryBefore;
        p.diags.length = mark;
        p.diags.push(oneLineDiag);
      }
    }
  }
  const eol = p.peek();
  const ety = p.types[eol];
  if (ety === T.Newline || ety === T.EOF) {
    p.read();
  } else if (!(p.lenient && (ety === T.Ident || ety === T.CBrace))) {
    p.errorUnlessRecovering("Missing newline after block definition", "Start the next item on a new line after the block's closing brace.", p.tokRange(eol));
    p.recoverAfterBodyItem();
  }
  const block: Block = new BlockNode(
    type,
    exact(labels),
    labelRanges,
    openRange,
    closeRange,
    body,
    span(identRange, closeRange),
    onOneLine(p.text, openRange.startOffset, startOffsetOf(closeRange)),
  );
  if (oneLineDiag !== undefined) {
    oneLineDiag.code = "one-line-block";
    oneLineDiag.block = block;
  }
  return block;
}

function parseSingleAttrBody(p: ParserState): { attr: Attribute | null; diag?: Diagnostic } {
  const ident = p.read();
  if (p.types[ident] !== T.Ident) {
    p.recoverAfterBodyItem();
    p.error("Argument or block definition required", "Only an argument (`name = value`) can appear here.", p.tokRange(ident));
    return { attr: null };
  }
  const next = p.peek();
  const nt = p.types[next];
  if (nt === T.Equal) return { attr: finishAttribute(p, ident, true) };
  const identRange = p.tokRange(ident);
  if (nt === T.OQuote || nt === T.OBrace || nt === T.Ident) {
    const nextRange = p.tokRange(next);
    p.recoverAfterBodyItem();
    const d = p.error(
      "Argument definition required",
      `A block written on one line can hold only a single argument. Move the nested block "${p.tokText(ident)}" to its own line inside the parent block (or, for an argument, add \`=\`).`,
      span(identRange, nextRange),
      { code: "one-line-block" },
    );
    return { attr: null, diag: d };
  }
  p.recoverAfterBodyItem();
  p.error("Argument or block definition required", "Write `name = value` to set an argument.", identRange);
  return { attr: null };
}

// ------------------------------------------------------------ standalone entry points

/**
 * Where a standalone parse's text sits: a position of some larger text, or
 * (inside this package: a JSON string parsed in place) an offset of a text
 * whose line index is given, so its ranges share the file's line table.
 */
export type TextBase = Pos | { lines: LineIndex; offset: number };

function standaloneState(text: string, template: boolean, base?: TextBase): ParserState {
  const li: RangeMaker =
    base === undefined ? new LineIndex(computeLineStarts(text)) : "lines" in base ? new ShiftedLineIndex(base.lines, base.offset) : indexAt(text, base);
  // pooled: the callers below release the tokens before returning (nothing keeps them)
  const tk = lex(text, template, true);
  return new ParserState(text, tk, li, false);
}

/**
 * Parses `text` as a single expression (newlines are insignificant), with
 * positions shifted so that offset 0 of `text` is at `base` (default: 1:1).
 */
export function parseExpressionAt(text: string, filename: string, base?: TextBase): { expr: Expression; diagnostics: Diagnostic[] } {
  void filename;
  let p = standaloneState(text, false, base);
  const lexDiags = checkInvalidTokens(p, p.tk);
  let expr: Expression;
  try {
    const done = parseAnyDepth(p, parseExpression);
    p = done.p;
    expr = done.value;
    const next = p.peek();
    if (p.types[next] !== T.EOF && !p.recovery) {
      p.error("Extra characters after expression", "Only one expression is allowed here; remove the text that follows it.", p.tokRange(next));
    }
  } catch (e) {
    expr = new InvalidNode(p.li.range(0, text.length));
    p.error("Internal parser error", `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}).`, expr.range);
  }
  releaseTokens(p.tk);
  return { expr, diagnostics: [...lexDiags, ...p.diags] };
}

/**
 * Parses `text` as template content (as in a JSON string value): literal
 * text with `${ }` and `%{ }` sequences. Returns a Template, or a
 * TemplateWrap when the text is exactly one interpolation.
 */
export function parseTemplateAt(text: string, filename: string, base?: TextBase): { expr: Expression; diagnostics: Diagnostic[] } {
  void filename;
  let p = standaloneState(text, true, base);
  const lexDiags = checkInvalidTokens(p, p.tk);
  let expr: Expression;
  try {
    const done = parseAnyDepth(p, parseStandaloneTemplate);
    p = done.p;
    const flat = done.value;
    const range = p.li.range(0, text.length);
    if (flat.length === 2 && flat[0].t === "interp") {
      expr = new TemplateWrapNode(flat[0].expr, "json", range);
    } else {
      expr = new TemplateNode(templatePartsOf(p, flat), "json", range);
    }
  } catch (e) {
    expr = new InvalidNode(p.li.range(0, text.length));
    p.error("Internal parser error", `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}).`, expr.range);
  }
  releaseTokens(p.tk);
  return { expr, diagnostics: [...lexDiags, ...p.diags] };
}

function parseStandaloneTemplate(p: ParserState): Flat[] {
  return parseTemplateParts(p, T.EOF, true);
}

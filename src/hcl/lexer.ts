/**
 * Hand-written lexer for HCL native syntax. It follows the token model of
 * HashiCorp's scanner (hclsyntax) so that the parser can mirror its
 * behaviour: the same token kinds, the same template/heredoc modes and the
 * same treatment of comments (a `#`/`//` comment swallows its newline, which
 * the token stream then reports as a newline covering the whole comment).
 *
 * Tokens live in parallel arrays (type, start, end as UTF-16 offsets) to keep
 * allocation low on large files. Comments are collected separately.
 */
import type { Comment } from "./ast.js";

export const enum T {
  EOF = 0,
  Newline,
  Ident,
  NumberLit,
  OBrace,
  CBrace,
  OBrack,
  CBrack,
  OParen,
  CParen,
  OQuote,
  CQuote,
  OHeredoc,
  CHeredoc,
  QuotedLit,
  StringLit,
  TemplateInterp,
  TemplateControl,
  TemplateSeqEnd,
  Star,
  Slash,
  Plus,
  Minus,
  Percent,
  Equal,
  EqualOp,
  NotEqual,
  LessThan,
  LessThanEq,
  GreaterThan,
  GreaterThanEq,
  And,
  Or,
  Bang,
  Dot,
  Comma,
  Ellipsis,
  FatArrow,
  Question,
  Colon,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
  BitwiseNot,
  Semicolon,
  Backtick,
  Apostrophe,
  QuotedNewline,
  BadUTF8,
  Invalid,
}

/** Slots past the EOF token that read as EOF (types 0, offsets at the end of the text). */
const LOOKAHEAD = 16;

/** Frame kinds on the lexer's mode stack. */
const F_BRACE: number = 0;
const F_INTERP: number = 1;
const F_QUOTED: number = 2;
const F_HEREDOC: number = 3;


export interface Tokens {
  /** Token types (T); entries past `count` read as 0 (EOF), and a few (LOOKAHEAD) have offsets at the end of the text. */
  types: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  /** For OHeredoc tokens: marker word and `<<-` flag, keyed by token index. */
  heredocs: Map<number, { marker: string; indented: boolean }>;
  comments: Comment[];
  count: number;
}

/** Token arrays released by a finished parse, reused by the next `lex(..., pooled)`. */
let pool: { types: Uint8Array; starts: Int32Array; ends: Int32Array } | null = null;
const POOL_MAX = 1 << 20;

/**
 * Gives the arrays of `tk` (from `lex(..., true)`) back for reuse. The
 * caller must not use `tk` afterwards (its arrays will be overwritten).
 */
export function releaseTokens(tk: Tokens): void {
  if (tk.types.length > POOL_MAX) return;
  if (pool !== null && pool.types.length >= tk.types.length) return;
  pool = { types: tk.types, starts: tk.starts, ends: tk.ends };
}

// Made on first use: a regular expression with Unicode property classes costs
// ~1 ms to create (its character sets are built then), and most files are ASCII.
let reIdStart: RegExp | undefined;
// (ZWJ/ZWNJ joined ID_Continue only in Unicode 15.1; HashiCorp's tables predate that.)
let reIdContinue: RegExp | undefined;

function isAsciiIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isAsciiIdCont(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 45 || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Reads the code point at i (handles surrogate pairs); returns [codePoint, length]. */
function codePointAt(text: string, i: number): number {
  return text.codePointAt(i) ?? 0;
}

function isIdStartAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdStart(c) ? 1 : 0;
  const cp = codePointAt(text, i);
  const len = cp > 0xffff ? 2 : 1;
  return (reIdStart ??= /[\p{ID_Start}_]/u).test(String.fromCodePoint(cp)) ? len : 0;
}

function isIdContAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdCont(c) ? 1 : 0;
  const cp = codePointAt(text, i);
  const len = cp > 0xffff ? 2 : 1;
  return (reIdContinue ??= /(?![\u200c\u200d])[\p{ID_Continue}\-]/u).test(String.fromCodePoint(cp)) ? len : 0;
}

/**
 * Tokenizes `text` (without BOM). Never throws. With `template` set, the text
 * is the content of a template (as in a JSON string value): it starts in
 * template mode and ends at the end of the text.
 */
export function lex(text: string, template = false, pooled = false): Tokens {
  // Realistic Terraform has about one token per 4 characters; grow() doubles when needed.
  let cap = Math.max(64, ((text.length * 0.3) | 0) + 32);
  let types: Uint8Array;
  let starts: Int32Array;
  let ends: Int32Array;
  const reuse = pooled ? pool : null;
  if (reuse !== null) {
    // Allocating typed arrays is costly for small files: reuse released ones.
    pool = null;
    types = reuse.types;
    starts = reuse.starts;
    ends = reuse.ends;
    cap = types.length;
  } else {
    types = new Uint8Array(cap);
    starts = new Int32Array(cap);
    ends = new Int32Array(cap);
  }
  let count = 0;
  const heredocs = new Map<number, { marker: string; indented: boolean }>();
  const comments: Comment[] = [];
  const n = text.length;
  // Mode stack: frame kinds, with the heredoc marker word of each frame (if any).
  const stack: number[] = [];
  const markers: Array<string | undefined> = [];
  let top = -1;
  const push = (kind: number, marker?: string): void => {
    stack.push(kind);
    markers.push(marker);
    top = kind;
  };
  const pop = (): void => {
    stack.pop();
    markers.pop();
    top = stack.length > 0 ? stack[stack.length - 1] : -1;
  };
  let i = 0;
  // Offset of the start of the current line and whether only blanks precede i on it.
  let lineHasCode = false;
  // Heredoc: whether we are at the start of a line inside heredoc content.
  let heredocLineStart = false;
  if (template) push(F_HEREDOC);

  const grow = (): void => {
    cap *= 2;
    const t2 = new Uint8Array(cap);
    t2.set(types);
    types = t2;
    const s2 = new Int32Array(cap);
    s2.set(starts);
    starts = s2;
    const e2 = new Int32Array(cap);
    e2.set(ends);
    ends = e2;
  };
  const emit = (ty: number, s: number, e: number): void => {
    if (count + LOOKAHEAD >= cap) grow();
    types[count] = ty;
    starts[count] = s;
    ends[count] = e;
    count++;
  };

  const pushComment = (style: "#" | "//" | "/*", s: number, textEnd: number, tokEnd: number, newline: boolean): void => {
    comments.push({
      style,
      text: text.slice(s, textEnd),
      // Range filled in by the parser (needs line index); keep offsets here.
      range: { start: { line: 0, column: 0, offset: s }, end: { line: 0, column: 0, offset: textEnd } },
      ownLine: !lineHasCode,
    });
    if (newline) emit(T.Newline, s, tokEnd);
  };

  while (i < n) {
    if (top === F_QUOTED) {
      i = lexQuoted(i);
      continue;
    }
    if (top === F_HEREDOC) {
      i = lexHeredoc(i, markers[markers.length - 1]);
      continue;
    }
    const c = text.charCodeAt(i);
    switch (c) {
      case 32: // space
      case 9: {
        // tab
        i++;
        let b = text.charCodeAt(i);
        while (b === 32 || b === 9) b = text.charCodeAt(++i);
        continue;
      }
      case 10:
        emit(T.Newline, i, i + 1);
        i++;
        lineHasCode = false;
        continue;
      case 13:
        if (text.charCodeAt(i + 1) === 10) {
          emit(T.Newline, i, i + 2);
          i += 2;
          lineHasCode = false;
          continue;
        }
        emit(T.Invalid, i, i + 1);
        i++;
        lineHasCode = true;
        continue;
      case 35: // #
        i = lineComment(i, "#");
        continue;
      case 47: // /
        if (text.charCodeAt(i + 1) === 47) {
          i = lineComment(i, "//");
          continue;
        }
        if (text.charCodeAt(i + 1) === 42) {
          const close = text.indexOf("*/", i + 2);
          if (close >= 0) {
            comments.push({
              style: "/*",
              text: text.slice(i, close + 2),
              range: { start: { line: 0, column: 0, offset: i }, end: { line: 0, column: 0, offset: close + 2 } },
              ownLine: !lineHasCode,
            });
            i = close + 2;
            continue;
          }
        }
        emit(T.Slash, i, i + 1);
        i++;
        lineHasCode = true;
        continue;
      case 34: // "
        emit(T.OQuote, i, i + 1);
        push(F_QUOTED);
        i++;
        lineHasCode = true;
        continue;
      case 123: // {
        emit(T.OBrace, i, i + 1);
        push(F_BRACE);
        i++;
        lineHasCode = true;
        continue;
      case 125: // }
        lineHasCode = true;
        if (top === F_INTERP) {
          pop();
          emit(T.TemplateSeqEnd, i, i + 1);
          if (top === F_HEREDOC) heredocLineStart = false;
        } else {
          if (top === F_BRACE) pop();
          emit(T.CBrace, i, i + 1);
        }
        i++;
        continue;
      case 126: // ~
        lineHasCode = true;
        if (text.charCodeAt(i + 1) === 125) {
          if (top === F_INTERP) {
            pop();
            if (top === F_HEREDOC) heredocLineStart = false;
          } else if (top === F_BRACE) {
            pop();
          }
          emit(T.TemplateSeqEnd, i, i + 2);
          i += 2;
          continue;
        }
        emit(T.BitwiseNot, i, i + 1);
        i++;
        continue;
      case 60: // <
        lineHasCode = true;
        if (text.charCodeAt(i + 1) === 60) {
          const hd = tryHeredocStart(i);
          if (hd > 0) {
            i = hd;
            continue;
          }
        }
        if (text.charCodeAt(i + 1) === 61) {
          emit(T.LessThanEq, i, i + 2);
          i += 2;
        } else {
          emit(T.LessThan, i, i + 1);
          i++;
        }
        continue;
    }
    lineHasCode = true;
    if (isDigit(c)) {
      i = lexNumber(i);
      continue;
    }
    const idLen = c < 128 ? (isAsciiIdStart(c) ? 1 : 0) : isIdStartAt(text, i);
    if (idLen > 0) {
      let j = i + idLen;
      for (;;) {
        const cc = text.charCodeAt(j);
        if (cc < 128) {
          if (isAsciiIdCont(cc)) {
            j++;
            continue;
          }
          break;
        }
        if (j >= n) break; // (charCodeAt past the end is NaN)
        const l = isIdContAt(text, j);
        if (l === 0) break;
        j += l;
      }
      emit(T.Ident, i, j);
      i = j;
      continue;
    }
    const c1 = text.charCodeAt(i + 1);
    switch (c) {
      case 91:
        emit(T.OBrack, i, i + 1);
        i++;
        continue;
      case 93:
        emit(T.CBrack, i, i + 1);
        i++;
        continue;
      case 40:
        emit(T.OParen, i, i + 1);
        i++;
        continue;
      case 41:
        emit(T.CParen, i, i + 1);
        i++;
        continue;
      case 44:
        emit(T.Comma, i, i + 1);
        i++;
        continue;
      case 46: // .
        if (c1 === 46 && text.charCodeAt(i + 2) === 46) {
          emit(T.Ellipsis, i, i + 3);
          i += 3;
        } else {
          emit(T.Dot, i, i + 1);
          i++;
        }
        continue;
      case 61: // =
        if (c1 === 61) {
          emit(T.EqualOp, i, i + 2);
          i += 2;
        } else if (c1 === 62) {
          emit(T.FatArrow, i, i + 2);
          i += 2;
        } else {
          emit(T.Equal, i, i + 1);
          i++;
        }
        continue;
      case 33: // !
        if (c1 === 61) {
          emit(T.NotEqual, i, i + 2);
          i += 2;
        } else {
          emit(T.Bang, i, i + 1);
          i++;
        }
        continue;
      case 62: // >
        if (c1 === 61) {
          emit(T.GreaterThanEq, i, i + 2);
          i += 2;
        } else {
          emit(T.GreaterThan, i, i + 1);
          i++;
        }
        continue;
      case 38: // &
        if (c1 === 38) {
          emit(T.And, i, i + 2);
          i += 2;
        } else {
          emit(T.BitwiseAnd, i, i + 1);
          i++;
        }
        continue;
      case 124: // |
        if (c1 === 124) {
          emit(T.Or, i, i + 2);
          i += 2;
        } else {
          emit(T.BitwiseOr, i, i + 1);
          i++;
        }
        continue;
      case 94:
        emit(T.BitwiseXor, i, i + 1);
        i++;
        continue;
      case 42: // *
        emit(T.Star, i, i + 1);
        i++;
        continue;
      case 43:
        emit(T.Plus, i, i + 1);
        i++;
        continue;
      case 45:
        emit(T.Minus, i, i + 1);
        i++;
        continue;
      case 37:
        emit(T.Percent, i, i + 1);
        i++;
        continue;
      case 63:
        emit(T.Question, i, i + 1);
        i++;
        continue;
      case 58: // : (`::` stays two tokens, as in HashiCorp's scanner; the parser joins them)
        emit(T.Colon, i, i + 1);
        i++;
        continue;
      case 59:
        emit(T.Semicolon, i, i + 1);
        i++;
        continue;
      case 96:
        emit(T.Backtick, i, i + 1);
        i++;
        continue;
      case 39:
        emit(T.Apostrophe, i, i + 1);
        i++;
        continue;
    }
    // Anything else: one invalid character (a whole surrogate pair counts as one).
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        emit(T.Invalid, i, i + 2);
        i += 2;
        continue;
      }
      emit(T.BadUTF8, i, i + 1);
      i++;
      continue;
    }
    if ((c >= 0xdc00 && c <= 0xdfff) || c === 0xfffd) {
      emit(T.BadUTF8, i, i + 1);
      i++;
      continue;
    }
    emit(T.Invalid, i, i + 1);
    i++;
  }
  emit(T.EOF, n, n);
  // entries past the end (the parser looks a few tokens ahead) read as EOF at the end of the text
  types.fill(T.EOF, count, count + LOOKAHEAD);
  starts.fill(n, count, count + LOOKAHEAD);
  ends.fill(n, count, count + LOOKAHEAD);
  return { types, starts, ends, heredocs, comments, count };

  function lineComment(s: number, style: "#" | "//"): number {
    let j = s;
    while (j < n) {
      const cc = text.charCodeAt(j);
      if (cc === 10) break;
      if (cc === 13 && text.charCodeAt(j + 1) === 10) break;
      j++;
    }
    const textEnd = j;
    let tokEnd = j;
    let nl = false;
    if (j < n) {
      nl = true;
      tokEnd = text.charCodeAt(j) === 13 ? j + 2 : j + 1;
    }
    pushComment(style, s, textEnd, tokEnd, nl);
    lineHasCode = false;
    return tokEnd;
  }

  /**
   * A number token, as HashiCorp's scanner sees it: a digit followed by any
   * run of digits, dots and exponents (`e`, `E`, optional sign, digit), not
   * ending in a dot. `10.0.0.0` is one (invalid) token; the parser checks it.
   */
  function lexNumber(s: number): number {
    let j = s + 1;
    for (;;) {
      const cc = text.charCodeAt(j);
      if (isDigit(cc)) {
        j++;
        continue;
      }
      if (cc === 46 && (isDigit(text.charCodeAt(j + 1)) || isExp(j + 1))) {
        j++;
        continue;
      }
      if (isExp(j)) {
        j += text.charCodeAt(j + 1) === 43 || text.charCodeAt(j + 1) === 45 ? 3 : 2;
        continue;
      }
      break;
    }
    emit(T.NumberLit, s, j);
    return j;
  }

  function isExp(j: number): boolean {
    const e = text.charCodeAt(j);
    if (e !== 101 && e !== 69) return false;
    const sign = text.charCodeAt(j + 1);
    if (sign === 43 || sign === 45) return isDigit(text.charCodeAt(j + 2));
    return isDigit(sign);
  }

  /** `<<EOT\n` / `<<-EOT\n`: emits OHeredoc and enters heredoc mode; returns new offset or 0. */
  function tryHeredocStart(s: number): number {
    let j = s + 2;
    let indented = false;
    if (text.charCodeAt(j) === 45) {
      indented = true;
      j++;
    }
    const l0 = isIdStartAt(text, j);
    if (l0 === 0) return 0;
    const ms = j;
    j += l0;
    for (;;) {
      const l = isIdContAt(text, j);
      if (l === 0 || j >= n) break;
      j += l;
    }
    const me = j;
    let end: number;
    if (text.charCodeAt(j) === 10) end = j + 1;
    else if (text.charCodeAt(j) === 13 && text.charCodeAt(j + 1) === 10) end = j + 2;
    else return 0;
    const marker = text.slice(ms, me);
    heredocs.set(count, { marker, indented });
    emit(T.OHeredoc, s, end);
    push(F_HEREDOC, marker);
    heredocLineStart = true;
    lineHasCode = false;
    return end;
  }

  /** Scans inside a quoted template starting at i; emits one token (or more) and returns the new offset. */
  function lexQuoted(s: number): number {
    const c = text.charCodeAt(s);
    if (c === 34) {
      emit(T.CQuote, s, s + 1);
      pop();
      return s + 1;
    }
    if (c === 10 || c === 13) {
      // consecutive line breaks form one token (a lone CR counts as one)
      let j = s;
      for (;;) {
        if (text.charCodeAt(j) === 10) j++;
        else if (text.charCodeAt(j) === 13 && text.charCodeAt(j + 1) === 10) j += 2;
        else if (text.charCodeAt(j) === 13) j++;
        else break;
      }
      emit(T.QuotedNewline, s, j);
      lineHasCode = false;
      return j;
    }
    if ((c === 36 || c === 37) && text.charCodeAt(s + 1) === 123) {
      return openInterp(s, c === 36 ? T.TemplateInterp : T.TemplateControl);
    }
    if (isNewlineAt(s + 1)) {
      if (c === 36 || c === 37) {
        // a `$`/`%` before a line break is a literal token of its own
        emit(T.QuotedLit, s, s + 1);
        return s + 1;
      }
      if (c === 92) {
        emit(T.Invalid, s, s + 1);
        return s + 1;
      }
    }
    let j = s;
    while (j < n) {
      const cc = text.charCodeAt(j);
      if ((cc === 36 || cc === 37 || cc === 92) && j === n - 1) break;
      if (cc === 34 || cc === 10 || cc === 13) break;
      if (cc === 92) {
        // backslash: the next character belongs to the escape (a line break ends the token)
        if (isNewlineAt(j + 1)) break;
        j += 2;
        if (j > n) j = n;
        continue;
      }
      if (cc === 36 || cc === 37) {
        // Like HashiCorp's scanner, `$` and `%` start a new literal token.
        if (j > s) break;
        if (isNewlineAt(j + 1)) break;
        const nx = text.charCodeAt(j + 1);
        if (nx === 123) break;
        j += nx === cc && text.charCodeAt(j + 2) === 123 ? 3 : 1;
        break;
      }
      j++;
    }
    if (j === s) {
      // a lone `$`, `%` or `\` right before the end of the input
      emit(T.Invalid, s, s + 1);
      return s + 1;
    }
    emit(T.QuotedLit, s, j);
    return j;
  }

  function isNewlineAt(j: number): boolean {
    const cc = text.charCodeAt(j);
    return cc === 10 || (cc === 13 && text.charCodeAt(j + 1) === 10);
  }

  function openInterp(s: number, ty: number): number {
    let e = s + 2;
    if (text.charCodeAt(e) === 126) e++;
    emit(ty, s, e);
    push(F_INTERP);
    lineHasCode = true;
    return e;
  }

  /** Scans inside a heredoc starting at i. */
  function lexHeredoc(s: number, frameMarker: string | undefined): number {
    if (heredocLineStart && frameMarker !== undefined) {
      // closing marker: optional blanks, the marker, optional blanks, then a newline
      let j = s;
      while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
      const marker = frameMarker;
      if (text.startsWith(marker, j)) {
        let k = j + marker.length;
        // blanks may follow the marker; they belong to the closing token
        while (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9) k++;
        let nlEnd = -1;
        if (text.charCodeAt(k) === 10) nlEnd = k + 1;
        else if (text.charCodeAt(k) === 13 && text.charCodeAt(k + 1) === 10) nlEnd = k + 2;
        if (nlEnd > 0) {
          emit(T.CHeredoc, s, k);
          emit(T.Newline, k, nlEnd);
          pop();
          heredocLineStart = false;
          lineHasCode = false;
          return nlEnd;
        }
      }
    }
    const c = text.charCodeAt(s);
    if ((c === 36 || c === 37) && text.charCodeAt(s + 1) === 123) {
      heredocLineStart = false;
      return openInterp(s, c === 36 ? T.TemplateInterp : T.TemplateControl);
    }
    if (c === 13 && text.charCodeAt(s + 1) !== 10 && frameMarker !== undefined) {
      // HashiCorp's scanner gives up on a lone CR in a heredoc: the rest is one invalid token
      emit(T.Invalid, s, n);
      return n;
    }
    let j = s;
    while (j < n) {
      const cc = text.charCodeAt(j);
      if (cc === 13 && text.charCodeAt(j + 1) !== 10 && frameMarker !== undefined) break;
      if ((cc === 36 || cc === 37) && j === n - 1) break;
      if (cc === 10) {
        j++;
        break;
      }
      if (cc === 36 || cc === 37) {
        if (j > s) break;
        const nx = text.charCodeAt(j + 1);
        if (nx === 123) break;
        j += nx === cc && text.charCodeAt(j + 2) === 123 ? 3 : 1;
        break;
      }
      j++;
    }
    if (j === s) {
      emit(T.Invalid, s, s + 1);
      heredocLineStart = false;
      return s + 1;
    }
    emit(T.StringLit, s, j);
    heredocLineStart = text.charCodeAt(j - 1) === 10;
    lineHasCode = !heredocLineStart;
    return j;
  }
}

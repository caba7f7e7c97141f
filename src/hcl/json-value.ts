/**
 * A position-exact JSON reader for HCL's JSON syntax: text -> a tree of JSON
 * values that remember where every token came from, plus diagnostics.
 *
 * It differs from JSON.parse in the ways HCL needs: object properties keep
 * their order and their duplicates, numbers keep their spelling, strings keep
 * a map from each decoded UTF-16 unit back to the source offset it came from
 * (so positions inside strings with escapes can be reported exactly), and bad
 * input yields diagnostics plus a best-effort partial tree instead of an
 * exception. Summaries follow the wording of HashiCorp's JSON parser so users
 * can search for them; the details explain how to fix the problem.
 *
 * Offsets here are plain UTF-16 indexes into the text; json.ts turns them
 * into line/column positions. String decoding is in json-decode.ts.
 */

import { decodeContent } from "./json-decode.js";

export interface OffsetRange {
  start: number;
  end: number;
}

export interface JsonDiagnostic {
  summary: string;
  detail: string;
  start: number;
  end: number;
}

export interface JString {
  type: "string";
  /** The decoded value (lone surrogate escapes become U+FFFD, as in Go). */
  value: string;
  /** The whole token including its quotes. */
  range: OffsetRange;
  /** Where the content ends: the closing quote, or the token end if unterminated. */
  contentEnd: number;
  /**
   * False when the content is the value verbatim (decoded unit i is at
   * `range.start + 1 + i`); otherwise see `decodedOffsets`.
   */
  escaped: boolean;
}

export interface JNumber {
  type: "number";
  raw: string;
  value: number;
  range: OffsetRange;
}

export interface JBool {
  type: "bool";
  value: boolean;
  range: OffsetRange;
}

export interface JNull {
  type: "null";
  range: OffsetRange;
}

export interface JProperty {
  key: JString;
  value: JValue;
}

export interface JObject {
  type: "object";
  props: JProperty[];
  /** From `{` to `}` inclusive (to the end of what was read if unclosed). */
  range: OffsetRange;
  open: OffsetRange;
  /** The closing brace, or an empty range where it was expected. */
  close: OffsetRange;
}

export interface JArray {
  type: "array";
  items: JValue[];
  range: OffsetRange;
  open: OffsetRange;
  close: OffsetRange;
}

/** A value that could not be read (a diagnostic was reported for it). */
export interface JInvalid {
  type: "invalid";
  range: OffsetRange;
}

export type JValue = JString | JNumber | JBool | JNull | JObject | JArray | JInvalid;

export interface JsonReadResult {
  /** Null only when the text holds no value at all. */
  value: JValue | null;
  diagnostics: JsonDiagnostic[];
}

/**
 * The source offset of each decoded UTF-16 unit of a string, plus one final
 * entry for its end. Computed on demand (only strings with escapes that need
 * inner positions), so large files do not keep a number per character.
 */
export function decodedOffsets(text: string, s: JString): number[] {
  const map: number[] = [];
  if (!s.escaped) {
    for (let i = s.range.start + 1; i <= s.contentEnd; i++) map.push(i);
    return map;
  }
  decodeContent(text, s.range.start + 1, s.contentEnd, map, null);
  map.push(s.contentEnd);
  return map;
}

// ------------------------------------------------------------------ lexer

type TokenKind =
  | "{" | "}" | "[" | "]" | ":" | "," | "="
  | "string" | "number" | "keyword" | "invalid" | "eof";

interface Token {
  kind: TokenKind;
  start: number;
  end: number;
}

const WS_SPACE = 0x20, WS_TAB = 0x09, WS_LF = 0x0a, WS_CR = 0x0d;

function isKeywordStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x24;
}

function isKeywordPart(c: number): boolean {
  return isKeywordStart(c) || (c >= 0x30 && c <= 0x39);
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

const NUMBER_SYNTAX = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** An object or array being read (see Reader.readValue). */
interface Frame {
  open: Token;
  /** The properties read so far (an object), or null (an array). */
  props: JProperty[] | null;
  /** The elements read so far (an array), or null (an object). */
  items: JValue[] | null;
  close: OffsetRange | null;
  /** The key of the property whose value is being read. */
  key: JString | null;
  /** The number of diagnostics before the value being read. */
  errorsBefore: number;
}

class Reader {
  private pos = 0;
  private peeked: Token | null = null;
  readonly diagnostics: JsonDiagnostic[] = [];
  /** Closing characters of the containers currently open, innermost last. */
  private readonly closers: ("}" | "]")[] = [];
  /** Set once the innermost unclosed container is reported at the end of input. */
  private unclosedReported = false;
  /** Set by a string missing its closing quote, until the next separator. */
  private unterminatedString = false;

  constructor(private readonly text: string) {}

  // ---------------------------------------------------------------- tokens

  private scan(): Token {
    const text = this.text;
    let p = this.pos;
    while (p < text.length) {
      const c = text.charCodeAt(p);
      if (c === WS_SPACE || c === WS_TAB || c === WS_LF || c === WS_CR) p++;
      else break;
    }
    if (p >= text.length) {
      this.pos = p;
      return { kind: "eof", start: p, end: p };
    }
    const c = text.charCodeAt(p);
    const ch = text[p];
    if (ch === "{" || ch === "}" || ch === "[" || ch === "]" || ch === ":" || ch === "," || ch === "=") {
      this.pos = p + 1;
      return { kind: ch, start: p, end: p + 1 };
    }
    if (ch === '"') {
      // Scan to the closing quote, stepping over escapes. A raw line break
      // ends an unterminated string so one missing quote does not swallow
      // the rest of the file; the decoder reports it.
      let q = p + 1;
      while (q < text.length) {
        const d = text.charCodeAt(q);
        if (d === 0x22) { q++; break; }
        if (d === WS_LF || d === WS_CR) break;
        if (d === 0x5c) {
          const n = text.charCodeAt(q + 1);
          if (n === WS_LF || n === WS_CR) { q++; break; }
          q += 2;
        } else q++;
      }
      if (q > text.length) q = text.length;
      this.pos = q;
      return { kind: "string", start: p, end: q };
    }
    if (isNumberChar(c)) {
      let q = p + 1;
      while (q < text.length && isNumberChar(text.charCodeAt(q))) q++;
      this.pos = q;
      return { kind: "number", start: p, end: q };
    }
    if (isKeywordStart(c)) {
      let q = p + 1;
      while (q < text.length && isKeywordPart(text.charCodeAt(q))) q++;
      this.pos = q;
      return { kind: "keyword", start: p, end: q };
    }
    // Anything else is one invalid character (a whole surrogate pair counts
    // as one so the range never splits a code point).
    let q = p + 1;
    if (c >= 0xd800 && c <= 0xdbff && q < text.length) {
      const d = text.charCodeAt(q);
      if (d >= 0xdc00 && d <= 0xdfff) q++;
    }
    this.pos = q;
    return { kind: "invalid", start: p, end: q };
  }

  private peek(): Token {
    if (this.peeked === null) this.peeked = this.scan();
    return this.peeked;
  }

  private next(): Token {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  private report(summary: string, detail: string, start: number, end: number): void {
    this.diagnostics.push({ summary, detail, start, end });
  }

  // ---------------------------------------------------------------- values

  readDocument(): JsonReadResult {
    const first = this.peek();
    if (first.kind === "eof") {
      this.report(
        "Missing value",
        "The file is empty. A JSON configuration file must contain one JSON object, for example {}.",
        first.start,
        first.end,
      );
      return { value: null, diagnostics: this.diagnostics };
    }
    const value = this.readValue("top");
    const extra = this.peek();
    if (extra.kind !== "eof") {
      this.report(
        "Extraneous data after value",
        "Only one JSON value may appear in the file, but more text follows the end of it. Remove the extra text or merge it into the top-level object.",
        extra.start,
        extra.end,
      );
    }
    return { value, diagnostics: this.diagnostics };
  }

  /**
   * Reads a value. Objects and arrays nest to any depth: the containers
   * being read are frames on an explicit stack, not native calls.
   */
  private readValue(context: "top" | "property" | "element"): JValue {
    const first = this.peek();
    if (first.kind !== "{" && first.kind !== "[") return this.readScalar(context, first);
    const open: Frame[] = [this.openContainer()];
    let done: JValue | null = null;
    for (;;) {
      const f = open[open.length - 1];
      if (done !== null) {
        if (f.props !== null) this.afterProperty(f, done);
        else this.afterElement(f, done);
        done = null;
      }
      const next = f.props !== null ? this.toNextProperty(f) : this.toNextElement(f);
      if (next === null) {
        open.pop();
        done = this.closeContainer(f);
        if (open.length === 0) return done;
        continue;
      }
      const tok = this.peek();
      if (tok.kind === "{" || tok.kind === "[") open.push(this.openContainer());
      else done = this.readScalar(next, tok);
    }
  }

  /** Reads a value that does not start with `{` or `[`. */
  private readScalar(context: "top" | "property" | "element", tok: Token): JValue {
    switch (tok.kind) {
      case "string":
        this.next();
        return this.decodeString(tok);
      case "number":
        this.next();
        return this.readNumber(tok);
      case "keyword":
        this.next();
        return this.readKeyword(tok);
      case "eof":
        this.report(
          "Missing value",
          "The JSON text ends where a value was expected. Complete the value and close every open brace and bracket.",
          tok.start,
          tok.end,
        );
        return { type: "invalid", range: { start: tok.start, end: tok.end } };
      case "}":
      case "]":
      case ",":
      case ":":
        this.report(
          context === "element" ? "Missing array element value" : "Missing JSON value",
          `Expected a value here, but found "${tok.kind}". Write a string, number, object, array, true, false or null.`,
          tok.start,
          tok.end,
        );
        return { type: "invalid", range: { start: tok.start, end: tok.start } };
      default: {
        this.next();
        const shown = this.text.slice(tok.start, tok.end);
        const hint = shown === "'"
          ? " JSON strings must use double quotes (\"), not single quotes."
          : " Write a string, number, object, array, true, false or null.";
        this.report(
          "Invalid start of value",
          `A JSON value cannot start with "${shown}".${hint}`,
          tok.start,
          tok.end,
        );
        return { type: "invalid", range: { start: tok.start, end: tok.end } };
      }
    }
  }

  private readNumber(tok: Token): JValue {
    const raw = this.text.slice(tok.start, tok.end);
    const range = { start: tok.start, end: tok.end };
    if (!NUMBER_SYNTAX.test(raw)) {
      this.report(
        "Invalid JSON number",
        `"${raw}" is not a valid JSON number. JSON numbers are written like 42, -1.5 or 2e10: no leading "+" or zeros, and digits on both sides of a decimal point.`,
        tok.start,
        tok.end,
      );
      return { type: "invalid", range };
    }
    return { type: "number", raw, value: Number(raw), range };
  }

  private readKeyword(tok: Token): JValue {
    const word = this.text.slice(tok.start, tok.end);
    const range = { start: tok.start, end: tok.end };
    if (word === "true" || word === "false") return { type: "bool", value: word === "true", range };
    if (word === "null") return { type: "null", range };
    let detail: string;
    if (word === "NaN" || word === "Infinity" || word === "undefined") {
      detail = `"${word}" exists in JavaScript but not in JSON. Use null, or a string if the value must be kept.`;
    } else {
      const lower = word.toLowerCase();
      const guess = ["true", "false", "null"].find((k) => k === lower || (lower.length >= 2 && k.startsWith(lower)));
      detail = guess
        ? `"${word}" is not a JSON keyword. Did you mean "${guess}"? JSON keywords are lowercase.`
        : `"${word}" is not a JSON keyword; the only keywords are true, false and null. If this is meant as text, put it in double quotes.`;
    }
    this.report("Invalid JSON keyword", detail, tok.start, tok.end);
    return { type: "invalid", range };
  }

  /** Reads the `{` or `[` opening a container; its frame. */
  private openContainer(): Frame {
    const open = this.next();
    const object = open.kind === "{";
    this.closers.push(object ? "}" : "]");
    return { open, props: object ? [] : null, items: object ? null : [], close: null, key: null, errorsBefore: 0 };
  }

  /**
   * Reads an object up to its next property value: returns "property" with
   * the property's key in the frame when a value is next, or null when the
   * object ends (closed, or at the end of input).
   */
  private toNextProperty(f: Frame): "property" | null {
    const props = f.props as JProperty[];
    for (;;) {
      if (this.endsAtNext(f, "}", "Mismatched braces", "This object was opened with \"{\", so it must be closed with \"}\", not \"]\".")) return null;
      const tok = this.peek();
      if (tok.kind !== "string") {
        this.report(
          "Invalid object property name",
          tok.kind === "keyword" || tok.kind === "number"
            ? "JSON property names must be strings in double quotes, for example \"name\": value."
            : "Expected a property name (a string in double quotes) here.",
          tok.start,
          tok.end,
        );
        if (tok.kind === ",") {
          this.next();
          continue;
        }
        this.skipMember();
        continue;
      }
      this.next();
      const key = this.decodeString(tok);
      if (this.unterminatedString) {
        this.unterminatedString = false;
        this.skipMember();
        continue;
      }
      const colon = this.peek();
      if (colon.kind === ":") {
        this.next();
      } else if (colon.kind === "=") {
        this.next();
        this.report(
          "Missing property value colon",
          "JSON separates a property name from its value with a colon (:), not an equals sign. Replace \"=\" with \":\".",
          colon.start,
          colon.end,
        );
      } else if (colon.kind === "," || colon.kind === "}") {
        this.report(
          "Missing object value",
          `The property "${key.value}" has no value. Add a colon and a value after the name.`,
          colon.start,
          colon.end,
        );
        props.push({ key, value: { type: "invalid", range: { start: colon.start, end: colon.start } } });
        if (colon.kind === ",") this.next();
        continue;
      } else {
        this.report(
          "Missing property value colon",
          `Put a colon (:) between the property name "${key.value}" and its value.`,
          colon.start,
          colon.end,
        );
        this.skipMember();
        continue;
      }
      f.key = key;
      f.errorsBefore = this.diagnostics.length;
      return "property";
    }
  }

  /** Adds the value just read to the object's property and reads what follows it. */
  private afterProperty(f: Frame, value: JValue): void {
    (f.props as JProperty[]).push({ key: f.key as JString, value });
    const sep = this.separatorAfter(f, value, "}", "Trailing comma in object", "JSON does not allow a comma after the last property of an object. Remove this comma.");
    if (sep === null) return;
    this.report(
      "Missing attribute separator comma",
      "Properties of a JSON object must be separated by commas. Add a comma before this.",
      sep.start,
      sep.end,
    );
    if (sep.kind !== "string") {
      this.skipMember();
    }
  }

  /** Reads an array up to its next element: "element" when one is next, null when the array ends. */
  private toNextElement(f: Frame): "element" | null {
    if (this.endsAtNext(f, "]", "Mismatched brackets", "This array was opened with \"[\", so it must be closed with \"]\", not \"}\".")) return null;
    f.errorsBefore = this.diagnostics.length;
    return "element";
  }

  /**
   * Whether the container of `f` ends at the next token: its own `closer`
   * (read, and kept in the frame), the end of input, or a closer of the
   * other kind that an enclosing container expects (reported with
   * `summary` and `detail`; the container ends before it). A stray closer
   * of the other kind is reported and skipped.
   */
  private endsAtNext(f: Frame, closer: "}" | "]", summary: string, detail: string): boolean {
    for (;;) {
      const tok = this.peek();
      if (tok.kind === closer) {
        this.next();
        f.close = { start: tok.start, end: tok.end };
        return true;
      }
      if (tok.kind === "eof") return true;
      if (tok.kind !== "}" && tok.kind !== "]") return false;
      if (this.closeMismatch(tok, summary, detail)) {
        f.close = { start: tok.start, end: tok.start };
        return true;
      }
    }
  }

  /** Adds the element just read to the array and reads what follows it. */
  private afterElement(f: Frame, value: JValue): void {
    (f.items as JValue[]).push(value);
    const sep = this.separatorAfter(f, value, "]", "Trailing comma in array", "JSON does not allow a comma after the last element of an array. Remove this comma.");
    if (sep === null) return;
    if (sep.kind === ":") {
      this.report(
        "Invalid array value",
        "Array elements are separated by commas; a colon only separates a property name from its value in an object. Did you mean to write an object ({ ... }) here?",
        sep.start,
        sep.end,
      );
      this.skipMember();
      return;
    }
    this.report(
      "Missing array element separator comma",
      "Elements of a JSON array must be separated by commas. Add a comma before this.",
      sep.start,
      sep.end,
    );
    if (sep.kind === "=") {
      this.skipMember();
    }
  }

  /**
   * Reads what follows a member (`value`, just read) of the container of
   * `f`: after a value that could not be read, first skips to the next
   * separator; then a comma is read (one right before `closer` is reported
   * as trailing with `summary` and `detail`: JSON has no trailing commas),
   * and a closer or the end of input is left for the container. Returns
   * any other token, unread, for the caller to report: null when the
   * separator was fine.
   */
  private separatorAfter(f: Frame, value: JValue, closer: "}" | "]", summary: string, detail: string): Token | null {
    if (this.needsSync(f.errorsBefore, value)) this.skipToSync();
    const sep = this.peek();
    if (sep.kind === ",") {
      this.next();
      if (this.peek().kind === closer) this.report(summary, detail, sep.start, sep.end);
      return null;
    }
    if (sep.kind === "}" || sep.kind === "]" || sep.kind === "eof") return null;
    return sep;
  }

  /** Ends a container (reporting it unclosed at the end of input); its value. */
  private closeContainer(f: Frame): JObject | JArray {
    this.closers.pop();
    const open = f.open;
    let close = f.close;
    if (close === null) {
      if (!this.unclosedReported) {
        if (f.props !== null) {
          this.report(
            "Unclosed object",
            "This object has no closing brace. Add a \"}\" after its last property (and close any containers around it).",
            open.start,
            open.end,
          );
        } else {
          this.report(
            "Unclosed array",
            "This array has no closing bracket. Add a \"]\" after its last element (and close any containers around it).",
            open.start,
            open.end,
          );
        }
      }
      this.unclosedReported = true;
      close = { start: this.peek().start, end: this.peek().start };
    }
    const range = { start: open.start, end: close.end };
    const openRange = { start: open.start, end: open.end };
    if (f.props !== null) return { type: "object", props: f.props, range, open: openRange, close };
    return { type: "array", items: f.items as JValue[], range, open: openRange, close };
  }

  /**
   * After a value that could not be read, or a string missing its closing
   * quote (whose real end is unknown), skip to the next separator.
   */
  private needsSync(errorsBefore: number, value: JValue): boolean {
    const broken = this.unterminatedString;
    this.unterminatedString = false;
    return broken || (this.diagnostics.length > errorsBefore && value.type === "invalid");
  }

  /**
   * A closer of the wrong kind inside a container. When an enclosing
   * container expects it, the current container ends here without consuming
   * it (returns true). Otherwise it is a stray character: report and skip it.
   */
  private closeMismatch(tok: Token, summary: string, detail: string): boolean {
    const wanted = tok.kind as "}" | "]";
    this.report(summary, detail, tok.start, tok.end);
    if (this.closers.lastIndexOf(wanted) >= 0) return true;
    this.next();
    return false;
  }

  /** Error recovery inside a container: skips the rest of a member (skipToSync) and the comma after it. */
  private skipMember(): void {
    this.skipToSync();
    if (this.peek().kind === ",") this.next();
  }

  /**
   * Error recovery: skip tokens up to the next comma or closing bracket that
   * belongs to the current container (or an enclosing one), stepping over
   * balanced nested containers without recursion.
   */
  private skipToSync(): void {
    let depth = 0;
    for (;;) {
      const tok = this.peek();
      if (tok.kind === "eof") return;
      if (depth === 0) {
        if (tok.kind === ",") return;
        if ((tok.kind === "}" || tok.kind === "]") && this.closers.lastIndexOf(tok.kind) >= 0) return;
      }
      this.next();
      if (tok.kind === "{" || tok.kind === "[") depth++;
      else if ((tok.kind === "}" || tok.kind === "]") && depth > 0) depth--;
    }
  }

  // ---------------------------------------------------------------- strings

  /**
   * Decodes a string token. Problems (bad escapes, control characters, a
   * missing closing quote) are reported, and the string is still returned
   * with the problem characters kept as written so later stages can go on.
   */
  private decodeString(tok: Token): JString {
    const text = this.text;
    const start = tok.start;
    const end = tok.end;
    const terminated = end - start >= 2 && text.charCodeAt(end - 1) === 0x22 && !this.endsInsideEscape(start, end);
    const contentEnd = terminated ? end - 1 : end;
    if (!terminated) {
      this.unterminatedString = true;
      this.report(
        "Invalid JSON string",
        "This string has no closing double quote on its line. JSON strings cannot span lines; write a line break as \\n.",
        start,
        end,
      );
    }
    let plain = true;
    for (let i = start + 1; i < contentEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c || c < 0x20) {
        plain = false;
        break;
      }
    }
    const value = plain
      ? text.slice(start + 1, contentEnd)
      : decodeContent(text, start + 1, contentEnd, null, (summary, detail, s, e) => this.report(summary, detail, s, e));
    return { type: "string", value, range: { start, end }, contentEnd, escaped: !plain };
  }

  /** True when the quote at end-1 is itself escaped (`"abc\"` unterminated). */
  private endsInsideEscape(start: number, end: number): boolean {
    let backslashes = 0;
    for (let i = end - 2; i > start && this.text.charCodeAt(i) === 0x5c; i--) backslashes++;
    return backslashes % 2 === 1;
  }
}


/** Reads one JSON document. Never throws on any input. */
export function readJson(text: string): JsonReadResult {
  return new Reader(text).readDocument();
}


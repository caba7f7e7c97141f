// test/gen/differential.ts
import { createRequire } from "node:module";

// src/hcl/json-schema.ts
var condition = { labels: 0, strict: true };
var connection = { labels: 0 };
var provisioner = {
  labels: 1,
  blocks: { connection },
  attrs: { when: "expr", on_failure: "expr" }
};
var resourceLifecycle = {
  labels: 0,
  strict: true,
  blocks: { precondition: condition, postcondition: condition },
  attrs: {
    create_before_destroy: "literal",
    prevent_destroy: "literal",
    ignore_changes: "exprList",
    replace_triggered_by: "exprList"
  }
};
var dynamicBlock = {
  labels: 1,
  strict: true,
  attrs: { iterator: "expr" }
};
var dynamicContent = { labels: 0, blocks: { dynamic: dynamicBlock } };
dynamicBlock.blocks = { content: dynamicContent };
var resourceLike = {
  labels: 2,
  blocks: { lifecycle: resourceLifecycle, provisioner, connection, dynamic: dynamicBlock },
  attrs: { provider: "expr", depends_on: "exprList" }
};
var dataLike = {
  labels: 2,
  blocks: { lifecycle: resourceLifecycle, dynamic: dynamicBlock },
  attrs: { provider: "expr", depends_on: "exprList" }
};
var variable = {
  labels: 1,
  strict: true,
  blocks: { validation: condition },
  attrs: {
    type: "expr",
    default: "literal",
    description: "literal",
    sensitive: "literal",
    nullable: "literal",
    ephemeral: "literal",
    deprecated: "literal"
  }
};
var output = {
  labels: 1,
  strict: true,
  blocks: { precondition: condition },
  attrs: {
    description: "literal",
    sensitive: "literal",
    ephemeral: "literal",
    deprecated: "literal",
    depends_on: "exprList"
  }
};
var moduleCall = {
  labels: 1,
  strict: true,
  attrs: { source: "literal", version: "literal", providers: "providerMap", depends_on: "exprList" }
};
var provider = {
  labels: 1,
  blocks: { dynamic: dynamicBlock },
  attrs: { alias: "literal", version: "literal" }
};
var literalBody = { labels: 0, otherAttrs: "literal" };
var encryptionFallback = { labels: 0 };
var encryptionTarget = { labels: 0, blocks: { fallback: encryptionFallback } };
var terraformBlock = {
  labels: 0,
  strict: true,
  blocks: {
    backend: { labels: 1, otherAttrs: "literal" },
    cloud: { labels: 0, otherAttrs: "literal", blocks: { workspaces: literalBody } },
    required_providers: { labels: 0, strict: true, otherAttrs: "requiredProviders" },
    provider_meta: { labels: 1 },
    // OpenTofu state and plan encryption.
    encryption: {
      labels: 0,
      blocks: {
        key_provider: { labels: 2 },
        method: { labels: 2 },
        state: encryptionTarget,
        plan: encryptionTarget,
        remote_state_data_sources: {
          labels: 0,
          blocks: { default: encryptionTarget, remote_state_data_source: { labels: 1 } }
        }
      }
    }
  },
  attrs: { required_version: "literal", experiments: "exprList", language: "expr" }
};
var check = {
  labels: 1,
  strict: true,
  blocks: { data: dataLike, assert: condition }
};
var FILE_SCHEMA = {
  labels: 0,
  blocks: {
    terraform: terraformBlock,
    variable,
    output,
    locals: { labels: 0, strict: true },
    module: moduleCall,
    provider,
    resource: resourceLike,
    data: dataLike,
    ephemeral: dataLike,
    moved: { labels: 0, strict: true, attrs: { from: "expr", to: "expr" } },
    import: { labels: 0, strict: true, attrs: { to: "expr", provider: "expr" } },
    removed: {
      labels: 0,
      strict: true,
      blocks: {
        lifecycle: { labels: 0, strict: true, attrs: { destroy: "literal" } },
        provisioner,
        connection
      },
      attrs: { from: "expr" }
    },
    check
  }
};

// src/hcl/json-decode.ts
var SIMPLE_ESCAPES = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "	"
};
function decodedOffsets(text, s) {
  const map = [];
  if (!s.escaped) {
    for (let i = s.range.start + 1; i <= s.contentEnd; i++) map.push(i);
    return map;
  }
  decodeContent(text, s.range.start + 1, s.contentEnd, map, null);
  map.push(s.contentEnd);
  return map;
}
function decodeContent(text, from, to, map, report) {
  let out = "";
  let i = from;
  while (i < to) {
    let j = i;
    while (j < to) {
      const c2 = text.charCodeAt(j);
      if (c2 === 92 || c2 < 32) break;
      j++;
    }
    if (j > i) {
      out += text.slice(i, j);
      if (map !== null) for (let k = i; k < j; k++) map.push(k);
      i = j;
      if (i >= to) break;
    }
    const c = text.charCodeAt(i);
    if (c !== 92) {
      report?.(
        "Invalid JSON string",
        `A JSON string cannot contain the control character U+${c.toString(16).toUpperCase().padStart(4, "0")} as is; write it as an escape such as \\t or \\u${c.toString(16).padStart(4, "0")}.`,
        i,
        i + 1
      );
      out += text[i];
      map?.push(i);
      i++;
      continue;
    }
    const e = text[i + 1];
    const simpleEscape = e === void 0 || i + 1 >= to ? void 0 : SIMPLE_ESCAPES[e];
    if (simpleEscape !== void 0) {
      out += simpleEscape;
      map?.push(i);
      i += 2;
      continue;
    }
    if (e === "u") {
      const hex = text.slice(i + 2, Math.min(i + 6, to));
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        let unit = parseInt(hex, 16);
        if (unit >= 55296 && unit <= 56319) {
          const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})$/.exec(text.slice(i + 6, i + 12));
          if (low && i + 12 <= to) {
            out += String.fromCharCode(unit, parseInt(low[1], 16));
            map?.push(i, i + 6);
            i += 12;
            continue;
          }
          unit = 65533;
        } else if (unit >= 56320 && unit <= 57343) {
          unit = 65533;
        }
        out += String.fromCharCode(unit);
        map?.push(i);
        i += 6;
        continue;
      }
      const digits = /^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0;
      report?.("Invalid JSON string", "A \\u escape needs exactly four hexadecimal digits, for example \\u00e9.", i, i + 2 + digits);
      out += "\\u";
      map?.push(i, i + 1);
      i += 2;
      continue;
    }
    const shown = e === void 0 || i + 1 >= to ? "\\" : "\\" + e;
    report?.(
      "Invalid JSON string",
      `"${shown}" is not a valid escape in a JSON string. The valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a literal backslash as \\\\.`,
      i,
      i + shown.length
    );
    out += shown;
    map?.push(i);
    if (shown.length === 2) map?.push(i + 1);
    i += shown.length;
  }
  return out;
}

// src/hcl/json-value.ts
var MAX_JSON_DEPTH = 256;
var WS_SPACE = 32;
var WS_TAB = 9;
var WS_LF = 10;
var WS_CR = 13;
function isKeywordStart(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90 || c === 95 || c === 36;
}
function isKeywordPart(c) {
  return isKeywordStart(c) || c >= 48 && c <= 57;
}
function isNumberChar(c) {
  return c >= 48 && c <= 57 || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}
var NUMBER_SYNTAX = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
var Reader = class {
  constructor(text) {
    this.text = text;
  }
  text;
  pos = 0;
  peeked = null;
  diagnostics = [];
  /** Closing characters of the containers currently open, innermost last. */
  closers = [];
  /** Set once the innermost unclosed container is reported at the end of input. */
  unclosedReported = false;
  /** Set by a string missing its closing quote, until the next separator. */
  unterminatedString = false;
  // ---------------------------------------------------------------- tokens
  scan() {
    const text = this.text;
    let p = this.pos;
    while (p < text.length) {
      const c2 = text.charCodeAt(p);
      if (c2 === WS_SPACE || c2 === WS_TAB || c2 === WS_LF || c2 === WS_CR) p++;
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
      let q2 = p + 1;
      while (q2 < text.length) {
        const d = text.charCodeAt(q2);
        if (d === 34) {
          q2++;
          break;
        }
        if (d === WS_LF || d === WS_CR) break;
        if (d === 92) {
          const n = text.charCodeAt(q2 + 1);
          if (n === WS_LF || n === WS_CR) {
            q2++;
            break;
          }
          q2 += 2;
        } else q2++;
      }
      if (q2 > text.length) q2 = text.length;
      this.pos = q2;
      return { kind: "string", start: p, end: q2 };
    }
    if (isNumberChar(c)) {
      let q2 = p + 1;
      while (q2 < text.length && isNumberChar(text.charCodeAt(q2))) q2++;
      this.pos = q2;
      return { kind: "number", start: p, end: q2 };
    }
    if (isKeywordStart(c)) {
      let q2 = p + 1;
      while (q2 < text.length && isKeywordPart(text.charCodeAt(q2))) q2++;
      this.pos = q2;
      return { kind: "keyword", start: p, end: q2 };
    }
    let q = p + 1;
    if (c >= 55296 && c <= 56319 && q < text.length) {
      const d = text.charCodeAt(q);
      if (d >= 56320 && d <= 57343) q++;
    }
    this.pos = q;
    return { kind: "invalid", start: p, end: q };
  }
  peek() {
    if (this.peeked === null) this.peeked = this.scan();
    return this.peeked;
  }
  next() {
    const t = this.peek();
    this.peeked = null;
    return t;
  }
  report(summary, detail, start, end) {
    this.diagnostics.push({ summary, detail, start, end });
  }
  // ---------------------------------------------------------------- values
  readDocument() {
    const first = this.peek();
    if (first.kind === "eof") {
      this.report(
        "Missing value",
        "The file is empty. A JSON configuration file must contain one JSON object, for example {}.",
        first.start,
        first.end
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
        extra.end
      );
    }
    return { value, diagnostics: this.diagnostics };
  }
  readValue(context) {
    const tok = this.peek();
    switch (tok.kind) {
      case "{":
        return this.closers.length >= MAX_JSON_DEPTH ? this.skipTooDeep() : this.readObject();
      case "[":
        return this.closers.length >= MAX_JSON_DEPTH ? this.skipTooDeep() : this.readArray();
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
          tok.end
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
          tok.end
        );
        return { type: "invalid", range: { start: tok.start, end: tok.start } };
      default: {
        this.next();
        const shown = this.text.slice(tok.start, tok.end);
        const hint = shown === "'" ? ' JSON strings must use double quotes ("), not single quotes.' : " Write a string, number, object, array, true, false or null.";
        this.report(
          "Invalid start of value",
          `A JSON value cannot start with "${shown}".${hint}`,
          tok.start,
          tok.end
        );
        return { type: "invalid", range: { start: tok.start, end: tok.end } };
      }
    }
  }
  readNumber(tok) {
    const raw = this.text.slice(tok.start, tok.end);
    const range = { start: tok.start, end: tok.end };
    if (!NUMBER_SYNTAX.test(raw)) {
      this.report(
        "Invalid JSON number",
        `"${raw}" is not a valid JSON number. JSON numbers are written like 42, -1.5 or 2e10: no leading "+" or zeros, and digits on both sides of a decimal point.`,
        tok.start,
        tok.end
      );
      return { type: "invalid", range };
    }
    return { type: "number", raw, value: Number(raw), range };
  }
  readKeyword(tok) {
    const word = this.text.slice(tok.start, tok.end);
    const range = { start: tok.start, end: tok.end };
    if (word === "true" || word === "false") return { type: "bool", value: word === "true", range };
    if (word === "null") return { type: "null", range };
    let detail;
    if (word === "NaN" || word === "Infinity" || word === "undefined") {
      detail = `"${word}" exists in JavaScript but not in JSON. Use null, or a string if the value must be kept.`;
    } else {
      const lower = word.toLowerCase();
      const guess = ["true", "false", "null"].find((k) => k === lower || lower.length >= 2 && k.startsWith(lower));
      detail = guess ? `"${word}" is not a JSON keyword. Did you mean "${guess}"? JSON keywords are lowercase.` : `"${word}" is not a JSON keyword; the only keywords are true, false and null. If this is meant as text, put it in double quotes.`;
    }
    this.report("Invalid JSON keyword", detail, tok.start, tok.end);
    return { type: "invalid", range };
  }
  readObject() {
    const open = this.next();
    this.closers.push("}");
    const props = [];
    let close = null;
    for (; ; ) {
      const tok = this.peek();
      if (tok.kind === "}") {
        this.next();
        close = { start: tok.start, end: tok.end };
        break;
      }
      if (tok.kind === "eof") break;
      if (tok.kind === "]") {
        if (this.closeMismatch(tok, "Mismatched braces", 'This object was opened with "{", so it must be closed with "}", not "]".')) {
          close = { start: tok.start, end: tok.start };
          break;
        }
        continue;
      }
      if (tok.kind !== "string") {
        this.report(
          "Invalid object property name",
          tok.kind === "keyword" || tok.kind === "number" ? 'JSON property names must be strings in double quotes, for example "name": value.' : "Expected a property name (a string in double quotes) here.",
          tok.start,
          tok.end
        );
        if (tok.kind === ",") {
          this.next();
          continue;
        }
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
        continue;
      }
      this.next();
      const key = this.decodeString(tok);
      if (this.unterminatedString) {
        this.unterminatedString = false;
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
        continue;
      }
      const colon = this.peek();
      if (colon.kind === ":") {
        this.next();
      } else if (colon.kind === "=") {
        this.next();
        this.report(
          "Missing property value colon",
          'JSON separates a property name from its value with a colon (:), not an equals sign. Replace "=" with ":".',
          colon.start,
          colon.end
        );
      } else if (colon.kind === "," || colon.kind === "}") {
        this.report(
          "Missing object value",
          `The property "${key.value}" has no value. Add a colon and a value after the name.`,
          colon.start,
          colon.end
        );
        props.push({ key, value: { type: "invalid", range: { start: colon.start, end: colon.start } } });
        if (colon.kind === ",") this.next();
        continue;
      } else {
        this.report(
          "Missing property value colon",
          `Put a colon (:) between the property name "${key.value}" and its value.`,
          colon.start,
          colon.end
        );
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
        continue;
      }
      const errorsBefore = this.diagnostics.length;
      const value = this.readValue("property");
      props.push({ key, value });
      if (this.needsSync(errorsBefore, value)) this.skipToSync();
      const sep = this.peek();
      if (sep.kind === ",") {
        this.next();
        const after = this.peek();
        if (after.kind === "}") {
          this.report(
            "Trailing comma in object",
            "JSON does not allow a comma after the last property of an object. Remove this comma.",
            sep.start,
            sep.end
          );
        }
        continue;
      }
      if (sep.kind === "}" || sep.kind === "eof" || sep.kind === "]") continue;
      this.report(
        "Missing attribute separator comma",
        "Properties of a JSON object must be separated by commas. Add a comma before this.",
        sep.start,
        sep.end
      );
      if (sep.kind !== "string") {
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
      }
    }
    this.closers.pop();
    if (close === null) {
      if (!this.unclosedReported) this.report(
        "Unclosed object",
        'This object has no closing brace. Add a "}" after its last property (and close any containers around it).',
        open.start,
        open.end
      );
      this.unclosedReported = true;
      close = { start: this.peek().start, end: this.peek().start };
    }
    return {
      type: "object",
      props,
      range: { start: open.start, end: close.end },
      open: { start: open.start, end: open.end },
      close
    };
  }
  readArray() {
    const open = this.next();
    this.closers.push("]");
    const items = [];
    let close = null;
    for (; ; ) {
      const tok = this.peek();
      if (tok.kind === "]") {
        this.next();
        close = { start: tok.start, end: tok.end };
        break;
      }
      if (tok.kind === "eof") break;
      if (tok.kind === "}") {
        if (this.closeMismatch(tok, "Mismatched brackets", 'This array was opened with "[", so it must be closed with "]", not "}".')) {
          close = { start: tok.start, end: tok.start };
          break;
        }
        continue;
      }
      const errorsBefore = this.diagnostics.length;
      const value = this.readValue("element");
      items.push(value);
      if (this.needsSync(errorsBefore, value)) this.skipToSync();
      const sep = this.peek();
      if (sep.kind === ",") {
        this.next();
        const after = this.peek();
        if (after.kind === "]") {
          this.report(
            "Trailing comma in array",
            "JSON does not allow a comma after the last element of an array. Remove this comma.",
            sep.start,
            sep.end
          );
        }
        continue;
      }
      if (sep.kind === "]" || sep.kind === "eof" || sep.kind === "}") continue;
      if (sep.kind === ":") {
        this.report(
          "Invalid array value",
          "Array elements are separated by commas; a colon only separates a property name from its value in an object. Did you mean to write an object ({ ... }) here?",
          sep.start,
          sep.end
        );
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
        continue;
      }
      this.report(
        "Missing array element separator comma",
        "Elements of a JSON array must be separated by commas. Add a comma before this.",
        sep.start,
        sep.end
      );
      if (sep.kind === "=") {
        this.skipToSync();
        if (this.peek().kind === ",") this.next();
      }
    }
    this.closers.pop();
    if (close === null) {
      if (!this.unclosedReported) this.report(
        "Unclosed array",
        'This array has no closing bracket. Add a "]" after its last element (and close any containers around it).',
        open.start,
        open.end
      );
      this.unclosedReported = true;
      close = { start: this.peek().start, end: this.peek().start };
    }
    return {
      type: "array",
      items,
      range: { start: open.start, end: close.end },
      open: { start: open.start, end: open.end },
      close
    };
  }
  /**
   * After a value that could not be read, or a string missing its closing
   * quote (whose real end is unknown), skip to the next separator.
   */
  needsSync(errorsBefore, value) {
    const broken = this.unterminatedString;
    this.unterminatedString = false;
    return broken || this.diagnostics.length > errorsBefore && value.type === "invalid";
  }
  /**
   * A closer of the wrong kind inside a container. When an enclosing
   * container expects it, the current container ends here without consuming
   * it (returns true). Otherwise it is a stray character: report and skip it.
   */
  closeMismatch(tok, summary, detail) {
    const wanted = tok.kind;
    this.report(summary, detail, tok.start, tok.end);
    if (this.closers.lastIndexOf(wanted) >= 0) return true;
    this.next();
    return false;
  }
  /**
   * Error recovery: skip tokens up to the next comma or closing bracket that
   * belongs to the current container (or an enclosing one), stepping over
   * balanced nested containers without recursion.
   */
  skipToSync() {
    let depth = 0;
    for (; ; ) {
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
  /** Skips a container nested beyond MAX_JSON_DEPTH (iteratively). */
  skipTooDeep() {
    const open = this.next();
    let depth = 1;
    let end = open.end;
    while (depth > 0) {
      const tok = this.next();
      if (tok.kind === "eof") break;
      end = tok.end;
      if (tok.kind === "{" || tok.kind === "[") depth++;
      else if (tok.kind === "}" || tok.kind === "]") depth--;
    }
    this.report(
      "Nesting too deep",
      `Objects and arrays are nested more than ${MAX_JSON_DEPTH} levels deep here; this value is ignored. Flatten the structure.`,
      open.start,
      open.end
    );
    return { type: "invalid", range: { start: open.start, end } };
  }
  // ---------------------------------------------------------------- strings
  /**
   * Decodes a string token. Problems (bad escapes, control characters, a
   * missing closing quote) are reported, and the string is still returned
   * with the problem characters kept as written so later stages can go on.
   */
  decodeString(tok) {
    const text = this.text;
    const start = tok.start;
    const end = tok.end;
    const terminated = end - start >= 2 && text.charCodeAt(end - 1) === 34 && !this.endsInsideEscape(start, end);
    const contentEnd = terminated ? end - 1 : end;
    if (!terminated) {
      this.unterminatedString = true;
      this.report(
        "Invalid JSON string",
        "This string has no closing double quote on its line. JSON strings cannot span lines; write a line break as \\n.",
        start,
        end
      );
    }
    let plain = true;
    for (let i = start + 1; i < contentEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 92 || c < 32) {
        plain = false;
        break;
      }
    }
    const value = plain ? text.slice(start + 1, contentEnd) : decodeContent(text, start + 1, contentEnd, null, (summary, detail, s, e) => this.report(summary, detail, s, e));
    return { type: "string", value, range: { start, end }, contentEnd, escaped: !plain };
  }
  /** True when the quote at end-1 is itself escaped (`"abc\"` unterminated). */
  endsInsideEscape(start, end) {
    let backslashes = 0;
    for (let i = end - 2; i > start && this.text.charCodeAt(i) === 92; i--) backslashes++;
    return backslashes % 2 === 1;
  }
};
function readJson(text) {
  return new Reader(text).readDocument();
}

// src/hcl/lexer.ts
var F_BRACE = 0;
var F_INTERP = 1;
var F_QUOTED = 2;
var F_HEREDOC = 3;
var RE_ID_START = /[\p{ID_Start}_]/u;
var RE_ID_CONTINUE = /[\p{ID_Continue}\-]/u;
function isAsciiIdStart(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90 || c === 95;
}
function isAsciiIdCont(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90 || c === 95 || c === 45 || c >= 48 && c <= 57;
}
function isDigit(c) {
  return c >= 48 && c <= 57;
}
function codePointAt(text, i) {
  return text.codePointAt(i) ?? 0;
}
function isIdStartAt(text, i) {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdStart(c) ? 1 : 0;
  const cp = codePointAt(text, i);
  const len = cp > 65535 ? 2 : 1;
  return RE_ID_START.test(String.fromCodePoint(cp)) ? len : 0;
}
function isIdContAt(text, i) {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdCont(c) ? 1 : 0;
  const cp = codePointAt(text, i);
  const len = cp > 65535 ? 2 : 1;
  return RE_ID_CONTINUE.test(String.fromCodePoint(cp)) ? len : 0;
}
function lex(text, template = false) {
  let cap = Math.max(64, text.length >> 2);
  let types = new Uint8Array(cap);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let count = 0;
  const heredocs = /* @__PURE__ */ new Map();
  const comments = [];
  const n = text.length;
  const stack = [];
  let i = 0;
  let lineHasCode = false;
  let heredocLineStart = false;
  if (template) stack.push({ kind: F_HEREDOC });
  const grow = () => {
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
  const emit = (ty, s, e) => {
    if (count + 2 >= cap) grow();
    types[count] = ty;
    starts[count] = s;
    ends[count] = e;
    count++;
  };
  const pushComment = (style, s, textEnd, tokEnd, newline) => {
    comments.push({
      style,
      text: text.slice(s, textEnd),
      // Range filled in by the parser (needs line index); keep offsets here.
      range: { start: { line: 0, column: 0, offset: s }, end: { line: 0, column: 0, offset: textEnd } },
      ownLine: !lineHasCode
    });
    if (newline) emit(1 /* Newline */, s, tokEnd);
  };
  while (i < n) {
    const top = stack.length > 0 ? stack[stack.length - 1] : void 0;
    if (top !== void 0 && top.kind === F_QUOTED) {
      i = lexQuoted(i);
      continue;
    }
    if (top !== void 0 && top.kind === F_HEREDOC) {
      i = lexHeredoc(i, top);
      continue;
    }
    const c = text.charCodeAt(i);
    switch (c) {
      case 32:
      // space
      case 9:
        i++;
        continue;
      case 10:
        emit(1 /* Newline */, i, i + 1);
        i++;
        lineHasCode = false;
        continue;
      case 13:
        if (text.charCodeAt(i + 1) === 10) {
          emit(1 /* Newline */, i, i + 2);
          i += 2;
          lineHasCode = false;
          continue;
        }
        emit(51 /* Invalid */, i, i + 1);
        i++;
        lineHasCode = true;
        continue;
      case 35:
        i = lineComment(i, "#");
        continue;
      case 47:
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
              ownLine: !lineHasCode
            });
            i = close + 2;
            continue;
          }
        }
        emit(20 /* Slash */, i, i + 1);
        i++;
        lineHasCode = true;
        continue;
      case 34:
        emit(10 /* OQuote */, i, i + 1);
        stack.push({ kind: F_QUOTED });
        i++;
        lineHasCode = true;
        continue;
      case 123:
        emit(4 /* OBrace */, i, i + 1);
        stack.push({ kind: F_BRACE });
        i++;
        lineHasCode = true;
        continue;
      case 125:
        lineHasCode = true;
        if (top !== void 0 && top.kind === F_INTERP) {
          stack.pop();
          emit(18 /* TemplateSeqEnd */, i, i + 1);
          if (stack.length > 0 && stack[stack.length - 1].kind === F_HEREDOC) heredocLineStart = false;
        } else {
          if (top !== void 0 && top.kind === F_BRACE) stack.pop();
          emit(5 /* CBrace */, i, i + 1);
        }
        i++;
        continue;
      case 126:
        lineHasCode = true;
        if (text.charCodeAt(i + 1) === 125) {
          if (top !== void 0 && top.kind === F_INTERP) {
            stack.pop();
            if (stack.length > 0 && stack[stack.length - 1].kind === F_HEREDOC) heredocLineStart = false;
          } else if (top !== void 0 && top.kind === F_BRACE) {
            stack.pop();
          }
          emit(18 /* TemplateSeqEnd */, i, i + 2);
          i += 2;
          continue;
        }
        emit(44 /* BitwiseNot */, i, i + 1);
        i++;
        continue;
      case 60:
        lineHasCode = true;
        if (text.charCodeAt(i + 1) === 60) {
          const hd = tryHeredocStart(i);
          if (hd > 0) {
            i = hd;
            continue;
          }
        }
        if (text.charCodeAt(i + 1) === 61) {
          emit(28 /* LessThanEq */, i, i + 2);
          i += 2;
        } else {
          emit(27 /* LessThan */, i, i + 1);
          i++;
        }
        continue;
    }
    lineHasCode = true;
    if (isDigit(c)) {
      i = lexNumber(i);
      continue;
    }
    const idLen = isIdStartAt(text, i);
    if (idLen > 0) {
      let j = i + idLen;
      for (; ; ) {
        const cc = text.charCodeAt(j);
        if (cc < 128) {
          if (j < n && isAsciiIdCont(cc)) {
            j++;
            continue;
          }
          break;
        }
        const l = isIdContAt(text, j);
        if (l === 0) break;
        j += l;
      }
      emit(2 /* Ident */, i, j);
      i = j;
      continue;
    }
    const c1 = text.charCodeAt(i + 1);
    switch (c) {
      case 91:
        emit(6 /* OBrack */, i, i + 1);
        i++;
        continue;
      case 93:
        emit(7 /* CBrack */, i, i + 1);
        i++;
        continue;
      case 40:
        emit(8 /* OParen */, i, i + 1);
        i++;
        continue;
      case 41:
        emit(9 /* CParen */, i, i + 1);
        i++;
        continue;
      case 44:
        emit(35 /* Comma */, i, i + 1);
        i++;
        continue;
      case 46:
        if (c1 === 46 && text.charCodeAt(i + 2) === 46) {
          emit(36 /* Ellipsis */, i, i + 3);
          i += 3;
        } else {
          emit(34 /* Dot */, i, i + 1);
          i++;
        }
        continue;
      case 61:
        if (c1 === 61) {
          emit(25 /* EqualOp */, i, i + 2);
          i += 2;
        } else if (c1 === 62) {
          emit(37 /* FatArrow */, i, i + 2);
          i += 2;
        } else {
          emit(24 /* Equal */, i, i + 1);
          i++;
        }
        continue;
      case 33:
        if (c1 === 61) {
          emit(26 /* NotEqual */, i, i + 2);
          i += 2;
        } else {
          emit(33 /* Bang */, i, i + 1);
          i++;
        }
        continue;
      case 62:
        if (c1 === 61) {
          emit(30 /* GreaterThanEq */, i, i + 2);
          i += 2;
        } else {
          emit(29 /* GreaterThan */, i, i + 1);
          i++;
        }
        continue;
      case 38:
        if (c1 === 38) {
          emit(31 /* And */, i, i + 2);
          i += 2;
        } else {
          emit(41 /* BitwiseAnd */, i, i + 1);
          i++;
        }
        continue;
      case 124:
        if (c1 === 124) {
          emit(32 /* Or */, i, i + 2);
          i += 2;
        } else {
          emit(42 /* BitwiseOr */, i, i + 1);
          i++;
        }
        continue;
      case 94:
        emit(43 /* BitwiseXor */, i, i + 1);
        i++;
        continue;
      case 42:
        emit(19 /* Star */, i, i + 1);
        i++;
        continue;
      case 43:
        emit(21 /* Plus */, i, i + 1);
        i++;
        continue;
      case 45:
        emit(22 /* Minus */, i, i + 1);
        i++;
        continue;
      case 37:
        emit(23 /* Percent */, i, i + 1);
        i++;
        continue;
      case 63:
        emit(38 /* Question */, i, i + 1);
        i++;
        continue;
      case 58:
        emit(39 /* Colon */, i, i + 1);
        i++;
        continue;
      case 59:
        emit(46 /* Semicolon */, i, i + 1);
        i++;
        continue;
      case 96:
        emit(47 /* Backtick */, i, i + 1);
        i++;
        continue;
      case 39:
        emit(48 /* Apostrophe */, i, i + 1);
        i++;
        continue;
    }
    if (c >= 55296 && c <= 56319) {
      const d = text.charCodeAt(i + 1);
      if (d >= 56320 && d <= 57343) {
        emit(51 /* Invalid */, i, i + 2);
        i += 2;
        continue;
      }
      emit(50 /* BadUTF8 */, i, i + 1);
      i++;
      continue;
    }
    if (c >= 56320 && c <= 57343 || c === 65533) {
      emit(50 /* BadUTF8 */, i, i + 1);
      i++;
      continue;
    }
    emit(51 /* Invalid */, i, i + 1);
    i++;
  }
  emit(0 /* EOF */, n, n);
  starts.fill(n, count);
  ends.fill(n, count);
  return { types, starts, ends, heredocs, comments, count };
  function lineComment(s, style) {
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
  function lexNumber(s) {
    let j = s + 1;
    for (; ; ) {
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
    emit(3 /* NumberLit */, s, j);
    return j;
  }
  function isExp(j) {
    const e = text.charCodeAt(j);
    if (e !== 101 && e !== 69) return false;
    const sign = text.charCodeAt(j + 1);
    if (sign === 43 || sign === 45) return isDigit(text.charCodeAt(j + 2));
    return isDigit(sign);
  }
  function tryHeredocStart(s) {
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
    for (; ; ) {
      const l = isIdContAt(text, j);
      if (l === 0 || j >= n) break;
      j += l;
    }
    const me = j;
    let end;
    if (text.charCodeAt(j) === 10) end = j + 1;
    else if (text.charCodeAt(j) === 13 && text.charCodeAt(j + 1) === 10) end = j + 2;
    else return 0;
    const marker = text.slice(ms, me);
    heredocs.set(count, { marker, indented });
    emit(12 /* OHeredoc */, s, end);
    stack.push({ kind: F_HEREDOC, marker });
    heredocLineStart = true;
    lineHasCode = false;
    return end;
  }
  function lexQuoted(s) {
    const c = text.charCodeAt(s);
    if (c === 34) {
      emit(11 /* CQuote */, s, s + 1);
      stack.pop();
      return s + 1;
    }
    if (c === 10 || c === 13) {
      let j2 = s;
      for (; ; ) {
        if (text.charCodeAt(j2) === 10) j2++;
        else if (text.charCodeAt(j2) === 13 && text.charCodeAt(j2 + 1) === 10) j2 += 2;
        else if (text.charCodeAt(j2) === 13 && j2 === s) j2++;
        else break;
      }
      emit(49 /* QuotedNewline */, s, j2);
      lineHasCode = false;
      return j2;
    }
    if ((c === 36 || c === 37) && text.charCodeAt(s + 1) === 123) {
      return openInterp(s, c === 36 ? 16 /* TemplateInterp */ : 17 /* TemplateControl */);
    }
    if (isNewlineAt(s + 1)) {
      if (c === 36 || c === 37) {
        let j2 = s + 1;
        while (isNewlineAt(j2)) j2 += text.charCodeAt(j2) === 13 ? 2 : 1;
        emit(49 /* QuotedNewline */, s, j2);
        lineHasCode = false;
        return j2;
      }
      if (c === 92) {
        emit(51 /* Invalid */, s, s + 1);
        return s + 1;
      }
    }
    let j = s;
    while (j < n) {
      const cc = text.charCodeAt(j);
      if ((cc === 36 || cc === 37 || cc === 92) && j === n - 1) break;
      if (cc === 34 || cc === 10 || cc === 13) break;
      if (cc === 92) {
        if (isNewlineAt(j + 1)) break;
        j += 2;
        if (j > n) j = n;
        continue;
      }
      if (cc === 36 || cc === 37) {
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
      emit(51 /* Invalid */, s, s + 1);
      return s + 1;
    }
    emit(14 /* QuotedLit */, s, j);
    return j;
  }
  function isNewlineAt(j) {
    const cc = text.charCodeAt(j);
    return cc === 10 || cc === 13 && text.charCodeAt(j + 1) === 10;
  }
  function openInterp(s, ty) {
    let e = s + 2;
    if (text.charCodeAt(e) === 126) e++;
    emit(ty, s, e);
    stack.push({ kind: F_INTERP });
    lineHasCode = true;
    return e;
  }
  function lexHeredoc(s, frame) {
    if (heredocLineStart && frame.marker !== void 0) {
      let j2 = s;
      while (text.charCodeAt(j2) === 32 || text.charCodeAt(j2) === 9) j2++;
      const marker = frame.marker ?? "";
      if (text.startsWith(marker, j2)) {
        let k = j2 + marker.length;
        while (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9) k++;
        let nlEnd = -1;
        if (text.charCodeAt(k) === 10) nlEnd = k + 1;
        else if (text.charCodeAt(k) === 13 && text.charCodeAt(k + 1) === 10) nlEnd = k + 2;
        if (nlEnd > 0) {
          emit(13 /* CHeredoc */, s, k);
          emit(1 /* Newline */, k, nlEnd);
          stack.pop();
          heredocLineStart = false;
          lineHasCode = false;
          return nlEnd;
        }
      }
    }
    const c = text.charCodeAt(s);
    if ((c === 36 || c === 37) && text.charCodeAt(s + 1) === 123) {
      heredocLineStart = false;
      return openInterp(s, c === 36 ? 16 /* TemplateInterp */ : 17 /* TemplateControl */);
    }
    if (c === 13 && text.charCodeAt(s + 1) !== 10) {
      emit(51 /* Invalid */, s, n);
      return n;
    }
    let j = s;
    while (j < n) {
      const cc = text.charCodeAt(j);
      if (cc === 13 && text.charCodeAt(j + 1) !== 10) break;
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
      emit(51 /* Invalid */, s, s + 1);
      heredocLineStart = false;
      return s + 1;
    }
    emit(15 /* StringLit */, s, j);
    heredocLineStart = text.charCodeAt(j - 1) === 10;
    lineHasCode = !heredocLineStart;
    return j;
  }
}

// src/hcl/parser-core.ts
var MAX_DEPTH = 256;
var ParserState = class _ParserState {
  text;
  tk;
  types;
  starts;
  ends;
  li;
  /** Index of the next unread token (newlines/comments not yet skipped). */
  pos = 0;
  /** Index of the last token read. */
  prev = -1;
  nl = [true];
  recovery = false;
  diags = [];
  depth = 0;
  tooDeepReported = false;
  rangeCache;
  /**
   * Lenient mode (used to recover the items of an invalid one-line block):
   * body items may follow each other on the same line.
   */
  lenient = false;
  /**
   * Compatibility mode: reproduce the exact (sometimes odd) ranges
   * HashiCorp's parser reports after errors. Used by the outline.
   */
  compat = false;
  /** For a fork: the recovery flag of the parser it was forked from. */
  recoveryBefore = false;
  constructor(text, tk, li, includeNewlines = true, rangeCache) {
    this.text = text;
    this.tk = tk;
    this.types = tk.types;
    this.starts = tk.starts;
    this.ends = tk.ends;
    this.li = li;
    this.nl = [includeNewlines];
    this.rangeCache = rangeCache ?? new Array(tk.count);
  }
  /** A copy with its own position, mode stack and diagnostics (tokens shared). */
  fork() {
    const f = new _ParserState(this.text, this.tk, this.li, true, this.rangeCache);
    f.pos = this.pos;
    f.prev = this.prev;
    f.nl = this.nl.slice();
    f.recovery = this.recovery;
    f.depth = this.depth;
    f.tooDeepReported = this.tooDeepReported;
    f.compat = this.compat;
    f.recoveryBefore = this.recovery;
    return f;
  }
  pushNL(include) {
    this.nl.push(include);
  }
  popNL() {
    if (this.nl.length > 1) this.nl.pop();
  }
  /** Index of the next significant token. */
  peek() {
    let i = this.pos;
    if (!this.nl[this.nl.length - 1]) {
      const types = this.types;
      while (types[i] === 1 /* Newline */) i++;
    }
    return i;
  }
  peekType() {
    return this.types[this.peek()];
  }
  read() {
    const i = this.peek();
    this.pos = this.types[i] === 0 /* EOF */ ? i : i + 1;
    this.prev = i;
    return i;
  }
  /**
   * The range of token i. Ranges are cached per token and shared between
   * nodes (treat ranges and positions as immutable).
   */
  tokRange(i) {
    let r = this.rangeCache[i];
    if (r === void 0) {
      r = this.li.range(this.starts[i], this.ends[i]);
      this.rangeCache[i] = r;
    }
    return r;
  }
  tokText(i) {
    return this.text.slice(this.starts[i], this.ends[i]);
  }
  nextRange() {
    return this.tokRange(this.peek());
  }
  prevRange() {
    if (this.prev < 0) return this.li.range(0, 0);
    return this.tokRange(this.prev);
  }
  isKeyword(i, kw) {
    if (this.types[i] !== 2 /* Ident */) return false;
    const s = this.starts[i];
    return this.ends[i] - s === kw.length && this.text.startsWith(kw, s);
  }
  error(summary, detail, subject, extra) {
    const d = { severity: "error", summary, detail, subject, ...extra };
    this.diags.push(d);
    return d;
  }
  /** Reports unless in recovery mode. */
  errorUnlessRecovering(summary, detail, subject, extra) {
    if (!this.recovery) this.error(summary, detail, subject, extra);
  }
  /** Number of diagnostics so far; compare to detect errors in a sub-parse. */
  mark() {
    return this.diags.length;
  }
  hasErrorsSince(mark) {
    for (let i = mark; i < this.diags.length; i++) if (this.diags[i].severity === "error") return true;
    return false;
  }
  opposite(ty) {
    switch (ty) {
      case 4 /* OBrace */:
        return 5 /* CBrace */;
      case 5 /* CBrace */:
        return 4 /* OBrace */;
      case 6 /* OBrack */:
        return 7 /* CBrack */;
      case 7 /* CBrack */:
        return 6 /* OBrack */;
      case 8 /* OParen */:
        return 9 /* CParen */;
      case 9 /* CParen */:
        return 8 /* OParen */;
      case 10 /* OQuote */:
        return 11 /* CQuote */;
      case 11 /* CQuote */:
        return 10 /* OQuote */;
      case 12 /* OHeredoc */:
        return 13 /* CHeredoc */;
      case 13 /* CHeredoc */:
        return 12 /* OHeredoc */;
      case 16 /* TemplateInterp */:
      case 17 /* TemplateControl */:
        return 18 /* TemplateSeqEnd */;
      case 18 /* TemplateSeqEnd */:
        return 16 /* TemplateInterp */;
      default:
        return -1;
    }
  }
  /**
   * Skips to the token `end` (balancing nested pairs of its bracket kind) and
   * returns its index, leaving the peeker after it; stops at EOF.
   */
  recover(end) {
    const start = this.opposite(end);
    this.recovery = true;
    let nest = 0;
    for (; ; ) {
      const i = this.read();
      let ty = this.types[i];
      if (end === 18 /* TemplateSeqEnd */ && ty === 17 /* TemplateControl */) ty = 16 /* TemplateInterp */;
      if (ty === start) nest++;
      else if (ty === end) {
        if (nest < 1) return i;
        nest--;
      } else if (ty === 0 /* EOF */) return i;
    }
  }
  /** Skips to the end of the current body item (a newline outside brackets). */
  recoverAfterBodyItem() {
    this.recovery = true;
    const open = [];
    for (; ; ) {
      const i = this.read();
      const ty = this.types[i];
      switch (ty) {
        case 1 /* Newline */:
          if (open.length === 0) return;
          break;
        case 0 /* EOF */:
          return;
        case 4 /* OBrace */:
        case 6 /* OBrack */:
        case 8 /* OParen */:
        case 10 /* OQuote */:
        case 12 /* OHeredoc */:
        case 16 /* TemplateInterp */:
        case 17 /* TemplateControl */:
          open.push(ty);
          break;
        case 5 /* CBrace */:
        case 7 /* CBrack */:
        case 9 /* CParen */:
        case 11 /* CQuote */:
        case 13 /* CHeredoc */: {
          const opener = this.opposite(ty);
          while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
          if (open.length > 0) open.pop();
          break;
        }
        case 18 /* TemplateSeqEnd */:
          while (open.length > 0 && open[open.length - 1] !== 16 /* TemplateInterp */ && open[open.length - 1] !== 17 /* TemplateControl */) open.pop();
          if (open.length > 0) open.pop();
          break;
      }
    }
  }
  /**
   * Enters one nesting level; returns false (after reporting once and
   * skipping to the end of input) when the nesting limit is exceeded.
   */
  enter(at) {
    if (this.depth >= MAX_DEPTH) {
      if (!this.tooDeepReported) {
        this.tooDeepReported = true;
        this.error(
          "Nesting too deep",
          `Brackets, blocks and templates are nested more than ${MAX_DEPTH} levels deep here; the rest of the file was not parsed. Flatten the structure, for example with locals.`,
          at,
          { code: "nesting-too-deep" }
        );
      }
      this.recovery = true;
      this.pos = this.tk.count - 1;
      return false;
    }
    this.depth++;
    return true;
  }
  leave() {
    this.depth--;
  }
  invalid(range) {
    return { kind: "Invalid", range };
  }
};

// src/hcl/parser-template.ts
function span(a, b) {
  return { start: a.start, end: b.end };
}
function isSpace(c) {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 133 || c === 160 || c >= 8192 && c <= 8202 || c === 5760 || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288;
}
function trimLeftSpace(s) {
  let i = 0;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}
function trimRightSpace(s) {
  let i = s.length;
  while (i > 0 && isSpace(s.charCodeAt(i - 1))) i--;
  return i === s.length ? s : s.slice(0, i);
}
function isHex(c) {
  return c >= 48 && c <= 57 || c >= 97 && c <= 102 || c >= 65 && c <= 70;
}
function decodeLiteral(p, text, s, e, quoted, diags) {
  let needs = false;
  for (let i2 = s; i2 < e; i2++) {
    const c = text.charCodeAt(i2);
    if (quoted && c === 92 || c === 36 || c === 37) {
      needs = true;
      break;
    }
  }
  if (!needs) return text.slice(s, e);
  const out = [];
  let runStart = s;
  let i = s;
  const rangeOf = (a, b) => p !== null ? p.li.range(a, b) : { start: { line: 0, column: 0, offset: a }, end: { line: 0, column: 0, offset: b } };
  while (i < e) {
    const c = text.charCodeAt(i);
    if ((c === 36 || c === 37) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === 123 && i + 2 < e) {
      out.push(text.slice(runStart, i + 1));
      i += 2;
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
          subject: rangeOf(i, i + 1)
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
          out.push("	");
          break;
        case 34:
          out.push('"');
          break;
        case 92:
          out.push("\\");
          break;
        case 117:
        // u
        case 85: {
          const want = sel === 117 ? 4 : 8;
          let k = 0;
          while (k < want && i + 2 + k < e && isHex(text.charCodeAt(i + 2 + k))) k++;
          if (k < want) {
            diags.push({
              severity: "error",
              summary: "Invalid escape sequence",
              detail: `\\${String.fromCharCode(sel)} must be followed by exactly ${want} hexadecimal digits.`,
              subject: rangeOf(i, i + 2 + k)
            });
            consumed = 2 + k;
            break;
          }
          const cp = parseInt(text.slice(i + 2, i + 2 + want), 16);
          if (cp > 1114111 || cp >= 55296 && cp <= 57343) {
            diags.push({
              severity: "error",
              summary: "Invalid escape sequence",
              detail: "The escape names a code point that is not a valid Unicode character.",
              subject: rangeOf(i, i + 2 + want)
            });
          } else {
            out.push(String.fromCodePoint(cp));
          }
          consumed = 2 + want;
          break;
        }
        default: {
          const ch = firstGrapheme(text.slice(i + 1, Math.min(e, i + 17)));
          diags.push({
            severity: "error",
            summary: "Invalid escape sequence",
            detail: `\`\\${ch}\` is not an escape; use \`\\\\\` for a literal backslash.`,
            subject: rangeOf(i, i + 1 + ch.length)
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
var segmenter;
function firstGrapheme(s) {
  const c = s.charCodeAt(0);
  const simple = s.length === 1 || c < 768 && s.charCodeAt(1) < 768;
  if (simple) return s.slice(0, 1);
  segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  for (const seg of segmenter.segment(s)) return seg.segment;
  return s.slice(0, 1);
}
function parseTemplateAfterOpen(p, open) {
  const isHeredoc = p.types[open] === 12 /* OHeredoc */;
  const end = isHeredoc ? 13 /* CHeredoc */ : 11 /* CQuote */;
  const hd = isHeredoc ? p.tk.heredocs.get(open) : void 0;
  const openRange = p.tokRange(open);
  const flat = parseTemplateParts(p, end, isHeredoc);
  if (hd?.indented) flushHeredoc(flat);
  const closeRange = p.prevRange();
  const range = span(openRange, closeRange);
  const form = isHeredoc ? "heredoc" : "quoted";
  const passthru = flat.length === 2 && flat[0].t === "interp";
  const parts = buildTemplateParts(p, flat);
  if (passthru && flat[0].t === "interp") {
    return { kind: "TemplateWrap", wrapped: flat[0].expr, form, range };
  }
  const tmpl = { kind: "Template", parts, form, range };
  if (hd !== void 0) tmpl.heredoc = { marker: hd.marker, indented: hd.indented };
  return tmpl;
}
function parseTemplateParts(p, end, heredoc) {
  const parts = [];
  const startRange = p.nextRange();
  let ltrimNext = false;
  let nextCanTrimPrev = false;
  let endRange;
  for (; ; ) {
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
    if (ty === 14 /* QuotedLit */ || ty === 15 /* StringLit */) {
      let value = decodeLiteral(p, p.text, p.starts[next], p.ends[next], ty === 14 /* QuotedLit */, p.diags);
      if (ltrim) value = trimLeftSpace(value);
      parts.push({ t: "lit", value, range: p.tokRange(next), line: ty === 15 /* StringLit */ });
      nextCanTrimPrev = true;
      continue;
    }
    if (ty === 16 /* TemplateInterp */ || ty === 17 /* TemplateControl */) {
      const openTxt = p.tokText(next);
      const stripLeft = openTxt.length === 3;
      if (canTrimPrev && stripLeft && parts.length > 0) {
        const prev = parts[parts.length - 1];
        if (prev.t === "lit") prev.value = trimRightSpace(prev.value);
      }
      const nextRange = p.tokRange(next);
      if (!p.enter(nextRange)) {
        endRange = p.prevRange();
        break;
      }
      p.pushNL(false);
      if (ty === 16 /* TemplateInterp */) {
        const expr = parseExpression(p);
        const close2 = p.peek();
        const cty = p.types[close2];
        let stripRight = false;
        if (cty !== 18 /* TemplateSeqEnd */) {
          if (!p.recovery) {
            if (cty === 0 /* EOF */) {
              p.error("Unclosed template interpolation sequence", "The file ends inside this `${`; add the closing `}`.", startRange);
            } else if (cty === 39 /* Colon */) {
              p.error(
                "Extra characters after interpolation expression",
                "A colon cannot follow an interpolated expression. If this is meant for another language, escape the opening as `$${`.",
                p.tokRange(close2)
              );
            } else if ((cty === 11 /* CQuote */ || cty === 10 /* OQuote */) && end === 11 /* CQuote */) {
              p.error("Unclosed template interpolation sequence", "The string ends inside this `${`; add the closing `}`.", startRange);
            } else {
              p.error(
                "Extra characters after interpolation expression",
                "Only one expression may appear between `${` and `}`. If this is meant for another language (a shell script, for instance), escape the opening as `$${`.",
                p.tokRange(close2)
              );
            }
          }
          p.recover(18 /* TemplateSeqEnd */);
        } else {
          p.read();
          if (p.ends[close2] - p.starts[close2] === 2) {
            ltrimNext = true;
            stripRight = true;
          }
        }
        p.popNL();
        p.leave();
        parts.push({ t: "interp", expr, range: span(nextRange, p.tokRange(close2)), stripLeft, stripRight });
        continue;
      }
      const kw = p.peek();
      if (p.types[kw] !== 2 /* Ident */) {
        p.errorUnlessRecovering(
          "Invalid template directive",
          "`%{` must be followed by a directive keyword: if, else, endif, for or endfor.",
          p.tokRange(kw)
        );
        p.recover(18 /* TemplateSeqEnd */);
        p.popNL();
        p.leave();
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
        const forErr = (detail) => p.errorUnlessRecovering("Invalid 'for' directive", detail, p.nextRange());
        if (p.peekType() !== 2 /* Ident */) {
          forErr("`for` must be followed by a variable name.");
        } else {
          let keyVar = null;
          let valVar = p.tokText(p.read());
          let good = true;
          if (p.peekType() === 35 /* Comma */) {
            keyVar = valVar;
            p.read();
            if (p.peekType() !== 2 /* Ident */) {
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
          p.recover(18 /* TemplateSeqEnd */);
          p.popNL();
          p.leave();
          continue;
        }
      } else {
        const known = ["if", "for", "else", "endif", "endfor"];
        const guess = known.find((k) => editDistance(k, word) <= 2);
        p.errorUnlessRecovering(
          "Invalid template control keyword",
          `\`${word}\` is not a template directive.${guess !== void 0 ? ` Did you mean \`${guess}\`?` : ""}`,
          p.tokRange(kw)
        );
        p.recover(18 /* TemplateSeqEnd */);
        p.popNL();
        p.leave();
        continue;
      }
      const close = p.peek();
      if (p.types[close] !== 18 /* TemplateSeqEnd */) {
        p.errorUnlessRecovering(`Extra characters in ${word} marker`, "Close the directive with `}` right after its expression.", p.tokRange(close));
        p.recover(18 /* TemplateSeqEnd */);
      } else {
        p.read();
        if (p.ends[close] - p.starts[close] === 2) ltrimNext = true;
      }
      p.popNL();
      p.leave();
      continue;
    }
    p.errorUnlessRecovering(
      "Unterminated template string",
      heredoc ? "The heredoc has no closing marker line; add one with the marker word alone on its line." : "The string is never closed; add the closing quote.",
      p.tokRange(next)
    );
    const fin = p.recover(end);
    endRange = p.tokRange(fin);
    break;
  }
  if (parts.length === 0) {
    parts.push({ t: "lit", value: "", range: { start: startRange.start, end: startRange.start }, line: false });
  }
  parts.push({ t: "end", range: endRange });
  return parts;
}
function editDistance(a, b) {
  const dp = [];
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
function flushHeredoc(parts) {
  let minSpaces = Number.MAX_SAFE_INTEGER;
  let newline = true;
  const adjust = [];
  for (const part of parts) {
    if (newline) {
      newline = false;
      let spaces;
      if (part.t === "lit") {
        const trimmed = trimLeftSpace(part.value);
        if (trimmed.length === 0 && part.value.endsWith("\n")) {
          spaces = Number.MAX_SAFE_INTEGER;
        } else {
          spaces = countChars(part.value.slice(0, part.value.length - trimmed.length));
          adjust.push(part);
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
  if (minSpaces === Number.MAX_SAFE_INTEGER) return;
  for (const lit of adjust) {
    const cut = codeUnitsForChars(lit.value, minSpaces);
    lit.value = lit.value.slice(cut);
    const st = lit.range.start;
    lit.range = { start: { line: st.line, column: st.column + cut, offset: st.offset + cut }, end: lit.range.end };
  }
}
function countChars(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 56320 && c <= 57343) continue;
    n++;
  }
  return n;
}
function codeUnitsForChars(s, chars) {
  let i = 0;
  let n = 0;
  while (i < s.length && n < chars) {
    const c = s.charCodeAt(i);
    i += c >= 55296 && c <= 56319 ? 2 : 1;
    n++;
  }
  return i;
}
function buildTemplateParts(p, flat) {
  let simple = true;
  for (const f of flat) {
    if (f.t !== "lit" && f.t !== "interp" && f.t !== "end") {
      simple = false;
      break;
    }
  }
  if (simple) {
    const out = [];
    for (const f of flat) {
      if (f.t === "lit") out.push({ kind: "TemplateLiteral", value: f.value, range: f.range });
      else if (f.t === "interp") out.push({ kind: "TemplateInterp", expr: f.expr, range: f.range, stripLeft: f.stripLeft, stripRight: f.stripRight });
    }
    return out;
  }
  let idx = 0;
  const err = (summary, detail, subject) => {
    p.error(summary, detail, subject);
  };
  const keep = (part, out) => {
    if (!p.compat) out.push(part);
  };
  const parseElem = (out) => {
    const f = flat[idx];
    switch (f.t) {
      case "lit":
        idx++;
        out.push({ kind: "TemplateLiteral", value: f.value, range: f.range });
        return;
      case "interp":
        idx++;
        out.push({ kind: "TemplateInterp", expr: f.expr, range: f.range, stripLeft: f.stripLeft, stripRight: f.stripRight });
        return;
      case "if":
        parseIf(f, out);
        return;
      case "for":
        parseFor(f, out);
        return;
      case "end":
        idx++;
        err("Unexpected end of template", "The template directives are not balanced.", f.range);
        return;
      default:
        idx++;
        err(`Unexpected ${f.t} directive`, "This directive has no matching opening `%{ if }` or `%{ for }`.", f.range);
        return;
    }
  };
  const parseIf = (f, out) => {
    idx++;
    const thenParts = [];
    let elseParts = null;
    let cur = thenParts;
    for (; ; ) {
      const next = flat[idx];
      const partial = (end) => ({
        kind: "TemplateIf",
        condition: f.cond,
        then: thenParts,
        else: elseParts,
        range: span(f.range, end)
      });
      if (next.t === "end") {
        err("Unexpected end of template", `The \`%{ if }\` on line ${f.range.start.line} has no matching \`%{ endif }\`.`, next.range);
        keep(partial(next.range), out);
        return;
      }
      if (next.t === "else" || next.t === "endif" || next.t === "endfor") {
        idx++;
        if (next.t === "else" && cur === thenParts) {
          elseParts = [];
          cur = elseParts;
          continue;
        }
        if (next.t === "endif") {
          out.push(partial(next.range));
          return;
        }
        if (next.t === "else") {
          err("Unexpected else directive", `The \`%{ if }\` on line ${f.range.start.line} already has an \`%{ else }\`.`, next.range);
        } else {
          err("Unexpected endfor directive", `An \`%{ endif }\` is needed first, for the \`%{ if }\` on line ${f.range.start.line}.`, next.range);
        }
        keep(partial(next.range), out);
        return;
      }
      parseElem(cur);
    }
  };
  const parseFor = (f, out) => {
    idx++;
    const body = [];
    for (; ; ) {
      const next = flat[idx];
      const partial = (end) => ({
        kind: "TemplateFor",
        keyVar: f.keyVar,
        valVar: f.valVar,
        collection: f.coll,
        body,
        range: span(f.range, end)
      });
      if (next.t === "end") {
        err("Unexpected end of template", `The \`%{ for }\` on line ${f.range.start.line} has no matching \`%{ endfor }\`.`, next.range);
        keep(partial(next.range), out);
        return;
      }
      if (next.t === "else" || next.t === "endif" || next.t === "endfor") {
        idx++;
        if (next.t === "endfor") {
          out.push(partial(next.range));
          return;
        }
        if (next.t === "else") {
          err("Unexpected else directive", "A `%{ for }` directive has no `%{ else }` clause.", next.range);
        } else {
          err("Unexpected endif directive", `An \`%{ endfor }\` is needed first, for the \`%{ for }\` on line ${f.range.start.line}.`, next.range);
        }
        keep(partial(next.range), out);
        return;
      }
      parseElem(body);
    }
  };
  const all = [];
  while (flat[idx].t !== "end") parseElem(all);
  return all;
}

// src/hcl/parser-expr.ts
var BINARY_LEVELS = [
  /* @__PURE__ */ new Map([[32 /* Or */, "||"]]),
  /* @__PURE__ */ new Map([[31 /* And */, "&&"]]),
  /* @__PURE__ */ new Map([
    [25 /* EqualOp */, "=="],
    [26 /* NotEqual */, "!="]
  ]),
  /* @__PURE__ */ new Map([
    [29 /* GreaterThan */, ">"],
    [30 /* GreaterThanEq */, ">="],
    [27 /* LessThan */, "<"],
    [28 /* LessThanEq */, "<="]
  ]),
  /* @__PURE__ */ new Map([
    [21 /* Plus */, "+"],
    [22 /* Minus */, "-"]
  ]),
  /* @__PURE__ */ new Map([
    [19 /* Star */, "*"],
    [20 /* Slash */, "/"],
    [23 /* Percent */, "%"]
  ])
];
var ZERO_RANGE = { start: { line: 0, column: 0, offset: 0 }, end: { line: 0, column: 0, offset: 0 } };
function span2(a, b) {
  return { start: a.start, end: b.end };
}
function parseExpression(p) {
  return parseTernary(p);
}
function parseTernary(p) {
  const startTok = p.peek();
  const m0 = p.mark();
  const cond = parseBinary(p, 0);
  if (p.recovery && p.hasErrorsSince(m0)) return cond;
  if (p.peekType() !== 38 /* Question */) return cond;
  p.read();
  const m1 = p.mark();
  const t = parseExpression(p);
  if (p.recovery && p.hasErrorsSince(m1)) return cond;
  const colon = p.peek();
  if (p.types[colon] !== 39 /* Colon */) {
    p.error(
      "Missing false expression in conditional",
      "A conditional expression needs both results: write `condition ? true_value : false_value`.",
      p.tokRange(colon)
    );
    return cond;
  }
  p.read();
  const m2 = p.mark();
  const f = parseExpression(p);
  if (p.recovery && p.hasErrorsSince(m2)) return cond;
  return { kind: "Conditional", condition: cond, trueResult: t, falseResult: f, range: span2(p.tokRange(startTok), f.range) };
}
function parseBinary(p, level) {
  if (level >= BINARY_LEVELS.length) return parseWithTraversals(p);
  const ops = BINARY_LEVELS[level];
  const m0 = p.mark();
  let lhs = parseBinary(p, level + 1);
  if (p.recovery && p.hasErrorsSince(m0)) return lhs;
  let op;
  let rhs;
  for (; ; ) {
    const next = ops.get(p.peekType());
    if (next === void 0) break;
    if (op !== void 0 && rhs !== void 0) {
      lhs = { kind: "BinaryOp", op, lhs, rhs, range: span2(lhs.range, rhs.range) };
    }
    op = next;
    p.read();
    const m1 = p.mark();
    rhs = parseBinary(p, level + 1);
    if (p.recovery && p.hasErrorsSince(m1)) return lhs;
  }
  if (op === void 0 || rhs === void 0) return lhs;
  return { kind: "BinaryOp", op, lhs, rhs, range: span2(lhs.range, rhs.range) };
}
function parseWithTraversals(p) {
  const term = parseTerm(p);
  return parseTraversals(p, term);
}
function makeRelative(expr, step, rng) {
  if (expr.kind === "ScopeTraversal" || expr.kind === "RelativeTraversal") {
    expr.traversal.push(step);
    expr.range = span2(expr.range, rng);
    return expr;
  }
  const rel = { kind: "RelativeTraversal", source: expr, traversal: [step], range: span2(expr.range, rng) };
  return rel;
}
var RE_NUMBER = /^\d+(\.\d*)?([eE][+-]?\d+)?$/;
function numberValue(p, tok) {
  const raw = p.tokText(tok);
  if (!RE_NUMBER.test(raw)) {
    p.error("Invalid number literal", `\`${raw}\` is not a valid number.`, p.tokRange(tok));
    return Number.NaN;
  }
  const v = Number(raw);
  return Number.isFinite(v) ? v : Number.MAX_VALUE;
}
function parseTraversals(p, from) {
  let ret = from;
  for (; ; ) {
    const nextTy = p.peekType();
    if (nextTy === 34 /* Dot */) {
      const dot = p.read();
      const dotRange = p.tokRange(dot);
      const attr = p.peek();
      const aty = p.types[attr];
      if (aty === 2 /* Ident */) {
        p.read();
        const rng = span2(dotRange, p.tokRange(attr));
        ret = makeRelative(ret, { kind: "TraverseAttr", name: p.tokText(attr), range: rng }, rng);
      } else if (aty === 3 /* NumberLit */) {
        p.read();
        const raw = p.tokText(attr);
        const rng = span2(dotRange, p.tokRange(attr));
        const dotIdx = raw.indexOf(".");
        if (dotIdx >= 0) {
          p.error(
            "Invalid legacy index syntax",
            `Two legacy numeric indexes cannot be chained; write [${raw.slice(0, dotIdx)}][${raw.slice(dotIdx + 1)}] instead.`,
            p.tokRange(attr)
          );
          ret = makeRelative(ret, { kind: "TraverseIndex", key: Number.NaN, range: rng }, rng);
        } else {
          ret = makeRelative(ret, { kind: "TraverseIndex", key: numberValue(p, attr), range: rng }, rng);
        }
      } else if (aty === 19 /* Star */) {
        ret = finishAttrSplat(p, ret, dot, attr);
      } else {
        p.error("Invalid attribute name", "A dot must be followed by an attribute name.", p.tokRange(attr));
        p.recovery = true;
      }
      continue;
    }
    if (nextTy === 6 /* OBrack */) {
      const open = p.read();
      const openRange = p.tokRange(open);
      if (p.peekType() === 19 /* Star */) {
        p.read();
        let close2 = p.read();
        if (p.types[close2] !== 7 /* CBrack */ && !p.recovery) {
          const d = p.error("Missing close bracket on splat index", "A full splat `[*]` must be closed right after the star.", p.tokRange(close2));
          close2 = p.recover(7 /* CBrack */);
          d.subject = p.tokRange(close2);
        }
        const marker = span2(openRange, p.tokRange(close2));
        const item = { kind: "AnonSymbol", range: marker };
        const each = parseTraversals(p, item);
        ret = {
          kind: "Splat",
          source: ret,
          each,
          item,
          markerRange: marker,
          style: "full",
          range: span2(from.range, each.range)
        };
        continue;
      }
      if (!p.enter(openRange)) return ret;
      p.pushNL(false);
      const m = p.mark();
      const key = parseExpression(p);
      let close;
      if (p.recovery && p.hasErrorsSince(m)) {
        close = p.recover(7 /* CBrack */);
      } else {
        close = p.read();
        if (p.types[close] !== 7 /* CBrack */ && !p.recovery) {
          const d = p.error("Missing close bracket on index", "An index must be closed with `]`.", p.tokRange(close));
          close = p.recover(7 /* CBrack */);
          d.subject = p.tokRange(close);
        }
      }
      p.popNL();
      p.leave();
      const rng = span2(openRange, p.tokRange(close));
      const lit = literalKey(key);
      if (lit !== void 0) {
        ret = makeRelative(ret, { kind: "TraverseIndex", key: lit, range: rng }, rng);
      } else {
        ret = { kind: "Index", collection: ret, key, bracketRange: rng, range: span2(from.range, rng) };
      }
      continue;
    }
    return ret;
  }
}
function literalKey(key) {
  if (key.kind === "LiteralValue") {
    if (key.type === "number" || key.type === "string") return key.value;
    return Number.NaN;
  }
  if (key.kind === "Invalid") return Number.NaN;
  if (key.kind === "Template" && key.parts.length === 1 && key.parts[0].kind === "TemplateLiteral") return key.parts[0].value;
  return void 0;
}
function finishAttrSplat(p, ret, dot, attrTok) {
  const marker = p.read();
  const trav = [];
  const firstRange = p.nextRange();
  let lastRange = p.tokRange(marker);
  const dotRange = p.tokRange(dot);
  while (p.peekType() === 34 /* Dot */) {
    const d = p.read();
    const dr = p.tokRange(d);
    if (p.peekType() === 3 /* NumberLit */) {
      const num = p.read();
      const raw = p.tokText(num);
      const dotIdx = raw.indexOf(".");
      if (dotIdx >= 0) {
        p.error(
          "Invalid legacy index syntax",
          `Two legacy numeric indexes cannot be chained; use a full splat with [${raw.slice(0, dotIdx)}][${raw.slice(dotIdx + 1)}] instead.`,
          p.tokRange(attrTok)
        );
        trav.push({ kind: "TraverseIndex", key: Number.NaN, range: span2(dr, p.tokRange(num)) });
      } else {
        trav.push({ kind: "TraverseIndex", key: numberValue(p, num), range: span2(dr, p.tokRange(num)) });
      }
      lastRange = p.tokRange(num);
      continue;
    }
    if (p.peekType() !== 2 /* Ident */) {
      if (!p.recovery) {
        if (p.peekType() === 19 /* Star */) {
          p.error("Nested splat expression not allowed", "A `.*` splat cannot contain another splat; use `[*]` instead.", p.nextRange());
        } else {
          p.error("Invalid attribute name", "A dot must be followed by an attribute name.", p.tokRange(attrTok));
        }
      }
      p.recovery = true;
      return ret;
    }
    const a = p.read();
    trav.push({ kind: "TraverseAttr", name: p.tokText(a), range: span2(dr, p.tokRange(a)) });
    lastRange = p.tokRange(a);
  }
  const markerRange = span2(dotRange, p.tokRange(marker));
  const item = { kind: "AnonSymbol", range: markerRange };
  const each = trav.length === 0 ? item : { kind: "RelativeTraversal", source: item, traversal: trav, range: span2(firstRange, lastRange) };
  return { kind: "Splat", source: ret, each, item, markerRange, style: "attr", range: span2(ret.range, lastRange) };
}
function parseTerm(p) {
  const start = p.peek();
  const ty = p.types[start];
  const startRange = p.tokRange(start);
  switch (ty) {
    case 8 /* OParen */: {
      p.read();
      if (!p.enter(startRange)) return p.invalid(startRange);
      p.pushNL(false);
      const m = p.mark();
      const inner = parseExpression(p);
      if (p.hasErrorsSince(m)) {
        p.recover(9 /* CParen */);
        p.popNL();
        p.leave();
        return inner;
      }
      const close = p.peek();
      if (p.types[close] !== 9 /* CParen */) {
        p.error("Unbalanced parentheses", "This parenthesis is never closed; add the missing `)`.", p.tokRange(close));
        p.recovery = true;
      }
      const c = p.read();
      p.popNL();
      p.leave();
      return { kind: "Parentheses", expr: inner, range: span2(startRange, p.tokRange(c)) };
    }
    case 3 /* NumberLit */: {
      p.read();
      const raw = p.tokText(start);
      return { kind: "LiteralValue", type: "number", value: numberValue(p, start), raw, range: startRange };
    }
    case 2 /* Ident */: {
      p.read();
      const nt = p.peekType();
      if (nt === 8 /* OParen */ || isDoubleColon(p)) return finishFunctionCall(p, start);
      const name = p.tokText(start);
      if (name === "true" || name === "false") {
        return { kind: "LiteralValue", type: "bool", value: name === "true", raw: name, range: startRange };
      }
      if (name === "null") return { kind: "LiteralValue", type: "null", value: null, raw: name, range: startRange };
      const st = {
        kind: "ScopeTraversal",
        traversal: [{ kind: "TraverseRoot", name, range: startRange }],
        range: startRange
      };
      return st;
    }
    case 10 /* OQuote */:
    case 12 /* OHeredoc */: {
      p.read();
      if (!p.enter(startRange)) return p.invalid(startRange);
      const e = parseTemplateAfterOpen(p, start);
      p.leave();
      return e;
    }
    case 22 /* Minus */:
    case 33 /* Bang */: {
      p.read();
      if (!p.enter(startRange)) return p.invalid(startRange);
      const operand = parseWithTraversals(p);
      p.leave();
      return { kind: "UnaryOp", op: ty === 22 /* Minus */ ? "-" : "!", operand, range: span2(startRange, operand.range) };
    }
    case 6 /* OBrack */:
      return parseTuple(p);
    case 4 /* OBrace */:
      return parseObject(p);
    default:
      if (!p.recovery) {
        if (ty === 0 /* EOF */) {
          p.error("Missing expression", "The file ends where an expression was expected; add the missing value.", startRange);
        } else {
          p.error("Invalid expression", "An expression was expected here, but this token cannot start one.", startRange);
        }
      }
      p.recovery = true;
      return p.invalid(startRange);
  }
}
function isDoubleColon(p) {
  let i = p.peek();
  const types = p.types;
  let parts = 0;
  while (types[i] === 39 /* Colon */ && types[i + 1] === 39 /* Colon */ && p.ends[i] === p.starts[i + 1] && types[i + 2] === 2 /* Ident */) {
    i += 3;
    parts++;
  }
  return parts > 0 && types[i] === 8 /* OParen */;
}
function finishFunctionCall(p, nameTok) {
  let nameRange = p.tokRange(nameTok);
  let name = p.tokText(nameTok);
  while (isDoubleColon(p)) {
    p.read();
    const dc = p.read();
    const part = p.peek();
    if (p.types[part] !== 2 /* Ident */) {
      p.errorUnlessRecovering("Missing function name", "`::` must be followed by the next part of a function name.", p.tokRange(part));
      p.recovery = true;
      const r = span2(nameRange, p.tokRange(dc));
      return p.invalid(r);
    }
    p.read();
    name += "::" + p.tokText(part);
    nameRange = span2(nameRange, p.tokRange(part));
  }
  const open = p.peek();
  if (p.types[open] !== 8 /* OParen */) {
    p.errorUnlessRecovering("Missing function call", "A namespaced function name must be followed by its arguments in parentheses.", p.tokRange(open));
    p.recovery = true;
    return p.invalid(nameRange);
  }
  p.read();
  const openRange = p.tokRange(open);
  if (!p.enter(openRange)) return p.invalid(nameRange);
  const args = [];
  let expandFinal = false;
  let close = -1;
  p.pushNL(false);
  for (; ; ) {
    if (p.peekType() === 9 /* CParen */) {
      close = p.read();
      break;
    }
    const m = p.mark();
    const arg = parseExpression(p);
    args.push(arg);
    if (p.recovery && p.hasErrorsSince(m)) {
      p.recover(9 /* CParen */);
      break;
    }
    const sep = p.read();
    const sty = p.types[sep];
    if (sty === 9 /* CParen */) {
      close = sep;
      break;
    }
    if (sty === 36 /* Ellipsis */) {
      expandFinal = true;
      if (p.peekType() !== 9 /* CParen */) {
        p.errorUnlessRecovering(
          "Missing closing parenthesis",
          "An argument expanded with `...` must be the last one; close the call with `)` right after it.",
          p.tokRange(sep)
        );
        close = p.recover(9 /* CParen */);
      } else {
        close = p.read();
      }
      break;
    }
    if (sty !== 35 /* Comma */) {
      if (sty === 0 /* EOF */) {
        p.error(
          "Unterminated function call",
          "The file ends before this function call is closed; add the missing `)`.",
          span2(p.tokRange(nameTok), openRange)
        );
      } else {
        p.error("Missing argument separator", "Separate function arguments with commas.", p.tokRange(sep));
      }
      close = p.recover(9 /* CParen */);
      break;
    }
    if (p.peekType() === 9 /* CParen */) {
      close = p.read();
      break;
    }
  }
  p.popNL();
  p.leave();
  const closeRange = close >= 0 ? p.tokRange(close) : p.compat ? ZERO_RANGE : p.prevRange();
  const call = {
    kind: "FunctionCall",
    name,
    nameRange,
    args,
    expandFinal,
    openParenRange: openRange,
    closeParenRange: closeRange,
    range: span2(nameRange, closeRange)
  };
  return call;
}
function parseTuple(p) {
  const open = p.read();
  const openRange = p.tokRange(open);
  if (!p.enter(openRange)) return p.invalid(openRange);
  p.pushNL(false);
  try {
    if (p.isKeyword(p.peek(), "for")) return finishFor(p, open);
    const exprs = [];
    let close;
    for (; ; ) {
      if (p.peekType() === 7 /* CBrack */) {
        close = p.read();
        break;
      }
      const m = p.mark();
      const e = parseExpression(p);
      exprs.push(e);
      if (p.recovery && p.hasErrorsSince(m)) {
        close = p.recover(7 /* CBrack */);
        break;
      }
      const next = p.peek();
      if (p.types[next] === 7 /* CBrack */) {
        close = p.read();
        break;
      }
      if (p.types[next] === 0 /* EOF */) {
        p.errorUnlessRecovering(
          "Unterminated tuple constructor expression",
          "The file ends before this list is closed; add the missing `]`.",
          openRange
        );
        close = p.recover(7 /* CBrack */);
        break;
      }
      if (p.types[next] !== 35 /* Comma */) {
        p.errorUnlessRecovering("Missing item separator", "Separate the items of a list with commas.", p.tokRange(next));
        close = p.recover(7 /* CBrack */);
        break;
      }
      p.read();
    }
    return { kind: "TupleCons", exprs, range: span2(openRange, p.tokRange(close)) };
  } finally {
    p.popNL();
    p.leave();
  }
}
function parseObject(p) {
  const open = p.read();
  const openRange = p.tokRange(open);
  if (!p.enter(openRange)) return p.invalid(openRange);
  try {
    p.pushNL(false);
    const isFor = p.isKeyword(p.peek(), "for");
    p.popNL();
    if (isFor) {
      p.pushNL(false);
      try {
        return finishFor(p, open);
      } finally {
        p.popNL();
      }
    }
    p.pushNL(true);
    const items = [];
    let close;
    try {
      for (; ; ) {
        const next = p.peekType();
        if (next === 1 /* Newline */) {
          p.read();
          continue;
        }
        if (next === 5 /* CBrace */) {
          close = p.read();
          break;
        }
        const forceNonLiteral = next === 8 /* OParen */;
        const mk = p.mark();
        const key = parseExpression(p);
        if (p.recovery && p.hasErrorsSince(mk)) {
          close = p.recover(5 /* CBrace */);
          break;
        }
        const sep = p.peek();
        const sty = p.types[sep];
        if (sty !== 24 /* Equal */ && sty !== 39 /* Colon */) {
          if (!p.recovery) {
            if (sty === 0 /* EOF */) {
              p.error("Unterminated object constructor expression", "The file ends before this object is closed; add the missing `}`.", openRange);
            } else if (sty === 1 /* Newline */ || sty === 35 /* Comma */) {
              p.error("Missing attribute value", "Give this object attribute a value with `=`.", p.tokRange(sep));
            } else if (sty === 2 /* Ident */) {
              p.error(
                "Missing key/value separator",
                "Put `=` between an object key and its value; quote keys that contain dots or spaces.",
                p.tokRange(sep)
              );
            } else {
              p.error("Missing key/value separator", "Put `=` between an object key and its value.", p.tokRange(sep));
            }
          }
          close = p.recover(5 /* CBrace */);
          break;
        }
        p.read();
        const mv = p.mark();
        const value = parseExpression(p);
        if (p.recovery && p.hasErrorsSince(mv)) {
          close = p.recover(5 /* CBrace */);
          break;
        }
        const keyIsBareIdent = !forceNonLiteral && key.kind === "ScopeTraversal" && key.traversal.length === 1;
        items.push({ key, keyIsBareIdent, value, range: span2(key.range, value.range) });
        const after = p.peek();
        const aty = p.types[after];
        if (aty === 1 /* Newline */) {
          p.read();
          continue;
        }
        if (aty === 5 /* CBrace */) {
          close = p.read();
          break;
        }
        if (aty === 0 /* EOF */) {
          p.errorUnlessRecovering(
            "Unterminated object constructor expression",
            "The file ends before this object is closed; add the missing `}`.",
            openRange
          );
          close = p.recover(5 /* CBrace */);
          break;
        }
        if (aty !== 35 /* Comma */) {
          p.errorUnlessRecovering("Missing attribute separator", "Separate object attributes with commas or newlines.", p.tokRange(after));
          close = p.recover(5 /* CBrace */);
          break;
        }
        p.read();
      }
    } finally {
      p.popNL();
    }
    return { kind: "ObjectCons", items, range: span2(openRange, p.tokRange(close)) };
  } finally {
    p.leave();
  }
}
function finishFor(p, open) {
  const openRange = p.tokRange(open);
  p.read();
  const makeObj = p.types[open] === 4 /* OBrace */;
  const closeType = makeObj ? 5 /* CBrace */ : 7 /* CBrack */;
  const bail = () => {
    const c = p.recover(closeType);
    return p.invalid(span2(openRange, p.tokRange(c)));
  };
  const forErr = (detail, at) => p.errorUnlessRecovering("Invalid 'for' expression", detail, at);
  if (p.peekType() !== 2 /* Ident */) {
    forErr("`for` must be followed by a variable name.", p.nextRange());
    return bail();
  }
  let keyVar = null;
  let valVar = p.tokText(p.read());
  if (p.peekType() === 35 /* Comma */) {
    keyVar = valVar;
    p.read();
    if (p.peekType() !== 2 /* Ident */) {
      forErr("A second variable name is needed after the comma.", p.nextRange());
      return bail();
    }
    valVar = p.tokText(p.read());
  }
  if (!p.isKeyword(p.peek(), "in")) {
    forErr("The variable names must be followed by `in` and the collection.", p.nextRange());
    return bail();
  }
  p.read();
  const mc = p.mark();
  const collection = parseExpression(p);
  if (p.recovery && p.hasErrorsSince(mc)) return bail();
  if (p.peekType() !== 39 /* Colon */) {
    forErr("Put a colon after the collection, followed by the result expression.", p.nextRange());
    return bail();
  }
  p.read();
  let keyExpr = null;
  const mv = p.mark();
  let valExpr = parseExpression(p);
  if (p.peekType() === 37 /* FatArrow */) {
    p.read();
    keyExpr = valExpr;
    valExpr = parseExpression(p);
  }
  if (p.recovery && p.hasErrorsSince(mv)) return bail();
  let group = false;
  let ellipsis = -1;
  if (p.peekType() === 36 /* Ellipsis */) {
    ellipsis = p.read();
    group = true;
  }
  let condition2 = null;
  if (p.isKeyword(p.peek(), "if")) {
    p.read();
    const mi = p.mark();
    condition2 = parseExpression(p);
    if (p.recovery && p.hasErrorsSince(mi)) return bail();
  }
  let close;
  if (p.peekType() === 7 /* CBrack */ || p.peekType() === 5 /* CBrace */ ? p.peekType() === closeType : false) {
    close = p.read();
  } else {
    forErr("Unexpected text after the end of the `for` expression.", p.nextRange());
    close = p.recover(closeType);
  }
  if (!makeObj) {
    if (keyExpr !== null) {
      p.error("Invalid 'for' expression", "A list `for` expression has no key; remove `key =>`.", keyExpr.range);
    }
    if (group) {
      p.error("Invalid 'for' expression", "The grouping `...` only applies to object `for` expressions.", p.tokRange(ellipsis));
    }
  } else if (keyExpr === null) {
    p.error("Invalid 'for' expression", "An object `for` expression needs a key: write `key => value`.", valExpr.range);
  }
  const fe = {
    kind: "For",
    keyVar,
    valVar,
    collection,
    keyExpr,
    valExpr,
    condition: condition2,
    group,
    form: makeObj ? "object" : "tuple",
    range: span2(openRange, p.tokRange(close))
  };
  return fe;
}

// src/hcl/source.ts
var BOM = 65279;
function stripBom(text) {
  if (text.length > 0 && text.charCodeAt(0) === BOM) return { text: text.slice(1), hadBom: true };
  return { text, hadBom: false };
}
function computeLineStarts(text) {
  const starts = [0];
  let i = text.indexOf("\n");
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf("\n", i + 1);
  }
  return starts;
}
var LineIndex = class {
  lineStarts;
  last = 0;
  constructor(lineStarts) {
    this.lineStarts = lineStarts;
  }
  /** 0-based line index containing `offset`. */
  lineOf(offset) {
    const ls = this.lineStarts;
    let l = this.last;
    if (ls[l] <= offset && (l + 1 >= ls.length || ls[l + 1] > offset)) return l;
    if (l + 1 < ls.length && ls[l + 1] <= offset && (l + 2 >= ls.length || ls[l + 2] > offset)) {
      this.last = l + 1;
      return l + 1;
    }
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = lo + hi + 1 >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    l = lo;
    this.last = l;
    return l;
  }
  pos(offset) {
    const l = this.lineOf(offset);
    return { line: l + 1, column: offset - this.lineStarts[l] + 1, offset };
  }
  range(start, end) {
    return { start: this.pos(start), end: this.pos(end) };
  }
};

// src/hcl/parser.ts
function span3(a, b) {
  return { start: a.start, end: b.end };
}
function parseNative(input, filename, opts = {}) {
  return parseNativeWithTokens(input, filename, opts).result;
}
function parseNativeWithTokens(input, filename, opts = {}) {
  const { text } = stripBom(input);
  const lineStarts = computeLineStarts(text);
  const li = new LineIndex(lineStarts);
  const tk = lex(text);
  const p = new ParserState(text, tk, li);
  p.compat = opts.compat === true;
  const lexDiags = checkInvalidTokens(p, tk);
  const comments = fillComments(li, tk.comments);
  let body;
  try {
    body = parseBody(p, 0 /* EOF */, null);
  } catch (e) {
    body = { kind: "Body", attributes: [], blocks: [], range: li.range(0, text.length) };
    p.diags.push({
      severity: "error",
      summary: "Internal parser error",
      detail: `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}); please report this file.`,
      subject: li.range(0, 0)
    });
  }
  body.range = li.range(0, text.length);
  const file = { filename, syntax: "native", text, body, comments, lineStarts };
  return { result: { file, diagnostics: [...lexDiags, ...p.diags] }, tokens: tk };
}
function fillComments(li, comments) {
  for (const c of comments) c.range = li.range(c.range.start.offset, c.range.end.offset);
  return comments;
}
function checkInvalidTokens(p, tk) {
  const out = [];
  let bitwise = 0;
  let exponent = 0;
  let backtick = 0;
  let apostrophe = 0;
  let semicolon = 0;
  let badUtf8 = 0;
  const add = (summary, detail, i) => {
    out.push({ severity: "error", summary, detail, subject: p.tokRange(i) });
  };
  const types = tk.types;
  for (let i = 0; i < tk.count; i++) {
    const ty = types[i];
    if (ty < 41 /* BitwiseAnd */) continue;
    switch (ty) {
      case 41 /* BitwiseAnd */:
      case 42 /* BitwiseOr */:
      case 43 /* BitwiseXor */:
      case 44 /* BitwiseNot */:
        if (bitwise < 4) {
          const hint = ty === 41 /* BitwiseAnd */ ? " Use `&&` for a logical AND." : ty === 42 /* BitwiseOr */ ? " Use `||` for a logical OR." : ty === 44 /* BitwiseNot */ ? " Use `!` for a logical NOT." : "";
          add("Unsupported operator", `HCL has no bitwise operators.${hint}`, i);
          bitwise++;
        }
        break;
      case 45 /* StarStar */:
        if (exponent < 1) {
          add("Unsupported operator", "HCL has no `**` operator; use the pow() function for exponents.", i);
          exponent++;
        }
        break;
      case 47 /* Backtick */:
        if (backtick % 2 === 0) add("Invalid character", "Backticks do not delimit strings in HCL; use a heredoc (`<<EOT`) for multi-line text.", i);
        if (backtick <= 2) backtick++;
        break;
      case 48 /* Apostrophe */:
        if (apostrophe % 2 === 0) add("Invalid character", 'Strings use double quotes (") in HCL, not single quotes.', i);
        if (apostrophe <= 2) apostrophe++;
        break;
      case 46 /* Semicolon */:
        if (semicolon < 1) {
          add("Invalid character", "Semicolons are not used in HCL: separate arguments with newlines and list items with commas.", i);
          semicolon++;
        }
        break;
      case 50 /* BadUTF8 */:
        if (badUtf8 < 1) {
          add("Invalid character encoding", "The file is not valid UTF-8; save it with UTF-8 encoding.", i);
          badUtf8++;
        }
        break;
      case 49 /* QuotedNewline */:
        add(
          "Invalid multi-line string",
          "A quoted string must close on the line where it starts; write `\\n` for a line break or use a heredoc (`<<EOT`).",
          i
        );
        break;
      case 51 /* Invalid */: {
        const ch = p.tokText(i);
        if (ch === "\u201C" || ch === "\u201D") {
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
function parseBody(p, end, openRange) {
  const attributes = [];
  const blocks = [];
  const byName = /* @__PURE__ */ new Map();
  const startOff = p.prev >= 0 ? p.ends[p.prev] : 0;
  let endOff = startOff;
  for (; ; ) {
    const next = p.peek();
    const ty = p.types[next];
    if (ty === end) {
      p.read();
      endOff = p.starts[next];
      break;
    }
    if (ty === 1 /* Newline */) {
      p.read();
      continue;
    }
    if (ty === 2 /* Ident */) {
      const item = parseBodyItem(p);
      if (item === null) continue;
      if (item.kind === "Block") {
        blocks.push(item);
      } else {
        const existing = byName.get(item.name);
        if (existing !== void 0) {
          p.error(
            "Attribute redefined",
            `"${item.name}" is already set on line ${existing.nameRange.start.line}; an argument can be set only once per block. Remove one of them.`,
            item.nameRange,
            { code: "attribute-redefined" }
          );
        } else {
          byName.set(item.name, item);
          attributes.push(item);
        }
      }
      continue;
    }
    const bad = p.read();
    if (!p.recovery) {
      if (ty === 10 /* OQuote */) {
        p.error("Invalid argument name", "Argument names are written without quotes.", p.tokRange(bad));
      } else if (ty === 0 /* EOF */) {
        p.error(
          "Unclosed configuration block",
          "This block's `{` has no matching `}` before the end of the file; check the brace nesting.",
          openRange ?? p.tokRange(bad)
        );
      } else {
        p.error(
          "Argument or block definition required",
          'Only arguments (`name = value`) and blocks (`type "label" { ... }`) can appear here.',
          p.tokRange(bad)
        );
      }
    }
    endOff = p.starts[bad];
    const r = p.recover(end);
    endOff = p.starts[r];
    break;
  }
  return { kind: "Body", attributes, blocks, range: p.li.range(startOff, Math.max(startOff, endOff)) };
}
function parseBodyItem(p) {
  const ident = p.read();
  const nt = p.peekType();
  if (nt === 24 /* Equal */) return finishAttribute(p, ident, false);
  if (nt === 10 /* OQuote */ || nt === 4 /* OBrace */ || nt === 2 /* Ident */) return finishBlock(p, ident);
  p.recoverAfterBodyItem();
  p.error(
    "Argument or block definition required",
    "Write `name = value` to set an argument, or add `{` to open a block.",
    p.tokRange(ident)
  );
  return null;
}
function finishAttribute(p, ident, singleLine) {
  p.read();
  const identRange = p.tokRange(ident);
  const m = p.mark();
  const expr = parseExpression(p);
  let endTok;
  if (p.recovery && p.hasErrorsSince(m)) {
    endTok = p.prev;
    p.recoverAfterBodyItem();
  } else if (!singleLine) {
    const end = p.peek();
    const ety = p.types[end];
    if (ety !== 1 /* Newline */ && ety !== 0 /* EOF */ && !(p.lenient && (ety === 2 /* Ident */ || ety === 5 /* CBrace */))) {
      if (!p.recovery) {
        if (ety === 35 /* Comma */) {
          p.error("Unexpected comma after argument", "Arguments are separated by newlines, not commas; remove the comma.", p.tokRange(end));
        } else {
          p.error("Missing newline after argument", "Put each argument on its own line.", p.tokRange(end));
        }
      }
      endTok = p.prev;
      p.recoverAfterBodyItem();
    } else {
      endTok = p.prev;
      if (ety === 1 /* Newline */ || ety === 0 /* EOF */) p.read();
    }
  } else {
    endTok = p.prev;
  }
  const range = p.compat || expr.range.end.offset < identRange.end.offset ? span3(identRange, p.tokRange(endTok)) : span3(identRange, expr.range);
  return { kind: "Attribute", name: p.tokText(ident), nameRange: identRange, expr, range };
}
function parseQuotedLabel(p) {
  const oq = p.read();
  const oqRange = p.tokRange(oq);
  let value = "";
  let endRange;
  for (; ; ) {
    const t = p.read();
    const ty = p.types[t];
    if (ty === 11 /* CQuote */) {
      endRange = p.tokRange(t);
      break;
    }
    if (ty === 14 /* QuotedLit */) {
      value += decodeLiteral(p, p.text, p.starts[t], p.ends[t], true, p.diags);
      continue;
    }
    if (ty === 16 /* TemplateInterp */ || ty === 17 /* TemplateControl */) {
      const which = ty === 16 /* TemplateInterp */ ? "$" : "%";
      p.error(
        "Invalid string literal",
        `A block label cannot contain template sequences; write \`${which}${which}{\` for a literal \`${which}{\`.`,
        p.tokRange(t)
      );
      value += `${which}{ ... }`;
      p.recover(18 /* TemplateSeqEnd */);
      continue;
    }
    if (ty === 0 /* EOF */) {
      p.error("Unterminated string literal", "The label's closing quote is missing.", p.tokRange(t));
      endRange = p.tokRange(t);
      break;
    }
    p.error("Invalid string literal", "A block label must be a plain quoted string.", p.tokRange(t));
    p.recover(11 /* CQuote */);
    endRange = p.prevRange();
    break;
  }
  return { value, range: span3(oqRange, endRange) };
}
function finishBlock(p, ident) {
  const identRange = p.tokRange(ident);
  const type = p.tokText(ident);
  const labels = [];
  const labelRanges = [];
  let oBrace = -1;
  for (; ; ) {
    const tok = p.peek();
    const ty = p.types[tok];
    if (ty === 4 /* OBrace */) {
      oBrace = p.read();
      break;
    }
    if (ty === 10 /* OQuote */) {
      const l = parseQuotedLabel(p);
      labels.push(l.value);
      labelRanges.push(l.range);
      continue;
    }
    if (ty === 2 /* Ident */) {
      p.read();
      labels.push(p.tokText(tok));
      labelRanges.push(p.tokRange(tok));
      continue;
    }
    if (ty === 24 /* Equal */) {
      p.error("Invalid block definition", "A block is written without `=`; remove it (or, for an argument, drop the labels).", p.tokRange(tok));
    } else if (ty === 1 /* Newline */) {
      p.error("Invalid block definition", "The block's opening `{` must be on the same line as its type and labels.", p.tokRange(tok));
    } else if (!p.recovery) {
      p.error("Invalid block definition", "A block header may contain only quoted labels, followed by `{`.", p.tokRange(tok));
    }
    p.recoverAfterBodyItem();
    return {
      kind: "Block",
      type,
      typeRange: identRange,
      labels,
      labelRanges,
      openBraceRange: identRange,
      closeBraceRange: identRange,
      body: { kind: "Body", attributes: [], blocks: [], range: identRange },
      range: identRange,
      singleLine: false
    };
  }
  const openRange = p.tokRange(oBrace);
  if (!p.enter(openRange)) {
    return {
      kind: "Block",
      type,
      typeRange: identRange,
      labels,
      labelRanges,
      openBraceRange: openRange,
      closeBraceRange: openRange,
      body: { kind: "Body", attributes: [], blocks: [], range: openRange },
      range: span3(identRange, openRange),
      singleLine: true
    };
  }
  let body;
  let closeRange;
  let oneLineDiag;
  const first = p.peekType();
  if (first === 1 /* Newline */ || first === 0 /* EOF */ || first === 5 /* CBrace */) {
    body = parseBody(p, 5 /* CBrace */, openRange);
    closeRange = p.prevRange();
  } else {
    const fork = p.compat ? null : p.fork();
    const mark = p.mark();
    const single = parseSingleAttrBody(p);
    if (single.diag !== void 0) oneLineDiag = single.diag;
    const close = p.peek();
    const cty = p.types[close];
    if (cty === 5 /* CBrace */) {
      p.read();
    } else {
      if (cty === 0 /* EOF */) {
        if (!p.recovery) {
          p.error("Unclosed configuration block", "This block's `{` has no matching `}` before the end of the file.", openRange);
        }
      } else if (!p.recovery || cty === 1 /* Newline */ || cty === 35 /* Comma */) {
        const d = {
          severity: "error",
          summary: "Invalid single-argument block definition",
          detail: "A block opened and closed on one line may hold only one argument. Put each argument or nested block on its own line, with the closing brace on a line of its own.",
          subject: p.tokRange(close),
          code: "one-line-block"
        };
        p.diags.splice(mark, 0, d);
        oneLineDiag ??= d;
      }
      p.recover(5 /* CBrace */);
    }
    closeRange = p.prevRange();
    const closeTok = p.prev;
    const bodyStart = openRange.end;
    if (single.attr !== null) {
      body = { kind: "Body", attributes: [single.attr], blocks: [], range: { start: bodyStart, end: closeRange.start } };
    } else {
      body = { kind: "Body", attributes: [], blocks: [], range: { start: bodyStart, end: closeRange.start } };
    }
    if (oneLineDiag !== void 0 && fork !== null) {
      const lenient = fork;
      lenient.lenient = true;
      lenient.recovery = false;
      const lb = parseBody(lenient, 5 /* CBrace */, openRange);
      if (!lenient.hasErrorsSince(0) && lenient.types[lenient.prev] === 5 /* CBrace */) {
        const lbClose = lenient.tokRange(lenient.prev);
        body = { kind: "Body", attributes: lb.attributes, blocks: lb.blocks, range: { start: bodyStart, end: lbClose.start } };
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
  p.leave();
  const eol = p.peek();
  const ety = p.types[eol];
  if (ety === 1 /* Newline */ || ety === 0 /* EOF */) {
    p.read();
  } else if (!(p.lenient && (ety === 2 /* Ident */ || ety === 5 /* CBrace */))) {
    p.errorUnlessRecovering("Missing newline after block definition", "Start the next item on a new line after the block's closing brace.", p.tokRange(eol));
    p.recoverAfterBodyItem();
  }
  const block = {
    kind: "Block",
    type,
    typeRange: identRange,
    labels,
    labelRanges,
    openBraceRange: openRange,
    closeBraceRange: closeRange,
    body,
    range: span3(identRange, closeRange),
    singleLine: openRange.start.line === closeRange.start.line
  };
  if (oneLineDiag !== void 0) {
    oneLineDiag.code = "one-line-block";
    oneLineDiag.block = block;
  }
  return block;
}
function parseSingleAttrBody(p) {
  const ident = p.read();
  if (p.types[ident] !== 2 /* Ident */) {
    p.recoverAfterBodyItem();
    p.error("Argument or block definition required", "Only an argument (`name = value`) can appear here.", p.tokRange(ident));
    return { attr: null };
  }
  const next = p.peek();
  const nt = p.types[next];
  if (nt === 24 /* Equal */) return { attr: finishAttribute(p, ident, true) };
  const identRange = p.tokRange(ident);
  if (nt === 10 /* OQuote */ || nt === 4 /* OBrace */ || nt === 2 /* Ident */) {
    const nextRange = p.tokRange(next);
    p.recoverAfterBodyItem();
    const d = p.error(
      "Argument definition required",
      `A block written on one line can hold only a single argument. Move the nested block "${p.tokText(ident)}" to its own line inside the parent block (or, for an argument, add \`=\`).`,
      span3(identRange, nextRange),
      { code: "one-line-block" }
    );
    return { attr: null, diag: d };
  }
  p.recoverAfterBodyItem();
  p.error("Argument or block definition required", "Write `name = value` to set an argument.", identRange);
  return { attr: null };
}
var OffsetLineIndex = class extends LineIndex {
  base;
  constructor(lineStarts, base) {
    super(lineStarts);
    this.base = base;
  }
  pos(offset) {
    const l = this.lineOf(offset);
    const col = offset - this.lineStarts[l] + 1;
    return {
      line: this.base.line + l,
      column: l === 0 ? this.base.column + col - 1 : col,
      offset: this.base.offset + offset
    };
  }
};
function standaloneState(text, template, base) {
  const ls = computeLineStarts(text);
  const li = base !== void 0 ? new OffsetLineIndex(ls, base) : new LineIndex(ls);
  const tk = lex(text, template);
  return new ParserState(text, tk, li, false);
}
function parseExpressionAt(text, filename, base) {
  void filename;
  const p = standaloneState(text, false, base);
  const lexDiags = checkInvalidTokens(p, p.tk);
  let expr;
  try {
    expr = parseExpression(p);
    const next = p.peek();
    if (p.types[next] !== 0 /* EOF */ && !p.recovery) {
      p.error("Extra characters after expression", "Only one expression is allowed here; remove the text that follows it.", p.tokRange(next));
    }
  } catch (e) {
    expr = { kind: "Invalid", range: p.li.range(0, text.length) };
    p.error("Internal parser error", `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}).`, expr.range);
  }
  return { expr, diagnostics: [...lexDiags, ...p.diags] };
}
function parseTemplateAt(text, filename, base) {
  void filename;
  const p = standaloneState(text, true, base);
  const lexDiags = checkInvalidTokens(p, p.tk);
  let expr;
  try {
    const flat = parseTemplateParts(p, 0 /* EOF */, true);
    const range = p.li.range(0, text.length);
    if (flat.length === 2 && flat[0].t === "interp") {
      expr = { kind: "TemplateWrap", wrapped: flat[0].expr, form: "json", range };
    } else {
      expr = { kind: "Template", parts: buildTemplateParts(p, flat), form: "json", range };
    }
  } catch (e) {
    expr = { kind: "Invalid", range: p.li.range(0, text.length) };
    p.error("Internal parser error", `The parser failed unexpectedly (${e instanceof Error ? e.message : String(e)}).`, expr.range);
  }
  return { expr, diagnostics: [...lexDiags, ...p.diags] };
}

// src/hcl/json-strings.ts
var ORIGIN = { line: 1, column: 1, offset: 0 };
function templateFromString(s, text, filename, posAt) {
  if (!s.value.includes("${") && !s.value.includes("%{")) return { expr: literalFromString(s, text, posAt), diagnostics: [] };
  const result = parseInPlace(s, text, filename, posAt, parseTemplateAt);
  const tokenRange = { start: posAt(s.range.start), end: posAt(s.range.end) };
  const expr = result.expr;
  if (expr.kind === "Template") {
    expr.form = "json";
    expr.jsonValue = s.value;
    expr.range = tokenRange;
    delete expr.heredoc;
    return result;
  }
  if (expr.kind === "TemplateWrap") {
    expr.form = "json";
    expr.range = tokenRange;
    return result;
  }
  const wrapped = {
    kind: "Template",
    parts: [{ kind: "TemplateInterp", expr, range: expr.range, stripLeft: false, stripRight: false }],
    form: "json",
    jsonValue: s.value,
    range: tokenRange
  };
  return { expr: wrapped, diagnostics: result.diagnostics };
}
function expressionFromString(s, text, filename, posAt) {
  return parseInPlace(s, text, filename, posAt, parseExpressionAt);
}
function literalFromString(s, text, posAt) {
  const value = s.value;
  const ends = s.escaped ? lineBreakEnds(text, s) : [];
  if (!s.escaped) for (let nl = value.indexOf("\n"); nl !== -1; nl = value.indexOf("\n", nl + 1)) ends.push(s.range.start + 2 + nl);
  if (ends.length === 0 || ends[ends.length - 1] !== s.contentEnd) ends.push(s.contentEnd);
  const parts = [];
  let from = 0;
  let fromSource = s.range.start + 1;
  for (const endSource of ends) {
    const nl = value.indexOf("\n", from);
    const to = nl === -1 ? value.length : nl + 1;
    parts.push({
      kind: "TemplateLiteral",
      value: value.slice(from, to),
      range: { start: posAt(fromSource), end: posAt(endSource) }
    });
    from = to;
    fromSource = endSource;
  }
  return {
    kind: "Template",
    parts,
    form: "json",
    jsonValue: value,
    range: { start: posAt(s.range.start), end: posAt(s.range.end) }
  };
}
function lineBreakEnds(text, s) {
  const ends = [];
  for (let i = text.indexOf("\\", s.range.start + 1); i !== -1 && i < s.contentEnd; i = text.indexOf("\\", i)) {
    const e = text[i + 1];
    if (e === "n") {
      ends.push(i + 2);
      i += 2;
    } else if (e === "u") {
      if (/^000[aA]$/.test(text.slice(i + 2, i + 6))) ends.push(i + 6);
      i += 2;
    } else {
      i += 2;
    }
  }
  return ends;
}
function parseInPlace(s, text, filename, posAt, parse) {
  if (!s.escaped) {
    const r2 = parse(s.value, filename, posAt(s.range.start + 1));
    return { expr: r2.expr, diagnostics: r2.diagnostics };
  }
  const r = parse(s.value, filename, ORIGIN);
  const map = decodedOffsets(text, s);
  const last = map.length - 1;
  const move = (p) => {
    const i = p.offset < 0 ? 0 : p.offset > last ? last : p.offset;
    return posAt(map[i]);
  };
  remapPositions(r.expr, move);
  remapPositions(r.diagnostics, move);
  return { expr: r.expr, diagnostics: r.diagnostics };
}
function isPos(v) {
  const p = v;
  return typeof p.offset === "number" && typeof p.line === "number" && typeof p.column === "number";
}
function remapPositions(root, move) {
  const seen = /* @__PURE__ */ new Set();
  const stack = [root];
  while (stack.length > 0) {
    const holder = stack.pop();
    if (seen.has(holder)) continue;
    seen.add(holder);
    for (const key of Object.keys(holder)) {
      const v = holder[key];
      if (v === null || typeof v !== "object") continue;
      if (isPos(v)) holder[key] = move(v);
      else stack.push(v);
    }
  }
}

// src/hcl/json.ts
function parseJson(text, filename) {
  const mapper = new JsonMapper(stripBom(text).text, filename);
  try {
    return mapper.run();
  } catch (err) {
    const at = mapper.posAt(0);
    return {
      file: mapper.emptyFile(),
      diagnostics: [
        {
          severity: "error",
          summary: "Internal error while reading JSON configuration",
          detail: `tfcapi-lint failed to read this file (${err instanceof Error ? err.message : String(err)}). Please report this as a bug.`,
          subject: { start: at, end: at },
          code: "internal"
        }
      ]
    };
  }
}
var JsonMapper = class {
  constructor(text, filename) {
    this.text = text;
    this.filename = filename;
    this.lineStarts = computeLineStarts(text);
    this.lines = new LineIndex(this.lineStarts);
  }
  text;
  filename;
  lineStarts;
  diagnostics = [];
  /** Argument names already seen per body, for duplicate detection. */
  attributeNames = /* @__PURE__ */ new WeakMap();
  structureChecks = true;
  lines;
  posAt = (offset) => this.lines.pos(offset);
  run() {
    const read = readJson(this.text);
    for (const d of read.diagnostics) this.error(d.summary, d.detail, { start: d.start, end: d.end }, "json-syntax");
    this.structureChecks = read.diagnostics.length === 0;
    const whole = { start: 0, end: this.text.length };
    const body = this.emptyBody(whole);
    const root = read.value;
    if (root !== null) {
      if (root.type === "object" || root.type === "array") {
        this.fillBody(body, root, FILE_SCHEMA);
      } else if (root.type !== "invalid") {
        this.structureError(
          "Root value must be object",
          'A JSON configuration file must contain one JSON object (or an array of objects) whose properties are the top-level blocks, such as "variable" and "resource".',
          root.range
        );
      }
    }
    return { file: this.file(body), diagnostics: this.diagnostics };
  }
  emptyFile() {
    return this.file(this.emptyBody({ start: 0, end: this.text.length }));
  }
  file(body) {
    return {
      filename: this.filename,
      syntax: "json",
      text: this.text,
      body,
      comments: [],
      lineStarts: this.lineStarts
    };
  }
  // ---------------------------------------------------------------- helpers
  range(r) {
    return { start: this.posAt(r.start), end: this.posAt(r.end) };
  }
  error(summary, detail, r, code) {
    this.diagnostics.push({ severity: "error", summary, detail, subject: this.range(r), code });
  }
  /** A problem with how the JSON maps to blocks and arguments. */
  structureError(summary, detail, r) {
    if (this.structureChecks) this.error(summary, detail, r, "json-structure");
  }
  emptyBody(r) {
    return { kind: "Body", attributes: [], blocks: [], range: this.range(r), jsonComments: [] };
  }
  // ---------------------------------------------------------------- bodies
  /**
   * Adds the content of a body value to `body`: an object, or (HCL allows it
   * for bodies) an array of objects whose properties are read in turn.
   */
  fillBody(body, value, schema) {
    if (value.type === "object") {
      this.fillFromObject(body, value, schema);
    } else if (value.type === "array") {
      for (const item of value.items) {
        if (item.type === "object") this.fillFromObject(body, item, schema);
        else if (item.type !== "invalid") this.notAnObject(item, "setting the arguments of this block");
      }
    }
  }
  fillFromObject(body, obj, schema) {
    for (const { key, value } of obj.props) {
      const name = key.value;
      if (name === "//") {
        body.jsonComments?.push({
          text: value.type === "string" ? value.value : this.text.slice(value.range.start, value.range.end),
          range: this.range({ start: key.range.start, end: value.range.end })
        });
        continue;
      }
      const blockSchema = schema.blocks !== void 0 && Object.hasOwn(schema.blocks, name) ? schema.blocks[name] : void 0;
      if (blockSchema !== void 0) {
        this.expandBlocks(body.blocks, key, [], value, blockSchema);
        continue;
      }
      const mode = (schema.attrs !== void 0 && Object.hasOwn(schema.attrs, name) ? schema.attrs[name] : void 0) ?? schema.otherAttrs ?? "template";
      const expr = this.expression(value, mode);
      const attr = {
        kind: "Attribute",
        name,
        nameRange: this.range(key.range),
        expr,
        range: this.range({ start: key.range.start, end: value.range.end })
      };
      if (schema.strict) {
        let seen = this.attributeNames.get(body);
        if (seen === void 0) {
          seen = /* @__PURE__ */ new Map();
          this.attributeNames.set(body, seen);
        }
        const first = seen.get(name);
        if (first === void 0) {
          seen.set(name, attr);
        } else {
          this.structureError(
            "Duplicate argument",
            `The argument "${name}" is already set on line ${first.nameRange.start.line}. Each argument may be set only once; remove one of them.`,
            key.range
          );
          continue;
        }
      }
      body.attributes.push(attr);
    }
  }
  /**
   * One property naming a block type: walks the label levels (objects whose
   * keys are labels, or arrays of them) down to the block bodies.
   */
  expandBlocks(out, typeKey, labels, value, schema) {
    if (labels.length < schema.labels) {
      const levelName = `label ${labels.length + 1} of ${schema.labels}`;
      let found = 0;
      const eachObject = (obj) => {
        for (const { key, value: inner } of obj.props) {
          found++;
          this.expandBlocks(out, typeKey, [...labels, key], inner, schema);
        }
      };
      if (value.type === "object") eachObject(value);
      else if (value.type === "array") {
        for (const item of value.items) {
          if (item.type === "object") eachObject(item);
          else if (item.type !== "invalid" && item.type !== "null") {
            found++;
            this.notAnObject(item, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
          }
        }
      } else if (value.type !== "null" && value.type !== "invalid") {
        this.notAnObject(value, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
        return;
      }
      if (found === 0 && value.type !== "null" && value.type !== "invalid") {
        this.structureError(
          "Missing block label",
          `"${typeKey.value}" blocks have ${schema.labels === 1 ? "a label" : `${schema.labels} labels`}, written as nested object keys, but this object has no keys. Add the ${levelName} as a key, or remove the empty "${typeKey.value}".`,
          value.open
        );
      }
      return;
    }
    if (value.type === "object") {
      const holder = labels.length > 0 ? labels[labels.length - 1] : typeKey;
      out.push(this.block(typeKey, labels, value, schema, holder.range.start));
    } else if (value.type === "array") {
      for (const item of value.items) {
        if (item.type === "object") out.push(this.block(typeKey, labels, item, schema, item.open.start));
        else if (item.type !== "invalid" && item.type !== "null") {
          this.notAnObject(item, `setting the arguments of a "${typeKey.value}" block`);
        }
      }
    } else if (value.type !== "null" && value.type !== "invalid") {
      this.structureError(
        "Incorrect JSON value type",
        `"${typeKey.value}" is a block, so its value must be a JSON object holding the block's content, or an array of such objects for several blocks.`,
        value.range
      );
    }
  }
  notAnObject(value, purpose) {
    this.structureError("Incorrect JSON value type", `A JSON object is required here, ${purpose}.`, value.range);
  }
  block(typeKey, labels, obj, schema, start) {
    const body = this.emptyBody({ start: obj.open.end, end: obj.close.start });
    this.fillFromObject(body, obj, schema);
    return {
      kind: "Block",
      type: typeKey.value,
      typeRange: this.range(typeKey.range),
      labels: labels.map((l) => l.value),
      labelRanges: labels.map((l) => this.range(l.range)),
      openBraceRange: this.range(obj.open),
      closeBraceRange: this.range(obj.close),
      body,
      range: this.range({ start, end: obj.close.end }),
      // Only meaningful for native syntax (one-line blocks).
      singleLine: false
    };
  }
  // ---------------------------------------------------------------- expressions
  expression(value, mode) {
    switch (value.type) {
      case "string":
        return this.stringExpression(value, mode);
      case "number":
        return { kind: "LiteralValue", type: "number", value: value.value, raw: value.raw, range: this.range(value.range) };
      case "bool":
        return {
          kind: "LiteralValue",
          type: "bool",
          value: value.value,
          raw: value.value ? "true" : "false",
          range: this.range(value.range)
        };
      case "null":
        return { kind: "LiteralValue", type: "null", value: null, raw: "null", range: this.range(value.range) };
      case "invalid":
        return { kind: "Invalid", range: this.range(value.range) };
      case "array": {
        const inner = mode === "exprList" ? "expr" : mode === "literal" || mode === "requiredProviders" ? "literal" : "template";
        return { kind: "TupleCons", exprs: value.items.map((v) => this.expression(v, inner)), range: this.range(value.range) };
      }
      case "object":
        return this.objectExpression(value, mode);
    }
  }
  objectExpression(obj, mode) {
    const items = [];
    for (const { key, value } of obj.props) {
      let keyExpr;
      let keyIsBareIdent = false;
      let valueMode;
      if (mode === "providerMap") {
        keyExpr = this.stringExpression(key, "expr");
        keyIsBareIdent = keyExpr.kind === "ScopeTraversal" && keyExpr.traversal.length === 1;
        valueMode = "expr";
      } else if (mode === "requiredProviders") {
        keyExpr = literalFromString(key, this.text, this.posAt);
        valueMode = key.value === "configuration_aliases" ? "exprList" : "requiredProviders";
      } else if (mode === "literal") {
        keyExpr = literalFromString(key, this.text, this.posAt);
        valueMode = "literal";
      } else {
        keyExpr = this.stringExpression(key, "template");
        valueMode = "template";
      }
      items.push({
        key: keyExpr,
        keyIsBareIdent,
        value: this.expression(value, valueMode),
        range: this.range({ start: key.range.start, end: value.range.end })
      });
    }
    return { kind: "ObjectCons", items, range: this.range(obj.range) };
  }
  stringExpression(s, mode) {
    if (mode === "literal" || mode === "requiredProviders") return literalFromString(s, this.text, this.posAt);
    const parsed = mode === "template" ? templateFromString(s, this.text, this.filename, this.posAt) : expressionFromString(s, this.text, this.filename, this.posAt);
    for (const d of parsed.diagnostics) this.diagnostics.push(d);
    return parsed.expr;
  }
};

// src/hcl/index.ts
function parseHcl(text, filename) {
  if (filename.endsWith(".json")) return parseJson(text, filename);
  return parseNative(text, filename);
}

// test/gen/hcl-generator.ts
var WORDS = [
  "name",
  "region",
  "instance_type",
  "tags",
  "enabled",
  "subnet_ids",
  "cidr_block",
  "vpc_id",
  "ami",
  "size",
  "labels",
  "replicas",
  "machine_type",
  "zone",
  "image",
  "disk_size_gb",
  "min_size",
  "max_size",
  "desired_capacity",
  "user_data",
  "key",
  "value",
  "cluster_name",
  "node_pool",
  "provider_id",
  "taints",
  "security_groups",
  "ports",
  "protocol",
  "weight"
];
var RESOURCE_TYPES = [
  "aws_instance",
  "aws_autoscaling_group",
  "aws_launch_template",
  "google_compute_instance",
  "azurerm_linux_virtual_machine_scale_set",
  "null_resource",
  "terraform_data",
  "random_id"
];
var NESTED_BLOCKS = ["ebs_block_device", "network_interface", "tag", "metadata_options", "boot_disk", "setting"];
var NESTED_LABELS = {
  ebs_block_device: 0,
  network_interface: 1,
  tag: 0,
  metadata_options: 2,
  boot_disk: 1,
  setting: 0
};
var FUNCTIONS = ["length", "lookup", "merge", "concat", "join", "format", "coalesce", "tolist", "sort", "base64encode", "try", "jsonencode", "max"];
var PROVIDER_FUNCTIONS = ["provider::aws::arn_parse", "provider::terraform::encode_tfvars", "provider::kubernetes::manifest_decode"];
var ROOTS = ["var", "local", "module", "data", "each", "count", "path", "self"];
var UNICODE_TEXT = ["h\xE9llo", "\u65E5\u672C", "na\xEFve caf\xE9", "\u2135", "\u{1F600} smile", "Gr\xFC\xDFe"];
var BINARY_OPS = ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"];
function generateProgram(rng, opts = {}) {
  return new Generator(rng).program(opts.minItems ?? 3, opts.maxItems ?? 8);
}
var Generator = class {
  constructor(rng) {
    this.rng = rng;
  }
  rng;
  depth = 0;
  program(min, max) {
    const out = [];
    if (this.rng.chance(0.3)) out.push(this.comment() + "\n");
    const n = this.rng.between(min, max);
    const used = /* @__PURE__ */ new Set();
    for (let i = 0; i < n; i++) {
      out.push(this.topItem(used));
      if (this.rng.chance(0.7)) out.push("\n");
    }
    if (this.rng.chance(0.2)) out.push(this.comment());
    let text = out.join("");
    if (this.rng.chance(0.1) && !/[A-Z]\n$/.test(text)) text = text.replace(/\n$/, "");
    return text;
  }
  // ---------------------------------------------------------------- names
  ident() {
    const w = this.rng.pick(WORDS);
    const r = this.rng.int(40);
    if (r === 39) return this.rng.pick(["caf\xE9", "gr\xF6\xDFe", "\xF1ame"]);
    if (r === 0) return w + "-" + this.rng.int(9);
    if (r === 1) return w + "_" + this.rng.int(99);
    return w;
  }
  uniqueName(used) {
    let name = this.rng.chance(0.03) ? this.rng.pick(["if", "for", "in", "true", "null", "endif"]) : this.ident();
    while (used.has(name)) name = this.ident() + "_" + this.rng.int(1e3);
    used.add(name);
    return name;
  }
  comment() {
    switch (this.rng.int(4)) {
      case 0:
        return "# " + this.rng.pick(["managed by the platform team", "TODO: tighten", "see docs", UNICODE_TEXT[this.rng.int(6)]]);
      case 1:
        return "// " + this.rng.pick(["keep in sync with the cluster module", "note", "x = 1"]);
      case 2:
        return "/* " + this.rng.pick(["inline", "multi\n   line", "*", "a } b"]) + " */";
      default:
        return "#";
    }
  }
  ind(level) {
    return "  ".repeat(level);
  }
  // ---------------------------------------------------------------- structure
  topItem(used) {
    switch (this.rng.int(12)) {
      case 0:
      case 1:
        return this.variableBlock();
      case 2:
      case 3:
        return this.resourceBlock("resource");
      case 4:
        return this.resourceBlock("data");
      case 5:
        return this.outputBlock();
      case 6:
        return this.localsBlock();
      case 7:
        return this.moduleBlock();
      case 8:
        return this.terraformBlock();
      case 9:
        return this.oneLineBlock(0, used);
      case 10: {
        const name = this.uniqueName(used);
        return this.attribute(0, name);
      }
      default:
        return this.genericBlock(0, 0);
    }
  }
  labelText(value) {
    return this.rng.chance(0.1) && /^[a-z_][a-z0-9_-]*$/.test(value) ? value : JSON.stringify(value);
  }
  blockHead(type, labels) {
    const parts = [type, ...labels.map((l) => this.labelText(l))];
    return parts.join(this.rng.chance(0.1) ? "  " : " ");
  }
  body(level, items) {
    const used = /* @__PURE__ */ new Set();
    const lines = [];
    for (const item of items) {
      if (this.rng.chance(0.15)) lines.push(this.ind(level) + this.comment() + "\n");
      if (this.rng.chance(0.1)) lines.push("\n");
      lines.push(item(used));
    }
    return lines.join("");
  }
  block(level, head, items) {
    const trail = this.rng.chance(0.15) ? " " + this.lineComment() : "";
    const beforeBrace = this.rng.chance(0.05) ? " /* header */" : "";
    return `${this.ind(level)}${head}${beforeBrace} {${trail}
${this.body(level + 1, items)}${this.ind(level)}}
`;
  }
  lineComment() {
    return this.rng.pick(["# note", "// note", "/* note */"]);
  }
  attrItem(level, name) {
    return (used) => this.attribute(level, name !== void 0 && !used.has(name) ? (used.add(name), name) : this.uniqueName(used));
  }
  attribute(level, name) {
    const eq = this.rng.chance(0.1) ? "   =  " : " = ";
    if (this.rng.chance(0.08)) return `${this.ind(level)}${name}${eq}${this.heredoc()}`;
    const trail = this.rng.chance(0.1) ? " " + this.lineComment() : "";
    return `${this.ind(level)}${name}${eq}${this.expr(level, true)}${trail}
`;
  }
  variableBlock() {
    const items = [
      (used) => (used.add("type"), `  type = ${this.typeExpr()}
`)
    ];
    if (this.rng.chance(0.6)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "default"));
    if (this.rng.chance(0.3)) {
      items.push(
        () => this.block(1, "validation", [this.attrItem(2, "condition"), this.attrItem(2, "error_message")])
      );
    }
    return this.block(0, this.blockHead("variable", [this.ident()]), items);
  }
  typeExpr() {
    const prim = () => this.rng.pick(["string", "number", "bool", "any"]);
    switch (this.rng.int(5)) {
      case 0:
        return prim();
      case 1:
        return `list(${prim()})`;
      case 2:
        return `map(${prim()})`;
      case 3:
        return `object({ name = string, size = optional(number, 1) })`;
      default:
        return `list(object({
    id   = string
    tags = map(string)
  }))`;
    }
  }
  resourceBlock(kind) {
    const items = [];
    const n = this.rng.between(0, 5);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    if (this.rng.chance(0.4)) items.push(() => this.genericBlock(1, 0));
    if (this.rng.chance(0.3)) items.push(() => this.dynamicBlock(1));
    if (kind === "resource" && this.rng.chance(0.4)) {
      items.push(
        () => this.block(1, "lifecycle", [
          (used) => (used.add("ignore_changes"), `    ignore_changes = [tags, ${this.traversal()}]
`),
          this.attrItem(2, "create_before_destroy")
        ])
      );
    }
    if (this.rng.chance(0.2)) items.push((used) => (used.add("depends_on"), `  depends_on = [${this.traversal()}]
`));
    return this.block(0, this.blockHead(kind, [this.rng.pick(RESOURCE_TYPES), this.ident()]), items);
  }
  dynamicBlock(level) {
    return this.block(level, this.blockHead("dynamic", [this.rng.pick(NESTED_BLOCKS)]), [
      this.attrItem(level + 1, "for_each"),
      () => this.block(level + 1, "content", [this.attrItem(level + 2), this.attrItem(level + 2)])
    ]);
  }
  outputBlock() {
    const items = [this.attrItem(1, "value")];
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.2)) items.push(this.attrItem(1, "sensitive"));
    return this.block(0, this.blockHead("output", [this.ident()]), items);
  }
  localsBlock() {
    const items = [];
    const n = this.rng.between(0, 6);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    return this.block(0, "locals", items);
  }
  moduleBlock() {
    return this.block(0, this.blockHead("module", [this.ident()]), [
      (used) => (used.add("source"), `  source = "./modules/${this.ident()}"
`),
      this.attrItem(1),
      this.attrItem(1),
      (used) => (used.add("providers"), `  providers = {
    aws = aws.west
  }
`)
    ]);
  }
  terraformBlock() {
    return this.block(0, "terraform", [
      (used) => (used.add("required_version"), `  required_version = ">= 1.5"
`),
      () => this.block(1, "required_providers", [
        (used) => (used.add("aws"), `    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
`)
      ])
    ]);
  }
  oneLineBlock(level, used) {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.ident());
    const head = this.blockHead(type, labels);
    if (this.rng.chance(0.3)) return `${this.ind(level)}${head} {}
`;
    const name = this.ident();
    void used;
    return `${this.ind(level)}${head} { ${name} = ${this.expr(level, false)} }
`;
  }
  genericBlock(level, nesting) {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.rng.chance(0.1) ? this.rng.pick(UNICODE_TEXT) : this.ident());
    const items = [];
    const n = this.rng.between(0, 4);
    for (let i = 0; i < n; i++) items.push(this.attrItem(level + 1));
    if (nesting < 2 && this.rng.chance(0.4)) items.push(() => this.genericBlock(level + 1, nesting + 1));
    if (nesting < 2 && this.rng.chance(0.2)) items.push((used) => this.oneLineBlock(level + 1, used));
    return this.block(level, this.blockHead(type, labels), items);
  }
  // ---------------------------------------------------------------- expressions
  /**
   * An expression. `multiline` allows line breaks (inside brackets) and is
   * false inside one-line blocks and templates.
   */
  expr(level, multiline) {
    this.depth++;
    try {
      if (this.depth > 4) return this.simple();
      switch (this.rng.int(14)) {
        case 0:
        case 1:
          return this.simple();
        case 2:
          return this.quoted(level);
        case 3:
          return this.traversal();
        case 4:
          return this.call(level, multiline);
        case 5:
          return this.binary(level, multiline);
        case 6:
          return `${this.operand(level, multiline)} ? ${this.operand(level, multiline)} : ${this.operand(level, multiline)}`;
        case 7:
          return this.unary(level, multiline);
        case 8:
          return this.tuple(level, multiline);
        case 9:
          return this.object(level, multiline);
        case 10:
          return this.forExpr(level, multiline);
        case 11:
          return `(${this.expr(level, multiline)})`;
        case 12:
          return this.rng.chance(0.7) ? this.splat() : this.edge(level, multiline);
        default:
          return `${this.traversal()}[${this.expr(level, false)}]`;
      }
    } finally {
      this.depth--;
    }
  }
  /** Rarer valid forms that parsers get wrong. */
  edge(level, multiline) {
    switch (this.rng.int(multiline ? 12 : 8)) {
      case 0:
        return `${this.traversal()}.0.${this.ident()}`;
      // legacy index step
      case 1:
        return `${this.traversal()}[*][0]`;
      case 2:
        return `${this.traversal()}.*[0]`;
      case 3:
        return `/* before */ ${this.simple()}`;
      case 4:
        return `!!${this.traversal()}`;
      case 5:
        return `- -${this.rng.int(9)}`;
      case 6:
        return `${this.operand(level, multiline)} ? ${this.operand(level, multiline)} : ${this.operand(level, multiline)} ? ${this.simple()} : ${this.simple()}`;
      case 7:
        return `"\\U0001F600 \\u00e9"`;
      case 8:
        return `(
${this.ind(level + 1)}${this.operand(level, multiline)} +
${this.ind(level + 1)}${this.operand(level, multiline)}
${this.ind(level)})`;
      case 9:
        return `[
${this.ind(level + 1)}${this.heredoc().replace(/\n$/, "")}
${this.ind(level + 1)}, ${this.simple()}
${this.ind(level)}]`;
      case 10:
        return `${this.rng.pick(FUNCTIONS)}(
${this.ind(level + 1)}${this.simple()} # first
${this.ind(level + 1)}, ${this.simple()}
${this.ind(level)})`;
      default:
        return `{
${this.ind(level + 1)}"\${${this.traversal()}}" = ${this.simple()}
${this.ind(level + 1)}${this.ident()}.${this.ident()} = 1
${this.ind(level)}}`;
    }
  }
  /** An operand of an operator: simple, or parenthesized when compound. */
  operand(level, multiline) {
    if (this.rng.chance(0.6)) return this.rng.chance(0.5) ? this.simple() : this.traversal();
    return `(${this.expr(level, multiline)})`;
  }
  /**
   * `!x` or `-x`. A literal operand has the right type: hcl2json folds
   * unary operators on literals and fails on `!1` or `-true`.
   */
  unary(level, multiline) {
    const not = this.rng.chance(0.5);
    switch (this.rng.int(3)) {
      case 0:
        return not ? "!" + this.rng.pick(["true", "false"]) : "-" + this.rng.pick(["1", "2.5", "0"]);
      case 1:
        return (not ? "!" : "-") + this.traversal();
      default:
        return `${not ? "!" : "-"}(${this.expr(level, multiline)})`;
    }
  }
  binary(level, multiline) {
    let s = this.operand(level, multiline);
    const n = this.rng.between(1, 3);
    for (let i = 0; i < n; i++) s += ` ${this.rng.pick(BINARY_OPS)} ${this.operand(level, multiline)}`;
    return s;
  }
  simple() {
    switch (this.rng.int(8)) {
      case 0:
        return String(this.rng.int(1e3));
      case 1:
        return this.rng.pick(["1.5", "0.25", "1e3", "2.5E-2", "0", "65535", "3.14159"]);
      case 2:
        return this.rng.pick(["true", "false", "null"]);
      case 3:
        return JSON.stringify(this.rng.pick(WORDS));
      case 4:
        return `"${this.rng.pick(UNICODE_TEXT)}"`;
      case 5:
        return '""';
      default:
        return this.traversal();
    }
  }
  traversal() {
    let s = this.rng.pick(ROOTS);
    const steps = this.rng.between(1, 3);
    for (let i = 0; i < steps; i++) {
      switch (this.rng.int(6)) {
        case 0:
          s += `[${this.rng.int(5)}]`;
          break;
        case 1:
          s += `["${this.rng.pick(WORDS)}"]`;
          break;
        default:
          s += "." + this.ident();
      }
    }
    return s;
  }
  splat() {
    const base = this.traversal();
    switch (this.rng.int(3)) {
      case 0:
        return `${base}[*].${this.ident()}`;
      case 1:
        return `${base}.*.${this.ident()}`;
      default:
        return `${base}[*]`;
    }
  }
  call(level, multiline) {
    const name = this.rng.chance(0.15) ? this.rng.pick(PROVIDER_FUNCTIONS) : this.rng.pick(FUNCTIONS);
    const n = this.rng.int(4);
    const args = [];
    for (let i = 0; i < n; i++) args.push(this.expr(level, multiline));
    const expand = n > 0 && this.rng.chance(0.1) ? "..." : "";
    if (multiline && n > 1 && this.rng.chance(0.3)) {
      const inner = this.ind(level + 1);
      const comma = expand === "" && this.rng.chance(0.5) ? "," : "";
      return `${name}(
${args.map((a) => inner + a).join(",\n")}${expand}${comma}
${this.ind(level)})`;
    }
    return `${name}(${args.join(", ")}${expand})`;
  }
  tuple(level, multiline) {
    const n = this.rng.int(4);
    const items = [];
    for (let i = 0; i < n; i++) items.push(this.expr(level + 1, multiline));
    if (multiline && n > 0 && this.rng.chance(0.4)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x},${this.rng.chance(0.1) ? " # item" : ""}`);
      return `[
${lines.join("\n")}
${this.ind(level)}]`;
    }
    return `[${items.join(", ")}${n > 0 && this.rng.chance(0.2) ? "," : ""}]`;
  }
  objectKey(level) {
    switch (this.rng.int(5)) {
      case 0:
        return JSON.stringify(this.rng.pick(WORDS));
      case 1:
        return `(${this.traversal()})`;
      default:
        return this.ident();
    }
    void level;
  }
  object(level, multiline) {
    const n = this.rng.int(4);
    const items = [];
    for (let i = 0; i < n; i++) {
      const sep = this.rng.chance(0.2) ? ":" : "=";
      items.push(`${this.objectKey(level)} ${sep} ${this.expr(level + 1, multiline)}`);
    }
    if (multiline && n > 0 && this.rng.chance(0.5)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x}${this.rng.chance(0.3) ? "," : ""}${this.rng.chance(0.1) ? " # entry" : ""}`);
      return `{
${lines.join("\n")}
${this.ind(level)}}`;
    }
    return `{${n > 0 ? " " : ""}${items.join(", ")}${n > 0 ? " " : ""}}`;
  }
  forExpr(level, multiline) {
    const coll = this.rng.chance(0.5) ? this.traversal() : this.tuple(level, false);
    const cond = this.rng.chance(0.3) ? ` if ${this.operand(level, multiline)}` : "";
    if (this.rng.chance(0.5)) {
      const vars = this.rng.chance(0.5) ? "i, v" : "v";
      return `[for ${vars} in ${coll} : ${this.rng.chance(0.5) ? "v" : this.expr(level, multiline)}${cond}]`;
    }
    const group = this.rng.chance(0.2) ? "..." : "";
    return `{for k, v in ${coll} : k => ${this.rng.chance(0.5) ? "v" : this.operand(level, multiline)}${group}${cond}}`;
  }
  /** A quoted template: text, escapes, interpolations, directives. */
  quoted(level) {
    return `"${this.templateBody(level, false)}"`;
  }
  templateBody(level, heredoc) {
    let s = "";
    const n = this.rng.between(1, 4);
    for (let i = 0; i < n; i++) {
      switch (this.rng.int(8)) {
        case 0:
          s += this.rng.pick(["abc", " ", "-", "prefix-", "\xE9", "\u{1F600}"]);
          break;
        case 1:
          s += heredoc ? this.rng.pick(['"quoted"', "\\", "tab	", "$${literal}", "%%{literal}"]) : this.rng.pick(["\\n", '\\"', "\\\\", "\\t", "\\u00e9", "$${literal}", "%%{literal}"]);
          break;
        case 2:
        case 3: {
          let inner = this.expr(level, false);
          if (inner === "null") inner = this.traversal();
          s += `\${${this.rng.chance(0.1) ? "~ " : " "}${inner}${this.rng.chance(0.1) ? " ~" : " "}}`;
          break;
        }
        case 4:
          s += `\${${this.traversal()}}`;
          break;
        case 5:
          if (this.depth < 3) {
            this.depth++;
            s += `%{ if ${this.operand(level, false)} }${this.templateBody(level, heredoc)}${this.rng.chance(0.5) ? `%{ else }${this.templateBody(level, heredoc)}` : ""}%{ endif }`;
            this.depth--;
          }
          break;
        case 6:
          if (this.depth < 3) {
            this.depth++;
            s += `%{~ for x in ${this.traversal()} ~}${this.templateBody(level, heredoc)}%{ endfor }`;
            this.depth--;
          }
          break;
        default:
          s += this.rng.pick(WORDS);
      }
    }
    return s;
  }
  heredoc() {
    const marker = this.rng.pick(["EOT", "EOF", "USERDATA", "END"]);
    const indented = this.rng.chance(0.5);
    const lines = [];
    const n = this.rng.between(0, 4);
    for (let i = 0; i < n; i++) {
      lines.push((indented ? "    " : "") + this.templateBody(1, true).replace(/\n/g, " "));
    }
    const close = (indented ? "  " : "") + marker;
    return `<<${indented ? "-" : ""}${marker}
${lines.map((l) => l + "\n").join("")}${close}
`;
  }
};

// test/gen/hcl2json-shape.ts
function compareBodyShape(body, json, path, out) {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    out.push(`${path}: hcl2json body is not an object: ${JSON.stringify(json)?.slice(0, 80)}`);
    return;
  }
  const obj = json;
  const attrNames = new Set(body.attributes.map((a) => a.name));
  const blockTypes = /* @__PURE__ */ new Map();
  for (const b of body.blocks) {
    const list = blockTypes.get(b.type) ?? [];
    list.push(b);
    blockTypes.set(b.type, list);
  }
  const ours = /* @__PURE__ */ new Set([...attrNames, ...blockTypes.keys()]);
  const theirs = new Set(Object.keys(obj));
  for (const k of ours) if (!theirs.has(k)) out.push(`${path}: we have "${k}", hcl2json does not`);
  for (const k of theirs) if (!ours.has(k)) out.push(`${path}: hcl2json has "${k}", we do not`);
  for (const [type, blocks] of blockTypes) {
    if (attrNames.has(type) || !theirs.has(type)) continue;
    compareBlocks(blocks, 0, obj[type], `${path}/${type}`, out);
  }
}
function compareBlocks(blocks, depth, json, path, out) {
  const labelCounts = new Set(blocks.map((b) => b.labels.length));
  if (labelCounts.size !== 1) return;
  const labelCount = blocks[0].labels.length;
  if (depth === labelCount) {
    if (!Array.isArray(json)) {
      out.push(`${path}: expected hcl2json to list ${blocks.length} block bodies, got ${JSON.stringify(json)?.slice(0, 80)}`);
      return;
    }
    if (json.length !== blocks.length) {
      out.push(`${path}: we have ${blocks.length} blocks, hcl2json has ${json.length}`);
      return;
    }
    blocks.forEach((b, i) => compareBodyShape(b.body, json[i], `${path}[${i}]`, out));
    return;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    out.push(`${path}: expected hcl2json labels object, got ${JSON.stringify(json)?.slice(0, 80)}`);
    return;
  }
  const obj = json;
  const byLabel = /* @__PURE__ */ new Map();
  for (const b of blocks) {
    const l = b.labels[depth];
    const list = byLabel.get(l) ?? [];
    list.push(b);
    byLabel.set(l, list);
  }
  for (const l of byLabel.keys()) if (!(l in obj)) out.push(`${path}: we have label "${l}", hcl2json does not`);
  for (const l of Object.keys(obj)) if (!byLabel.has(l)) out.push(`${path}: hcl2json has label "${l}", we do not`);
  for (const [l, list] of byLabel) if (l in obj) compareBlocks(list, depth + 1, obj[l], `${path}/"${l}"`, out);
}

// test/gen/mutations.ts
var TOKEN = /"(?:[^"\\\n]|\\.)*"|<<-?[A-Z]+|[\p{L}_][\p{L}\p{N}_-]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\$\{|%\{|=>|==|!=|<=|>=|&&|\|\||\.\.\.|\/\*|\*\/|\/\/|\S/gu;
var INSERTABLE = [
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  "=",
  '"',
  ",",
  ".",
  "*",
  "?",
  ":",
  "=>",
  "...",
  "${",
  "%{",
  "\n",
  "#",
  "/*",
  "x",
  "var",
  "1",
  "-",
  "!",
  "&&",
  "<<EOT",
  "for",
  "in",
  "if",
  "endif",
  "\\",
  "'",
  "@"
];
function tokens(text) {
  const out = [];
  for (const m of text.matchAll(TOKEN)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return out;
}
function mutate(rng, text) {
  const toks = tokens(text);
  if (toks.length === 0) return { kind: "insert", text: text + rng.pick(INSERTABLE) };
  const tok = rng.pick(toks);
  switch (rng.int(9)) {
    case 0:
      return { kind: "delete-token", text: text.slice(0, tok.start) + text.slice(tok.end) };
    case 1: {
      const ins = rng.pick(INSERTABLE);
      const at = rng.chance(0.5) ? tok.start : tok.end;
      return { kind: "insert-token", text: text.slice(0, at) + ins + text.slice(at) };
    }
    case 2:
      return { kind: "duplicate-token", text: text.slice(0, tok.end) + " " + tok.text + text.slice(tok.end) };
    case 3: {
      const strings = toks.filter((t) => t.text.startsWith('"') && t.text.length >= 2);
      if (strings.length === 0) break;
      const s = rng.pick(strings);
      const cut = rng.chance(0.5) ? s.end - 1 : s.start + 1 + rng.int(Math.max(1, s.text.length - 2));
      return { kind: "break-string", text: text.slice(0, cut) + (rng.chance(0.5) ? "" : "\n") + text.slice(cut + (rng.chance(0.5) ? 1 : 0)) };
    }
    case 4: {
      const newlines = [...text.matchAll(/\n/g)].map((m) => m.index);
      if (newlines.length === 0) break;
      const at = rng.pick(newlines);
      return { kind: "join-lines", text: text.slice(0, at) + " " + text.slice(at + 1) };
    }
    case 5: {
      const lines = text.split("\n");
      const i = rng.int(lines.length);
      lines.splice(i, 0, lines[i]);
      return { kind: "duplicate-line", text: lines.join("\n") };
    }
    case 6: {
      const braces = toks.filter((t) => t.text === "{" || t.text === "}");
      if (braces.length === 0) break;
      const b = rng.pick(braces);
      return { kind: "unbalance-braces", text: text.slice(0, b.start) + text.slice(b.end) };
    }
    case 7: {
      const i = toks.indexOf(tok);
      if (i + 1 >= toks.length) break;
      const next = toks[i + 1];
      return {
        kind: "swap-tokens",
        text: text.slice(0, tok.start) + next.text + text.slice(tok.end, next.start) + tok.text + text.slice(next.end)
      };
    }
    default: {
      const cut = rng.int(text.length + 1);
      return { kind: "truncate", text: text.slice(0, cut) };
    }
  }
  return { kind: "delete-token", text: text.slice(0, tok.start) + text.slice(tok.end) };
}

// test/gen/rng.ts
var Rng = class {
  state;
  constructor(seed) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next() {
    this.state = this.state + 1831565813 >>> 0;
    let t = this.state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  between(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(items) {
    return items[this.int(items.length)];
  }
};

// test/gen/differential.ts
var require2 = createRequire(import.meta.url);
var hcl2json = require2("@cdktn/hcl2json");
async function hashicorp(filename, text) {
  try {
    return { ok: true, json: await hcl2json.parse(filename, text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.startsWith("convert to HCL")) return { ok: true, json: null };
    return { ok: false, message };
  }
}
async function differences(filename, text, roundTrip) {
  const theirs = await hashicorp(filename, text);
  const ours = parseHcl(text, filename);
  const errors = ours.diagnostics.filter((d) => d.severity === "error");
  const problems = [];
  if (theirs.ok && errors.length > 0) {
    const d = errors[0];
    problems.push(`HCL accepts, we report ${d.summary} at ${d.subject.start.line}:${d.subject.start.column}`);
  } else if (!theirs.ok && errors.length === 0) {
    problems.push(`HCL rejects (${theirs.message.slice(0, 300)}), we accept`);
  } else if (theirs.ok && theirs.json !== null) {
    compareBodyShape(ours.file.body, theirs.json, "", problems);
    if (roundTrip && problems.length === 0) problems.push(...jsonRoundTripProblems(ours.file.body, theirs.json));
  }
  return { problems, weReject: errors.length > 0 };
}
function schemaShape(body, schema, prefix, out) {
  const counters = /* @__PURE__ */ new Map();
  for (const a of body.attributes) out.add(prefix + a.name);
  for (const b of body.blocks) {
    const child = schema?.blocks !== void 0 && Object.hasOwn(schema.blocks, b.type) ? schema.blocks[b.type] : void 0;
    if (child === void 0 || child.labels !== b.labels.length) {
      out.add(prefix + b.type);
      continue;
    }
    const key = [b.type, ...b.labels].join(" ");
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    out.add(`${prefix}${key}#${n}`);
    schemaShape(b.body, child, `${prefix}${key}#${n}/`, out);
  }
  return out;
}
function jsonRoundTripProblems(native, json) {
  const res = parseJson(JSON.stringify(json, null, 2), "main.tf.json");
  const problems = res.diagnostics.filter((d) => d.code === "json-syntax" || d.code === "json-structure").map((d) => `JSON round trip: ${d.summary} at ${d.subject.start.line}:${d.subject.start.column}`);
  const want = schemaShape(native, FILE_SCHEMA, "", /* @__PURE__ */ new Set());
  const got = schemaShape(res.file.body, FILE_SCHEMA, "", /* @__PURE__ */ new Set());
  for (const k of want) if (!got.has(k)) problems.push(`JSON round trip lacks ${k}`);
  for (const k of got) if (!want.has(k)) problems.push(`JSON round trip has extra ${k}`);
  return problems;
}
function makeCase(seed, i) {
  const rng = new Rng(seed + i * 7919);
  let program = generateProgram(rng, { minItems: 2, maxItems: 5 });
  if (rng.chance(0.1)) program = program.replace(/\n/g, "\r\n");
  if (rng.chance(0.03)) program = "\uFEFF" + program;
  if (i % 3 === 0) return { text: program, kind: "valid" };
  const m = mutate(rng, program);
  return { text: m.text, kind: m.kind };
}

// ../../tmp/scratch/dr.ts
var SEED = Number(process.argv[2] ?? 20261129);
var N = Number(process.argv[3] ?? 2400);
var fails = 0;
for (let i = 0; i < N; i++) {
  const { text, kind } = makeCase(SEED, i);
  const { problems } = await differences("main.tf", text, kind === "valid");
  if (problems.length) {
    fails++;
    console.log(`case ${i} ${kind}: ${problems.slice(0, 3).join(" | ")}`);
  }
}
console.log("fails", fails);
process.exit(0);

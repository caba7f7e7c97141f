/**
 * Terraform type constraints: parse them (from an expression of a
 * `variable`'s `type`, or from text such as the contract's `map(string)`)
 * and decide whether a declared type accepts the contract's type
 * (rules.md `input/type`).
 *
 * Accepted forms: `string`, `number`, `bool`, `any`, `list(T)`, `set(T)`,
 * `map(T)`, `tuple([T, ...])`, `object({ name = T, ... })` whose attribute
 * types may be `optional(T)` or `optional(T, default)`; keys bare or quoted;
 * `=` or `:` between key and type; items separated by commas or newlines.
 * Like Terraform (HCL's type-constraint mode), bare `list`, `set` and `map`
 * mean `list(any)`, `set(any)`, `map(any)`.
 *
 * Decision on quoted types: a native-syntax quoted type (`type = "string"`,
 * Terraform 0.11 style) is rejected as unparsable, as Terraform 1.x rejects
 * it; in JSON syntax a string is the only way to write a type, so its
 * content is parsed as the type.
 */
import type { Expression, Range } from "../hcl/ast.js";
import { constString, objectKeyName } from "../hcl/walk.js";

export type PrimitiveName = "string" | "number" | "bool";

export type TypeNode =
  | { kind: "primitive"; name: PrimitiveName }
  | { kind: "any" }
  | { kind: "list" | "set" | "map"; element: TypeNode }
  | { kind: "tuple"; elements: TypeNode[] }
  | { kind: "object"; attributes: Map<string, ObjectAttr> };

export interface ObjectAttr {
  type: TypeNode;
  optional: boolean;
  /** `optional(T, default)`: whether a default was given. */
  hasDefault: boolean;
}

export type TypeParse =
  | { ok: true; type: TypeNode }
  | { ok: false; error: string; range: Range | null };

class TypeError_ extends Error {
  constructor(
    message: string,
    readonly range: Range | null,
  ) {
    super(message);
  }
}

const PRIMITIVES = new Set(["string", "number", "bool"]);
const COLLECTIONS = new Set(["list", "set", "map"]);

// ------------------------------------------------------------ from the AST

/** Parse the type expression of a `variable` block (native or JSON syntax). */
export function parseTypeExpr(expr: Expression): TypeParse {
  try {
    if (expr.kind === "Template" && expr.form === "json") {
      const text = expr.jsonValue ?? constString(expr);
      if (text === null) return fail("a type must be written as a constant string in JSON syntax", expr.range);
      const r = parseTypeText(text);
      return r.ok ? r : { ok: false, error: r.error, range: expr.range };
    }
    return { ok: true, type: fromExpr(expr, false) };
  } catch (err) {
    if (err instanceof TypeError_) return fail(err.message, err.range);
    throw err;
  }
}

function fail(error: string, range: Range | null): TypeParse {
  return { ok: false, error, range };
}

function keyword(expr: Expression): string | null {
  if (expr.kind === "ScopeTraversal" && expr.traversal.length === 1 && expr.traversal[0]!.kind === "TraverseRoot") {
    return expr.traversal[0]!.name;
  }
  return null;
}

function fromExpr(expr: Expression, inObject: boolean): TypeNode {
  const kw = keyword(expr);
  if (kw !== null) {
    if (PRIMITIVES.has(kw)) return { kind: "primitive", name: kw as PrimitiveName };
    if (kw === "any") return { kind: "any" };
    if (COLLECTIONS.has(kw)) return { kind: kw as "list", element: { kind: "any" } };
    if (kw === "tuple" || kw === "object") throw new TypeError_(`the ${kw} type constructor needs an argument`, expr.range);
    throw new TypeError_(`"${kw}" is not a type; use string, number, bool, any, or a type constructor`, expr.range);
  }
  if (expr.kind === "Template" && expr.form !== "json") {
    const s = constString(expr);
    throw new TypeError_(
      s !== null
        ? `quoted type constraints are no longer accepted; write ${s} without quotes`
        : "a type constraint cannot be a string template",
      expr.range,
    );
  }
  if (expr.kind === "Parentheses") return fromExpr(expr.expr, inObject);
  if (expr.kind !== "FunctionCall") throw new TypeError_("not a valid type constraint", expr.range);
  const name = expr.name;
  const args = expr.args;
  if (COLLECTIONS.has(name)) {
    if (args.length !== 1) throw new TypeError_(`${name}(...) takes exactly one element type`, expr.range);
    return { kind: name as "list", element: fromExpr(args[0]!, false) };
  }
  if (name === "tuple") {
    const a = args.length === 1 ? args[0]! : null;
    if (!a || a.kind !== "TupleCons") throw new TypeError_("tuple(...) takes a list of element types, e.g. tuple([string, number])", expr.range);
    return { kind: "tuple", elements: a.exprs.map((e) => fromExpr(e, false)) };
  }
  if (name === "object") {
    const a = args.length === 1 ? args[0]! : null;
    if (!a || a.kind !== "ObjectCons") throw new TypeError_("object(...) takes an object of attribute types, e.g. object({ name = string })", expr.range);
    const attributes = new Map<string, ObjectAttr>();
    for (const item of a.items) {
      const key = objectKeyName(item);
      if (key === null) throw new TypeError_("object attribute names must be identifiers or quoted strings", item.key.range);
      if (attributes.has(key)) throw new TypeError_(`attribute "${key}" is declared twice`, item.key.range);
      attributes.set(key, attrFromExpr(item.value));
    }
    return { kind: "object", attributes };
  }
  if (name === "optional") {
    throw new TypeError_(
      inObject ? "optional(...) cannot be nested" : "optional(...) is only allowed for an attribute of object(...)",
      expr.range,
    );
  }
  throw new TypeError_(`"${name}" is not a type constructor`, expr.nameRange);
}

function attrFromExpr(expr: Expression): ObjectAttr {
  if (expr.kind === "FunctionCall" && expr.name === "optional") {
    if (expr.args.length < 1 || expr.args.length > 2) {
      throw new TypeError_("optional(...) takes a type and an optional default value", expr.range);
    }
    return { type: fromExpr(expr.args[0]!, true), optional: true, hasDefault: expr.args.length === 2 };
  }
  return { type: fromExpr(expr, true), optional: false, hasDefault: false };
}

// --------------------------------------------------------------- from text

type Tok = { t: "ident" | "str" | "punct" | "nl" | "other"; v: string; pos: number };

function tokenize(text: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      toks.push({ t: "nl", v: c, pos: i });
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i))![0];
      toks.push({ t: "ident", v: m, pos: i });
      i += m.length;
    } else if (c === '"') {
      let j = i + 1;
      let v = "";
      while (j < text.length && text[j] !== '"') {
        if (text[j] === "\\" && j + 1 < text.length) {
          const n = text[j + 1]!;
          v += n === "n" ? "\n" : n === "t" ? "\t" : n;
          j += 2;
        } else v += text[j++];
      }
      if (j >= text.length) throw new TypeError_("unterminated string", null);
      toks.push({ t: "str", v, pos: i });
      i = j + 1;
    } else if ("()[]{},=:".includes(c)) {
      toks.push({ t: "punct", v: c, pos: i });
      i++;
    } else {
      toks.push({ t: "other", v: c, pos: i });
      i++;
    }
  }
  return toks;
}

/** Parse type-constraint text (`map(string)`, `object({a=string})`). */
export function parseTypeText(text: string): TypeParse {
  try {
    const toks = tokenize(text);
    const p = new TextParser(toks);
    p.skipNl();
    if (p.peek() && p.peek()!.t === "str") {
      const s = p.peek()!.v;
      throw new TypeError_(`quoted type constraints are no longer accepted; write ${s} without quotes`, null);
    }
    const type = p.type(false);
    p.skipNl();
    if (p.peek()) throw new TypeError_(`unexpected "${p.peek()!.v}" after the type`, null);
    return { ok: true, type };
  } catch (err) {
    if (err instanceof TypeError_) return { ok: false, error: err.message, range: null };
    throw err;
  }
}

class TextParser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  peek(): Tok | undefined {
    return this.toks[this.i];
  }
  skipNl(): void {
    while (this.toks[this.i]?.t === "nl") this.i++;
  }
  private next(): Tok {
    const t = this.toks[this.i++];
    if (!t) throw new TypeError_("unexpected end of type", null);
    return t;
  }
  private expect(v: string): void {
    this.skipNl();
    const t = this.next();
    if (t.v !== v || t.t === "str") throw new TypeError_(`expected "${v}" but found "${t.v}"`, null);
  }
  private isPunct(v: string): boolean {
    const t = this.peek();
    return !!t && t.t === "punct" && t.v === v;
  }

  type(inObject: boolean): TypeNode {
    this.skipNl();
    const t = this.next();
    if (t.t !== "ident") throw new TypeError_(`expected a type but found "${t.v === "\n" ? "newline" : t.v}"`, null);
    const name = t.v;
    const call = this.isPunct("(");
    if (!call) {
      if (PRIMITIVES.has(name)) return { kind: "primitive", name: name as PrimitiveName };
      if (name === "any") return { kind: "any" };
      if (COLLECTIONS.has(name)) return { kind: name as "list", element: { kind: "any" } };
      throw new TypeError_(`"${name}" is not a type`, null);
    }
    this.next();
    if (COLLECTIONS.has(name)) {
      const element = this.type(false);
      this.expect(")");
      return { kind: name as "list", element };
    }
    if (name === "tuple") {
      this.expect("[");
      const elements: TypeNode[] = [];
      this.skipNl();
      while (!this.isPunct("]")) {
        elements.push(this.type(false));
        this.skipNl();
        if (this.isPunct(",")) {
          this.next();
          this.skipNl();
        } else if (!this.isPunct("]")) throw new TypeError_('expected "," or "]" in tuple([...])', null);
      }
      this.next();
      this.expect(")");
      return { kind: "tuple", elements };
    }
    if (name === "object") {
      this.expect("{");
      const attributes = new Map<string, ObjectAttr>();
      this.skipNl();
      while (!this.isPunct("}")) {
        const k = this.next();
        if (k.t !== "ident" && k.t !== "str") throw new TypeError_(`expected an attribute name but found "${k.v}"`, null);
        if (attributes.has(k.v)) throw new TypeError_(`attribute "${k.v}" is declared twice`, null);
        this.skipNl();
        const sep = this.next();
        if (sep.t !== "punct" || (sep.v !== "=" && sep.v !== ":")) throw new TypeError_(`expected "=" after "${k.v}"`, null);
        attributes.set(k.v, this.attr());
        const sepTok = this.peek();
        if (sepTok?.t === "nl" || this.isPunct(",")) {
          this.next();
          this.skipNl();
        } else if (!this.isPunct("}")) throw new TypeError_('expected ",", a newline or "}" in object({...})', null);
      }
      this.next();
      this.expect(")");
      return { kind: "object", attributes };
    }
    if (name === "optional") {
      throw new TypeError_(
        inObject ? "optional(...) cannot be nested" : "optional(...) is only allowed for an attribute of object(...)",
        null,
      );
    }
    throw new TypeError_(`"${name}" is not a type constructor`, null);
  }

  private attr(): ObjectAttr {
    this.skipNl();
    const t = this.peek();
    if (t && t.t === "ident" && t.v === "optional" && this.toks[this.i + 1]?.v === "(") {
      this.i += 2;
      const type = this.type(true);
      this.skipNl();
      let hasDefault = false;
      if (this.isPunct(",")) {
        this.next();
        hasDefault = true;
        this.skipBalanced();
      }
      this.expect(")");
      return { type, optional: true, hasDefault };
    }
    return { type: this.type(true), optional: false, hasDefault: false };
  }

  /** Skip a default-value expression up to the `)` closing optional(...). */
  private skipBalanced(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (!t) throw new TypeError_("unexpected end of type in optional(...) default", null);
      if (t.t === "punct") {
        if ("([{".includes(t.v)) depth++;
        else if (")]}".includes(t.v)) {
          if (depth === 0) return;
          depth--;
        }
      }
      this.i++;
    }
  }
}

// --------------------------------------------------------- compatibility

/**
 * Does a variable declared with type `declared` accept values of the
 * contract's type `contract`? `any` on either side accepts; list and set
 * interconvert; a declared list/set accepts a contract tuple whose elements
 * all fit; a declared tuple never accepts a contract list/set; maps compare
 * element-wise (a contract object fits a declared map when every attribute
 * fits its element type); a declared object needs each attribute it names
 * to exist in the contract object with a compatible type, unless it is
 * `optional(...)` (an optional attribute present in the contract must still
 * be compatible); extra contract attributes are fine; primitives match only
 * themselves.
 */
export function typeAccepts(declared: TypeNode, contract: TypeNode): boolean {
  if (declared.kind === "any" || contract.kind === "any") return true;
  switch (declared.kind) {
    case "primitive":
      return contract.kind === "primitive" && contract.name === declared.name;
    case "list":
    case "set":
      if (contract.kind === "list" || contract.kind === "set") return typeAccepts(declared.element, contract.element);
      if (contract.kind === "tuple") return contract.elements.every((e) => typeAccepts(declared.element, e));
      return false;
    case "map":
      if (contract.kind === "map") return typeAccepts(declared.element, contract.element);
      if (contract.kind === "object") {
        return [...contract.attributes.values()].every((a) => typeAccepts(declared.element, a.type));
      }
      return false;
    case "tuple":
      return (
        contract.kind === "tuple" &&
        contract.elements.length === declared.elements.length &&
        declared.elements.every((e, i) => typeAccepts(e, contract.elements[i]!))
      );
    case "object": {
      if (contract.kind !== "object") return false;
      for (const [name, attr] of declared.attributes) {
        const c = contract.attributes.get(name);
        if (!c) {
          if (attr.optional) continue;
          return false;
        }
        if (!typeAccepts(attr.type, c.type)) return false;
      }
      return true;
    }
  }
}

/** Canonical text of a type (`object({a=string, b=optional(number)})`). */
export function typeToString(t: TypeNode): string {
  switch (t.kind) {
    case "primitive":
      return t.name;
    case "any":
      return "any";
    case "list":
    case "set":
    case "map":
      return `${t.kind}(${typeToString(t.element)})`;
    case "tuple":
      return `tuple([${t.elements.map(typeToString).join(", ")}])`;
    case "object": {
      const parts = [...t.attributes].map(([k, a]) => {
        const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k);
        return `${key}=${a.optional ? `optional(${typeToString(a.type)})` : typeToString(a.type)}`;
      });
      return `object({${parts.join(", ")}})`;
    }
  }
}

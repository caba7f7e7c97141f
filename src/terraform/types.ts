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
import type { Expression, ObjectConsItem, Range } from "../hcl/ast.js";
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

/**
 * What `fromExpr` still has to read: a type expression (whose node goes to
 * `set`), or an item of an `object({...})` (its key checked, then its type).
 */
type TypeTask =
  | { item: null; expr: Expression; inObject: boolean; set: (t: TypeNode) => void }
  | { item: ObjectConsItem; attributes: Map<string, ObjectAttr> };

/**
 * The type an expression stands for. Type constraints nest without limit
 * (`list(list(...))`): an explicit stack of tasks, read in source order, so
 * the first error met is the one a recursive reading would throw; a node is
 * made before its children, which fill it in.
 */
function fromExpr(root: Expression, inObject: boolean): TypeNode {
  let result: TypeNode | null = null;
  const tasks: TypeTask[] = [
    {
      item: null,
      expr: root,
      inObject,
      set: (t) => {
        result = t;
      },
    },
  ];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (task.item !== null) {
      const item = task.item;
      const key = objectKeyName(item);
      if (key === null) throw new TypeError_("object attribute names must be identifiers or quoted strings", item.key.range);
      if (task.attributes.has(key)) throw new TypeError_(`attribute "${key}" is declared twice`, item.key.range);
      task.attributes.set(key, attrTask(item.value, tasks));
      continue;
    }
    typeStep(task.expr, task.inObject, task.set, tasks);
  }
  return result!;
}

/** One type expression: its node given to `set`, or its inner types pushed as tasks (in reverse, so they pop in source order). */
function typeStep(expr: Expression, inObject: boolean, set: (t: TypeNode) => void, tasks: TypeTask[]): void {
  const kw = keyword(expr);
  if (kw !== null) {
    if (PRIMITIVES.has(kw)) return set({ kind: "primitive", name: kw as PrimitiveName });
    if (kw === "any") return set({ kind: "any" });
    if (COLLECTIONS.has(kw)) return set({ kind: kw as "list", element: { kind: "any" } });
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
  if (expr.kind === "Parentheses") {
    tasks.push({ item: null, expr: expr.expr, inObject, set });
    return;
  }
  if (expr.kind !== "FunctionCall") throw new TypeError_("not a valid type constraint", expr.range);
  const name = expr.name;
  const args = expr.args;
  if (COLLECTIONS.has(name)) {
    if (args.length !== 1) throw new TypeError_(`${name}(...) takes exactly one element type`, expr.range);
    const node: { kind: "list"; element: TypeNode } = { kind: name as "list", element: ANY };
    set(node);
    tasks.push({ item: null, expr: args[0]!, inObject: false, set: (t) => (node.element = t) });
    return;
  }
  if (name === "tuple") {
    const a = args.length === 1 ? args[0]! : null;
    if (!a || a.kind !== "TupleCons") throw new TypeError_("tuple(...) takes a list of element types, e.g. tuple([string, number])", expr.range);
    const elements: TypeNode[] = [];
    set({ kind: "tuple", elements });
    const add = (t: TypeNode): void => {
      elements.push(t);
    };
    for (let i = a.exprs.length - 1; i >= 0; i--) tasks.push({ item: null, expr: a.exprs[i]!, inObject: false, set: add });
    return;
  }
  if (name === "object") {
    const a = args.length === 1 ? args[0]! : null;
    if (!a || a.kind !== "ObjectCons") throw new TypeError_("object(...) takes an object of attribute types, e.g. object({ name = string })", expr.range);
    const attributes = new Map<string, ObjectAttr>();
    set({ kind: "object", attributes });
    for (let i = a.items.length - 1; i >= 0; i--) tasks.push({ item: a.items[i]!, attributes });
    return;
  }
  if (name === "optional") {
    throw new TypeError_(
      inObject ? "optional(...) cannot be nested" : "optional(...) is only allowed for an attribute of object(...)",
      expr.range,
    );
  }
  throw new TypeError_(`"${name}" is not a type constructor`, expr.nameRange);
}

const ANY: TypeNode = { kind: "any" };

/** An object attribute's declaration; its type is read by the task pushed for it. */
function attrTask(expr: Expression, tasks: TypeTask[]): ObjectAttr {
  let typeExpr = expr;
  const attr: ObjectAttr = { type: ANY, optional: false, hasDefault: false };
  if (expr.kind === "FunctionCall" && expr.name === "optional") {
    if (expr.args.length < 1 || expr.args.length > 2) {
      throw new TypeError_("optional(...) takes a type and an optional default value", expr.range);
    }
    typeExpr = expr.args[0]!;
    attr.optional = true;
    attr.hasDefault = expr.args.length === 2;
  }
  tasks.push({ item: null, expr: typeExpr, inObject: true, set: (t) => (attr.type = t) });
  return attr;
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

/** A type constructor being read from text: what it has so far. */
type TextFrame =
  | { k: "collection"; name: "list" | "set" | "map" }
  | { k: "tuple"; elements: TypeNode[] }
  | { k: "object"; attributes: Map<string, ObjectAttr>; key: string; optional: boolean };

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

  /**
   * A type. Types nest without limit (`list(list(...))`): the constructors
   * being read are frames on an explicit stack; a type's start either is a
   * whole type or opens a frame that asks for its first inner type, and a
   * finished inner type goes to the frame on top, which asks for the next
   * or is finished in turn.
   */
  type(inObject: boolean): TypeNode {
    const frames: TextFrame[] = [];
    let childInObject = inObject;
    for (;;) {
      let r: TypeNode | boolean = this.typeStart(childInObject, frames);
      while (typeof r !== "boolean") {
        if (frames.length === 0) return r;
        r = this.childDone(frames, r);
      }
      childInObject = r;
    }
  }

  /** A type's start: the whole type, or `inObject` of the first inner type a constructor's frame (pushed) asks for. */
  private typeStart(inObject: boolean, frames: TextFrame[]): TypeNode | boolean {
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
      frames.push({ k: "collection", name: name as "list" });
      return false;
    }
    if (name === "tuple") {
      this.expect("[");
      const frame: Extract<TextFrame, { k: "tuple" }> = { k: "tuple", elements: [] };
      frames.push(frame);
      this.skipNl();
      return this.tupleNext(frames, frame);
    }
    if (name === "object") {
      this.expect("{");
      const frame: Extract<TextFrame, { k: "object" }> = { k: "object", attributes: new Map(), key: "", optional: false };
      frames.push(frame);
      this.skipNl();
      return this.objectNext(frames, frame);
    }
    if (name === "optional") {
      throw new TypeError_(
        inObject ? "optional(...) cannot be nested" : "optional(...) is only allowed for an attribute of object(...)",
        null,
      );
    }
    throw new TypeError_(`"${name}" is not a type constructor`, null);
  }

  /** The top frame's inner type `value` is read: the frame's next request, or its whole type (the frame popped). */
  private childDone(frames: TextFrame[], value: TypeNode): TypeNode | boolean {
    const f = frames[frames.length - 1]!;
    switch (f.k) {
      case "collection":
        this.expect(")");
        frames.pop();
        return { kind: f.name, element: value };
      case "tuple":
        f.elements.push(value);
        this.skipNl();
        if (this.isPunct(",")) {
          this.next();
          this.skipNl();
        } else if (!this.isPunct("]")) throw new TypeError_('expected "," or "]" in tuple([...])', null);
        return this.tupleNext(frames, f);
      case "object": {
        let attr: ObjectAttr;
        if (f.optional) {
          this.skipNl();
          let hasDefault = false;
          if (this.isPunct(",")) {
            this.next();
            hasDefault = true;
            this.skipBalanced();
          }
          this.expect(")");
          attr = { type: value, optional: true, hasDefault };
        } else attr = { type: value, optional: false, hasDefault: false };
        f.attributes.set(f.key, attr);
        const sepTok = this.peek();
        if (sepTok?.t === "nl" || this.isPunct(",")) {
          this.next();
          this.skipNl();
        } else if (!this.isPunct("}")) throw new TypeError_('expected ",", a newline or "}" in object({...})', null);
        return this.objectNext(frames, f);
      }
    }
  }

  /** After `[` or an element: the next element's request, or the tuple when `]` closes it. */
  private tupleNext(frames: TextFrame[], f: Extract<TextFrame, { k: "tuple" }>): TypeNode | boolean {
    if (!this.isPunct("]")) return false;
    this.next();
    this.expect(")");
    frames.pop();
    return { kind: "tuple", elements: f.elements };
  }

  /** After `{` or an attribute: the next attribute's key and separator, and its type's request; or the object when `}` closes it. */
  private objectNext(frames: TextFrame[], f: Extract<TextFrame, { k: "object" }>): TypeNode | boolean {
    if (this.isPunct("}")) {
      this.next();
      this.expect(")");
      frames.pop();
      return { kind: "object", attributes: f.attributes };
    }
    const k = this.next();
    if (k.t !== "ident" && k.t !== "str") throw new TypeError_(`expected an attribute name but found "${k.v}"`, null);
    if (f.attributes.has(k.v)) throw new TypeError_(`attribute "${k.v}" is declared twice`, null);
    this.skipNl();
    const sep = this.next();
    if (sep.t !== "punct" || (sep.v !== "=" && sep.v !== ":")) throw new TypeError_(`expected "=" after "${k.v}"`, null);
    f.key = k.v;
    this.skipNl();
    const t = this.peek();
    f.optional = !!t && t.t === "ident" && t.v === "optional" && this.toks[this.i + 1]?.v === "(";
    if (f.optional) this.i += 2;
    return true;
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
  // Types nest without limit: the pairs still to compare on an explicit stack; every pair must fit.
  const pairs: TypeNode[] = [declared, contract];
  while (pairs.length > 0) {
    const c = pairs.pop()!;
    const d = pairs.pop()!;
    if (!pairFits(d, c, pairs)) return false;
  }
  return true;
}

/** Whether `declared` can accept `contract` as far as their outer forms go; the inner pairs that must fit too are pushed. */
function pairFits(declared: TypeNode, contract: TypeNode, pairs: TypeNode[]): boolean {
  if (declared.kind === "any" || contract.kind === "any") return true;
  switch (declared.kind) {
    case "primitive":
      return contract.kind === "primitive" && contract.name === declared.name;
    case "list":
    case "set":
      if (contract.kind === "list" || contract.kind === "set") return pairs.push(declared.element, contract.element) > 0;
      if (contract.kind === "tuple") {
        for (const e of contract.elements) pairs.push(declared.element, e);
        return true;
      }
      return false;
    case "map":
      if (contract.kind === "map") return pairs.push(declared.element, contract.element) > 0;
      if (contract.kind === "object") {
        for (const a of contract.attributes.values()) pairs.push(declared.element, a.type);
        return true;
      }
      return false;
    case "tuple":
      if (contract.kind !== "tuple" || contract.elements.length !== declared.elements.length) return false;
      declared.elements.forEach((e, i) => pairs.push(e, contract.elements[i]!));
      return true;
    case "object": {
      if (contract.kind !== "object") return false;
      for (const [name, attr] of declared.attributes) {
        const c = contract.attributes.get(name);
        if (!c) {
          if (attr.optional) continue;
          return false;
        }
        pairs.push(attr.type, c.type);
      }
      return true;
    }
  }
}

/** Canonical text of a type (`object({a=string, b=optional(number)})`). */
export function typeToString(t: TypeNode): string {
  return writePieces(t, typePieces);
}

/** The pieces of one type's text in order: its own texts and its inner types. */
function typePieces(p: TypeNode): (string | TypeNode)[] {
  switch (p.kind) {
    case "primitive":
      return [p.name];
    case "any":
      return ["any"];
    case "list":
    case "set":
    case "map":
      return [`${p.kind}(`, p.element, ")"];
    case "tuple": {
      const seq: (string | TypeNode)[] = ["tuple(["];
      p.elements.forEach((e, i) => seq.push(...(i > 0 ? [", "] : []), e));
      seq.push("])");
      return seq;
    }
    case "object": {
      const seq: (string | TypeNode)[] = ["object({"];
      let i = 0;
      for (const [k, a] of p.attributes) {
        if (i++ > 0) seq.push(", ");
        const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k);
        if (a.optional) seq.push(`${key}=optional(`, a.type, ")");
        else seq.push(`${key}=`, a.type);
      }
      seq.push("})");
      return seq;
    }
  }
}

/**
 * The text of a tree written piece by piece: `expand` gives a node's pieces
 * in order (texts, and nodes written in their turn). Types and schemas nest
 * without limit, so the pieces still to write are an explicit stack.
 */
export function writePieces<N extends object>(root: N, expand: (node: N) => readonly (string | N)[]): string {
  let out = "";
  const pieces: (string | N)[] = [root];
  while (pieces.length > 0) {
    const p = pieces.pop()!;
    if (typeof p === "string") {
      out += p;
      continue;
    }
    const seq = expand(p);
    for (let i = seq.length - 1; i >= 0; i--) pieces.push(seq[i]!);
  }
  return out;
}

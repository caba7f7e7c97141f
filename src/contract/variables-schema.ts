/**
 * The JSON Schema of a module's user variables, as `tfcapi-lint schema`
 * prints it and as images carry it in the `io.captf.variables-schema`
 * label. The output is compared byte for byte with the label, so every
 * detail here is fixed:
 *
 * - User variables: root variables (the declaration file set) whose name
 *   neither starts with `captf_` nor is a contract input of the role.
 * - Root: `{"type":"object","properties":{..},"required":[..],
 *   "additionalProperties":false}`; `required` lists the variables without
 *   a `default` (any default, `null` too, makes a variable optional);
 *   an empty `properties` or `required` is left out.
 * - Types are read the way HashiCorp's type-constraint reader
 *   (hcl/ext/typeexpr, with optional-attribute defaults) reads them; a type
 *   it rejects, `any`, or no type at all is `{}`. See `readType`.
 * - Keys inside a node in the order type, properties, required, items,
 *   prefixItems, additionalProperties; property maps and `required` sorted
 *   by UTF-8 bytes; strings escaped as Go's encoding/json does (`<`, `>`,
 *   `&`, U+2028 and U+2029 as `\uXXXX`).
 *
 * Pure: no I/O. The CLI (src/cli/schema.ts) and the image check
 * `image/variables-schema` both call `variablesSchema`.
 */
import type { Expression } from "../hcl/ast.js";
import { collectCalls, collectRefs, constantValue, type ConstValue } from "../hcl/walk.js";
import { CONTRACT } from "./roles.js";
import type { Role } from "./roles-api.js";
import type { LoadResult, Module, ModuleUnit, Variable } from "../terraform/module-types.js";
import { writePieces } from "../terraform/types.js";

/** The label's size limit: 32 KiB of compact JSON (UTF-8 bytes, without a newline). */
export const SCHEMA_LIMIT_BYTES = 32 * 1024;

/** A JSON Schema node, with only what the schema uses. */
export interface SchemaNode {
  type?: "string" | "number" | "boolean" | "array" | "object";
  properties?: Map<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  prefixItems?: SchemaNode[];
  additionalProperties?: SchemaNode | false;
}

/** A type constraint as the type-constraint reader sees it. */
export type TypeConstraint =
  | { kind: "string" | "number" | "bool" | "any" }
  | { kind: "list" | "set" | "map"; element: TypeConstraint }
  | { kind: "tuple"; elements: TypeConstraint[] }
  | { kind: "object"; attributes: Map<string, { type: TypeConstraint; optional: boolean }> };

class Unreadable extends Error {}

/**
 * The compact JSON Schema line (without a newline) of the user variables of
 * `module` for `role`. Accepts the loader's result or its root unit; reads
 * the unit's declaration file set (Terraform's, or OpenTofu's for a
 * `.tofu`-only module), with override files merged. The caller enforces
 * SCHEMA_LIMIT_BYTES (see `schemaSizeError`).
 */
export function variablesSchema(module: ModuleUnit | LoadResult, role: Role): string {
  return serialize(schemaNode(module, role));
}

/** The schema as a tree (before serialization). */
export function schemaNode(module: ModuleUnit | LoadResult, role: Role): SchemaNode {
  const unit = "root" in module ? module.root : module;
  const vars = userVariables(unit.declarations, role);
  const properties = new Map<string, SchemaNode>();
  const required: string[] = [];
  for (const v of vars) {
    properties.set(v.name, typeSchema(variableType(v)));
    if (v.defaultAttr === null) required.push(v.name);
  }
  const root: SchemaNode = { type: "object" };
  if (properties.size > 0) root.properties = properties;
  if (required.length > 0) root.required = required;
  root.additionalProperties = false;
  return root;
}

/** The user variables of a module for a role, in declaration order. */
export function userVariables(mod: Module, role: Role): Variable[] {
  const contractNames = new Set(CONTRACT.inputs[role].map((i) => i.name));
  return [...mod.variables.values()].filter((v) => !v.name.startsWith(CONTRACT.reservedPrefix) && !contractNames.has(v.name));
}

/**
 * When the schema is over the label limit, the message to print (ending
 * with what to do about it); otherwise null.
 */
export function schemaSizeError(schema: string): string | null {
  const bytes = Buffer.byteLength(schema, "utf8");
  if (bytes <= SCHEMA_LIMIT_BYTES) return null;
  return `the schema is ${bytes} bytes, over the label limit of ${SCHEMA_LIMIT_BYTES} bytes; simplify the variable types or drop variables the image need not describe`;
}

// ------------------------------------------------------------ reading types

/** A variable's type constraint, or `any` when it has none or it cannot be read. */
export function variableType(v: Variable): TypeConstraint {
  if (v.typeExpr === null) return { kind: "any" };
  return readType(v.typeExpr) ?? { kind: "any" };
}

/**
 * Read a `type` expression as HashiCorp's type-constraint reader
 * (TypeConstraintWithDefaults) does, or null when it reports an error:
 *
 * - keywords `string`, `number`, `bool`, `any`; calls `list(T)`, `set(T)`,
 *   `map(T)` (exactly one argument), `tuple([T, ...])`, `object({ k = T })`;
 * - bare `list`, `map`, `set`, `object`, `tuple` are errors (Terraform
 *   itself treats a bare `list` and `map` as `list(any)`/`map(any)`, the
 *   type reader does not);
 * - object keys must be bare names (`"quoted" = T` and `(k) = T` are
 *   errors); a repeated key keeps the last type, and is optional when any
 *   of its occurrences is;
 * - `optional(T)` and `optional(T, default)` only directly as an object
 *   attribute's type; the default must evaluate without variables or
 *   function calls and convert to T;
 * - parentheses around a type are not looked through; quoted types
 *   (`type = "string"`) and templates are errors;
 * - JSON syntax: the loader reads a `type` string as a native-syntax
 *   expression, which is then read as above (`"${...}"` and JSON values other
 *   than strings are errors).
 */
export function readType(expr: Expression): TypeConstraint | null {
  try {
    return getType(expr);
  } catch (err) {
    if (err instanceof Unreadable) return null;
    throw err;
  }
}

function keywordOf(expr: Expression): string | null {
  if (expr.kind === "ScopeTraversal" && expr.traversal.length === 1 && expr.traversal[0]!.kind === "TraverseRoot") {
    return expr.traversal[0]!.name;
  }
  // `null`, `true` and `false` parse as literals but read as names here.
  if (expr.kind === "LiteralValue" && expr.type !== "string" && expr.type !== "number") return expr.raw;
  return null;
}

function keywordType(kw: string): TypeConstraint {
  switch (kw) {
    case "string":
    case "number":
    case "bool":
    case "any":
      return { kind: kw };
    default:
      // `list`, `map`, `set`, `object`, `tuple` without an argument, or any other name.
      throw new Unreadable();
  }
}

/**
 * The type an expression stands for, or Unreadable. Types nest without
 * limit: an explicit stack of (expression, the setter its type goes to); a
 * node is made before its children fill it in. Which error is met first
 * does not matter (any makes the type unreadable), so the defaults of
 * optional attributes are checked once the whole type is read.
 */
function getType(root: Expression): TypeConstraint {
  let result: TypeConstraint | null = null;
  const exprs: Expression[] = [root];
  const setters: ((t: TypeConstraint) => void)[] = [
    (t) => {
      result = t;
    },
  ];
  const defaults: { expr: Expression; attr: { type: TypeConstraint } }[] = [];
  while (exprs.length > 0) {
    const expr = exprs.pop()!;
    const set = setters.pop()!;
    const kw = keywordOf(expr);
    if (kw !== null) set(keywordType(kw));
    else if (expr.kind !== "FunctionCall") throw new Unreadable();
    else callType(expr, set, exprs, setters, defaults);
  }
  for (const d of defaults) checkDefault(d.expr, d.attr.type);
  return result!;
}

const ANY_TYPE: TypeConstraint = { kind: "any" };

/** A type constructor's node given to `set`; its inner types pushed with their setters. */
function callType(
  call: Expression & { kind: "FunctionCall" },
  set: (t: TypeConstraint) => void,
  exprs: Expression[],
  setters: ((t: TypeConstraint) => void)[],
  defaults: { expr: Expression; attr: { type: TypeConstraint } }[],
): void {
  const name = call.name;
  const args = call.args;
  if (name === "bool" || name === "string" || name === "number" || name === "any") throw new Unreadable();
  if ((name === "list" || name === "set" || name === "map" || name === "object" || name === "tuple") && args.length !== 1) {
    throw new Unreadable();
  }
  switch (name) {
    case "list":
    case "set":
    case "map": {
      const node: { kind: "list"; element: TypeConstraint } = { kind: name as "list", element: ANY_TYPE };
      set(node);
      exprs.push(args[0]!);
      setters.push((t) => (node.element = t));
      return;
    }
    case "tuple": {
      const list = args[0]!;
      if (list.kind !== "TupleCons") throw new Unreadable();
      const elements: TypeConstraint[] = list.exprs.map(() => ANY_TYPE);
      set({ kind: "tuple", elements });
      list.exprs.forEach((e, i) => {
        exprs.push(e);
        setters.push((t) => (elements[i] = t));
      });
      return;
    }
    case "object": {
      const map = args[0]!;
      if (map.kind !== "ObjectCons") throw new Unreadable();
      const attributes = new Map<string, { type: TypeConstraint; optional: boolean }>();
      set({ kind: "object", attributes });
      for (const item of map.items) {
        const key = item.keyIsBareIdent ? keywordOf(item.key) : item.key.kind === "LiteralValue" ? keywordOf(item.key) : null;
        if (key === null) throw new Unreadable();
        let typeExpr = item.value;
        let optional = false;
        let defaultExpr: Expression | null = null;
        if (typeExpr.kind === "FunctionCall" && typeExpr.name === "optional") {
          if (typeExpr.args.length < 1 || typeExpr.args.length > 2) throw new Unreadable();
          optional = true;
          defaultExpr = typeExpr.args[1] ?? null;
          typeExpr = typeExpr.args[0]!;
        }
        const prev = attributes.get(key);
        const attr = { type: ANY_TYPE, optional: optional || (prev?.optional ?? false) };
        attributes.set(key, attr);
        exprs.push(typeExpr);
        setters.push((t) => (attr.type = t));
        if (defaultExpr !== null) defaults.push({ expr: defaultExpr, attr });
      }
      return;
    }
    default:
      // `optional(...)` outside an object attribute, or an unknown constructor.
      throw new Unreadable();
  }
}

/** An optional attribute's default must evaluate without a context and convert to the type. */
function checkDefault(expr: Expression, type: TypeConstraint): void {
  if (collectRefs(expr).length > 0 || collectCalls(expr).length > 0) throw new Unreadable();
  const c = constantValue(expr);
  if (c.known && !converts(c.value, type)) throw new Unreadable();
}

/**
 * Whether Terraform's type conversion accepts `value` for `type`. Recursive:
 * it descends the value and the type together, and a constant value is at
 * most 500 levels deep (`constantValue` gives up beyond), so the depth is
 * bounded whatever the type's.
 */
function converts(value: ConstValue, type: TypeConstraint): boolean {
  if (value === null) return true;
  switch (type.kind) {
    case "any":
      return true;
    case "string":
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    case "number":
      // A decimal number in full (no spaces, no 0x or _), or Inf.
      return typeof value === "number" || (typeof value === "string" && /^[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[iI]nf)$/.test(value));
    case "bool":
      return typeof value === "boolean" || value === "true" || value === "false";
    case "list":
    case "set":
      return Array.isArray(value) && value.every((v) => converts(v, type.element));
    case "tuple":
      return Array.isArray(value) && value.length === type.elements.length && value.every((v, i) => converts(v, type.elements[i]!));
    case "map":
      return isObject(value) && Object.values(value).every((v) => converts(v, type.element));
    case "object":
      if (!isObject(value)) return false;
      for (const [k, a] of type.attributes) {
        if (!(k in value)) {
          if (!a.optional) return false;
        } else if (!converts(value[k]!, a.type)) return false;
      }
      return true;
  }
}

function isObject(v: ConstValue): v is { [key: string]: ConstValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ------------------------------------------------------------ type → schema

/** The JSON Schema node of a type. Types nest without limit: an explicit stack of (type, the node to fill). */
export function typeSchema(root: TypeConstraint): SchemaNode {
  const top: SchemaNode = {};
  const types: TypeConstraint[] = [root];
  const nodes: SchemaNode[] = [top];
  const inner = (t: TypeConstraint): SchemaNode => {
    const n: SchemaNode = {};
    types.push(t);
    nodes.push(n);
    return n;
  };
  while (types.length > 0) {
    const t = types.pop()!;
    const node = nodes.pop()!;
    switch (t.kind) {
      case "any":
        break;
      case "string":
        node.type = "string";
        break;
      case "number":
        node.type = "number";
        break;
      case "bool":
        node.type = "boolean";
        break;
      case "list":
      case "set":
        node.type = "array";
        node.items = inner(t.element);
        break;
      case "map":
        node.type = "object";
        node.additionalProperties = inner(t.element);
        break;
      case "tuple":
        node.type = "array";
        if (t.elements.length > 0) node.prefixItems = t.elements.map(inner);
        break;
      case "object": {
        node.type = "object";
        const properties = new Map<string, SchemaNode>();
        const required: string[] = [];
        for (const [name, a] of t.attributes) {
          properties.set(name, inner(a.type));
          if (!a.optional) required.push(name);
        }
        if (properties.size > 0) node.properties = properties;
        if (required.length > 0) node.required = required;
        break;
      }
    }
  }
  return top;
}

// ------------------------------------------------------------ serialization

/**
 * Compact JSON with the fixed key order, sorted maps, and Go's string
 * escaping. Schemas nest as deep as types: the text is written piece by
 * piece (writePieces).
 */
export function serialize(root: SchemaNode): string {
  return writePieces(root, nodePieces);
}

/** The pieces of one node's text in order: its own texts and its inner nodes. */
function nodePieces(node: SchemaNode): (string | SchemaNode)[] {
  const seq: (string | SchemaNode)[] = ["{"];
  const sep = (): void => {
    if (seq.length > 1) seq.push(",");
  };
  if (node.type !== undefined) {
    sep();
    seq.push(`"type":${goJsonString(node.type)}`);
  }
  if (node.properties !== undefined) {
    sep();
    seq.push(`"properties":{`);
    const keys = [...node.properties.keys()].sort(compareUtf8);
    keys.forEach((k, i) => seq.push(`${i > 0 ? "," : ""}${goJsonString(k)}:`, node.properties!.get(k)!));
    seq.push("}");
  }
  if (node.required !== undefined) {
    sep();
    seq.push(`"required":[${[...node.required].sort(compareUtf8).map(goJsonString).join(",")}]`);
  }
  if (node.items !== undefined) {
    sep();
    seq.push(`"items":`, node.items);
  }
  if (node.prefixItems !== undefined) {
    sep();
    seq.push(`"prefixItems":[`);
    node.prefixItems.forEach((n, i) => {
      if (i > 0) seq.push(",");
      seq.push(n);
    });
    seq.push("]");
  }
  if (node.additionalProperties !== undefined) {
    sep();
    if (node.additionalProperties === false) seq.push(`"additionalProperties":false`);
    else seq.push(`"additionalProperties":`, node.additionalProperties);
  }
  seq.push("}");
  return seq;
}

/** Order of strings by their UTF-8 bytes (= by code point), as Go sorts them. */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return Buffer.compare(x, y);
}

const HEX = "0123456789abcdef";

/**
 * A JSON string as Go's encoding/json writes it (Go 1.22 and later):
 * `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`; other control characters as
 * `\u00xx`; `<`, `>`, `&`, U+2028, U+2029 as `\u003c`, `\u003e`, `\u0026`,
 * `\u2028`, `\u2029`; a lone surrogate (not valid UTF-8) as U+FFFD;
 * everything else as is.
 */
export function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20) {
      if (c === 0x08) out += "\\b";
      else if (c === 0x0c) out += "\\f";
      else if (c === 0x0a) out += "\\n";
      else if (c === 0x0d) out += "\\r";
      else if (c === 0x09) out += "\\t";
      else out += `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
    } else if (c === 0x3c || c === 0x3e || c === 0x26) out += `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
    else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
    else if (c >= 0xd800 && c <= 0xdfff) out += "\ufffd";
    else out += ch;
  }
  return out + '"';
}

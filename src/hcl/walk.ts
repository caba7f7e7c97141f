/**
 * Helpers over expressions: a pre-order walker, reference/call collection
 * (same nodes and order as HashiCorp's hclsyntax.Walk), traversal text,
 * source slices and constant evaluation; and a walker over nested blocks.
 */
import type { Block, Body, Expression, File, FunctionCall, ObjectConsItem, Range, ScopeTraversal, TemplatePart, Traverser } from "./ast.js";

/** Strip `( ... )` and a `"${ x }"` template wrap, which evaluate to `x` unchanged. */
export function unwrap(expr: Expression): Expression {
  let e = expr;
  for (;;) {
    if (e.kind === "Parentheses") e = e.expr;
    else if (e.kind === "TemplateWrap") e = e.wrapped;
    else return e;
  }
}

/**
 * Calls `visit` for `expr` and every sub-expression in source order
 * (pre-order: a node before its children). Template parts, object keys,
 * `for` parts and splat parts are included. Returning `false` from `visit`
 * skips the node's children. Bare-identifier object keys (`{ name = 1 }`)
 * are visited unless `includeBareKeys` is false (they are names, not
 * references).
 */
export function walkExpression(expr: Expression, visit: (e: Expression) => void | boolean, includeBareKeys = true): void {
  walk(expr, visit, includeBareKeys);
}

function walk(expr: Expression, visit: (e: Expression) => void | boolean, includeBareKeys: boolean): void {
  // Explicit stack to survive deeply nested input.
  const stack: Expression[] = [expr];
  while (stack.length > 0) {
    const e = stack.pop() as Expression;
    if (visit(e) === false) continue;
    pushChildren(e, stack, includeBareKeys);
  }
}

/**
 * Pushes the direct sub-expressions of `e` onto `stack` in reverse source
 * order, so that they pop in source order: the step of an iterative
 * pre-order walk, and the one place that lists each kind's children. The
 * stack may hold the caller's own markers (`M`) besides expressions.
 * Bare-identifier object keys only with `includeBareKeys`. No callback per
 * child: the lint engine's shared walk steps through every expression of a
 * module this way.
 */
export function pushChildren<M>(e: Expression, stack: (Expression | M)[], includeBareKeys: boolean): void {
  switch (e.kind) {
    case "LiteralValue":
    case "ScopeTraversal":
    case "AnonSymbol":
    case "Invalid":
      return;
    case "Template":
      pushPartChildren(e.parts, stack);
      return;
    case "TemplateWrap":
      stack.push(e.wrapped);
      return;
    case "RelativeTraversal":
      stack.push(e.source);
      return;
    case "Index":
      stack.push(e.key, e.collection);
      return;
    case "Splat":
      stack.push(e.each, e.source);
      return;
    case "FunctionCall":
      for (let i = e.args.length - 1; i >= 0; i--) stack.push(e.args[i]!);
      return;
    case "Conditional":
      stack.push(e.falseResult, e.trueResult, e.condition);
      return;
    case "BinaryOp":
      stack.push(e.rhs, e.lhs);
      return;
    case "UnaryOp":
      stack.push(e.operand);
      return;
    case "TupleCons":
      for (let i = e.exprs.length - 1; i >= 0; i--) stack.push(e.exprs[i]!);
      return;
    case "ObjectCons":
      pushItemChildren(e.items, stack, includeBareKeys);
      return;
    case "For":
      if (e.condition !== null) stack.push(e.condition);
      stack.push(e.valExpr);
      if (e.keyExpr !== null) stack.push(e.keyExpr);
      stack.push(e.collection);
      return;
    case "Parentheses":
      stack.push(e.expr);
      return;
  }
}

/** An object's keys and values, in reverse (bare-identifier keys only with `includeBareKeys`). */
function pushItemChildren<M>(items: readonly ObjectConsItem[], stack: (Expression | M)[], includeBareKeys: boolean): void {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    stack.push(it.value);
    if (includeBareKeys || !it.keyIsBareIdent) stack.push(it.key);
  }
}

/**
 * A template's expressions, in reverse. Directives (`%{ if }`, `%{ for }`)
 * nest their own part lists without limit: a template holding one has its
 * expressions listed in source order by `walkTemplateParts` (iterative),
 * then turned around.
 */
function pushPartChildren<M>(parts: readonly TemplatePart[], stack: (Expression | M)[]): void {
  for (const p of parts) {
    if (p.kind === "TemplateIf" || p.kind === "TemplateFor") {
      const base = stack.length;
      walkTemplateParts(parts, null, (part) => {
        if (part.kind === "TemplateInterp") stack.push(part.expr);
        else if (part.kind === "TemplateIf") stack.push(part.condition);
        else if (part.kind === "TemplateFor") stack.push(part.collection);
        return null;
      });
      reverseFrom(stack, base);
      return;
    }
  }
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.kind === "TemplateInterp") stack.push(p.expr);
  }
}

/** Turns the end of `list` from index `from` around, in place (what a walk pushed in source order, to pop in source order). */
export function reverseFrom<T>(list: T[], from: number): void {
  for (let i = from, j = list.length - 1; i < j; i++, j--) {
    const t = list[i]!;
    list[i] = list[j]!;
    list[j] = t;
  }
}

/**
 * The children `forEachChild` is handing out: each call pushes above what
 * the calls around it left (a callback may call it again) and takes its own
 * off, even when the callback throws.
 */
const handingOut: (Expression | null)[] = [];

/**
 * `fn(child, a, b)` for each direct sub-expression of `e` in source order
 * (the children `pushChildren` lists), without building arrays. Bare-
 * identifier object keys only with `includeBareKeys`.
 */
export function forEachChild<A, B>(e: Expression, fn: (child: Expression, a: A, b: B) => void, a: A, b: B, includeBareKeys = false): void {
  const base = handingOut.length;
  pushChildren(e, handingOut, includeBareKeys);
  try {
    while (handingOut.length > base) fn(handingOut.pop()!, a, b);
  } finally {
    handingOut.length = base;
  }
}

/**
 * Calls `visit` for every part of `parts` and of the directives among them,
 * in source order: a directive before the parts it holds, an `if`'s `then`
 * parts before its `else` parts. `visit` gets the context of the list the
 * part is in and returns the context of the lists a directive holds (a
 * `%{ for }` binds names in its body). Directives nest without limit, so
 * the part lists are walked with an explicit stack of (list, next index,
 * context) frames.
 */
export function walkTemplateParts<C>(parts: readonly TemplatePart[], context: C, visit: (part: TemplatePart, context: C) => C): void {
  const lists: (readonly TemplatePart[])[] = [parts];
  const next: number[] = [0];
  const contexts: C[] = [context];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top]!;
    const i = next[top]!;
    if (i >= list.length) {
      lists.pop();
      next.pop();
      contexts.pop();
      continue;
    }
    next[top] = i + 1;
    const p = list[i]!;
    const inner = visit(p, contexts[top]!);
    if (p.kind === "TemplateIf") {
      // The `else` parts come after the `then` parts: pushed first, popped last.
      if (p.else !== null) lists.push(p.else), next.push(0), contexts.push(inner);
      lists.push(p.then), next.push(0), contexts.push(inner);
    } else if (p.kind === "TemplateFor") {
      lists.push(p.body), next.push(0), contexts.push(inner);
    }
  }
}

/**
 * Calls `visit` for every block of `body` and of the bodies `visit` hands
 * back, depth first in source order: after a block come the blocks of the
 * bodies it returned (in their order), then the block's next sibling.
 * `visit` returns the block's own body to go into it, none to pass over
 * what it holds, or other bodies (a `dynamic` block's `content`). It also
 * gets how many bodies are open around the block (0 for the blocks of
 * `body`). Blocks nest without limit: an explicit stack of (body, next
 * block) frames.
 */
export function walkBlocks(body: Body, visit: (block: Block, level: number) => readonly Body[]): void {
  const bodies: Body[] = [body];
  const next: number[] = [0];
  while (bodies.length > 0) {
    const top = bodies.length - 1;
    const b = bodies[top]!;
    const i = next[top]!;
    if (i >= b.blocks.length) {
      bodies.pop();
      next.pop();
      continue;
    }
    next[top] = i + 1;
    const inner = visit(b.blocks[i]!, top);
    // The last pushed is read first.
    for (let k = inner.length - 1; k >= 0; k--) {
      bodies.push(inner[k]!);
      next.push(0);
    }
  }
}

/** Direct sub-expressions of `e` in source order (bare-identifier object keys unless `includeBareKeys` is false). */
export function children(e: Expression, includeBareKeys = true): Expression[] {
  const out: Expression[] = [];
  pushChildren(e, out, includeBareKeys);
  return out.reverse();
}

/**
 * The string `expr` certainly is: a string literal, a template made only of
 * literal text, or any constant expression (folded, `"a${"b"}"`) whose value
 * is a string. Null for anything else, including numbers and bools.
 */
export function constString(expr: Expression | null | undefined): string | null {
  if (!expr) return null;
  const e = unwrap(expr);
  if (e.kind === "LiteralValue") return e.type === "string" ? String(e.value) : null;
  if (e.kind === "Template") {
    let out = "";
    for (const p of e.parts) {
      if (p.kind !== "TemplateLiteral") return foldedString(e);
      out += p.value;
    }
    return out;
  }
  if (e.kind === "ScopeTraversal" || e.kind === "FunctionCall" || e.kind === "Invalid") return null;
  return foldedString(e);
}

function foldedString(e: Expression): string | null {
  const c = constantValue(e);
  return c.known && typeof c.value === "string" ? c.value : null;
}

/**
 * The value of a literal bool, or of the strings `"true"`/`"false"` (which
 * Terraform converts to bool, and which JSON "literal" arguments produce).
 */
export function constBool(expr: Expression | null | undefined): boolean | null {
  if (!expr) return null;
  const e = unwrap(expr);
  if (e.kind === "LiteralValue" && e.type === "bool") return e.value as boolean;
  const s = constString(e);
  if (s === "true") return true;
  if (s === "false") return false;
  return null;
}

/** `null` literal (possibly parenthesised). */
export function isNullLiteral(expr: Expression): boolean {
  const e = unwrap(expr);
  return e.kind === "LiteralValue" && e.type === "null";
}

/** Every variable reference (ScopeTraversal) in `expr`, in source order; bare object keys excluded. */
export function collectRefs(expr: Expression): ScopeTraversal[] {
  return collectKind(expr, "ScopeTraversal");
}

/** Every function call in `expr`, outer calls before the calls in their arguments. */
export function collectCalls(expr: Expression): FunctionCall[] {
  return collectKind(expr, "FunctionCall");
}

/** Every node of `kind` in `expr`, pre-order (a node before those inside it); bare object keys excluded. */
function collectKind<K extends Expression["kind"]>(expr: Expression, kind: K): Extract<Expression, { kind: K }>[] {
  const out: Extract<Expression, { kind: K }>[] = [];
  walk(
    expr,
    (e) => {
      if (e.kind === kind) out.push(e as Extract<Expression, { kind: K }>);
    },
    false,
  );
  return out;
}

/** Whether an object item's key is a bare identifier meaning a literal string. */
export function isBareKey(item: ObjectConsItem): boolean {
  return item.keyIsBareIdent;
}

/**
 * The name an object item's key stands for: a bare identifier (`name = 1`)
 * or a constant key (`"name"`, `("name")`, `1`). Null for a computed key.
 */
export function objectKeyName(item: ObjectConsItem): string | null {
  if (item.keyIsBareIdent && item.key.kind === "ScopeTraversal") {
    const root = item.key.traversal[0];
    return root && root.kind === "TraverseRoot" ? root.name : null;
  }
  const v = constantValue(item.key);
  if (v.known && (typeof v.value === "string" || typeof v.value === "number" || typeof v.value === "boolean")) return String(v.value);
  return null;
}

function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString();
  if (Number.isInteger(n)) return String(n);
  const s = String(n);
  if (!s.includes("e")) return s;
  // expand exponent notation like Go's big.Float Text('f', -1)
  return n.toFixed(20).replace(/0+$/, "").replace(/\.$/, "");
}

/** Go's strconv.Quote for the common cases (what the oracle prints for string keys). */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c === 10) out += "\\n";
    else if (c === 13) out += "\\r";
    else if (c === 9) out += "\\t";
    else if (c === 7) out += "\\a";
    else if (c === 8) out += "\\b";
    else if (c === 12) out += "\\f";
    else if (c === 11) out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/**
 * Text of a traversal: `var.a.b[0]["k"]`. Attribute steps are `.name`,
 * number keys `[N]`, string keys `["k"]`, legacy splats `.*`, and keys
 * that are not a string or number `[?]`.
 */
export function traversalText(traversal: Traverser[]): string {
  let s = "";
  for (const step of traversal) {
    switch (step.kind) {
      case "TraverseRoot":
        s += step.name;
        break;
      case "TraverseAttr":
        s += "." + step.name;
        break;
      case "TraverseIndex":
        if (typeof step.key === "number") s += Number.isNaN(step.key) ? "[?]" : "[" + numberText(step.key) + "]";
        else s += "[" + goQuote(step.key) + "]";
        break;
      case "TraverseSplat":
        s += ".*";
        break;
    }
  }
  return s;
}

/** The exact source text of a node (an expression, a block, an attribute). */
export function exprText(file: File, expr: { range: Range }): string {
  return file.text.slice(expr.range.start.offset, expr.range.end.offset);
}

// ------------------------------------------------------------ constant evaluation

export type ConstValue = string | number | boolean | null | ConstValue[] | { [key: string]: ConstValue };
export type ConstResult = { known: true; value: ConstValue } | { known: false };

const UNKNOWN: ConstResult = { known: false };

/**
 * Thrown (and caught in constantValue) when a part is not constant: one
 * shared value, not an Error, so a miss records no stack trace.
 */
const NOT_CONSTANT = Symbol("not constant");

/**
 * Evaluates an expression made only of literals: tuples, objects with
 * constant keys, templates of constants, parentheses, unary/binary
 * operators and conditionals. Anything referring to variables or calling
 * functions is unknown.
 */
export function constantValue(expr: Expression): ConstResult {
  if (deeperThanBudget(expr)) return UNKNOWN;
  try {
    return { known: true, value: evalConst(expr, 0) };
  } catch (e) {
    if (e === NOT_CONSTANT || e instanceof RangeError) return UNKNOWN;
    throw e;
  }
}

/** How deep the folding goes (see evalConst). */
const CONST_DEPTH = 500;

/**
 * Whether `expr` nests more than CONST_DEPTH levels, found with an explicit
 * stack before folding: a miss at the bottom of a deep tree would otherwise
 * be thrown up through hundreds of frames for every node a caller asks
 * about. Each level takes at least one character, so an expression shorter
 * than that is not looked at (nor is a node made without offsets).
 */
function deeperThanBudget(expr: Expression): boolean {
  const at = expr as { startOffset?: unknown; endOffset?: unknown };
  if (typeof at.startOffset !== "number" || typeof at.endOffset !== "number" || at.endOffset - at.startOffset <= CONST_DEPTH) return false;
  const exprs: Expression[] = [expr];
  const depths: number[] = [0];
  while (exprs.length > 0) {
    const e = exprs.pop()!;
    const d = depths.pop()! + 1;
    if (d > CONST_DEPTH) return true;
    const base = exprs.length;
    pushChildren(e, exprs, false);
    for (let i = base; i < exprs.length; i++) depths.push(d);
  }
  return false;
}

function fail(): never {
  throw NOT_CONSTANT;
}

function toStr(v: ConstValue): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return numberText(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  return fail();
}

function toNum(v: ConstValue): number {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return fail();
}

function toBool(v: ConstValue): boolean {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return fail();
}

/** Whether two constant values are equal; an explicit stack of pairs, as values can nest without limit. */
function deepEqual(a0: ConstValue, b0: ConstValue): boolean {
  const pairs: ConstValue[] = [a0, b0];
  while (pairs.length > 0) {
    const b = pairs.pop()!;
    const a = pairs.pop()!;
    if (a === b) continue;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return false;
      for (let i = a.length - 1; i >= 0; i--) pairs.push(a[i]!, b[i]!);
      continue;
    }
    if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
      const ka = Object.keys(a);
      if (ka.length !== Object.keys(b).length) return false;
      for (let i = ka.length - 1; i >= 0; i--) {
        const k = ka[i]!;
        if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
        pairs.push(a[k]!, b[k]!);
      }
      continue;
    }
    return false;
  }
  return true;
}

// The folding loops are indexed, not `for...of`: an array iterator is closed
// by a handler in every frame a NOT_CONSTANT passes through, which made a
// miss 500 levels down cost a rethrow per level.
function evalParts(parts: TemplatePart[], depth: number): string {
  let s = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    switch (part.kind) {
      case "TemplateLiteral":
        s += part.value;
        break;
      case "TemplateInterp":
        s += toStr(evalConst(part.expr, depth + 1));
        break;
      case "TemplateIf":
        if (toBool(evalConst(part.condition, depth + 1))) s += evalParts(part.then, depth + 1);
        else if (part.else !== null) s += evalParts(part.else, depth + 1);
        break;
      case "TemplateFor":
        fail();
    }
  }
  return s;
}

/**
 * The folding recurses, within a budget: an expression nested more than 500
 * levels deep is not constant (unknown, so every reader stays silent), which
 * also keeps deep values out of the readers of constant values.
 */
function evalConst(e: Expression, depth: number): ConstValue {
  if (depth > CONST_DEPTH) fail();
  switch (e.kind) {
    case "LiteralValue":
      return e.value;
    case "Template":
      return evalParts(e.parts, depth);
    case "TemplateWrap":
      return evalConst(e.wrapped, depth + 1);
    case "Parentheses":
      return evalConst(e.expr, depth + 1);
    case "TupleCons":
      return e.exprs.map((x) => evalConst(x, depth + 1));
    case "ObjectCons": {
      const obj: { [key: string]: ConstValue } = Object.create(null) as { [key: string]: ConstValue };
      for (let i = 0; i < e.items.length; i++) {
        const item = e.items[i]!;
        let key: string;
        if (item.keyIsBareIdent && item.key.kind === "ScopeTraversal" && item.key.traversal[0].kind === "TraverseRoot") {
          key = item.key.traversal[0].name;
        } else {
          key = toStr(evalConst(item.key, depth + 1));
        }
        obj[key] = evalConst(item.value, depth + 1);
      }
      return { ...obj };
    }
    case "UnaryOp": {
      const v = evalConst(e.operand, depth + 1);
      return e.op === "-" ? -toNum(v) : !toBool(v);
    }
    case "BinaryOp": {
      if (e.op === "||" || e.op === "&&") {
        const l = toBool(evalConst(e.lhs, depth + 1));
        const r = toBool(evalConst(e.rhs, depth + 1));
        return e.op === "||" ? l || r : l && r;
      }
      const l = evalConst(e.lhs, depth + 1);
      const r = evalConst(e.rhs, depth + 1);
      switch (e.op) {
        case "==":
          return deepEqual(l, r);
        case "!=":
          return !deepEqual(l, r);
        case "<":
          return toNum(l) < toNum(r);
        case "<=":
          return toNum(l) <= toNum(r);
        case ">":
          return toNum(l) > toNum(r);
        case ">=":
          return toNum(l) >= toNum(r);
        case "+":
          return toNum(l) + toNum(r);
        case "-":
          return toNum(l) - toNum(r);
        case "*":
          return toNum(l) * toNum(r);
        case "/": {
          const d = toNum(r);
          if (d === 0) fail();
          return toNum(l) / d;
        }
        case "%": {
          const d = toNum(r);
          if (d === 0) fail();
          return toNum(l) % d;
        }
      }
      return fail();
    }
    case "Conditional": {
      const c = toBool(evalConst(e.condition, depth + 1));
      return c ? evalConst(e.trueResult, depth + 1) : evalConst(e.falseResult, depth + 1);
    }
    default:
      return fail();
  }
}

/** A step of `expressionKey`'s post-order: join the last `count` keys into the key of `expr`. */
interface KeyJoin {
  readonly expr: Expression;
  count: number;
}

/**
 * A text that is the same for two expressions written the same way
 * (ignoring positions, parentheses and layout): `var.a.b`, `length(var.x)>0`.
 * Used to tell that a condition tests the same thing as another one.
 * Null for forms not compared (`for`, splats, templates with directives).
 * Expressions nest without limit, so the keys are built with an explicit
 * stack: an expression pushes a join step, then its children; a child's key
 * lands on `keys`, and the join takes its children's keys off it. A form not
 * compared anywhere makes the whole key null.
 */
export function expressionKey(expr: Expression): string | null {
  const work: (Expression | KeyJoin)[] = [expr];
  const keys: (string | null)[] = [];
  while (work.length > 0) {
    const item = work.pop()!;
    if (!("kind" in item)) {
      const parts = keys.splice(keys.length - item.count, item.count);
      const key = parts.includes(null) ? null : joinKey(item.expr, parts as string[]);
      KEY_MEMO.set(item.expr, key);
      keys.push(key);
      continue;
    }
    const e = item;
    const known = KEY_MEMO.get(e);
    if (known !== undefined) {
      keys.push(known);
      continue;
    }
    switch (e.kind) {
      case "Parentheses":
      case "TemplateWrap":
        // The key of the expression inside.
        pushChildren(e, work, false);
        break;
      case "ScopeTraversal":
        keys.push(traversalText(e.traversal));
        break;
      case "LiteralValue":
        keys.push(JSON.stringify(e.value));
        break;
      case "RelativeTraversal":
      case "Index":
      case "FunctionCall":
      case "BinaryOp":
      case "UnaryOp":
      case "Conditional":
      case "TupleCons":
        pushKeyJoin(work, e);
        break;
      case "Template": {
        const c = constantValue(e);
        if (c.known) {
          keys.push(JSON.stringify(c.value));
          break;
        }
        if (e.parts.some((p) => p.kind !== "TemplateLiteral" && p.kind !== "TemplateInterp")) {
          keys.push(null);
          break;
        }
        // Literal text and interpolations only: the children are the interpolated expressions.
        pushKeyJoin(work, e);
        break;
      }
      default:
        // A form not compared: the key of every expression around it is null.
        keys.push(null);
    }
  }
  return keys[0]!;
}

/**
 * The keys of the compound expressions keyed so far (a tree never changes
 * in place, so a key never does). Callers ask for the key of an expression
 * and then of its parts again (`expand` at each level of a chain of
 * conditionals): without it, a chain n levels deep would cost n² steps.
 */
const KEY_MEMO = new WeakMap<Expression, string | null>();

/** A join step for `e`, then its children above it (keyed first, in source order). */
function pushKeyJoin(work: (Expression | KeyJoin)[], e: Expression): void {
  const join: KeyJoin = { expr: e, count: 0 };
  work.push(join);
  const base = work.length;
  pushChildren(e, work, false);
  join.count = work.length - base;
}

/** The key of `e` from the keys of its children (in source order). */
function joinKey(e: Expression, k: string[]): string {
  switch (e.kind) {
    case "RelativeTraversal":
      return `(${k[0]!})${traversalText(e.traversal)}`;
    case "Index":
      return `${k[0]!}[${k[1]!}]`;
    case "FunctionCall":
      return `${e.name}(${k.join(",")}${e.expandFinal ? "..." : ""})`;
    case "BinaryOp":
      return `(${k[0]!}${e.op}${k[1]!})`;
    case "UnaryOp":
      return `${e.op}(${k[0]!})`;
    case "Conditional":
      return `?(${k.join(",")})`;
    case "TupleCons":
      return `[${k.join(",")}]`;
    case "Template":
      return `tpl(${e.parts.map((p) => (p.kind === "TemplateLiteral" ? JSON.stringify(p.value) : "$")).join("")};${k.join(",")})`;
    default:
      throw new Error(`internal error: no key join for ${e.kind}`);
  }
}

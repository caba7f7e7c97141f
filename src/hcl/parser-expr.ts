/**
 * Expression parser for HCL native syntax (precedence climbing over the
 * token stream of lexer.ts). Structure and error recovery follow hclsyntax
 * closely so that diagnostics and ranges match HashiCorp's parser.
 */
import { endOffsetOf, rangeBetween } from "./source.js";
import {
  AnonSymbolNode,
  BinaryOpNode,
  ConditionalNode,
  ForNode,
  FunctionCallNode,
  IndexNode,
  LiteralNode,
  ObjectConsNode,
  ObjectItemNode,
  ParenthesesNode,
  RelativeTraversalNode,
  ScopeTraversalNode,
  SplatNode,
  SyntaxNode,
  TraverseAttrNode,
  TraverseIndexNode,
  TraverseRootNode,
  TupleConsNode,
  UnaryOpNode,
} from "./nodes.js";
import type {
  BinaryOperator,
  Expression,
  ForExpr,
  FunctionCall,
  ObjectConsItem,
  Range,
  RelativeTraversal,
  ScopeTraversal,
  Traverser,
} from "./ast.js";
import { T } from "./lexer.js";
import { LOOP_CALL, LOOP_OBJECT, LOOP_TUPLE, NEST_EXPR, exact, join, nest, type ParserState } from "./parser-core.js";
import { parseTemplateAfterOpen } from "./parser-template.js";

const BINARY_LEVELS: Array<Map<number, BinaryOperator>> = [
  new Map([[T.Or, "||"]]),
  new Map([[T.And, "&&"]]),
  new Map<number, BinaryOperator>([
    [T.EqualOp, "=="],
    [T.NotEqual, "!="],
  ]),
  new Map<number, BinaryOperator>([
    [T.GreaterThan, ">"],
    [T.GreaterThanEq, ">="],
    [T.LessThan, "<"],
    [T.LessThanEq, "<="],
  ]),
  new Map<number, BinaryOperator>([
    [T.Plus, "+"],
    [T.Minus, "-"],
  ]),
  new Map<number, BinaryOperator>([
    [T.Star, "*"],
    [T.Slash, "/"],
    [T.Percent, "%"],
  ]),
];

const ZERO_RANGE: Range = { start: { line: 0, column: 0, offset: 0 }, end: { line: 0, column: 0, offset: 0 } };

const span = rangeBetween;

/** Parses an expression (a nested parse: see nest in parser-core.ts). */
export function parseExpression(p: ParserState): Expression {
  return nest(p, NEST_EXPR, parseTernary);
}

function parseTernary(p: ParserState): Expression {
  const startTok = p.peek();
  const m0 = p.mark();
  const cond = parseBinary(p, 0);
  if (p.recovery && p.hasErrorsSince(m0)) return cond;
  if (p.peekType() !== T.Question) return cond;
  p.read();
  return finishConditional(p, startTok, cond);
}

function finishConditional(p: ParserState, startTok: number, cond: Expression): Expression {
  const m1 = p.mark();
  const t = parseExpression(p);
  if (p.recovery && p.hasErrorsSince(m1)) return cond;
  const colon = p.peek();
  if (p.types[colon] !== T.Colon) {
    p.error(
      "Missing false expression in conditional",
      "A conditional expression needs both results: write `condition ? true_value : false_value`.",
      p.tokRange(colon),
    );
    return cond;
  }
  p.read();
  const m2 = p.mark();
  const f = parseExpression(p);
  if (p.recovery && p.hasErrorsSince(m2)) return cond;
  return new ConditionalNode(cond, t, f, join(p.tokRange(startTok), f));
}

/** Token type -> precedence level (index into BINARY_LEVELS), or -1. */
const LEVEL_OF = new Int8Array(256).fill(-1);
const OP_OF: Array<BinaryOperator | undefined> = new Array<BinaryOperator | undefined>(256);
BINARY_LEVELS.forEach((m, level) => {
  for (const [ty, op] of m) {
    LEVEL_OF[ty] = level;
    OP_OF[ty] = op;
  }
});

function parseBinary(p: ParserState, level: number): Expression {
  // Fast path: parse the first operand once; most operands are not followed by an operator.
  const m = p.mark();
  const first = parseWithTraversals(p);
  if (p.recovery && p.hasErrorsSince(m)) return first;
  if (LEVEL_OF[p.peekType()] < level) return first;
  return climbBinary(p, level, first, m);
}

/**
 * Precedence climbing at `level`. On the leftmost path the first operand
 * (`first`, parsed from diagnostics mark `firstMark`) is already known;
 * other operands pass null and are parsed here.
 */
function climbBinary(p: ParserState, level: number, first: Expression | null, firstMark: number): Expression {
  if (level >= BINARY_LEVELS.length) return first ?? parseWithTraversals(p);
  const m0 = first !== null ? firstMark : p.mark();
  let lhs = climbBinary(p, level + 1, first, firstMark);
  if (p.recovery && p.hasErrorsSince(m0)) return lhs;
  let op: BinaryOperator | undefined;
  let rhs: Expression | undefined;
  for (;;) {
    const ty = p.peekType();
    if (LEVEL_OF[ty] !== level) break;
    const next = OP_OF[ty] as BinaryOperator;
    if (op !== undefined && rhs !== undefined) {
      lhs = new BinaryOpNode(op, lhs, rhs, join(lhs, rhs));
    }
    op = next;
    p.read();
    const m1 = p.mark();
    rhs = climbBinary(p, level + 1, null, 0);
    if (p.recovery && p.hasErrorsSince(m1)) return lhs;
  }
  if (op === undefined || rhs === undefined) return lhs;
  return new BinaryOpNode(op, lhs, rhs, join(lhs, rhs));
}

export function parseWithTraversals(p: ParserState): Expression {
  const term = parseTerm(p);
  return parseTraversals(p, term);
}

function makeRelative(p: ParserState, source: Expression, step: Traverser, rng: Range): Expression {
  let expr = source;
  if (expr.kind === "ScopeTraversal" || expr.kind === "RelativeTraversal") {
    // A result kept for reuse by a deep parse (see nest) is extended as a copy.
    if (p.isShared(expr)) {
      expr =
        expr.kind === "ScopeTraversal"
          ? new ScopeTraversalNode(expr.traversal.slice())
          : new RelativeTraversalNode(expr.source, expr.traversal.slice(), expr.range);
    }
    expr.traversal.push(step);
    if (expr instanceof SyntaxNode) expr.endOffset = endOffsetOf(rng);
    else expr.range = span(expr.range, rng);
    return expr;
  }
  const rel: RelativeTraversal = new RelativeTraversalNode(expr, [step], join(expr, rng));
  return rel;
}

const RE_NUMBER = /^\d+(\.\d*)?([eE][+-]?\d+)?$/;

/** The value of a number token; reports tokens like `10.0.0.0` that are not a number. */
function numberValue(p: ParserState, tok: number): number {
  const raw = p.tokText(tok);
  if (!RE_NUMBER.test(raw)) {
    p.error("Invalid number literal", `\`${raw}\` is not a valid number.`, p.tokRange(tok));
    return Number.NaN;
  }
  const v = Number(raw);
  return Number.isFinite(v) ? v : Number.MAX_VALUE;
}

function parseTraversals(p: ParserState, source: Expression): Expression {
  let from = source;
  let ret = from;
  // The full splats met so far, outermost first: each takes the rest of the
  // chain as its per-item expression (`x[*].y[*].z` nests right), so they
  // are built from the inside out once the chain ends.
  let splats: { ret: Expression; item: AnonSymbolNode; from: Expression }[] | null = null;
  for (;;) {
    const nextTy = p.peekType();
    if (nextTy === T.Dot) {
      const dot = p.read();
      const attr = p.peek();
      const aty = p.types[attr];
      if (aty === T.Ident) {
        p.read();
        const rng = p.tokSpan(dot, attr);
        ret = makeRelative(p, ret, new TraverseAttrNode(p.name(attr), rng), rng);
      } else if (aty === T.NumberLit) {
        p.read();
        const raw = p.tokText(attr);
        const rng = p.tokSpan(dot, attr);
        const dotIdx = raw.indexOf(".");
        if (dotIdx >= 0) {
          p.error(
            "Invalid legacy index syntax",
            `Two legacy numeric indexes cannot be chained; write [${raw.slice(0, dotIdx)}][${raw.slice(dotIdx + 1)}] instead.`,
            p.tokRange(attr),
          );
          ret = makeRelative(p, ret, new TraverseIndexNode(Number.NaN, rng), rng);
        } else {
          ret = makeRelative(p, ret, new TraverseIndexNode(numberValue(p, attr), rng), rng);
        }
      } else if (aty === T.Star) {
        ret = finishAttrSplat(p, ret, dot, attr);
      } else {
        p.error("Invalid attribute name", "A dot must be followed by an attribute name.", p.tokRange(attr));
        p.recovery = true;
      }
      continue;
    }
    if (nextTy === T.OBrack) {
      const open = p.read();
      const openRange = p.tokRange(open);
      if (p.peekType() === T.Star) {
        p.read();
        let close = p.read();
        if (p.types[close] !== T.CBrack && !p.recovery) {
          const d = p.error("Missing close bracket on splat index", "A full splat `[*]` must be closed right after the star.", p.tokRange(close));
          close = p.recover(T.CBrack);
          d.subject = p.tokRange(close);
        }
        const marker = span(openRange, p.tokRange(close));
        const item = new AnonSymbolNode(marker);
        (splats ??= []).push({ ret, item, from });
        from = item;
        ret = item;
        continue;
      }
      p.pushNL(false);
      const m = p.mark();
      const key = parseExpression(p);
      let close: number;
      if (p.recovery && p.hasErrorsSince(m)) {
        close = p.recover(T.CBrack);
      } else {
        close = p.read();
        if (p.types[close] !== T.CBrack && !p.recovery) {
          // HashiCorp's parser reports this at the bracket it recovers to.
          const d = p.error("Missing close bracket on index", "An index must be closed with `]`.", p.tokRange(close));
          close = p.recover(T.CBrack);
          d.subject = p.tokRange(close);
        }
      }
      p.popNL();
      const rng = span(openRange, p.tokRange(close));
      const lit = literalKey(key);
      if (lit !== undefined) {
        ret = makeRelative(p, ret, new TraverseIndexNode(lit, rng), rng);
      } else {
        ret = new IndexNode(ret, key, rng, join(from, rng));
      }
      continue;
    }
    if ((ret.kind === "ScopeTraversal" || ret.kind === "RelativeTraversal") && ret.traversal.length > 1) ret.traversal = exact(ret.traversal);
    if (splats !== null) {
      for (let k = splats.length - 1; k >= 0; k--) {
        const s = splats[k];
        ret = new SplatNode(s.ret, ret, s.item, "full", join(s.from, ret));
      }
    }
    return ret;
  }
}

/** A literal index key usable as a static traversal step (number, string or bool/null literal). */
function literalKey(key: Expression): string | number | undefined {
  if (key.kind === "LiteralValue") {
    if (key.type === "number" || key.type === "string") return key.value as string | number;
    // bool/null keys stay static steps (as in HCL) but have no string/number key
    return Number.NaN;
  }
  // a key that failed to parse: HashiCorp's placeholder is a literal too
  if (key.kind === "Invalid") return Number.NaN;
  if (key.kind === "Template" && key.parts.length === 1 && key.parts[0].kind === "TemplateLiteral") return key.parts[0].value;
  return undefined;
}

function finishAttrSplat(p: ParserState, ret: Expression, dot: number, attrTok: number): Expression {
  const marker = p.read();
  const trav: Traverser[] = [];
  const firstRange = p.nextRange();
  let lastRange = p.tokRange(marker);
  const dotRange = p.tokRange(dot);
  while (p.peekType() === T.Dot) {
    const d = p.read();
    const dr = p.tokRange(d);
    if (p.peekType() === T.NumberLit) {
      const num = p.read();
      const raw = p.tokText(num);
      const dotIdx = raw.indexOf(".");
      if (dotIdx >= 0) {
        p.error(
          "Invalid legacy index syntax",
          `Two legacy numeric indexes cannot be chained; use a full splat with [${raw.slice(0, dotIdx)}][${raw.slice(dotIdx + 1)}] instead.`,
          p.tokRange(attrTok),
        );
        trav.push(new TraverseIndexNode(Number.NaN, span(dr, p.tokRange(num))));
      } else {
        trav.push(new TraverseIndexNode(numberValue(p, num), span(dr, p.tokRange(num))));
      }
      lastRange = p.tokRange(num);
      continue;
    }
    if (p.peekType() !== T.Ident) {
      if (!p.recovery) {
        if (p.peekType() === T.Star) {
          p.error("Nested splat expression not allowed", "A `.*` splat cannot contain another splat; use `[*]` instead.", p.nextRange());
        } else {
          p.error("Invalid attribute name", "A dot must be followed by an attribute name.", p.tokRange(attrTok));
        }
      }
      p.recovery = true;
      // HashiCorp's parser abandons the splat and keeps the source expression.
      return ret;
    }
    const a = p.read();
    trav.push(new TraverseAttrNode(p.name(a), span(dr, p.tokRange(a))));
    lastRange = p.tokRange(a);
  }
  const markerRange = span(dotRange, p.tokRange(marker));
  const item = new AnonSymbolNode(markerRange);
  const each: Expression = trav.length === 0 ? item : new RelativeTraversalNode(item, exact(trav), span(firstRange, lastRange));
  return new SplatNode(ret, each, item, "attr", join(ret, lastRange));
}

function parseTerm(p: ParserState): Expression {
  const start = p.peek();
  const ty = p.types[start];
  const startRange = p.tokRange(start);
  switch (ty) {
    case T.OParen: {
      p.read();
      p.pushNL(false);
      const m = p.mark();
      const inner = parseExpression(p);
      if (p.hasErrorsSince(m)) {
        p.recover(T.CParen);
        p.popNL();
        return inner;
      }
      const close = p.peek();
      if (p.types[close] !== T.CParen) {
        p.error("Unbalanced parentheses", "This parenthesis is never closed; add the missing `)`.", p.tokRange(close));
        p.recovery = true;
      }
      const c = p.read();
      p.popNL();
      return new ParenthesesNode(inner, span(startRange, p.tokRange(c)));
    }
    case T.NumberLit: {
      p.read();
      const raw = p.tokText(start);
      return new LiteralNode("number", numberValue(p, start), raw, startRange);
    }
    case T.Ident: {
      p.read();
      const nt = p.peekType();
      if (nt === T.OParen || isDoubleColon(p)) return finishFunctionCall(p, start);
      const name = p.name(start);
      if (name === "true" || name === "false") {
        return new LiteralNode("bool", name === "true", name, startRange);
      }
      if (name === "null") return new LiteralNode("null", null, name, startRange);
      const st: ScopeTraversal = new ScopeTraversalNode([new TraverseRootNode(name, startRange)]);
      return st;
    }
    case T.OQuote:
    case T.OHeredoc: {
      p.read();
      return parseTemplateAfterOpen(p, start);
    }
    case T.Minus:
    case T.Bang:
      return parseUnary(p, start);
    case T.OBrack:
      return parseTuple(p);
    case T.OBrace:
      return parseObject(p);
    default:
      if (!p.recovery) {
        if (ty === T.EOF) {
          p.error("Missing expression", "The file ends where an expression was expected; add the missing value.", startRange);
        } else {
          p.error("Invalid expression", "An expression was expected here, but this token cannot start one.", startRange);
        }
      }
      p.recovery = true;
      return p.invalid(startRange);
  }
}

/**
 * A run of prefix operators (`!!x`, `- -1`) and their operand with its
 * traversals, read in a loop: each operator wraps the rest one level deeper.
 */
function parseUnary(p: ParserState, start: number): Expression {
  const ops: number[] = [];
  let op = start;
  for (;;) {
    p.read();
    ops.push(op);
    op = p.peek();
    const ty = p.types[op];
    if (ty !== T.Minus && ty !== T.Bang) break;
  }
  let operand = parseWithTraversals(p);
  for (let k = ops.length - 1; k >= 0; k--) {
    const at = ops[k];
    operand = new UnaryOpNode(p.types[at] === T.Minus ? "-" : "!", operand, join(p.tokRange(at), operand));
  }
  return operand;
}

/** `::` (two adjacent colons, as in `provider::ns::fn`) is next. */
function isDoubleColon(p: ParserState): boolean {
  let i = p.peek();
  const types = p.types;
  // Only a complete `(:: name)+ (` sequence makes a provider function call.
  let parts = 0;
  // Inside brackets newlines between the parts are insignificant (as for HashiCorp's peeker).
  for (;;) {
    if (types[i] !== T.Colon || types[i + 1] !== T.Colon || p.ends[i] !== p.starts[i + 1]) break;
    const id = p.skipFrom(i + 2);
    if (types[id] !== T.Ident) break;
    i = p.skipFrom(id + 1);
    parts++;
  }
  return parts > 0 && types[i] === T.OParen;
}

function finishFunctionCall(p: ParserState, nameTok: number): Expression {
  let nameRange: Range = p.tokRange(nameTok);
  let name = p.name(nameTok);
  // provider::namespace::function (HCL 2.20+ / Terraform 1.8+)
  while (isDoubleColon(p)) {
    p.read();
    const dc = p.read();
    const part = p.peek();
    if (p.types[part] !== T.Ident) {
      p.errorUnlessRecovering("Missing function name", "`::` must be followed by the next part of a function name.", p.tokRange(part));
      p.recovery = true;
      const r = span(nameRange, p.tokRange(dc));
      return p.invalid(r);
    }
    p.read();
    name += "::" + p.tokText(part);
    nameRange = span(nameRange, p.tokRange(part));
  }
  const open = p.peek();
  if (p.types[open] !== T.OParen) {
    p.errorUnlessRecovering("Missing function call", "A namespaced function name must be followed by its arguments in parentheses.", p.tokRange(open));
    p.recovery = true;
    return p.invalid(nameRange);
  }
  p.read();
  const openRange = p.tokRange(open);
  let expandFinal = false;
  let close = -1;
  p.pushNL(false);
  const mark = p.mark();
  const loop = p.resume<Expression[]>(LOOP_CALL);
  const args: Expression[] = loop.at !== undefined ? truncated(loop.at.items, loop.at.n) : [];
  for (;;) {
    if (loop.key >= 0) p.keepProgress(loop.key, mark, args.length, args);
    if (p.peekType() === T.CParen) {
      close = p.read();
      break;
    }
    const m = p.mark();
    const arg = parseExpression(p);
    args.push(arg);
    if (p.recovery && p.hasErrorsSince(m)) {
      p.recover(T.CParen);
      break;
    }
    const sep = p.read();
    const sty = p.types[sep];
    if (sty === T.CParen) {
      close = sep;
      break;
    }
    if (sty === T.Ellipsis) {
      expandFinal = true;
      if (p.peekType() !== T.CParen) {
        p.errorUnlessRecovering(
          "Missing closing parenthesis",
          "An argument expanded with `...` must be the last one; close the call with `)` right after it.",
          p.tokRange(sep),
        );
        close = p.recover(T.CParen);
      } else {
        close = p.read();
      }
      break;
    }
    if (sty !== T.Comma) {
      if (sty === T.EOF) {
        p.error(
          "Unterminated function call",
          "The file ends before this function call is closed; add the missing `)`.",
          span(p.tokRange(nameTok), openRange),
        );
      } else {
        p.error("Missing argument separator", "Separate function arguments with commas.", p.tokRange(sep));
      }
      close = p.recover(T.CParen);
      break;
    }
    if (p.peekType() === T.CParen) {
      close = p.read();
      break;
    }
  }
  p.popNL();
  // HashiCorp's parser leaves the closing range empty when an argument failed to parse.
  const closeRange = close >= 0 ? p.tokRange(close) : p.compat ? ZERO_RANGE : p.prevRange();
  const call: FunctionCall = new FunctionCallNode(name, nameRange, exact(args), expandFinal, openRange, closeRange, close >= 0 || !p.compat ? span(nameRange, closeRange) : nameRange);
  return call;
}

function parseTuple(p: ParserState): Expression {
  const open = p.read();
  const openRange = p.tokRange(open);
  p.pushNL(false);
  try {
    if (p.isKeyword(p.peek(), "for")) return finishFor(p, open);
    const mark = p.mark();
    const loop = p.resume<Expression[]>(LOOP_TUPLE);
    const exprs: Expression[] = loop.at !== undefined ? truncated(loop.at.items, loop.at.n) : [];
    let close: number;
    for (;;) {
      if (loop.key >= 0) p.keepProgress(loop.key, mark, exprs.length, exprs);
      if (p.peekType() === T.CBrack) {
        close = p.read();
        break;
      }
      const m = p.mark();
      const e = parseExpression(p);
      exprs.push(e);
      if (p.recovery && p.hasErrorsSince(m)) {
        close = p.recover(T.CBrack);
        break;
      }
      const next = p.peek();
      if (p.types[next] === T.CBrack) {
        close = p.read();
        break;
      }
      if (p.types[next] === T.EOF) {
        p.errorUnlessRecovering(
          "Unterminated tuple constructor expression",
          "The file ends before this list is closed; add the missing `]`.",
          openRange,
        );
        close = p.recover(T.CBrack);
        break;
      }
      if (p.types[next] !== T.Comma) {
        p.errorUnlessRecovering("Missing item separator", "Separate the items of a list with commas.", p.tokRange(next));
        close = p.recover(T.CBrack);
        break;
      }
      p.read();
    }
    return new TupleConsNode(exact(exprs), span(openRange, p.tokRange(close)));
  } finally {
    p.popNL();
  }
}

function parseObject(p: ParserState): Expression {
  const open = p.read();
  const openRange = p.tokRange(open);
  {
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
    const mark = p.mark();
    const loop = p.resume<ObjectConsItem[]>(LOOP_OBJECT);
    const items: ObjectConsItem[] = loop.at !== undefined ? truncated(loop.at.items, loop.at.n) : [];
    let close: number;
    try {
      for (;;) {
        if (loop.key >= 0) p.keepProgress(loop.key, mark, items.length, items);
        const next = p.peekType();
        if (next === T.Newline) {
          p.read();
          continue;
        }
        if (next === T.CBrace) {
          close = p.read();
          break;
        }
        const forceNonLiteral = next === T.OParen;
        const mk = p.mark();
        const key = parseExpression(p);
        if (p.recovery && p.hasErrorsSince(mk)) {
          close = p.recover(T.CBrace);
          break;
        }
        const sep = p.peek();
        const sty = p.types[sep];
        if (sty !== T.Equal && sty !== T.Colon) {
          if (!p.recovery) {
            if (sty === T.EOF) {
              p.error("Unterminated object constructor expression", "The file ends before this object is closed; add the missing `}`.", openRange);
            } else if (sty === T.Newline || sty === T.Comma) {
              p.error("Missing attribute value", "Give this object attribute a value with `=`.", p.tokRange(sep));
            } else if (sty === T.Ident) {
              p.error(
                "Missing key/value separator",
                "Put `=` between an object key and its value; quote keys that contain dots or spaces.",
                p.tokRange(sep),
              );
            } else {
              p.error("Missing key/value separator", "Put `=` between an object key and its value.", p.tokRange(sep));
            }
          }
          close = p.recover(T.CBrace);
          break;
        }
        p.read();
        const mv = p.mark();
        const value = parseExpression(p);
        if (p.recovery && p.hasErrorsSince(mv)) {
          close = p.recover(T.CBrace);
          break;
        }
        const keyIsBareIdent =
          !forceNonLiteral && key.kind === "ScopeTraversal" && key.traversal.length === 1;
        items.push(new ObjectItemNode(key, keyIsBareIdent, value, join(key, value)));
        const after = p.peek();
        const aty = p.types[after];
        if (aty === T.Newline) {
          p.read();
          continue;
        }
        if (aty === T.CBrace) {
          close = p.read();
          break;
        }
        if (aty === T.EOF) {
          p.errorUnlessRecovering(
            "Unterminated object constructor expression",
            "The file ends before this object is closed; add the missing `}`.",
            openRange,
          );
          close = p.recover(T.CBrace);
          break;
        }
        if (aty !== T.Comma) {
          p.errorUnlessRecovering("Missing attribute separator", "Separate object attributes with commas or newlines.", p.tokRange(after));
          close = p.recover(T.CBrace);
          break;
        }
        p.read();
      }
    } finally {
      p.popNL();
    }
    return new ObjectConsNode(exact(items), span(openRange, p.tokRange(close)));
  }
}

function finishFor(p: ParserState, open: number): Expression {
  const openRange = p.tokRange(open);
  p.read(); // "for"
  const makeObj = p.types[open] === T.OBrace;
  const closeType = makeObj ? T.CBrace : T.CBrack;
  const bail = (): Expression => {
    const c = p.recover(closeType);
    return p.invalid(span(openRange, p.tokRange(c)));
  };
  const forErr = (detail: string, at: Range): void => p.errorUnlessRecovering("Invalid 'for' expression", detail, at);
  if (p.peekType() !== T.Ident) {
    forErr("`for` must be followed by a variable name.", p.nextRange());
    return bail();
  }
  let keyVar: string | null = null;
  let valVar = p.tokText(p.read());
  if (p.peekType() === T.Comma) {
    keyVar = valVar;
    p.read();
    if (p.peekType() !== T.Ident) {
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
  if (p.peekType() !== T.Colon) {
    forErr("Put a colon after the collection, followed by the result expression.", p.nextRange());
    return bail();
  }
  p.read();
  let keyExpr: Expression | null = null;
  const mv = p.mark();
  let valExpr = parseExpression(p);
  if (p.peekType() === T.FatArrow) {
    p.read();
    keyExpr = valExpr;
    valExpr = parseExpression(p);
  }
  if (p.recovery && p.hasErrorsSince(mv)) return bail();
  let group = false;
  let ellipsis = -1;
  if (p.peekType() === T.Ellipsis) {
    ellipsis = p.read();
    group = true;
  }
  let condition: Expression | null = null;
  if (p.isKeyword(p.peek(), "if")) {
    p.read();
    const mi = p.mark();
    condition = parseExpression(p);
    if (p.recovery && p.hasErrorsSince(mi)) return bail();
  }
  let close: number;
  if (p.peekType() === T.CBrack || p.peekType() === T.CBrace ? p.peekType() === closeType : false) {
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
  const fe: ForExpr = new ForNode(keyVar, valVar, collection, keyExpr, valExpr, condition, group, makeObj ? "object" : "tuple", span(openRange, p.tokRange(close)));
  return fe;
}

/**
 * The items array of a loop resumed in a deep parse (see ParserState.resume),
 * cut to the items it had at that point: the attempt that kept it is over,
 * so the array is taken over rather than copied.
 */
function truncated<T>(items: T[], n: number): T[] {
  items.length = n;
  return items;
}

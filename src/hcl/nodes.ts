/**
 * The classes the parsers build the syntax tree from (one class, so
 * one V8 hidden class, per node kind). They implement the interfaces of
 * ast.ts: a reader sees the same `kind`, fields and ranges as before.
 *
 * A node holds its range as two UTF-16 offsets and the file's line index,
 * inline (`startOffset`, `endOffset`, `lines`); `range` is a getter that
 * makes a `Span` of them when read (positions are made only when the span's
 * `start`/`end` are read). A node's other ranges (an attribute's name, a
 * block's type, braces and labels, a call's parentheses...) are offsets
 * inline too, or follow from the node (a name's length), each with a
 * getter. So a tree holds no range objects at all: one object per node, and
 * the lists and strings it needs. `kind` is on each class's prototype.
 *
 * Fields are `declare`d and assigned in each class's own constructor: V8
 * 11's class-field definitions tripled the parse time, and a base-class
 * constructor storing into every kind of node is megamorphic.
 *
 * Code that runs per node reads the offsets directly (`startOffsetOf`,
 * `endOffsetOf` in source.ts take a node's range, or read
 * `node.startOffset` on a `SyntaxNode`). Assigning `range` sets the offsets
 * from a `Span`. Each read of a range is a new object: compare offsets,
 * never ranges by identity; copy a node with `copyNode`, not a spread.
 */
import type {
  AnonSymbol,
  Attribute,
  BinaryOp,
  BinaryOperator,
  Block,
  Body,
  Conditional,
  Expression,
  ForExpr,
  FunctionCall,
  IndexExpr,
  InvalidExpr,
  LiteralKind,
  LiteralValue,
  ObjectCons,
  ObjectConsItem,
  Parentheses,
  Range,
  RelativeTraversal,
  ScopeTraversal,
  SplatExpr,
  TemplateExpr,
  TemplatePart,
  TemplateWrap,
  Traverser,
  TupleCons,
  UnaryOp,
} from "./ast.js";
import { Span, type LineIndex } from "./source.js";

/** The one empty list nodes share (frozen: a tree is never changed in place). */
const NONE: readonly never[] = Object.freeze([]);

function spanOf(r: Range): Span {
  if (r instanceof Span) return r;
  throw new TypeError("internal error: a syntax node's range must be a Span of its file's line index");
}

/** An offset mapping used when a parsed string's nodes are moved into the file they came from (json-strings.ts). */
export type OffsetMap = (offset: number) => number;

/** What every node class shares: its range as two offsets and the file's line index. */
export abstract class SyntaxNode {
  /** The line index of the file the node is in. */
  declare lines: LineIndex;
  /** 0-based UTF-16 offset of the node's first character. */
  declare startOffset: number;
  /** 0-based UTF-16 offset just past the node's last character. */
  declare endOffset: number;

  // No constructor here: each node class sets the three fields itself, so
  // that each store sees one hidden class (a shared constructor storing into
  // every kind of node is megamorphic, and was a tenth of the parse time).

  /** The node's range, made from its offsets when read. */
  get range(): Range {
    return new Span(this.lines, this.startOffset, this.endOffset);
  }

  set range(r: Range) {
    const s = spanOf(r);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
  }

  /** A range of this node's file. */
  protected at(start: number, end: number): Span {
    return new Span(this.lines, start, end);
  }

  /** Moves the node's own offsets (not its children's) into another text. */
  moveOffsets(map: OffsetMap, lines: LineIndex): void {
    this.lines = lines;
    this.startOffset = map(this.startOffset);
    this.endOffset = map(this.endOffset);
  }
}

// ------------------------------------------------------------------ structure

export class BodyNode extends SyntaxNode implements Body {
  declare readonly kind: "Body";
  declare attributes: Attribute[];
  declare blocks: Block[];
  constructor(attributes: Attribute[], blocks: Block[], range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.attributes = attributes;
    this.blocks = blocks;
  }
}

export class AttributeNode extends SyntaxNode implements Attribute {
  declare readonly kind: "Attribute";
  declare name: string;
  declare expr: Expression;
  /** The name is the identifier token the attribute starts with: its range is the name's length from the start. */
  constructor(name: string, expr: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.name = name;
    this.expr = expr;
  }
  get nameRange(): Range {
    return this.at(this.startOffset, this.startOffset + this.name.length);
  }
}

export class BlockNode extends SyntaxNode implements Block {
  declare readonly kind: "Block";
  declare type: string;
  declare labels: string[];
  declare body: Body;
  declare singleLine: boolean;
  /** Each label's start and end offset, in order (a shared empty list when there are none). */
  declare labelOffsets: readonly number[];
  declare openBraceStart: number;
  declare openBraceEnd: number;
  declare closeBraceStart: number;
  declare closeBraceEnd: number;
  constructor(
    type: string,
    labels: string[],
    labelRanges: readonly Range[],
    openBraceRange: Range,
    closeBraceRange: Range,
    body: Body,
    range: Range,
    singleLine: boolean,
  ) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.type = type;
    this.labels = labels;
    this.body = body;
    this.singleLine = singleLine;
    if (labelRanges.length === 0) {
      this.labelOffsets = NONE;
    } else {
      const offsets = new Array<number>(labelRanges.length * 2);
      for (let i = 0; i < labelRanges.length; i++) {
        const s = spanOf(labelRanges[i]);
        offsets[2 * i] = s.startOffset;
        offsets[2 * i + 1] = s.endOffset;
      }
      this.labelOffsets = offsets;
    }
    const open = spanOf(openBraceRange);
    const close = spanOf(closeBraceRange);
    this.openBraceStart = open.startOffset;
    this.openBraceEnd = open.endOffset;
    this.closeBraceStart = close.startOffset;
    this.closeBraceEnd = close.endOffset;
  }
  /** The type keyword the block starts with. */
  get typeRange(): Range {
    return this.at(this.startOffset, this.startOffset + this.type.length);
  }
  /** The labels' ranges (a new list on each read). */
  get labelRanges(): Range[] {
    const o = this.labelOffsets;
    const out = new Array<Range>(o.length >> 1);
    for (let i = 0; i < out.length; i++) out[i] = this.at(o[2 * i], o[2 * i + 1]);
    return out;
  }
  get openBraceRange(): Range {
    return this.at(this.openBraceStart, this.openBraceEnd);
  }
  get closeBraceRange(): Range {
    return this.at(this.closeBraceStart, this.closeBraceEnd);
  }
  override moveOffsets(map: OffsetMap, lines: LineIndex): void {
    super.moveOffsets(map, lines);
    if (this.labelOffsets.length > 0) this.labelOffsets = this.labelOffsets.map(map);
    this.openBraceStart = map(this.openBraceStart);
    this.openBraceEnd = map(this.openBraceEnd);
    this.closeBraceStart = map(this.closeBraceStart);
    this.closeBraceEnd = map(this.closeBraceEnd);
  }
}

// ---------------------------------------------- structure read from JSON syntax

/** A body read from JSON syntax: its `"//"` comment properties are kept for suppressions. */
export class JsonBodyNode extends BodyNode {
  declare jsonComments: { text: string; range: Range }[];
  constructor(range: Range) {
    super([], [], range);
    this.jsonComments = [];
  }
}

/** An argument read from JSON syntax: its name is a quoted property key, with a range of its own. */
export class JsonAttributeNode extends SyntaxNode implements Attribute {
  declare readonly kind: "Attribute";
  declare name: string;
  declare expr: Expression;
  declare nameStart: number;
  declare nameEnd: number;
  constructor(name: string, nameRange: Range, expr: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.name = name;
    this.expr = expr;
    const n = spanOf(nameRange);
    this.nameStart = n.startOffset;
    this.nameEnd = n.endOffset;
  }
  get nameRange(): Range {
    return this.at(this.nameStart, this.nameEnd);
  }
}

/** A block read from JSON syntax: its type is a property key that need not be where the block starts. */
export class JsonBlockNode extends BlockNode {
  declare typeStart: number;
  declare typeEnd: number;
  constructor(type: string, typeRange: Range, labels: string[], labelRanges: readonly Range[], openBraceRange: Range, closeBraceRange: Range, body: Body, range: Range) {
    super(type, labels, labelRanges, openBraceRange, closeBraceRange, body, range, false);
    const t = spanOf(typeRange);
    this.typeStart = t.startOffset;
    this.typeEnd = t.endOffset;
  }
  override get typeRange(): Range {
    return this.at(this.typeStart, this.typeEnd);
  }
}

// ---------------------------------------------------------------- expressions

export class LiteralNode extends SyntaxNode implements LiteralValue {
  declare readonly kind: "LiteralValue";
  declare type: LiteralKind;
  declare value: string | number | boolean | null;
  declare raw: string;
  constructor(type: LiteralKind, value: string | number | boolean | null, raw: string, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.type = type;
    this.value = value;
    this.raw = raw;
  }
}

/** A quoted string (a heredoc and a JSON string are the subclasses below, with their extra field). */
export class TemplateNode extends SyntaxNode implements TemplateExpr {
  declare readonly kind: "Template";
  declare parts: TemplatePart[];
  declare form: "quoted" | "heredoc" | "json";
  constructor(parts: TemplatePart[], form: "quoted" | "heredoc" | "json", range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.parts = parts;
    this.form = form;
  }
}

export class HeredocTemplateNode extends TemplateNode {
  declare heredoc: { marker: string; indented: boolean };
  constructor(parts: TemplatePart[], range: Range, heredoc: { marker: string; indented: boolean }) {
    super(parts, "heredoc", range);
    this.heredoc = heredoc;
  }
}

export class JsonTemplateNode extends TemplateNode {
  declare jsonValue: string;
  constructor(parts: TemplatePart[], range: Range, jsonValue: string) {
    super(parts, "json", range);
    this.jsonValue = jsonValue;
  }
}

export class TemplateWrapNode extends SyntaxNode implements TemplateWrap {
  declare readonly kind: "TemplateWrap";
  declare wrapped: Expression;
  declare form: "quoted" | "heredoc" | "json";
  constructor(wrapped: Expression, form: "quoted" | "heredoc" | "json", range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.wrapped = wrapped;
    this.form = form;
  }
}

export class TemplateLiteralNode extends SyntaxNode {
  declare readonly kind: "TemplateLiteral";
  declare value: string;
  constructor(value: string, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.value = value;
  }
}

export class TemplateInterpNode extends SyntaxNode {
  declare readonly kind: "TemplateInterp";
  declare expr: Expression;
  declare stripLeft: boolean;
  declare stripRight: boolean;
  constructor(expr: Expression, range: Range, stripLeft: boolean, stripRight: boolean) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.expr = expr;
    this.stripLeft = stripLeft;
    this.stripRight = stripRight;
  }
}

export class TemplateIfNode extends SyntaxNode {
  declare readonly kind: "TemplateIf";
  declare condition: Expression;
  declare then: TemplatePart[];
  declare else: TemplatePart[] | null;
  constructor(condition: Expression, thenParts: TemplatePart[], elseParts: TemplatePart[] | null, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.condition = condition;
    this.then = thenParts;
    this.else = elseParts;
  }
}

export class TemplateForNode extends SyntaxNode {
  declare readonly kind: "TemplateFor";
  declare keyVar: string | null;
  declare valVar: string;
  declare collection: Expression;
  declare body: TemplatePart[];
  constructor(keyVar: string | null, valVar: string, collection: Expression, body: TemplatePart[], range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.keyVar = keyVar;
    this.valVar = valVar;
    this.collection = collection;
    this.body = body;
  }
}

export class TraverseRootNode extends SyntaxNode {
  declare readonly kind: "TraverseRoot";
  declare name: string;
  constructor(name: string, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.name = name;
  }
}

export class TraverseAttrNode extends SyntaxNode {
  declare readonly kind: "TraverseAttr";
  declare name: string;
  constructor(name: string, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.name = name;
  }
}

export class TraverseIndexNode extends SyntaxNode {
  declare readonly kind: "TraverseIndex";
  declare key: string | number;
  constructor(key: string | number, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.key = key;
  }
}

/**
 * A traversal holds no offsets of its own: it runs from its root's start to
 * its last step's end (the parser extends it by pushing steps), so its
 * `lines`, `startOffset` and `endOffset` are read from them (getters below).
 */
export class ScopeTraversalNode extends SyntaxNode implements ScopeTraversal {
  declare readonly kind: "ScopeTraversal";
  declare traversal: Traverser[];
  constructor(traversal: Traverser[]) {
    super();
    this.traversal = traversal;
  }
  /** Nothing to move: the steps hold the offsets. */
  override moveOffsets(): void {}
}
const stepAt = (t: ScopeTraversalNode, i: number): SyntaxNode => t.traversal[i] as unknown as SyntaxNode;
Object.defineProperties(ScopeTraversalNode.prototype, {
  lines: {
    get(this: ScopeTraversalNode) {
      return stepAt(this, 0).lines;
    },
    set() {},
  },
  startOffset: {
    get(this: ScopeTraversalNode) {
      return stepAt(this, 0).startOffset;
    },
    set() {},
  },
  endOffset: {
    get(this: ScopeTraversalNode) {
      return stepAt(this, this.traversal.length - 1).endOffset;
    },
    set() {},
  },
});

export class RelativeTraversalNode extends SyntaxNode implements RelativeTraversal {
  declare readonly kind: "RelativeTraversal";
  declare source: Expression;
  declare traversal: Traverser[];
  constructor(source: Expression, traversal: Traverser[], range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.source = source;
    this.traversal = traversal;
  }
}

export class IndexNode extends SyntaxNode implements IndexExpr {
  declare readonly kind: "Index";
  declare collection: Expression;
  declare key: Expression;
  /** The brackets end where the node does; they start here. */
  declare bracketStart: number;
  constructor(collection: Expression, key: Expression, bracketRange: Range, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.collection = collection;
    this.key = key;
    this.bracketStart = spanOf(bracketRange).startOffset;
  }
  get bracketRange(): Range {
    return this.at(this.bracketStart, this.endOffset);
  }
  override moveOffsets(map: OffsetMap, lines: LineIndex): void {
    super.moveOffsets(map, lines);
    this.bracketStart = map(this.bracketStart);
  }
}

export class AnonSymbolNode extends SyntaxNode implements AnonSymbol {
  declare readonly kind: "AnonSymbol";
  constructor(range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
  }
}

export class SplatNode extends SyntaxNode implements SplatExpr {
  declare readonly kind: "Splat";
  declare source: Expression;
  declare each: Expression;
  declare item: AnonSymbol;
  declare style: "full" | "attr";
  constructor(source: Expression, each: Expression, item: AnonSymbol, style: "full" | "attr", range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.source = source;
    this.each = each;
    this.item = item;
    this.style = style;
  }
  /** The `[*]` or `.*`: the range of the item that stands for each element. */
  get markerRange(): Range {
    return this.item.range;
  }
}

export class FunctionCallNode extends SyntaxNode implements FunctionCall {
  declare readonly kind: "FunctionCall";
  declare name: string;
  declare args: Expression[];
  declare expandFinal: boolean;
  /** The name starts where the call does; it ends here. */
  declare nameEnd: number;
  declare openParenStart: number;
  declare openParenEnd: number;
  /** -1 (with closeParenEnd -1) for HashiCorp's empty closing range after a bad argument (compat mode). */
  declare closeParenStart: number;
  declare closeParenEnd: number;
  constructor(name: string, nameRange: Range, args: Expression[], expandFinal: boolean, openParenRange: Range, closeParenRange: Range, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.name = name;
    this.args = args;
    this.expandFinal = expandFinal;
    this.nameEnd = spanOf(nameRange).endOffset;
    const open = spanOf(openParenRange);
    this.openParenStart = open.startOffset;
    this.openParenEnd = open.endOffset;
    if (closeParenRange instanceof Span) {
      this.closeParenStart = closeParenRange.startOffset;
      this.closeParenEnd = closeParenRange.endOffset;
    } else {
      this.closeParenStart = -1;
      this.closeParenEnd = -1;
    }
  }
  /**
   * From the name to the closing parenthesis; in compat mode after a bad
   * argument, HashiCorp's range ends at its empty closing range (0:0).
   */
  override get range(): Range {
    if (this.closeParenStart < 0) return { start: this.lines.pos(this.startOffset), end: { line: 0, column: 0, offset: 0 } };
    return new Span(this.lines, this.startOffset, this.endOffset);
  }
  override set range(r: Range) {
    super.range = r;
  }
  get nameRange(): Range {
    return this.at(this.startOffset, this.nameEnd);
  }
  get openParenRange(): Range {
    return this.at(this.openParenStart, this.openParenEnd);
  }
  get closeParenRange(): Range {
    if (this.closeParenStart < 0) return { start: { line: 0, column: 0, offset: 0 }, end: { line: 0, column: 0, offset: 0 } };
    return this.at(this.closeParenStart, this.closeParenEnd);
  }
  override moveOffsets(map: OffsetMap, lines: LineIndex): void {
    super.moveOffsets(map, lines);
    this.nameEnd = map(this.nameEnd);
    this.openParenStart = map(this.openParenStart);
    this.openParenEnd = map(this.openParenEnd);
    if (this.closeParenStart >= 0) {
      this.closeParenStart = map(this.closeParenStart);
      this.closeParenEnd = map(this.closeParenEnd);
    }
  }
}

export class ConditionalNode extends SyntaxNode implements Conditional {
  declare readonly kind: "Conditional";
  declare condition: Expression;
  declare trueResult: Expression;
  declare falseResult: Expression;
  constructor(condition: Expression, trueResult: Expression, falseResult: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.condition = condition;
    this.trueResult = trueResult;
    this.falseResult = falseResult;
  }
}

export class BinaryOpNode extends SyntaxNode implements BinaryOp {
  declare readonly kind: "BinaryOp";
  declare op: BinaryOperator;
  declare lhs: Expression;
  declare rhs: Expression;
  constructor(op: BinaryOperator, lhs: Expression, rhs: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.op = op;
    this.lhs = lhs;
    this.rhs = rhs;
  }
}

export class UnaryOpNode extends SyntaxNode implements UnaryOp {
  declare readonly kind: "UnaryOp";
  declare op: "!" | "-";
  declare operand: Expression;
  constructor(op: "!" | "-", operand: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.op = op;
    this.operand = operand;
  }
}

export class TupleConsNode extends SyntaxNode implements TupleCons {
  declare readonly kind: "TupleCons";
  declare exprs: Expression[];
  constructor(exprs: Expression[], range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.exprs = exprs;
  }
}

export class ObjectItemNode extends SyntaxNode implements ObjectConsItem {
  declare key: Expression;
  declare keyIsBareIdent: boolean;
  declare value: Expression;
  constructor(key: Expression, keyIsBareIdent: boolean, value: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.key = key;
    this.keyIsBareIdent = keyIsBareIdent;
    this.value = value;
  }
}

export class ObjectConsNode extends SyntaxNode implements ObjectCons {
  declare readonly kind: "ObjectCons";
  declare items: ObjectConsItem[];
  constructor(items: ObjectConsItem[], range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.items = items;
  }
}

export class ForNode extends SyntaxNode implements ForExpr {
  declare readonly kind: "For";
  declare keyVar: string | null;
  declare valVar: string;
  declare collection: Expression;
  declare keyExpr: Expression | null;
  declare valExpr: Expression;
  declare condition: Expression | null;
  declare group: boolean;
  declare form: "tuple" | "object";
  constructor(
    keyVar: string | null,
    valVar: string,
    collection: Expression,
    keyExpr: Expression | null,
    valExpr: Expression,
    condition: Expression | null,
    group: boolean,
    form: "tuple" | "object",
    range: Range,
  ) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.keyVar = keyVar;
    this.valVar = valVar;
    this.collection = collection;
    this.keyExpr = keyExpr;
    this.valExpr = valExpr;
    this.condition = condition;
    this.group = group;
    this.form = form;
  }
}

export class ParenthesesNode extends SyntaxNode implements Parentheses {
  declare readonly kind: "Parentheses";
  declare expr: Expression;
  constructor(expr: Expression, range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
    this.expr = expr;
  }
}

export class InvalidNode extends SyntaxNode implements InvalidExpr {
  declare readonly kind: "Invalid";
  constructor(range: Range) {
    super();
    const s = spanOf(range);
    this.lines = s.lines;
    this.startOffset = s.startOffset;
    this.endOffset = s.endOffset;
  }
}

/**
 * `kind` lives on each class's prototype, not in every node: one field less
 * per node, read the same way (`node.kind`, `"kind" in node`). It is not an
 * own property, so `Object.keys(node)` and a spread leave it out (as they
 * leave out the range getters): copy a node with `copyNode`.
 */
function defineKind(cls: abstract new (...args: never[]) => SyntaxNode, kind: string): void {
  Object.defineProperty(cls.prototype, "kind", { value: kind, enumerable: true, writable: false, configurable: false });
}

defineKind(BodyNode, "Body");
defineKind(JsonAttributeNode, "Attribute");
defineKind(AttributeNode, "Attribute");
defineKind(BlockNode, "Block");
defineKind(LiteralNode, "LiteralValue");
defineKind(TemplateNode, "Template");
defineKind(TemplateWrapNode, "TemplateWrap");
defineKind(TemplateLiteralNode, "TemplateLiteral");
defineKind(TemplateInterpNode, "TemplateInterp");
defineKind(TemplateIfNode, "TemplateIf");
defineKind(TemplateForNode, "TemplateFor");
defineKind(TraverseRootNode, "TraverseRoot");
defineKind(TraverseAttrNode, "TraverseAttr");
defineKind(TraverseIndexNode, "TraverseIndex");
defineKind(ScopeTraversalNode, "ScopeTraversal");
defineKind(RelativeTraversalNode, "RelativeTraversal");
defineKind(IndexNode, "Index");
defineKind(AnonSymbolNode, "AnonSymbol");
defineKind(SplatNode, "Splat");
defineKind(FunctionCallNode, "FunctionCall");
defineKind(ConditionalNode, "Conditional");
defineKind(BinaryOpNode, "BinaryOp");
defineKind(UnaryOpNode, "UnaryOp");
defineKind(TupleConsNode, "TupleCons");
defineKind(ObjectConsNode, "ObjectCons");
defineKind(ForNode, "For");
defineKind(ParenthesesNode, "Parentheses");
defineKind(InvalidNode, "Invalid");

/**
 * A copy of a node with some fields replaced. Unlike `{ ...node, field }`,
 * the copy keeps the node's class, so its ranges (getters on the class)
 * come along; a plain-object node is copied as a plain object.
 */
export function copyNode<N extends object>(node: N, changes: Partial<N>): N {
  return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as N, node, changes);
}

/**
 * The HCL syntax tree shared by the native-syntax parser (parser.ts) and the
 * JSON-syntax parser (json.ts). It mirrors HashiCorp's hclsyntax node types
 * (kind names are hclsyntax's type names without the `Expr` suffix) so that
 * the outline (outline.ts) can be compared with HashiCorp's parser 1:1.
 *
 * Positions: `line` and `column` are 1-based, `column` counts UTF-16 code
 * units (what editors and SARIF use); `offset` is the 0-based UTF-16 index
 * into the source text (after a leading BOM is removed, see source.ts).
 * `end` is exclusive.
 */

export interface Pos {
  line: number;
  column: number;
  offset: number;
}

export interface Range {
  start: Pos;
  end: Pos;
}

export type Syntax = "native" | "json";

export interface Comment {
  /** `#`, `//` or `/*` */
  style: "#" | "//" | "/*";
  /** The comment text including its markers, without the trailing newline. */
  text: string;
  range: Range;
  /**
   * True when the comment is the first non-blank thing on its line (a "line
   * above" comment); false when code precedes it on the same line (an
   * end-of-line comment).
   */
  ownLine: boolean;
}

export interface File {
  filename: string;
  syntax: Syntax;
  /** The source text as parsed (BOM removed, line endings unchanged). */
  text: string;
  body: Body;
  /** Every comment of the file in source order (native syntax only). */
  comments: Comment[];
  /** Offsets of the first character of each line (index 0 = line 1). */
  lineStarts: number[];
}

export interface Body {
  kind: "Body";
  /** Attributes in source order. */
  attributes: Attribute[];
  /** Blocks in source order. */
  blocks: Block[];
  /** Whole body; for a block, from after `{` to before `}`. */
  range: Range;
  /**
   * For JSON syntax only: `"//"` comment keys found directly in this body's
   * object (their string values and ranges), used for inline suppressions.
   */
  jsonComments?: { text: string; range: Range }[];
}

export interface Attribute {
  kind: "Attribute";
  name: string;
  nameRange: Range;
  expr: Expression;
  /** From the name to the end of the expression. */
  range: Range;
}

export interface Block {
  kind: "Block";
  type: string;
  typeRange: Range;
  labels: string[];
  labelRanges: Range[];
  openBraceRange: Range;
  closeBraceRange: Range;
  body: Body;
  /** From the type keyword to the closing brace (inclusive). */
  range: Range;
  /**
   * True when the opening and closing brace are on the same line (native
   * syntax). HCL allows at most one attribute and no nested block in it.
   */
  singleLine: boolean;
}

// ---------------------------------------------------------------- expressions

export type Expression =
  | LiteralValue
  | TemplateExpr
  | TemplateWrap
  | ScopeTraversal
  | RelativeTraversal
  | IndexExpr
  | SplatExpr
  | FunctionCall
  | Conditional
  | BinaryOp
  | UnaryOp
  | TupleCons
  | ObjectCons
  | ForExpr
  | Parentheses
  | AnonSymbol
  | InvalidExpr;

interface ExprBase {
  range: Range;
}

export type LiteralKind = "string" | "number" | "bool" | "null";

export interface LiteralValue extends ExprBase {
  kind: "LiteralValue";
  type: LiteralKind;
  /** number: the JS number; string: the decoded string; bool; null. */
  value: string | number | boolean | null;
  /** Source text of the literal (numbers keep their exact spelling). */
  raw: string;
}

/** One piece of a template: literal text, `${ expr }`, or a directive. */
export type TemplatePart =
  | { kind: "TemplateLiteral"; value: string; range: Range }
  | { kind: "TemplateInterp"; expr: Expression; range: Range; stripLeft: boolean; stripRight: boolean }
  | {
      kind: "TemplateIf";
      condition: Expression;
      then: TemplatePart[];
      else: TemplatePart[] | null;
      range: Range;
    }
  | {
      kind: "TemplateFor";
      keyVar: string | null;
      valVar: string;
      collection: Expression;
      body: TemplatePart[];
      range: Range;
    };

/** A quoted string or heredoc (also the string values of JSON syntax). */
export interface TemplateExpr extends ExprBase {
  kind: "Template";
  parts: TemplatePart[];
  /** "quoted", "heredoc", or "json" (a JSON string value). */
  form: "quoted" | "heredoc" | "json";
  /** Heredoc only: the marker word and whether it was `<<-` (indented). */
  heredoc?: { marker: string; indented: boolean };
  /** For JSON strings: the decoded string value (before template parsing). */
  jsonValue?: string;
}

/** hclsyntax's TemplateWrapExpr: a template that is exactly one `${ x }`. */
export interface TemplateWrap extends ExprBase {
  kind: "TemplateWrap";
  wrapped: Expression;
  form: "quoted" | "heredoc" | "json";
}

export type Traverser =
  | { kind: "TraverseRoot"; name: string; range: Range }
  | { kind: "TraverseAttr"; name: string; range: Range }
  /** `[0]`, `["k"]` or legacy `.0`: a literal key. */
  | { kind: "TraverseIndex"; key: string | number; range: Range }
  /** legacy `.*` inside a traversal */
  | { kind: "TraverseSplat"; range: Range };

/** `var.x`, `aws_instance.a[0].id`, `local.m["k"]`. */
export interface ScopeTraversal extends ExprBase {
  kind: "ScopeTraversal";
  traversal: Traverser[];
}

/** A traversal applied to another expression: `f(x).attr`, `(a)[0]`. */
export interface RelativeTraversal extends ExprBase {
  kind: "RelativeTraversal";
  source: Expression;
  traversal: Traverser[];
}

/** `x[expr]` with a non-literal key. */
export interface IndexExpr extends ExprBase {
  kind: "Index";
  collection: Expression;
  key: Expression;
  bracketRange: Range;
}

/**
 * `x[*].y` or `x.*.y`. `each` is evaluated per element with `item` (an
 * AnonSymbol) standing for the element.
 */
export interface SplatExpr extends ExprBase {
  kind: "Splat";
  source: Expression;
  each: Expression;
  item: AnonSymbol;
  markerRange: Range;
  /** "full" for `[*]`, "attr" for the legacy `.*`. */
  style: "full" | "attr";
}

export interface AnonSymbol extends ExprBase {
  kind: "AnonSymbol";
}

export interface FunctionCall extends ExprBase {
  kind: "FunctionCall";
  /** Full name, including a `provider::ns::` prefix when present. */
  name: string;
  nameRange: Range;
  args: Expression[];
  /** True when the last argument was followed by `...`. */
  expandFinal: boolean;
  openParenRange: Range;
  closeParenRange: Range;
}

export interface Conditional extends ExprBase {
  kind: "Conditional";
  condition: Expression;
  trueResult: Expression;
  falseResult: Expression;
}

export type BinaryOperator =
  | "||" | "&&"
  | "==" | "!="
  | "<" | "<=" | ">" | ">="
  | "+" | "-"
  | "*" | "/" | "%";

export interface BinaryOp extends ExprBase {
  kind: "BinaryOp";
  op: BinaryOperator;
  lhs: Expression;
  rhs: Expression;
}

export interface UnaryOp extends ExprBase {
  kind: "UnaryOp";
  op: "!" | "-";
  operand: Expression;
}

export interface TupleCons extends ExprBase {
  kind: "TupleCons";
  exprs: Expression[];
}

export interface ObjectConsItem {
  /**
   * The key. A bare identifier key (`foo = 1`) is a ScopeTraversal with one
   * root step and `keyIsBareIdent = true`: it means the string "foo", not a
   * variable. A quoted key is a Template; `(expr)` keys are Parentheses.
   */
  key: Expression;
  keyIsBareIdent: boolean;
  value: Expression;
  range: Range;
}

export interface ObjectCons extends ExprBase {
  kind: "ObjectCons";
  items: ObjectConsItem[];
}

export interface ForExpr extends ExprBase {
  kind: "For";
  keyVar: string | null;
  valVar: string;
  collection: Expression;
  /** Object form only: the key expression (`k => v`). */
  keyExpr: Expression | null;
  valExpr: Expression;
  condition: Expression | null;
  /** Object form with `...` after the value. */
  group: boolean;
  /** "tuple" for `[for ...]`, "object" for `{for ...}`. */
  form: "tuple" | "object";
}

export interface Parentheses extends ExprBase {
  kind: "Parentheses";
  expr: Expression;
}

/** Placeholder for an expression that failed to parse (a diagnostic exists). */
export interface InvalidExpr extends ExprBase {
  kind: "Invalid";
}

// ---------------------------------------------------------------- diagnostics

export interface Diagnostic {
  severity: "error" | "warning";
  /** Short summary, e.g. "Invalid single-argument block definition". */
  summary: string;
  /** A sentence or two: what is wrong and how to fix it. */
  detail: string;
  /** The exact range the diagnostic is about. */
  subject: Range;
  /**
   * Machine-readable class of the problem. `one-line-block` marks HCL's
   * "Invalid single-argument block definition" (see `block`).
   */
  code?: string;
  /** For code "one-line-block": the offending block (for autofix). */
  block?: Block;
  /**
   * For a heredoc that is never closed: its opening `<<MARKER`. The subject
   * stays where HashiCorp's parser puts it (the end of the file); a finding
   * points here, where the fix goes.
   */
  opener?: Range;
}

export interface ParseResult {
  file: File;
  diagnostics: Diagnostic[];
}

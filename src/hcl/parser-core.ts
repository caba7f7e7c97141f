/**
 * Parser state shared by the body, expression and template parsers: a token
 * "peeker" that skips comments and (depending on context) newlines, the
 * recovery mode HashiCorp's parser uses after a syntax error, and helpers to
 * build ranges and diagnostics.
 *
 * Recovery mirrors hclsyntax: after the first error in an expression the
 * parser enters recovery mode, skips to a plausible resynchronisation point
 * and suppresses most follow-up errors (which are usually consequences of the
 * first one). Structural errors that cannot cascade are still reported.
 */
import type { Diagnostic, Expression, Range } from "./ast.js";
import { T, type Tokens } from "./lexer.js";
import { InvalidNode, RelativeTraversalNode, ScopeTraversalNode, SyntaxNode } from "./nodes.js";
import { Span, rangeBetween, type RangeMaker } from "./source.js";

/**
 * An array built with push() as one of exactly its length. V8 grows a
 * pushed-to array's store to 17 slots at once; in a tree of a few million
 * small arrays (most hold one to three items) that slack is a fifth of the
 * heap.
 */
export function exact<T>(items: T[]): T[] {
  return items.length === 0 ? (NONE as unknown as T[]) : items.slice();
}

/** The one empty list the native parser's nodes share (frozen: a tree is never changed in place). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * Names the tree keeps (attribute names, block types and labels, traversal
 * steps, function names) repeat a lot: `var`, `local`, `each`, `name`,
 * `tags`... One string per distinct name, shared by the trees of the
 * thread, instead of a copy per occurrence: a direct-mapped table hashed on
 * the characters, so a name already in it is found without making a string.
 * A colliding name replaces the older one (names in trees stay valid: they
 * are plain strings).
 */
const NAME_SLOTS = 1 << 13;
const NAMES = new Array<string | undefined>(NAME_SLOTS).fill(undefined);
/** The hash last seen in each slot (see internRange). */
const HASHES = new Int32Array(NAME_SLOTS);
/** Names longer than this are rarely repeated; they are kept as read. */
const MAX_NAME_LENGTH = 40;

/** text[s, e) as a shared string (see NAMES). */
export function internRange(text: string, s: number, e: number): string {
  const len = e - s;
  if (len > MAX_NAME_LENGTH) return text.slice(s, e);
  if (len === 0) return "";
  // A few characters are enough to tell names apart (a collision only costs a copy).
  const last = e - 1;
  let h = Math.imul(len, 0x9e3779b1) ^ text.charCodeAt(s);
  h = Math.imul(h ^ text.charCodeAt(last), 0x85ebca6b);
  h = Math.imul(h ^ text.charCodeAt(s + (len >> 1)), 0xc2b2ae35);
  h ^= text.charCodeAt(last - 1) << 7;
  h ^= text.charCodeAt(s + 1) << 3;
  const slot = (h ^ (h >>> 16)) & (NAME_SLOTS - 1);
  const known = NAMES[slot];
  if (known !== undefined && known.length === len) {
    let i = 0;
    while (i < len && known.charCodeAt(i) === text.charCodeAt(s + i)) i++;
    if (i === len) return known;
  }
  const str = text.slice(s, e);
  // A name is kept on its second sighting: a name seen once (most labels and
  // resource names) never enters the table, so it dies young with its tree.
  if (HASHES[slot] === h) NAMES[slot] = str;
  else HASHES[slot] = h;
  return str;
}

/** A range, or a node whose range it stands for. */
export type Ranged = Range | Expression;

/**
 * From the start of `a` to the end of `b` (ranges or nodes). A node's
 * offsets are read in place: no range object is made for either side.
 */
export function join(a: Ranged, b: Ranged): Range {
  const x = a instanceof SyntaxNode || a instanceof Span ? a : null;
  const y = b instanceof SyntaxNode || b instanceof Span ? b : null;
  if (x !== null && y !== null) return new Span(x.lines, x.startOffset, y.endOffset);
  return rangeBetween("kind" in a ? a.range : a, "kind" in b ? b.range : b);
}

/** The end offset of a node (without making its range). */
export function endOf(e: Expression): number {
  return e instanceof SyntaxNode ? e.endOffset : e.range.end.offset;
}

/** Per-token range cache of one parse (see ParserState.cache). */
type TokenCache = (Span | undefined)[];

/** A parse the parser runs at a nested position: an expression, a block's body. */
export type Nested<R> = (p: ParserState) => R;

/** Kinds of nested parses (part of an outcome's key). */
export const NEST_EXPR = 0;
export const NEST_BODY = 1;

/** Kinds of item loops that keep their progress in a deep parse (see ParserState.resume). */
export const LOOP_TUPLE = 2;
export const LOOP_CALL = 3;
export const LOOP_OBJECT = 4;
export const LOOP_BODY = 5;
export const LOOP_TEMPLATE = 6;

/**
 * Where a loop over the items of a construct (a list's items, a call's
 * arguments, an object's attributes, a body's items) had got to at the start
 * of an iteration: the state, the diagnostics it had reported, and its items
 * (`n` of them: the array may be longer when an attempt went on after this).
 */
export interface Progress<L> {
  pos: number;
  prev: number;
  recovery: boolean;
  diags: Diagnostic[] | null;
  n: number;
  items: L;
}

/**
 * How many nested parses may run on the native stack at once. A level takes
 * at most about fifteen native frames (an expression in an index in a call
 * in a binary operand...), about 2 KB: 128 levels parse in 250 KB of stack,
 * a quarter of Node's default, wherever the parser is called from.
 * Hand-written configurations rarely go past a dozen levels, so they never
 * reach it and pay nothing for deferral.
 */
const NATIVE_LEVELS = 128;

/** The parser state a nested parse starts from (everything it reads besides the tokens). */
interface JobState {
  pos: number;
  prev: number;
  nlTop: boolean;
  recovery: boolean;
  lenient: boolean;
}

/** A nested parse deferred until it can start on an empty native stack. */
interface Job extends JobState {
  kind: number;
  fn: Nested<unknown>;
  key: number;
}

/** What a nested parse returned and how it left the state. */
interface Outcome {
  value: unknown;
  pos: number;
  prev: number;
  recovery: boolean;
  /** The diagnostics it reported, in order (null: none). */
  diags: Diagnostic[] | null;
}

const NO_RESUME = { key: -1, at: undefined };

/** Thrown by a nested parse one level past the native limit, to the one at the limit, which is then deferred (see nestDeep). */
const NOT_A_LEAF = { notALeaf: true };

/** Thrown by nest past the native level limit; caught by parseAnyDepth, never seen outside this package. */
class Deferred {
  constructor(readonly job: Job) {}
}

/**
 * The outcomes of the nested parses of a parse that went deep, by key (see
 * ParserState.keyOf). A parse is deterministic in its starting state, so an
 * outcome replayed (result, position, recovery flag, diagnostics) is exactly
 * what running it again would give.
 */
class DeepParse {
  readonly outcomes = new Map<number, Outcome>();
  /**
   * The progress of the item loops, by the key of their start: a retry
   * resumes a loop where it was instead of going over its items again (one
   * by one, even when each is a known outcome, a construct with many deep
   * items would cost the square of their number).
   */
  readonly progress = new Map<number, Progress<unknown>>();
  /**
   * The traversals among the results in outcomes: a retry may reuse one, so
   * it must not be extended in place (the one change the parser makes to a
   * node it has returned; see makeRelative in parser-expr.ts).
   */
  readonly values = new Set<object>();

  keep(key: number, value: unknown, q: ParserState, mark: number): void {
    const diags = q.diags.length > mark ? q.diags.slice(mark) : null;
    this.outcomes.set(key, { value, pos: q.pos, prev: q.prev, recovery: q.recovery, diags });
    if (value instanceof ScopeTraversalNode || value instanceof RelativeTraversalNode) this.values.add(value);
  }
}

/**
 * Runs the nested parse `fn` (kind `kind`) at the current position.
 *
 * The parser is recursive descent, and configurations may nest without
 * limit. So the native stack never holds more than NATIVE_LEVELS nested
 * parses: one level deeper, the parse is not run but thrown (as a Deferred
 * job) to parseAnyDepth, which runs it from an empty stack, keeps its
 * outcome, and then retries the parse it interrupted; the retry, reaching
 * the same point in the same state, replays the outcome instead of
 * descending. From the first deferral on, every nested parse keeps its
 * outcome, so a retry redoes only the levels above the deferred point. A
 * chain of any depth thus costs about two parses of each level, and the
 * tree, the diagnostics and their order are exactly those of an unbounded
 * recursive parse.
 */
export function nest<R>(p: ParserState, kind: number, fn: Nested<R>): R {
  if (p.deep === null && p.depth < NATIVE_LEVELS) {
    p.depth++;
    const value = fn(p);
    p.depth--;
    return value;
  }
  return p.nestDeep(kind, fn);
}

/**
 * Runs `root` on `p` (a parse at native depth 0) to the end, whatever the
 * nesting of the input, running the jobs nest defers from an explicit stack.
 * Returns the value and the state that finished the parse (a fresh state
 * with p's start when the parse had to be retried).
 */
export function parseAnyDepth<R>(p: ParserState, root: Nested<R>): { p: ParserState; value: R } {
  const start: JobState = { pos: p.pos, prev: p.prev, nlTop: p.peekNL(), recovery: p.recovery, lenient: p.lenient };
  const before = p.diags.slice();
  let q = p;
  for (;;) {
    try {
      return { p: q, value: root(q) };
    } catch (e) {
      if (!(e instanceof Deferred)) throw e;
      p.deep ??= new DeepParse();
      runJobs(p, e.job);
      q = p.stateFor(start);
      for (const d of before) q.diags.push(d);
    }
  }
}

/** Runs a deferred job and the jobs it defers in turn, innermost first, keeping each outcome. */
function runJobs(p: ParserState, first: Job): void {
  const deep = p.deep as DeepParse;
  const jobs: Job[] = [first];
  while (jobs.length > 0) {
    const job = jobs[jobs.length - 1];
    const q = p.stateFor(job);
    let value: unknown;
    try {
      value = job.fn(q);
    } catch (e) {
      if (!(e instanceof Deferred)) throw e;
      jobs.push(e.job);
      continue;
    }
    deep.keep(job.key, value, q, 0);
    jobs.pop();
  }
}

export class ParserState {
  readonly text: string;
  readonly tk: Tokens;
  readonly types: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Makes the ranges of this parse from offsets into `text`. */
  readonly li: RangeMaker;
  /** Index of the next unread token (newlines/comments not yet skipped). */
  pos = 0;
  /** Index of the last token read. */
  prev = -1;
  private nl: boolean[] = [true];
  /** The top of `nl`: whether newlines are significant right now. */
  private nlTop = true;
  recovery = false;
  readonly diags: Diagnostic[] = [];
  /** How many nested parses (see nest) are running on the native stack right now. */
  depth = 0;
  /** Set once a parse went deeper than the native stack takes (see nest); shared by every state of the parse. */
  deep: DeepParse | null = null;
  /** Per-token ranges (shared with forks): a token's range is made once and shared by the nodes that use it. */
  private readonly cache: TokenCache;
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

  constructor(
    text: string,
    tk: Tokens,
    li: RangeMaker,
    includeNewlines = true,
    cache?: TokenCache,
  ) {
    this.text = text;
    this.tk = tk;
    this.types = tk.types;
    this.starts = tk.starts;
    this.ends = tk.ends;
    this.li = li;
    this.nl = [includeNewlines];
    this.nlTop = includeNewlines;
    this.cache = cache ?? new Array<Span | undefined>(tk.count + 1);
  }

  /** A copy with its own position, mode stack and diagnostics (tokens shared). */
  fork(): ParserState {
    const f = this.sibling(true, this.pos, this.prev, this.recovery);
    f.nl = this.nl.slice();
    f.nlTop = this.nlTop;
    f.depth = this.depth;
    f.recoveryBefore = this.recovery;
    return f;
  }

  /** A new state of this parse at `pos` (tokens, cache, mode and deep-parse record shared), its own newline mode `nlTop`. */
  private sibling(nlTop: boolean, pos: number, prev: number, recovery: boolean): ParserState {
    const q = new ParserState(this.text, this.tk, this.li, nlTop, this.cache);
    q.pos = pos;
    q.prev = prev;
    q.recovery = recovery;
    q.compat = this.compat;
    q.deep = this.deep;
    return q;
  }

  pushNL(include: boolean): void {
    this.nl.push(include);
    this.nlTop = include;
  }
  /** Whether newlines are significant right now. */
  peekNL(): boolean {
    return this.nlTop;
  }
  popNL(): void {
    if (this.nl.length > 1) this.nl.pop();
    this.nlTop = this.nl[this.nl.length - 1];
  }

  /** Index of the next significant token. */
  peek(): number {
    let i = this.pos;
    if (!this.nlTop) {
      const types = this.types;
      while (types[i] === T.Newline) i++;
    }
    return i;
  }

  /** Index of the first significant token at or after token index i (same newline mode as peek). */
  skipFrom(i: number): number {
    if (!this.nlTop) {
      const types = this.types;
      while (types[i] === T.Newline) i++;
    }
    return i;
  }

  peekType(): number {
    return this.types[this.peek()];
  }

  read(): number {
    const i = this.peek();
    this.pos = this.types[i] === T.EOF ? i : i + 1;
    this.prev = i;
    return i;
  }

  /**
   * The range of token i. Ranges are cached per token and shared between
   * nodes (treat ranges as immutable).
   */
  tokRange(i: number): Span {
    let r = this.cache[i];
    if (r === undefined) {
      r = this.li.range(this.starts[i], this.ends[i]);
      this.cache[i] = r;
    }
    return r;
  }

  /** The range from the start of token a to the end of token b. */
  tokSpan(a: number, b: number): Span {
    return this.li.range(this.starts[a], this.ends[b]);
  }

  /** The range between two offsets of the text. */
  offsets(start: number, end: number): Span {
    return this.li.range(start, end);
  }

  tokText(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  /** The text of an identifier token (a name the tree keeps), one string per distinct name (see intern). */
  name(i: number): string {
    return internRange(this.text, this.starts[i], this.ends[i]);
  }

  nextRange(): Range {
    return this.tokRange(this.peek());
  }

  prevRange(): Range {
    if (this.prev < 0) return this.li.range(0, 0);
    return this.tokRange(this.prev);
  }

  isKeyword(i: number, kw: string): boolean {
    if (this.types[i] !== T.Ident) return false;
    const s = this.starts[i];
    return this.ends[i] - s === kw.length && this.text.startsWith(kw, s);
  }

  error(summary: string, detail: string, subject: Range, extra?: Partial<Diagnostic>): Diagnostic {
    const d: Diagnostic = { severity: "error", summary, detail, subject, ...extra };
    this.diags.push(d);
    return d;
  }

  /** Reports unless in recovery mode. */
  errorUnlessRecovering(summary: string, detail: string, subject: Range, extra?: Partial<Diagnostic>): void {
    if (!this.recovery) this.error(summary, detail, subject, extra);
  }

  /** Number of diagnostics so far; compare to detect errors in a sub-parse. */
  mark(): number {
    return this.diags.length;
  }

  hasErrorsSince(mark: number): boolean {
    for (let i = mark; i < this.diags.length; i++) if (this.diags[i].severity === "error") return true;
    return false;
  }

  opposite(ty: number): number {
    switch (ty) {
      case T.OBrace:
        return T.CBrace;
      case T.CBrace:
        return T.OBrace;
      case T.OBrack:
        return T.CBrack;
      case T.CBrack:
        return T.OBrack;
      case T.OParen:
        return T.CParen;
      case T.CParen:
        return T.OParen;
      case T.OQuote:
        return T.CQuote;
      case T.CQuote:
        return T.OQuote;
      case T.OHeredoc:
        return T.CHeredoc;
      case T.CHeredoc:
        return T.OHeredoc;
      case T.TemplateInterp:
      case T.TemplateControl:
        return T.TemplateSeqEnd;
      case T.TemplateSeqEnd:
        return T.TemplateInterp;
      default:
        return -1;
    }
  }

  /**
   * Skips to the token `end` (balancing nested pairs of its bracket kind) and
   * returns its index, leaving the peeker after it; stops at EOF.
   */
  recover(end: number): number {
    const start = this.opposite(end);
    this.recovery = true;
    let nest = 0;
    for (;;) {
      const i = this.read();
      let ty = this.types[i];
      if (end === T.TemplateSeqEnd && ty === T.TemplateControl) ty = T.TemplateInterp;
      if (ty === start) nest++;
      else if (ty === end) {
        if (nest < 1) return i;
        nest--;
      } else if (ty === T.EOF) return i;
    }
  }

  /** Skips to the end of the current body item (a newline outside brackets). */
  recoverAfterBodyItem(): void {
    this.recovery = true;
    const open: number[] = [];
    for (;;) {
      const i = this.read();
      const ty = this.types[i];
      switch (ty) {
        case T.Newline:
          if (open.length === 0) return;
          break;
        case T.EOF:
          return;
        case T.OBrace:
        case T.OBrack:
        case T.OParen:
        case T.OQuote:
        case T.OHeredoc:
        case T.TemplateInterp:
        case T.TemplateControl:
          open.push(ty);
          break;
        case T.CBrace:
        case T.CBrack:
        case T.CParen:
        case T.CQuote:
        case T.CHeredoc: {
          const opener = this.opposite(ty);
          while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
          if (open.length > 0) open.pop();
          break;
        }
        case T.TemplateSeqEnd:
          while (open.length > 0 && open[open.length - 1] !== T.TemplateInterp && open[open.length - 1] !== T.TemplateControl) open.pop();
          if (open.length > 0) open.pop();
          break;
      }
    }
  }

  /**
   * Identifies a nested parse of kind `kind` starting here: the position and
   * every part of the state a parse reads (newline mode, recovery, lenient
   * mode, and whether the last token read is the one just before the
   * position: `prev` is always `pos - 1` or, at the end, `pos`).
   */
  private keyOf(kind: number): number {
    let flags = kind << 4;
    if (this.nlTop) flags |= 8;
    if (this.recovery) flags |= 4;
    if (this.lenient) flags |= 2;
    if (this.prev === this.pos - 1) flags |= 1;
    return this.pos * 128 + flags;
  }

  /**
   * At the start of an item loop of kind `kind`: its key in a deep parse
   * (-1 otherwise: nothing is kept), and the progress an earlier attempt
   * made, which the state now continues from (its diagnostics reported again).
   */
  resume<L>(kind: number): { key: number; at: Progress<L> | undefined } {
    if (this.deep === null) return NO_RESUME;
    const key = this.keyOf(kind);
    const at = this.deep.progress.get(key) as Progress<L> | undefined;
    if (at !== undefined) {
      this.pos = at.pos;
      this.prev = at.prev;
      this.recovery = at.recovery;
      if (at.diags !== null) for (const d of at.diags) this.diags.push(d);
    }
    return { key, at };
  }

  /** Keeps the progress of the loop `key` (see resume); `mark`: the diagnostics count when the loop started. */
  keepProgress<L>(key: number, mark: number, n: number, items: L): void {
    if (key < 0) return;
    const diags = this.diags.length > mark ? this.diags.slice(mark) : null;
    (this.deep as DeepParse).progress.set(key, { pos: this.pos, prev: this.prev, recovery: this.recovery, diags, n, items });
  }

  /** nest, once the parse went deep or the native levels are used up. */
  nestDeep<R>(kind: number, fn: Nested<R>): R {
    const key = this.keyOf(kind);
    const deep = this.deep;
    if (deep !== null) {
      const known = deep.outcomes.get(key);
      if (known !== undefined) {
        this.pos = known.pos;
        this.prev = known.prev;
        this.recovery = known.recovery;
        if (known.diags !== null) for (const d of known.diags) this.diags.push(d);
        return known.value as R;
      }
    }
    if (this.depth > NATIVE_LEVELS) throw NOT_A_LEAF;
    if (deep === null || this.depth === NATIVE_LEVELS) {
      const job: Job = { kind, fn, key, pos: this.pos, prev: this.prev, nlTop: this.nlTop, recovery: this.recovery, lenient: this.lenient };
      // At the limit, a parse that nests nothing (a name, a number: an
      // object's key, say) runs here: deferring it would cost a retry of
      // the levels above it for nothing. One that nests is deferred as soon
      // as it tries (the attempt is dropped with the parse around it).
      const mark = this.diags.length;
      this.depth++;
      let value: R;
      try {
        value = fn(this);
      } catch (e) {
        if (e === NOT_A_LEAF) throw new Deferred(job);
        throw e;
      }
      this.depth--;
      if (deep !== null) deep.keep(key, value, this, mark);
      return value;
    }
    // Below the native limit of a deep parse: run it here, and keep its
    // outcome so that a retry of an enclosing parse does not redo it.
    const mark = this.diags.length;
    this.depth++;
    const value = fn(this);
    this.depth--;
    deep.keep(key, value, this, mark);
    return value;
  }

  /** A new state of this parse (tokens, ranges and outcomes shared) that starts as `job` says, on an empty native stack. */
  stateFor(job: JobState): ParserState {
    const q = this.sibling(job.nlTop, job.pos, job.prev, job.recovery);
    q.lenient = job.lenient;
    return q;
  }

  /** Whether `e` is a traversal kept for reuse (see DeepParse.values): it must not be extended in place. */
  isShared(e: object): boolean {
    return this.deep !== null && this.deep.values.has(e);
  }

  invalid(range: Range): Expression {
    return new InvalidNode(range);
  }
}

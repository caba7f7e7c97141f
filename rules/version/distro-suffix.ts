import { defineRule, type WalkSite } from "../../src/lint/types.js";
import type { BinaryOperator, Block, Expression, Range, TemplatePart } from "../../src/hcl/ast.js";
import type { Module, SourceFile } from "../../src/terraform/module-types.js";
import { argumentsInResult } from "../../src/analysis/functions.js";
import { propagateThroughLocals } from "../../src/analysis/locals.js";
import { isRefTo, localName } from "../../src/analysis/references.js";
import { children, constString, unwrap } from "../../src/hcl/walk.js";
import { joinHops, localHops, variableHop } from "../../src/analysis/paths.js";

const VERSION_VAR = "kubernetes_version";

/** Calls that take the suffix off the argument they transform (their result no longer carries it). */
const STRIPPERS = new Set(["replace", "regex", "regexall", "trimsuffix"]);

/**
 * Data sources that only render text locally (user data, policies, files):
 * passing the full version through them is not a lookup.
 */
const RENDERING_DATA = new Set([
  "cloudinit_config",
  "template_cloudinit_config",
  "template_file",
  "local_file",
  "archive_file",
  "aws_iam_policy_document",
  "ct_config",
]);

const COMPARISONS: ReadonlySet<BinaryOperator> = new Set(["==", "!=", "<", "<=", ">", ">="]);

export interface Mention {
  range: Range;
  /** The local the version arrives through, when it is not mentioned directly. */
  via: string | null;
}

function isStripper(expr: Expression): boolean {
  if (expr.kind !== "FunctionCall") return false;
  if (STRIPPERS.has(expr.name)) return true;
  const sep = expr.args[0];
  return expr.name === "split" && sep !== undefined && constString(sep) === "+";
}

/** Calls whose result is not the version string (a check or a count). */
const NON_FLOWING_CALLS = new Set(["can", "length", "contains", "startswith", "endswith", "strcontains", "alltrue", "anytrue"]);
const BOOLEAN_OPS: ReadonlySet<BinaryOperator> = new Set([...COMPARISONS, "&&", "||"]);

/**
 * Mentions of the version (directly or through tainted locals) whose value
 * flows into `expr`'s result unstripped. A hash of the version is not the
 * version (it ends the value). A conditional's condition, boolean
 * operators and checks such as can()/length() produce no version string, so
 * a null check like `var.kubernetes_version == null ? ...` is not a use.
 * A `for` variable carries what its collection holds: the collection's
 * mentions count only where the body uses the variable unstripped.
 */
export function unstripped(expr: Expression, tainted: { has(name: string): boolean }): Mention[] {
  const out: Mention[] = [];
  let bound: ReadonlyMap<string, Mention[]> = new Map();
  // An explicit stack of tasks (pushed in reverse) instead of recursion, so
  // any nesting depth is read on the main thread, in source order. A `for`
  // reads its collection's mentions into `out` (`capture` marks where they
  // start), takes them back out to bind its variables (`bind`), reads its
  // body with them bound, and restores the outer bindings (`restore`).
  type Task =
    | { kind: "visit"; e: Expression }
    | { kind: "part"; part: TemplatePart }
    | { kind: "capture" }
    | { kind: "bind"; names: readonly (string | null)[]; body: Task[] }
    | { kind: "restore"; outer: ReadonlyMap<string, Mention[]> };
  const pending: Task[] = [{ kind: "visit", e: expr }];
  const starts: number[] = [];
  const pushAll = (tasks: readonly Task[]): void => {
    for (let i = tasks.length - 1; i >= 0; i--) pending.push(tasks[i]!);
  };
  const partTasks = (parts: readonly TemplatePart[]): Task[] => parts.map((part) => ({ kind: "part", part }));
  const forTasks = (collection: Expression, names: readonly (string | null)[], body: Task[]): Task[] => [
    { kind: "capture" },
    { kind: "visit", e: collection },
    { kind: "bind", names, body },
  ];
  const visit = (e: Expression): void => {
    if (e.kind === "ScopeTraversal" && e.traversal[0]?.kind === "TraverseRoot" && bound.has(e.traversal[0].name)) {
      for (const m of bound.get(e.traversal[0].name)!) out.push(m);
      return;
    }
    if (isRefTo(e, "var", VERSION_VAR)) {
      out.push({ range: e.range, via: null });
      return;
    }
    const local = localName(e);
    if (local !== null) {
      if (tainted.has(local)) out.push({ range: e.range, via: local });
      return;
    }
    switch (e.kind) {
      case "Conditional":
        pushAll([{ kind: "visit", e: e.trueResult }, { kind: "visit", e: e.falseResult }]);
        return;
      case "BinaryOp":
        if (BOOLEAN_OPS.has(e.op)) return;
        break;
      case "UnaryOp":
        if (e.op === "!") return;
        break;
      case "FunctionCall":
        if (NON_FLOWING_CALLS.has(e.name)) return;
        // A hash ends the value; a stripper strips only the argument it
        // transforms (`replace(format, "{v}", version)` inserts the version as is).
        pushAll(argumentsInResult(e, isStripper(e)).map((arg): Task => ({ kind: "visit", e: arg })));
        return;
      case "For": {
        const body: Task[] = e.keyExpr ? [{ kind: "visit", e: e.keyExpr }] : [];
        body.push({ kind: "visit", e: e.valExpr });
        pushAll(forTasks(e.collection, [e.keyVar, e.valVar], body));
        return;
      }
      case "Template":
        pushAll(partTasks(e.parts));
        return;
    }
    pushAll(children(e).map((child): Task => ({ kind: "visit", e: child })));
  };
  while (pending.length > 0) {
    const task = pending.pop()!;
    switch (task.kind) {
      case "visit":
        visit(task.e);
        break;
      case "part": {
        const part = task.part;
        if (part.kind === "TemplateInterp") pending.push({ kind: "visit", e: part.expr });
        else if (part.kind === "TemplateIf") pushAll([...partTasks(part.then), ...(part.else ? partTasks(part.else) : [])]);
        else if (part.kind === "TemplateFor") pushAll(forTasks(part.collection, [part.keyVar, part.valVar], partTasks(part.body)));
        break;
      }
      case "capture":
        starts.push(out.length);
        break;
      case "bind": {
        // The collection's mentions: carried by the value variable, not results of the `for` itself.
        // Each mention once (the first): a body that uses its variable twice
        // at every level of nested fors would double them per level.
        const mentions = distinctMentions(out.splice(starts.pop()!));
        const inner = new Map(bound);
        task.names.forEach((n, i) => {
          // The value variable carries the elements; a key variable the keys (not followed).
          if (n !== null) inner.set(n, i === task.names.length - 1 ? mentions : []);
        });
        pending.push({ kind: "restore", outer: bound });
        bound = inner;
        pushAll(task.body);
        break;
      }
      case "restore":
        bound = task.outer;
        break;
    }
  }
  return out;
}

/** The mentions without repeats (the same place through the same local), first occurrences in order. */
function distinctMentions(mentions: Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    const key = `${m.range.start.offset}:${m.range.end.offset}:${m.via ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Locals that hold the unstripped version (directly or through other locals). */
function taintedLocals(mod: Module): Set<string> {
  const everyLocal = { has: (): boolean => true };
  return propagateThroughLocals(mod, (local) => {
    const mentions = unstripped(local.value, everyLocal);
    return {
      direct: mentions.some((m) => m.via === null),
      refs: mentions.flatMap((m) => (m.via === null ? [] : [m.via])),
    };
  });
}

/**
 * The tainted locals from `name` to one that mentions the version itself,
 * each passing it on unstripped (the path a finding shows).
 */
function taintPath(mod: Module, tainted: ReadonlySet<string>, name: string): string[] {
  const path: string[] = [];
  const onPath = new Set<string>();
  let cur: string | null = name;
  while (cur !== null && !onPath.has(cur)) {
    path.push(cur);
    onPath.add(cur);
    const local = mod.locals.get(cur);
    if (!local) break;
    const mentions = unstripped(local.value, tainted);
    if (mentions.some((m) => m.via === null)) break;
    cur = mentions.find((m) => m.via !== null && !onPath.has(m.via))?.via ?? null;
  }
  return path;
}

function isEmptyCheckOperand(expr: Expression): boolean {
  const e = unwrap(expr);
  if (e.kind === "LiteralValue" && e.type === "null") return true;
  return constString(e) === "";
}

function subject(m: Mention): string {
  return m.via ? `local.${m.via} (which holds var.${VERSION_VAR})` : `var.${VERSION_VAR}`;
}

export default defineRule({
  id: "version/distro-suffix",
  provenance: "reference",
  severity: "warning",
  roles: ["cluster", "machine", "machinepool"],
  summary: "kubernetes_version is stripped of a distro suffix (+rke2r1) before image lookups and comparisons",
  scope: "root",
  fixable: false,
  tags: ["contract", "versions"],
  check(ctx) {
    const mod = ctx.expressions;
    const tainted = taintedLocals(mod);
    const reported = new Set<string>();
    const report = (file: SourceFile, m: Mention, message: string): void => {
      const key = `${file.path}:${m.range.start.offset}`;
      if (reported.has(key)) return;
      reported.add(key);
      const related = joinHops(localHops(mod, m.via ? taintPath(mod, tainted, m.via) : []), [variableHop(mod, VERSION_VAR)]);
      ctx.report({ message, file: file.path, range: m.range, related });
    };

    const compared = (e: Expression, site: WalkSite): void => {
      for (const m of comparedMentions(e, tainted)) {
        report(
          site.file,
          m,
          `${subject(m)} is compared with its distro suffix (e.g. "v1.31.4+rke2r1") still attached: compare split("+", var.${VERSION_VAR})[0] instead.`,
        );
      }
    };
    // One shared walk of the module's expressions: an attribute of an image
    // lookup is checked whole first, then its comparisons node by node.
    return {
      Attribute(attr, site) {
        if (!isLookup(site.block) || site.blocks.some((b) => b.type === "lifecycle")) return;
        const address = `data.${site.block.labels[0]}.${site.block.labels[1] ?? ""}`;
        for (const m of unstripped(attr.expr, tainted)) {
          report(
            site.file,
            m,
            `${subject(m)} reaches ${address} with any distro suffix (e.g. "v1.31.4+rke2r1"), which no image matches: look up split("+", var.${VERSION_VAR})[0] instead.`,
          );
        }
      },
      BinaryOp: compared,
      FunctionCall: compared,
      Index: compared,
    };
  },
});

/** Calls that match their second argument against a list or map: an equality comparison. */
const MATCHING_CALLS = new Set(["contains", "lookup", "index"]);

/**
 * Version mentions `e` compares: operands of a comparison operator (unless
 * the other side is null or ""), the value looked for by contains(),
 * lookup() or index(), and the key of an index expression (`m[version]`).
 */
function comparedMentions(e: Expression, tainted: { has(name: string): boolean }): Mention[] {
  if (e.kind === "BinaryOp" && COMPARISONS.has(e.op)) {
    if (isEmptyCheckOperand(e.lhs) || isEmptyCheckOperand(e.rhs)) return [];
    return [...unstripped(e.lhs, tainted), ...unstripped(e.rhs, tainted)];
  }
  if (e.kind === "FunctionCall" && MATCHING_CALLS.has(e.name) && e.args[1]) return unstripped(e.args[1], tainted);
  if (e.kind === "Index") return unstripped(e.key, tainted);
  return [];
}

function isLookup(block: Block): boolean {
  return block.type === "data" && !RENDERING_DATA.has(block.labels[0] ?? "");
}

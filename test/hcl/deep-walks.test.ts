/**
 * The walks over syntax trees, types and schemas in src/ at 100,000 levels
 * of nesting, on trees built here node by node (the parser is not under
 * test): each must finish on the normal stack of a vitest fork (the pool is
 * `forks`, so a test runs on a process's main thread) and give exactly what
 * a shallow tree gives, level for level.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Block, Expression, File, TemplatePart } from "../../src/hcl/ast.js";
import { copyNode } from "../../src/hcl/nodes.js";
import { parseHcl } from "../../src/hcl/index.js";
import { collectRefs, constantValue, expressionKey, traversalText, walkExpression } from "../../src/hcl/walk.js";
import { bodyAttributes } from "../../src/hcl/blocks.js";
import { parseTypeExpr, parseTypeText, typeAccepts, typeToString } from "../../src/terraform/types.js";
import { findArguments } from "../../src/terraform/module-builder.js";
import { readType, serialize, typeSchema } from "../../src/contract/variables-schema.js";
import { walkModule } from "../../src/lint/shared-walk.js";
import type { Module } from "../../src/terraform/module-types.js";
import type { WalkSite } from "../../src/lint/types.js";

// The tests block the thread for seconds each: give the event loop a turn
// before each one, so the runner's messages to this fork are answered.
beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

const D = 100_000;

function parsed(src: string): File {
  const { file, diagnostics } = parseHcl(src, "deep.tf");
  expect(diagnostics.map((d) => d.summary)).toEqual([]);
  return file;
}

function exprOf(src: string): Expression {
  return parsed(`a = ${src}\n`).body.attributes[0]!.expr;
}

/** `wrap(inner)` applied `n` times around `leaf`. */
function nest(n: number, leaf: Expression, wrap: (inner: Expression) => Expression): Expression {
  let e = leaf;
  for (let i = 0; i < n; i++) e = wrap(e);
  return e;
}

const tuple = exprOf("[x]") as Extract<Expression, { kind: "TupleCons" }>;
const cond = exprOf("c ? t : x") as Extract<Expression, { kind: "Conditional" }>;
const plus = exprOf("x + one") as Extract<Expression, { kind: "BinaryOp" }>;
const listCall = exprOf("list(string)") as Extract<Expression, { kind: "FunctionCall" }>;
const leaf = exprOf("leaf");

describe("expression walks at 100,000 levels", () => {
  it("walkExpression visits every node of [[[...leaf]]] once, outside in", () => {
    const deep = nest(D, leaf, (inner) => copyNode(tuple, { exprs: [inner] }));
    const kinds: string[] = [];
    walkExpression(deep, (e) => {
      kinds.push(e.kind);
    });
    expect(kinds.length).toBe(D + 1);
    expect(kinds.slice(0, 2)).toEqual(["TupleCons", "TupleCons"]);
    expect(kinds[D]).toBe("ScopeTraversal");
  });

  it("collectRefs gives the references of a conditional chain in source order", () => {
    const deep = nest(D, leaf, (inner) => copyNode(cond, { falseResult: inner }));
    const refs = collectRefs(deep).map((r) => traversalText(r.traversal));
    expect(refs.length).toBe(2 * D + 1);
    expect(refs.slice(0, 4)).toEqual(["c", "t", "c", "t"]);
    expect(refs[2 * D]).toBe("leaf");
  });

  it("collectRefs reads template directives nested 100,000 deep: conditions, then the innermost interpolation", () => {
    const tpl = exprOf('"%{ if c }${x}%{ endif }"') as Extract<Expression, { kind: "Template" }>;
    const ifPart = tpl.parts.find((p) => p.kind === "TemplateIf") as Extract<TemplatePart, { kind: "TemplateIf" }>;
    let parts: readonly TemplatePart[] = [copyNode(ifPart, {})];
    for (let i = 1; i < D; i++) parts = [copyNode(ifPart, { then: parts as TemplatePart[] })];
    const deep = copyNode(tpl, { parts: parts as TemplatePart[] });
    const refs = collectRefs(deep).map((r) => traversalText(r.traversal));
    expect(refs.length).toBe(D + 1);
    expect(refs.slice(0, 2)).toEqual(["c", "c"]);
    expect(refs[D]).toBe("x");
  });

  it("expressionKey of a 100,000-term sum is the same text for two equal trees, and null under a for", () => {
    const sum = (): Expression => nest(D, leaf, (inner) => copyNode(plus, { lhs: inner }));
    const a = expressionKey(sum());
    expect(a).toBe("(".repeat(D) + "leaf" + "+one)".repeat(D));
    expect(expressionKey(sum())).toBe(a);
    const withFor = nest(D, exprOf("[for v in x : v]"), (inner) => copyNode(plus, { lhs: inner }));
    expect(expressionKey(withFor)).toBeNull();
  });

  it("constantValue gives up (unknown) past its 500-level budget and folds below it", () => {
    const one = exprOf("1");
    const wrap = (inner: Expression): Expression => copyNode(tuple, { exprs: [inner] });
    expect(constantValue(nest(D, one, wrap))).toEqual({ known: false });
    const shallow = constantValue(nest(400, one, wrap));
    expect(shallow.known).toBe(true);
  });
});

describe("blocks at 100,000 levels", () => {
  const file = parsed('resource "r" "n" {\n  b {\n    x = 1\n  }\n}\n');
  const outer = file.body.blocks[0]!;
  const inner = outer.body.blocks[0]!;
  const deepBlock = (): Block => {
    let b: Block = inner;
    for (let i = 1; i < D; i++) b = copyNode(inner, { body: copyNode(inner.body, { attributes: [], blocks: [b] }) });
    return copyNode(outer, { body: copyNode(outer.body, { blocks: [b] }) });
  };

  it("bodyAttributes finds the innermost attribute with its whole path", () => {
    const top = deepBlock();
    const found = bodyAttributes(top.body);
    expect(found.length).toBe(1);
    expect(found[0]!.path.length).toBe(D + 1);
    expect(found[0]!.path.slice(-2)).toEqual(["b", "x"]);
    expect(found[0]!.blocks.length).toBe(D);
  });

  it("bodyAttributes with an attribute at every level: all of them, each path made when read", () => {
    // dynamic "d" { for_each = ... content { ... } } at every level: a path of every level's
    // attribute made at once would be D^2 / 2 strings (far past the heap).
    let b: Block = inner;
    for (let i = 1; i < D; i++) b = copyNode(inner, { body: copyNode(inner.body, { blocks: [b] }) });
    const found = bodyAttributes(b.body, ["top"]);
    expect(found.length).toBe(D);
    expect(found.every((f) => f.attr.name === "x")).toBe(true);
    expect(found[0]!.path).toEqual(["top", "x"]);
    expect(found[0]!.blocks).toEqual([]);
    expect(found[1]!.path).toEqual(["top", "b", "x"]);
    expect(found[1]!.blocks).toEqual([b.body.blocks[0]]);
    const last = found[D - 1]!;
    expect(last.path.length).toBe(D + 1);
    expect(last.path[0]).toBe("top");
    expect(last.blocks.length).toBe(D - 1);
    expect(last.blocks[D - 2]!.body.blocks).toEqual([]);
  });

  it("the shared walk enters and leaves every block, and the innermost site lists every block around it", () => {
    const top = deepBlock();
    const mod = { files: [{ path: "deep.tf", hcl: copyNode(file, { body: copyNode(file.body, { blocks: [top] }) }) }] } as unknown as Module;
    let entered = 0;
    let exited = 0;
    let literals = 0;
    let innermost: WalkSite | null = null;
    walkModule(mod, [
      {
        visitors: {
          Block: () => void entered++,
          "Block:exit": () => void exited++,
          LiteralValue: (_node, site) => {
            literals++;
            innermost = site;
          },
        },
        onError: (err) => {
          throw err;
        },
      },
    ]);
    expect([entered, exited, literals]).toEqual([D + 1, D + 1, 1]);
    const site = innermost as unknown as WalkSite;
    expect(site.blocks.length).toBe(D + 1);
    expect(site.blocks[0]).toBe(top);
    expect(site.block).toBe(top);
    expect({ ...site }.blocks.length).toBe(D + 1);
  });
});

describe("types at 100,000 levels", () => {
  const deepList = (): Expression => nest(D, exprOf("string"), (inner) => copyNode(listCall, { args: [inner] }));

  it("parseTypeExpr reads list(list(...string)), typeToString writes it back, typeAccepts compares two", () => {
    const a = parseTypeExpr(deepList());
    const b = parseTypeExpr(deepList());
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(typeToString(a.type)).toBe("list(".repeat(D) + "string" + ")".repeat(D));
    expect(typeAccepts(a.type, b.type)).toBe(true);
    const numbers = parseTypeText("list(".repeat(D) + "number" + ")".repeat(D));
    expect(numbers.ok).toBe(true);
    if (numbers.ok) expect(typeAccepts(a.type, numbers.type)).toBe(false);
  });

  it("parseTypeText reads object and tuple constructors nested 100,000 deep, and reports an error at the bottom", () => {
    const obj = parseTypeText("object({a = optional(".repeat(D) + "string" + ", null)})".repeat(D));
    expect(obj.ok).toBe(true);
    if (obj.ok) expect(typeToString(obj.type)).toBe("object({a=optional(".repeat(D) + "string" + ")})".repeat(D));
    const tup = parseTypeText("tuple([".repeat(D) + "bool" + "])".repeat(D));
    expect(tup.ok).toBe(true);
    expect(parseTypeText("list(".repeat(D) + "strin" + ")".repeat(D))).toEqual({ ok: false, error: '"strin" is not a type', range: null });
  });

  it("the variables JSON Schema of a 100,000-level list type is written in full", () => {
    const t = readType(deepList());
    expect(t).not.toBeNull();
    const text = serialize(typeSchema(t!));
    expect(text).toBe('{"type":"array","items":'.repeat(D) + '{"type":"string"}' + "}".repeat(D));
  });
});

describe("argument search at 100,000 levels", () => {
  it("findArguments looks through nested tuples for a named step", () => {
    const body = parsed('r {\n  x = [{ name = 1 }]\n}\n').body.blocks[0]!.body;
    const attr = body.attributes[0]!;
    const deep = nest(D, attr.expr, (inner) => copyNode(tuple, { exprs: [inner] }));
    const deepBody = copyNode(body, { attributes: [copyNode(attr, { expr: deep })] });
    const found = findArguments(deepBody, ["x", "name"]);
    expect(found.map((m) => m.nameRange.start.column)).toEqual([10]);
  });
});

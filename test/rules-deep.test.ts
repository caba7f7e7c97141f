/**
 * The rules' own walks and evaluations at any nesting depth, on the main
 * thread of this test process (vitest's `forks` pool: a child process with
 * Node's default stack of about 1 MB, no worker with a large stack).
 *
 * The trees are 100,000 levels deep. They are built from 100,000 shallow
 * parsed copies of one expression, each linked into the one before it (the
 * parser is not what is tested here), so every node is a real syntax node
 * with a real range. Each helper must give the exact answer it gives on a
 * shallow tree: a recursion would overflow the stack long before.
 */
import { afterAll, describe, expect, it } from "vitest";
import { parseHcl } from "../src/hcl/index.js";
import type { Block, Body, Expression, TemplatePart } from "../src/hcl/ast.js";
import { evaluate } from "../rules/output/endpoint-never-set.js";
import { isSortedExpression } from "../rules/output/provider-id-list-shape.js";
import { accesses } from "../rules/output/exports-secret.js";
import { Scanner } from "../rules/drift/non-idempotent.js";
import { unstripped } from "../rules/version/distro-suffix.js";
import { connects } from "../rules/cluster/gate-on-initialized.js";
import { commandText } from "../rules/machine/lb-registration-missing.js";
import { scanBody, type Hit } from "../rules/module/provider-config.js";
import type { Module } from "../src/terraform/module-types.js";
import { loadModule } from "../src/terraform/load.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const N = 100_000;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A module loaded from a temporary directory: one file, one local. */
function smallModule(): Module {
  const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-rules-deep-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "main.tf"), "locals {\n  name = \"deep\"\n}\n");
  const load = loadModule(dir);
  expect(load.problems).toEqual([]);
  return load.root.expressions;
}

/** A writable view of a syntax node, for linking shallow copies into a deep tree. */
type Writable = Record<string, unknown>;

/** The body of `text` parsed as one file (no diagnostics). */
function body(text: string): Body {
  const { file, diagnostics } = parseHcl(text, "deep.tf");
  expect(diagnostics.map((d) => d.summary)).toEqual([]);
  return file.body;
}

/** `n` parsed copies of the expression `text` (each from its own line of one file). */
function copies(text: string, n: number): Expression[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`x${i} = ${text}\n`);
  return body(lines.join("")).attributes.map((a) => a.expr);
}

/** `n` copies of `text` nested: copy i's hole (set by `link`) holds copy i + 1, the last one's holds `leaf`. */
function nest(text: string, n: number, link: (outer: Writable, inner: Expression) => void, leaf: Expression): Expression {
  const levels = copies(text, n);
  for (let i = 0; i < n; i++) link(levels[i] as unknown as Writable, i + 1 < n ? levels[i + 1]! : leaf);
  return levels[0]!;
}

/** The one expression `text` is. */
function expr(text: string): Expression {
  return copies(text, 1)[0]!;
}

/** Sets an expression's `field` (a node's child). */
const field = (name: string) => (outer: Writable, inner: Expression): void => {
  outer[name] = inner;
};

/** Sets a call's only argument. */
const onlyArg = (outer: Writable, inner: Expression): void => {
  outer.args = [inner];
};

/** Sets the value of an object's first item. */
const firstValue = (outer: Writable, inner: Expression): void => {
  ((outer.items as Writable[])[0] as Writable).value = inner;
};

/** Sets the first element of a tuple. */
const firstElement = (outer: Writable, inner: Expression): void => {
  outer.exprs = [inner];
};

describe(`endpoint-never-set's evaluation, ${N} levels`, () => {
  it("folds a chain of ! to its constant", () => {
    expect(evaluate(nest("!x", N, field("operand"), expr("true")))).toEqual({ known: true, value: true });
    expect(evaluate(nest("!x", N - 1, field("operand"), expr("true")))).toEqual({ known: true, value: false });
  });

  it("a conditional chain whose every branch is null is null; one with a reference in a branch is unknown", () => {
    expect(evaluate(nest("var.x == null ? null : null", N, field("falseResult"), expr("null")))).toEqual({ known: true, value: null });
    expect(evaluate(nest("var.x == null ? null : null", N, field("falseResult"), expr("var.endpoint")))).toEqual({ known: false });
  });

  it("a chain of == and && is folded left to right", () => {
    // ((true == true) == true) == ... : true all the way down.
    expect(evaluate(nest("x == true", N, field("lhs"), expr("true")))).toEqual({ known: true, value: true });
    expect(evaluate(nest("x && true", N, field("lhs"), expr("false")))).toEqual({ known: true, value: false });
  });
});

describe(`provider-id-list-shape's sorted check, ${N} levels`, () => {
  it("tolist(tolist(...sort(x))) is sorted; the same around a bare local is not", () => {
    expect(isSortedExpression(nest("tolist(x)", N, onlyArg, expr("sort(local.ids)")))).toBe(true);
    expect(isSortedExpression(nest("tolist(x)", N, onlyArg, expr("local.ids")))).toBe(false);
  });

  it("parentheses and concat: sorted only when every list is", () => {
    expect(isSortedExpression(nest("(x)", N, field("expr"), expr("sort(a)")))).toBe(true);
    const concat = nest("concat(sort(a), x)", N, (outer, inner) => {
      (outer.args as Expression[])[1] = inner;
    }, expr("sort(b)"));
    expect(isSortedExpression(concat)).toBe(true);
    const unsorted = nest("concat(sort(a), x)", N, (outer, inner) => {
      (outer.args as Expression[])[1] = inner;
    }, expr("b"));
    expect(isSortedExpression(unsorted)).toBe(false);
  });
});

describe(`exports-secret's accesses, ${N} levels`, () => {
  it("a secret inside 100,000 brackets is one access with its path", () => {
    const leaf = expr("random_password.db.result");
    const found = accesses(nest("[x]", N, firstElement, leaf));
    expect(found.map((a) => [a.names, a.expr === leaf])).toEqual([[["random_password", "db", "result"], true]]);
  });

  it(`an index chain x[("a")][("a")]... is one access, its keys in order`, () => {
    // A parenthesised key makes an index node (`x["a"]` is a traversal step).
    const leaf = expr("module.db");
    const chain = nest('x[("a")]', N, field("collection"), leaf);
    const found = accesses(chain);
    expect(found).toHaveLength(1);
    expect(found[0]!.expr).toBe(chain);
    expect(found[0]!.names.length).toBe(2 + N);
    expect(found[0]!.names.slice(0, 3)).toEqual(["module", "db", "a"]);
    expect(new Set(found[0]!.names.slice(2))).toEqual(new Set(["a"]));
  });

  it("f()[0][0]... reads no access (its base is a call), once", () => {
    const chain = nest("x[(0)]", N, field("collection"), expr("f(var.api_token)"));
    expect(accesses(chain).map((a) => a.names)).toEqual([["var", "api_token"]]);
  });

  it("nested splats x[*].result[*].y[*].y...: every name applied to the items, in order", () => {
    const top = expr("random_password.db[*].result[*].y") as unknown as Writable;
    // Each copy's `each` is a splat over `.y` whose own `each` is linked to the next copy's.
    const inner = copies("a[*].y[*].y", N).map((e) => (e as unknown as Writable).each as Writable);
    for (let i = 0; i + 1 < N; i++) inner[i]!.each = inner[i + 1];
    (top.each as Writable).each = inner[0];
    const found = accesses(top as unknown as Expression);
    expect(found).toHaveLength(1);
    const names = found[0]!.names;
    expect(names.slice(0, 3)).toEqual(["random_password", "db", "result"]);
    expect(names.length).toBe(3 + N + 1);
    expect(names.slice(3).every((n) => n === "y")).toBe(true);
  });

  it("nested for expressions keep their variables bound at every level", () => {
    const loops = nest("[for s in x : s]", N, field("collection"), expr("var.api_token"));
    expect(accesses(loops).map((a) => a.names)).toEqual([["var", "api_token"]]);
  });
});

describe(`drift/non-idempotent's scan, ${N} levels`, () => {
  // A real (small) module for the locals the scan follows: none here.
  const scanner = new Scanner(smallModule());

  it("timestamp() inside 100,000 brackets: one hit on the argument", () => {
    const leaf = expr("timestamp()");
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.expr(nest("[x]", N, firstElement, leaf), ["input"], true, hits);
    expect(hits.map((h) => ({ fn: h.fn, node: h.node === leaf, path: h.path, via: h.via }))).toEqual([{ fn: "timestamp", node: true, path: ["input"], via: null }]);
  });

  it("timestamp() inside 100,000 objects: its path names every key", () => {
    const leaf = expr("uuid()");
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.expr(nest("{ a = x }", N, firstValue, leaf), ["tags"], true, hits);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.fn).toBe("uuid");
    expect(hits[0]!.path.length).toBe(N + 1);
    expect(hits[0]!.path[0]).toBe("tags");
    expect(hits[0]!.path.slice(1).every((k) => k === "a")).toBe(true);
  });

  it("a volatile call under 100,000 nested blocks, after the argument before them", () => {
    const blocks = body('nested {\n  before = uuid()\n}\n' + "nested {\n}\n".repeat(N - 1)).blocks;
    const leaf = body("nested {\n  input = timestamp()\n}\n").blocks[0]!;
    const all: Block[] = [...blocks, leaf];
    for (let i = 0; i < N; i++) (all[i]!.body as unknown as Writable).blocks = [all[i + 1]];
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.body({ attributes: [], blocks: [all[0]!] } as unknown as Body, [], hits);
    expect(hits.map((h) => [h.fn, h.path.length, h.path[h.path.length - 1]])).toEqual([
      ["uuid", 2, "before"],
      ["timestamp", N + 2, "input"],
    ]);
    expect(hits[1]!.path.slice(0, N + 1).every((p) => p === "nested")).toBe(true);
  });
});

describe(`version/distro-suffix's mentions, ${N} levels`, () => {
  const none = { has: (): boolean => false };

  it("the version through 100,000 nested for expressions reaches the result once", () => {
    const leaf = expr("var.kubernetes_version");
    const mentions = unstripped(nest("[for v in x : v]", N, field("collection"), leaf), none);
    expect(mentions).toEqual([{ range: leaf.range, via: null }]);
  });

  it("through 100,000 nested templates; a condition or a check on the way is no use", () => {
    const leaf = expr("var.kubernetes_version");
    const interp = (outer: Writable, inner: Expression): void => {
      ((outer.parts as TemplatePart[])[1] as unknown as Writable).expr = inner;
    };
    expect(unstripped(nest('"v${x}"', N, interp, leaf), none)).toEqual([{ range: leaf.range, via: null }]);
    expect(unstripped(nest("can(x)", N, onlyArg, leaf), none)).toEqual([]);
    expect(unstripped(nest("x ? 1 : 2", N, field("condition"), leaf), none)).toEqual([]);
  });
});

describe(`cluster/gate-on-initialized's connection check, ${N} levels`, () => {
  it("a host set in the 100,001st nested kubernetes block connects; none set does not", () => {
    const deep = (leafText: string): Body => {
      const blocks = body(Array.from({ length: N }, () => "kubernetes {\n}\n").join("")).blocks;
      const all: Block[] = [...blocks, body(leafText).blocks[0]!];
      for (let i = 0; i < N; i++) (all[i]!.body as unknown as Writable).blocks = [all[i + 1]];
      return { attributes: [], blocks: [all[0]!] } as unknown as Body;
    };
    expect(connects(deep('kubernetes {\n  host = "https://api"\n}\n'))).toBe(true);
    expect(connects(deep('kubernetes {\n  insecure = true\n}\n'))).toBe(false);
  });
});

describe(`module/provider-config's scan, ${N} levels`, () => {
  it("a literal password 100,000 objects deep is found, after a token set before it", () => {
    const leaf = expr('{ password = "hunter2" }');
    const provider = body('token = "abc"\nsettings = 1\n');
    (provider.attributes[1] as unknown as Writable).expr = nest("{ a = x }", N, firstValue, leaf);
    const hits: Hit[] = [];
    scanBody(provider, hits);
    expect(hits.map((h) => h.name)).toEqual(["token", "password"]);
    expect(hits[1]!.range).toEqual((leaf as unknown as { items: { range: unknown }[] }).items[0]!.range);
  });
});

describe(`machine/lb-registration-missing's command text, ${N} levels`, () => {
  it("reads the literal text of 100,000 nested %{ if } directives in order", () => {
    const levels = copies('"%{ if c }a%{ endif }"', N);
    const ifs = levels.map((t) => (t as unknown as { parts: Writable[] }).parts[0]!);
    for (let i = 0; i + 1 < N; i++) ifs[i]!.then = [...(ifs[i]!.then as TemplatePart[]), ifs[i + 1]];
    const text = commandText(levels[0]!);
    expect(text.length).toBe(N);
    expect(text).toBe("a".repeat(N));
  });
});

import { describe, expect, it } from "vitest";
import {
  collectCalls,
  collectRefs,
  constantValue,
  exprText,
  parseHcl,
  traversalText,
  walkExpression,
} from "../../src/hcl/index.js";
import { children, expressionKey, forEachChild, pushChildren, walkBlocks } from "../../src/hcl/walk.js";
import type { Expression, File } from "../../src/hcl/ast.js";

function parse(src: string): { file: File; expr: Expression } {
  const { file, diagnostics } = parseHcl(`a = ${src}\n`, "w.tf");
  expect(diagnostics.map((d) => d.summary)).toEqual([]);
  return { file, expr: file.body.attributes[0].expr };
}

function refs(src: string): string[] {
  return collectRefs(parse(src).expr).map((r) => traversalText(r.traversal));
}

describe("walkExpression", () => {
  it("visits every sub-expression in source order, template parts included", () => {
    const { expr } = parse('"x${f(var.a)}%{ if b }${c}%{ endif }" == [for k, v in m : { (k) = v } if v]');
    const kinds: string[] = [];
    walkExpression(expr, (e) => {
      kinds.push(e.kind);
    });
    expect(kinds).toEqual([
      "BinaryOp",
      "Template",
      "FunctionCall",
      "ScopeTraversal",
      "ScopeTraversal",
      "ScopeTraversal",
      "For",
      "ScopeTraversal",
      "ObjectCons",
      "Parentheses",
      "ScopeTraversal",
      "ScopeTraversal",
      "ScopeTraversal",
    ]);
  });

  it("skips children when the visitor returns false", () => {
    const { expr } = parse("f(g(x))");
    const names: string[] = [];
    walkExpression(expr, (e) => {
      if (e.kind === "FunctionCall") names.push(e.name);
      return false;
    });
    expect(names).toEqual(["f"]);
  });

  it("survives very deep expressions", () => {
    const src = "a = " + "(".repeat(200) + "x" + ")".repeat(200) + "\n";
    const { file } = parseHcl(src, "deep.tf");
    expect(collectRefs(file.body.attributes[0].expr).map((r) => traversalText(r.traversal))).toEqual(["x"]);
  });
});

describe("collectRefs and collectCalls", () => {
  it("collects references like HashiCorp's walker (bare object keys excluded)", () => {
    expect(refs("{ name = var.n, (local.k) = 1 }")).toEqual(["var.n", "local.k"]);
    expect(refs("[for x in var.l : x.id if x.on]")).toEqual(["var.l", "x.id", "x.on"]);
    expect(refs("var.list[*].id")).toEqual(["var.list"]);
    expect(refs('aws_instance.web[0].tags["Name"]')).toEqual(['aws_instance.web[0].tags["Name"]']);
    expect(refs("x.*.y")).toEqual(["x"]);
    expect(refs("m[var.k]")).toEqual(["m", "var.k"]);
  });

  it("collects calls, outer before inner, with ranges", () => {
    const calls = collectCalls(parse("max(length(var.a), provider::x::y(1))").expr);
    expect(calls.map((c) => [c.name, c.range.start.column, c.range.end.column])).toEqual([
      ["max", 5, 42],
      ["length", 9, 22],
      ["provider::x::y", 24, 41],
    ]);
  });
});

describe("traversalText", () => {
  it("writes attribute, index, string-key and legacy splat steps", () => {
    const { expr } = parse('a.b[0]["k\\"q"].c');
    if (expr.kind !== "ScopeTraversal") throw new Error("expected a traversal");
    expect(traversalText(expr.traversal)).toBe('a.b[0]["k\\"q"].c');
    expect(
      traversalText([
        { kind: "TraverseRoot", name: "x", range: expr.range },
        { kind: "TraverseSplat", range: expr.range },
        { kind: "TraverseIndex", key: 2.5, range: expr.range },
      ]),
    ).toBe("x.*[2.5]");
  });
});

describe("exprText", () => {
  it("returns the exact source slice, across lines", () => {
    const { file, expr } = parse('{\n  a = "x" # c\n}');
    expect(exprText(file, expr)).toBe('{\n  a = "x" # c\n}');
  });
});

describe("constantValue", () => {
  const cv = (src: string): unknown => constantValue(parse(src).expr);

  it("evaluates literals, collections and templates of constants", () => {
    expect(cv("1")).toEqual({ known: true, value: 1 });
    expect(cv('"a-${1 + 2}-${true}"')).toEqual({ known: true, value: "a-3-true" });
    expect(cv('[1, "x", null]')).toEqual({ known: true, value: [1, "x", null] });
    expect(cv('{ a = 1, "b" = [true], ("c") = {} }')).toEqual({ known: true, value: { a: 1, b: [true], c: {} } });
    expect(cv('"${"x"}"')).toEqual({ known: true, value: "x" });
    expect(cv('"%{ if true }y%{ else }n%{ endif }"')).toEqual({ known: true, value: "y" });
  });

  it("evaluates operators, parentheses and conditionals on constants", () => {
    expect(cv("(2 + 3) * 4 % 7")).toEqual({ known: true, value: 6 });
    expect(cv("-5 < 2 && !false")).toEqual({ known: true, value: true });
    expect(cv('[1, 2] == [1, 2] ? "same" : "diff"')).toEqual({ known: true, value: "same" });
    expect(cv('"10" > 9')).toEqual({ known: true, value: true });
  });

  it("is unknown for references, function calls and errors", () => {
    expect(cv("var.x")).toEqual({ known: false });
    expect(cv("length([])")).toEqual({ known: false });
    expect(cv('"a-${var.x}"')).toEqual({ known: false });
    expect(cv("1 / 0")).toEqual({ known: false });
    expect(cv('"x" + 1')).toEqual({ known: false });
    expect(cv('{ (var.k) = 1 }')).toEqual({ known: false });
  });
});

describe("the children of an expression", () => {
  // Every kind with children, bare and computed object keys, a splat, and
  // template directives nested in each other.
  const SRC =
    '[for k, v in m : { name = v.a[0], (k) = -x } if v != null][0] + f(a.*.id, (b ? c : "d${e}%{ for i in l }%{ if i }${i}%{ else }z%{ endif }%{ endfor }"))';

  /** Every node's children as `children` lists them, pre-order. */
  function childLists(expr: Expression, includeBareKeys: boolean, list: (e: Expression) => Expression[]): string[] {
    const out: string[] = [];
    walkExpression(expr, (e) => {
      out.push(`${e.kind}: ${list(e).map((c) => c.kind).join(" ")}`);
    }, includeBareKeys);
    return out;
  }

  it("forEachChild, children and pushChildren agree, in source order", () => {
    const { expr } = parse(SRC);
    for (const bare of [true, false]) {
      const viaChildren = childLists(expr, bare, (e) => children(e, bare));
      const viaForEach = childLists(expr, bare, (e) => {
        const got: Expression[] = [];
        forEachChild(e, (c, list: Expression[]) => list.push(c), got, undefined, bare);
        return got;
      });
      const viaPush = childLists(expr, bare, (e) => {
        const stack: (Expression | null)[] = [null];
        pushChildren(e, stack, bare);
        // Popped one by one: source order; the caller's marker stays below.
        const got: Expression[] = [];
        while (stack.length > 1) got.push(stack.pop()!);
        expect(stack).toEqual([null]);
        return got;
      });
      expect(viaForEach).toEqual(viaChildren);
      expect(viaPush).toEqual(viaChildren);
    }
    const template = children(children(children(children(expr, false)[1]!)[1]!)[0]!)[2]!;
    expect(template.kind).toBe("Template");
    expect(children(template).map((c) => exprText(parse(SRC).file, c))).toEqual(["e", "l", "i", "i"]);
    const object = children(children(children(expr)[0]!)[0]!)[1]!;
    expect(object.kind).toBe("ObjectCons");
    expect(children(object, true).map((c) => c.kind)).toEqual(["ScopeTraversal", "ScopeTraversal", "Parentheses", "UnaryOp"]);
    expect(children(object, false).map((c) => c.kind)).toEqual(["ScopeTraversal", "Parentheses", "UnaryOp"]);
  });

  it("forEachChild may be called again from its callback, and recovers from a throw", () => {
    const { expr } = parse("f(g(x, y), h(z))");
    const seen: string[] = [];
    const visit = (e: Expression): void => {
      seen.push(e.kind === "FunctionCall" ? e.name : e.kind === "ScopeTraversal" ? traversalText(e.traversal) : e.kind);
      forEachChild(e, visit, undefined, undefined);
    };
    visit(expr);
    expect(seen).toEqual(["f", "g", "x", "y", "h", "z"]);
    expect(() =>
      forEachChild(expr, (c) => {
        if (c.kind === "FunctionCall" && c.name === "h") throw new Error("stop");
      }, undefined, undefined),
    ).toThrow("stop");
    const after: string[] = [];
    forEachChild(expr, (c) => void after.push(c.kind === "FunctionCall" ? c.name : c.kind), undefined, undefined);
    expect(after).toEqual(["g", "h"]);
  });
});

describe("walkBlocks", () => {
  const SRC = `a {
  b {
    c {}
  }
  d {
    e {}
  }
}
f {
  g {}
}
`;

  it("visits blocks depth first in source order, with the level, into the bodies returned", () => {
    const { file, diagnostics } = parseHcl(SRC, "b.tf");
    expect(diagnostics).toEqual([]);
    const seen: string[] = [];
    walkBlocks(file.body, (block, level) => {
      seen.push(`${block.type}${level}`);
      return [block.body];
    });
    expect(seen).toEqual(["a0", "b1", "c2", "d1", "e2", "f0", "g1"]);
  });

  it("passes over what a block holds when no body is returned, and reads other bodies in their order", () => {
    const { file } = parseHcl(SRC, "b.tf");
    const seen: string[] = [];
    walkBlocks(file.body, (block) => {
      seen.push(block.type);
      if (block.type === "a") return [block.body.blocks[1]!.body, block.body.blocks[0]!.body];
      return block.type === "f" ? [] : [block.body];
    });
    expect(seen).toEqual(["a", "e", "c", "f"]);
  });

  it("survives blocks nested 100,000 deep", () => {
    const depth = 100_000;
    const { file } = parseHcl("x {\n".repeat(depth) + "}\n".repeat(depth), "deep.tf");
    let count = 0;
    let deepest = 0;
    walkBlocks(file.body, (block, level) => {
      count++;
      deepest = Math.max(deepest, level);
      return [block.body];
    });
    expect(count).toBe(depth);
    expect(deepest).toBe(depth - 1);
  });
});

describe("expressionKey", () => {
  it("joins the keys of every compared kind's children in source order", () => {
    expect(expressionKey(parse('(g(a, b...)).c[k] == (p ? -d : [e, "x-${y}", !f])').expr)).toBe(
      '((g(a,b...)).c[k]==?(p,-(d),[e,tpl("x-"$;y),!(f)]))',
    );
  });
});

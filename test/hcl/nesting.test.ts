/**
 * The parsers take any nesting depth on a normal stack: brackets, blocks,
 * templates, and the chains that nest the tree without brackets (operators,
 * conditionals, splats, indexes) parse 100,000 levels deep with no
 * diagnostic, into a tree as deep as the input, and a syntax error at the
 * innermost level is reported where it is. Vitest runs this file in a
 * child process (pool "forks") whose main thread has Node's default stack.
 * Every walk here is iterative: the trees are far deeper than the stack.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { parseExpressionAt, parseTemplateAt } from "../../src/hcl/parser.js";
import type { Block, Diagnostic, Expression, Range, TemplatePart } from "../../src/hcl/ast.js";
import { children } from "../../src/hcl/walk.js";

const N = 100_000;

function brief(d: Diagnostic): string {
  const s = d.subject;
  return `${d.summary} @ ${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}`;
}

function at(r: Range): string {
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

type Item = Expression | TemplatePart;

/** The sub-nodes of an expression or template part (template directives included). */
function kids(x: Item): Item[] {
  switch (x.kind) {
    case "Template":
      return x.parts;
    case "TemplateLiteral":
      return [];
    case "TemplateInterp":
      return [x.expr];
    case "TemplateIf":
      return [x.condition, ...x.then, ...(x.else ?? [])];
    case "TemplateFor":
      return [x.collection, ...x.body];
    default:
      return children(x);
  }
}

/** The depth of a tree and its first deepest node, iteratively. */
function deepest(root: Item): { depth: number; node: Item } {
  let best = { depth: 0, node: root };
  const stack: [Item, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > best.depth) best = { depth: d, node: x };
    const ks = kids(x);
    for (let i = ks.length - 1; i >= 0; i--) stack.push([ks[i]!, d + 1]);
  }
  return best;
}

function onlyAttr(text: string): Expression {
  const r = parseHcl(text, "main.tf");
  expect(r.diagnostics.map(brief)).toEqual([]);
  expect(r.file.body.attributes.map((a) => a.name)).toEqual(["a"]);
  return r.file.body.attributes[0]!.expr;
}

describe("100,000 levels of every kind of nesting parse with no diagnostic", () => {
  // [name, text of `a = ...`, tree depth, kind and range of the innermost node]
  const cases: [string, string, number, string, string][] = [
    ["tuples", "[".repeat(N) + "]".repeat(N), N, "TupleCons", `1:${4 + N}-1:${6 + N}`],
    ["parentheses", "(".repeat(N) + "1" + ")".repeat(N), N + 1, "LiteralValue", `1:${5 + N}-1:${6 + N}`],
    // (the first deepest node: the key of the innermost object)
    ["objects", "{ a = ".repeat(N) + "1" + " }".repeat(N), N + 1, "ScopeTraversal", `1:${1 + 6 * N}-1:${2 + 6 * N}`],
    // (keys that nest: at the native limit a key is deferred like a value, a bare name is not)
    ["objects with parenthesized keys", "{ (k) = ".repeat(N) + "1" + " }".repeat(N), N + 2, "ScopeTraversal", `1:${8 * N}-1:${8 * N + 1}`],
    ["calls", "max(".repeat(N) + "1" + ")".repeat(N), N + 1, "LiteralValue", `1:${5 + 4 * N}-1:${6 + 4 * N}`],
    ["interpolations", '"${'.repeat(N) + "1" + '}"'.repeat(N), N + 1, "LiteralValue", `1:${5 + 3 * N}-1:${6 + 3 * N}`],
    ["sums", "1 + ".repeat(N) + "1", N + 1, "LiteralValue", "1:5-1:6"],
    ["conditionals (false arm)", "x ? 1 : ".repeat(N) + "2", N + 1, "ScopeTraversal", `1:${8 * N - 3}-1:${8 * N - 2}`],
    ["conditionals (true arm)", "x ? ".repeat(N) + "1" + " : 2".repeat(N), N + 1, "ScopeTraversal", `1:${4 * N + 1}-1:${4 * N + 2}`],
    ["negations", "!".repeat(N) + "x", N + 1, "ScopeTraversal", `1:${5 + N}-1:${6 + N}`],
    ["minus signs", "- ".repeat(N) + "1", N + 1, "LiteralValue", `1:${5 + 2 * N}-1:${6 + 2 * N}`],
    ["list for expressions", "[for x in ".repeat(N) + "y" + " : x]".repeat(N), N + 1, "ScopeTraversal", `1:${5 + 10 * N}-1:${6 + 10 * N}`],
    ["object for expressions", "{for k, v in ".repeat(N) + "y" + " : k => v}".repeat(N), N + 1, "ScopeTraversal", `1:${5 + 13 * N}-1:${6 + 13 * N}`],
    // (the source of the innermost splat: the item of the one around it)
    ["full splats", "x" + "[*].y".repeat(N), N + 2, "AnonSymbol", `1:${5 * N - 4}-1:${5 * N - 1}`],
    ["indexes", "x" + "[i]".repeat(N), N + 1, "ScopeTraversal", "1:5-1:6"],
    ["heredocs in interpolations", "<<EOT\n${".repeat(N) + "x" + "}\nEOT\n".repeat(N).slice(0, -1), 2 * N + 1, "ScopeTraversal", `${N + 1}:3-${N + 1}:4`],
  ];
  for (const [what, expr, depth, kind, range] of cases) {
    it(what, () => {
      const e = onlyAttr("a = " + expr + "\n");
      const d = deepest(e);
      expect(d.depth).toBe(depth);
      expect(d.node.kind).toBe(kind);
      expect(at(d.node.range)).toBe(range);
    });
  }

  it("template if directives", () => {
    const e = onlyAttr('a = "' + "%{ if x }".repeat(N) + "y" + "%{ endif }".repeat(N) + '"\n');
    const d = deepest(e);
    expect(d.depth).toBe(N + 2);
    expect(d.node.kind).toBe("ScopeTraversal");
    expect(at(d.node.range)).toBe(`1:${9 * N + 3}-1:${9 * N + 4}`);
  });

  it("a traversal of 100,000 steps stays one node (attributes, indexes, after a call)", () => {
    const t = onlyAttr("a = x" + "[0]".repeat(N) + ".y\n");
    expect(t.kind === "ScopeTraversal" && t.traversal.length).toBe(N + 2);
    const c = onlyAttr("a = f()" + "[0]".repeat(N) + "\n");
    expect(c.kind === "RelativeTraversal" && c.traversal.length).toBe(N);
    expect(c.kind === "RelativeTraversal" && c.source.kind).toBe("FunctionCall");
    const s = onlyAttr("a = x.*.y" + ".z".repeat(N) + "\n");
    expect(s.kind).toBe("Splat");
  });

  it("100,000 nested blocks", () => {
    const r = parseHcl("a {\n".repeat(N) + "b = 1\n" + "}\n".repeat(N), "main.tf");
    expect(r.diagnostics).toEqual([]);
    let block: Block = r.file.body.blocks[0]!;
    let levels = 1;
    while (block.body.blocks.length > 0) {
      block = block.body.blocks[0]!;
      levels++;
    }
    expect(levels).toBe(N);
    expect(block.body.attributes.map((x) => [x.name, at(x.range)])).toEqual([["b", `${N + 1}:1-${N + 1}:6`]]);
    expect(at(block.range)).toBe(`${N}:1-${N + 2}:2`);
  });
});

describe("a syntax error 100,000 levels deep is reported where it is", () => {
  const cases: [string, string, string[]][] = [
    ["in a tuple", "a = " + "[".repeat(N) + "1 2" + "]".repeat(N) + "\n", [`Missing item separator @ 1:${7 + N}-1:${8 + N}`]],
    ["in parentheses", "a = " + "(".repeat(N) + "1 +" + ")".repeat(N) + "\n", [`Invalid expression @ 1:${8 + N}-1:${9 + N}`]],
    ["in an object", "a = " + "{ a = ".repeat(N) + "1 1" + " }".repeat(N) + "\n", [`Missing attribute separator @ 1:${7 + 6 * N}-1:${8 + 6 * N}`]],
    ["in a template", "a = " + '"${'.repeat(N) + "1 :" + '}"'.repeat(N) + "\n", [`Extra characters after interpolation expression @ 1:${7 + 3 * N}-1:${8 + 3 * N}`]],
    ["unclosed", "a = " + "[".repeat(N), [`Missing expression @ 1:${5 + N}-1:${5 + N}`]],
    ["in a block", "a {\n".repeat(N) + "b = = 1\n" + "}\n".repeat(N), [`Invalid expression @ ${N + 1}:5-${N + 1}:6`]],
    ["a block left open", "a {\n".repeat(N), [`Unclosed configuration block @ ${N}:3-${N}:4`]],
  ];
  for (const [what, text, expected] of cases) {
    it(what, () => {
      expect(parseHcl(text, "main.tf").diagnostics.map(brief)).toEqual(expected);
    });
  }

  it("the items after a deep error are still read", () => {
    const r = parseHcl("a = " + "[".repeat(N) + "1 2" + "]".repeat(N) + "\nb = 2\nc {\n}\n", "main.tf");
    expect(r.diagnostics.map(brief)).toEqual([`Missing item separator @ 1:${7 + N}-1:${8 + N}`]);
    expect(r.file.body.attributes.map((x) => x.name)).toEqual(["a", "b"]);
    expect(r.file.body.blocks.map((x) => x.type)).toEqual(["c"]);
  });

  it("errors at many deep places keep their order", () => {
    // An invalid escape does not put the parser in recovery mode: each one is reported.
    const deepBad = (k: number): string => "[".repeat(300) + `"\\q${k}"` + "]".repeat(300);
    const wheres = (text: string): string[] => {
      const out: string[] = [];
      const lines = text.split("\n");
      lines.forEach((l, i) => {
        for (let c = l.indexOf("\\q"); c >= 0; c = l.indexOf("\\q", c + 1)) out.push(`Invalid escape sequence @ ${i + 1}:${c + 1}-${i + 1}:${c + 3}`);
      });
      return out;
    };
    const one = "a = [" + [1, 2, 3].map(deepBad).join(", ") + "]\n";
    expect(parseHcl(one, "main.tf").diagnostics.map(brief)).toEqual(wheres(one));
    const three = [1, 2, 3].map((k) => `a${k} = ${deepBad(k)}`).join("\n") + "\n";
    expect(parseHcl(three, "main.tf").diagnostics.map(brief)).toEqual(wheres(three));
    expect(wheres(three)).toHaveLength(3);
  });
});

/**
 * Blocks nested on one line, which HCL rejects: the parser reports the first
 * problem and keeps what HashiCorp's parser keeps. The expected diagnostics
 * and tree follow from the shape of the text, the same for 1,000 levels
 * (what the parser gave before nested one-line blocks parsed in linear
 * time) as for 100,000.
 */
describe("nested one-line blocks", () => {
  const NESTED_BLOCK = (type: string): string =>
    `A block written on one line can hold only a single argument. Move the nested block "${type}" to its own line inside the parent block (or, for an argument, add \`=\`).`;
  const SECOND_ITEM =
    "A block opened and closed on one line may hold only one argument. Put each argument or nested block on its own line, with the closing brace on a line of its own.";

  function full(d: Diagnostic): string[] {
    return [d.summary, d.detail, at(d.subject), d.code ?? "", d.block === undefined ? "" : at(d.block.range)];
  }

  interface Shape {
    diags: string[][];
    attrs: string[];
    /** The top-level blocks: type, labels, range, one line, body range, its attributes, its blocks. */
    blocks: [string, string[], string, boolean, string, string[], string[]][];
  }

  function shape(text: string): Shape {
    const r = parseHcl(text, "main.tf");
    const b = r.file.body;
    return {
      diags: r.diagnostics.map(full),
      attrs: b.attributes.map((a) => `${a.name} ${at(a.range)}`),
      blocks: b.blocks.map((x) => [
        x.type,
        x.labels,
        at(x.range),
        x.singleLine,
        at(x.body.range),
        x.body.attributes.map((a) => `${a.name} ${at(a.range)}`),
        x.body.blocks.map((y) => `${y.type} ${at(y.range)}`),
      ]),
    };
  }

  for (const n of [1000, N]) {
    it(`${n} levels: the first nested block is reported, the rest of the line is skipped as HCL skips it`, () => {
      // The parse resumes after the line's end: the items that follow are lost, as in HashiCorp's parser.
      expect(shape("a { ".repeat(n) + "b = 1" + " }".repeat(n) + "\nz = 1\nq {\n}\n")).toEqual({
        diags: [["Argument definition required", NESTED_BLOCK("a"), "1:5-1:8", "one-line-block", "1:1-5:1"]],
        attrs: [],
        blocks: [["a", [], "1:1-5:1", false, "1:4-5:1", [], []]],
      });
      expect(shape('a "x" { '.repeat(n) + "b = 1" + " }".repeat(n) + "\n")).toEqual({
        diags: [["Argument definition required", NESTED_BLOCK("a"), "1:9-1:12", "one-line-block", "1:1-2:1"]],
        attrs: [],
        blocks: [["a", ["x"], "1:1-2:1", false, "1:8-2:1", [], []]],
      });
    });

    it(`${n} levels inside a multi-line block`, () => {
      expect(shape("x {\n" + "a { ".repeat(n) + "b = 1" + " }".repeat(n) + "\n}\n")).toEqual({
        diags: [["Argument definition required", NESTED_BLOCK("a"), "2:5-2:8", "one-line-block", "2:1-3:2"]],
        attrs: [],
        blocks: [["x", [], "1:1-4:1", false, "1:4-4:1", [], ["a 2:1-3:2"]]],
      });
    });

    it(`${n} levels with an argument before each nested block: the block keeps its first argument and the next line is read`, () => {
      const end = 12 * n + 6;
      expect(shape("a { k = 1 ".repeat(n) + "b = 1" + " }".repeat(n) + "\nz = 1\n")).toEqual({
        diags: [["Invalid single-argument block definition", SECOND_ITEM, "1:11-1:12", "one-line-block", `1:1-1:${end}`]],
        attrs: ["z 2:1-2:6"],
        blocks: [["a", [], `1:1-1:${end}`, true, `1:4-1:${end - 1}`, ["k 1:5-1:10"], []]],
      });
    });
  }
});

describe("standalone expressions and templates (the language server, JSON strings)", () => {
  it("parseExpressionAt takes 100,000 levels", () => {
    const r = parseExpressionAt("[".repeat(N) + "(1)" + "]".repeat(N), "x.tf");
    expect(r.diagnostics).toEqual([]);
    const d = deepest(r.expr);
    expect(d.depth).toBe(N + 2);
    expect(at(d.node.range)).toBe(`1:${N + 2}-1:${N + 3}`);
    const bad = parseExpressionAt("(".repeat(N) + "1 +" + ")".repeat(N), "x.tf");
    expect(bad.diagnostics.map(brief)).toEqual([`Invalid expression @ 1:${N + 4}-1:${N + 5}`]);
  });

  it("parseTemplateAt takes 100,000 levels, with positions from a base", () => {
    const r = parseTemplateAt("x${" + '"${'.repeat(N) + "y" + '}"'.repeat(N) + "}", "x.tf", { line: 3, column: 10, offset: 40 });
    expect(r.diagnostics).toEqual([]);
    const d = deepest(r.expr);
    expect(d.depth).toBe(N + 3);
    expect(d.node.kind).toBe("ScopeTraversal");
    expect(at(d.node.range)).toBe(`3:${13 + 3 * N}-3:${14 + 3 * N}`);
    const ifs = parseTemplateAt("%{ if a }".repeat(N) + "%{ endif }".repeat(N - 1), "x.tf");
    expect(ifs.diagnostics.map(brief)).toEqual([`Unexpected end of template @ 1:${1 + 9 * N + 10 * (N - 1)}-1:${1 + 9 * N + 10 * (N - 1)}`]);
  });
});

describe(".tf.json files 100,000 levels deep", () => {
  function onlyLocal(text: string): Expression {
    const r = parseHcl(text, "main.tf.json");
    expect(r.diagnostics.map(brief)).toEqual([]);
    const locals = r.file.body.blocks[0]!;
    expect(locals.type).toBe("locals");
    return locals.body.attributes[0]!.expr;
  }

  it("arrays", () => {
    const e = onlyLocal('{"locals": {"a": ' + "[".repeat(N) + "1" + "]".repeat(N) + "}}");
    const d = deepest(e);
    expect(d.depth).toBe(N + 1);
    expect(d.node.kind).toBe("LiteralValue");
    expect(at(d.node.range)).toBe(`1:${18 + N}-1:${19 + N}`);
  });

  it("objects (keys are templates)", () => {
    const e = onlyLocal('{"locals": {"a": ' + '{"b": '.repeat(N) + "true" + "}".repeat(N) + "}}");
    const d = deepest(e);
    // The innermost object's key template and its literal text are one level deeper than its value.
    expect(d.depth).toBe(N + 2);
    expect(d.node.kind).toBe("TemplateLiteral");
    expect(at(d.node.range)).toBe(`1:${14 + 6 * N}-1:${15 + 6 * N}`);
  });

  it("a string holding an expression 100,000 levels deep, plain and with escapes", () => {
    const plain = onlyLocal('{"locals": {"a": "${' + "(".repeat(N) + "x" + ")".repeat(N) + '}"}}');
    let d = deepest(plain);
    expect(d.depth).toBe(N + 2);
    expect(d.node.kind).toBe("ScopeTraversal");
    expect(at(d.node.range)).toBe(`1:${21 + N}-1:${22 + N}`);
    // Escaped quotes: the positions are mapped back through the escapes.
    const escaped = onlyLocal('{"locals": {"a": "' + '${\\"'.repeat(N) + "x" + '\\"}'.repeat(N) + '"}}');
    d = deepest(escaped);
    // (the innermost `\"x\"` is a quoted string: a template holding the literal x)
    expect(d.depth).toBe(N + 2);
    expect(d.node.kind).toBe("TemplateLiteral");
    expect(at(d.node.range)).toBe(`1:${19 + 4 * N}-1:${20 + 4 * N}`);
  });

  it("dynamic blocks nested 10,000 deep", () => {
    const n = 10_000;
    const text = '{"resource": {"t": {"n": ' + '{"dynamic": {"d": {"content": '.repeat(n) + '{"x": 1}' + "}}}".repeat(n) + "}}}";
    const r = parseHcl(text, "main.tf.json");
    expect(r.diagnostics).toEqual([]);
    let block: Block = r.file.body.blocks[0]!;
    let levels = 0;
    while (block.body.blocks.length > 0) {
      block = block.body.blocks[0]!.body.blocks[0]!;
      levels++;
    }
    expect(levels).toBe(n);
    expect(block.type).toBe("content");
    expect(block.body.attributes.map((x) => [x.name, at(x.range)])).toEqual([["x", `1:${27 + 30 * n}-1:${33 + 30 * n}`]]);
  });

  it("an error 100,000 levels deep is reported where it is", () => {
    const r = parseHcl('{"locals": {"a": ' + "[".repeat(N) + "1 2" + "]".repeat(N) + "}}", "main.tf.json");
    expect(r.diagnostics.map(brief)).toEqual([`Missing array element separator comma @ 1:${20 + N}-1:${21 + N}`]);
  });
});

describe("the native stack a parse needs does not grow with the nesting", () => {
  it("100,000 levels of each kind parse in a process with a 300 KB stack (the built library)", () => {
    // Node's default main-thread stack is about 1 MB; a parse fits in far less.
    const lib = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/index.js")).href;
    const script = `
      const { parseHcl } = await import(${JSON.stringify(lib)});
      const n = 100000;
      const texts = [
        "a = " + "[".repeat(n) + "]".repeat(n) + "\\n",
        "a = " + "max(".repeat(n) + "1" + ")".repeat(n) + "\\n",
        "a = " + "{ a = ".repeat(n) + "1" + " }".repeat(n) + "\\n",
        "a = " + "x ? 1 : ".repeat(n) + "2\\n",
        "a = " + "<<EOT\\n\${".repeat(n) + "x" + "}\\nEOT\\n".repeat(n),
        "a {\\n".repeat(n) + "}\\n".repeat(n),
      ];
      const out = texts.map((t) => parseHcl(t, "main.tf").diagnostics.length);
      out.push(parseHcl('{"locals": {"a": ' + "[".repeat(n) + "]".repeat(n) + "}}", "main.tf.json").diagnostics.length);
      process.stdout.write(JSON.stringify(out));
    `;
    const r = spawnSync(process.execPath, ["--stack-size=300", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("[0,0,0,0,0,0,0]");
    expect(r.status).toBe(0);
  });

  it("many deep items in one list, call, object and body, each deeper than the stack takes", () => {
    const m = 500;
    const d = 300;
    const item = (k: number): string => "[".repeat(d) + String(k) + "]".repeat(d);
    const texts = [
      "a = [" + Array.from({ length: m }, (_, k) => item(k)).join(", ") + "]\n",
      "a = f(" + Array.from({ length: m }, (_, k) => item(k)).join(",\n") + ")\n",
      "a = {\n" + Array.from({ length: m }, (_, k) => `k${k} = ${item(k)}`).join("\n") + "\n}\n",
      "b {\n" + Array.from({ length: m }, (_, k) => `k${k} = ${item(k)}`).join("\n") + "\n}\n",
      'a = "' + Array.from({ length: m }, (_, k) => "${" + item(k) + "}").join("-") + '"\n',
    ];
    const innermost: string[][] = [];
    for (const text of texts) {
      const r = parseHcl(text, "main.tf");
      expect(r.diagnostics).toEqual([]);
      const root = r.file.body.blocks.length > 0 ? r.file.body.blocks[0]!.body.attributes.map((a) => a.expr) : [r.file.body.attributes[0]!.expr];
      const values: string[] = [];
      for (const e of root) {
        // every item: d levels of lists around its number
        const stack: [Item, number][] = [[e, 0]];
        while (stack.length > 0) {
          const [x, lv] = stack.pop()!;
          if (x.kind === "LiteralValue") values.push(`${x.value}@${lv}`);
          const ks = kids(x);
          for (let i = ks.length - 1; i >= 0; i--) stack.push([ks[i]!, lv + (x.kind === "TupleCons" ? 1 : 0)]);
        }
      }
      innermost.push(values);
    }
    const expected = Array.from({ length: m }, (_, k) => `${k}@${d}`);
    // (in the first text the items are in one more list)
    expect(innermost[0]).toEqual(Array.from({ length: m }, (_, k) => `${k}@${d + 1}`));
    expect(innermost[1]).toEqual(expected);
    expect(innermost[3]).toEqual(expected);
    // (the object's keys are traversals, not literals)
    expect(innermost[2]).toEqual(expected);
    expect(innermost[4]).toEqual(expected);
  });

  it("an indented heredoc around deep interpolations keeps its indentation removed once", () => {
    const d = 300;
    const lines = Array.from({ length: 50 }, (_, k) => `    v${k} \${${"[".repeat(d)}${k}${"]".repeat(d)}}`);
    const r = parseHcl("a = " + "(".repeat(200) + "<<-EOT\n" + lines.join("\n") + "\n  EOT\n" + ")".repeat(200) + "\n", "main.tf");
    expect(r.diagnostics).toEqual([]);
    let e: Expression = r.file.body.attributes[0]!.expr;
    while (e.kind === "Parentheses") e = e.expr;
    expect(e.kind).toBe("Template");
    const texts = e.kind === "Template" ? e.parts.filter((x) => x.kind === "TemplateLiteral").map((x) => x.kind === "TemplateLiteral" && x.value) : [];
    // The lines' common indentation (four spaces) is removed from each line once.
    expect(texts).toEqual(Array.from({ length: 50 }, (_, k) => [`v${k} `, "\n"]).flat());
  });
});

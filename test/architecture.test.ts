/**
 * The layer rule of ARCHITECTURE.md, read from the code: every import of
 * `src/` and `rules/` points down (or stays in its own layer), and the only
 * import circle is the parser's expression <-> template recursion. Also read
 * from the code: no function outside the lexer and the parser is longer than
 * 150 lines, and no module holds the rule catalogue in a mutable binding
 * (each config's catalogue is a value passed down).
 *
 * Imports are read from the text: `import ... from "./x.js"`, `export ...
 * from "./x.js"`, `import type`, and `import("./x.js")` with a literal
 * specifier. Type-only imports count: a type is knowledge of the layer too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The layers, lowest first; a file belongs to the first layer one of whose
 * prefixes its path starts with. A file may import its own layer and the
 * layers below it.
 */
const LAYERS: readonly { name: string; prefixes: readonly string[] }[] = [
  { name: "syntax", prefixes: ["src/hcl/"] },
  { name: "terraform", prefixes: ["src/terraform/"] },
  { name: "contract", prefixes: ["src/contract/"] },
  { name: "analysis", prefixes: ["src/analysis/"] },
  { name: "lint", prefixes: ["src/lint/"] },
  { name: "rules", prefixes: ["rules/", "src/catalogue.ts"] },
  { name: "config and report", prefixes: ["src/config/", "src/report/"] },
  { name: "library", prefixes: ["src/index.ts", "src/testing.ts", "src/api.ts"] },
  { name: "image", prefixes: ["src/image/"] },
  { name: "commands", prefixes: ["src/cli/", "src/lsp/"] },
];

/** The one circle the design keeps: an expression holds templates, a template holds expressions. */
const ALLOWED_CIRCLES: readonly string[] = ["src/hcl/parser-expr.ts <-> src/hcl/parser-template.ts"];

/**
 * Known exceptions still to remove, each with why it is there. Every entry
 * must still be found, so whoever removes one deletes it here; nothing may be
 * added.
 */
const PENDING_UPWARD: readonly string[] = [];
const PENDING_CIRCLES: readonly string[] = [];

export type ImportGraph = Map<string, string[]>;

const IMPORT = /^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** The relative imports of one file's text, as repository paths of `.ts` sources (or `.js` files that exist as such). */
export function importsOf(file: string, text: string, exists: (p: string) => boolean): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith(".")) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    const ts = target.replace(/\.js$/, ".ts");
    out.add(exists(ts) ? ts : target);
  }
  return [...out].sort();
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${e}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|js|mjs)$/.test(e) && !e.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

function readGraph(): ImportGraph {
  const graph: ImportGraph = new Map();
  const exists = (p: string): boolean => {
    try {
      return statSync(path.join(ROOT, p)).isFile();
    } catch {
      return false;
    }
  };
  for (const f of [...sourceFiles("src"), ...sourceFiles("rules")].sort()) {
    graph.set(f, importsOf(f, readFileSync(path.join(ROOT, f), "utf8"), exists));
  }
  return graph;
}

/** The index of `file`'s layer, or -1. */
export function layerOf(file: string, layers = LAYERS): number {
  return layers.findIndex((l) => l.prefixes.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p)));
}

/** Every import that runs up a layer, as "from -> to". */
export function upwardImports(graph: ImportGraph, layers = LAYERS): string[] {
  const out: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      if (!graph.has(to)) continue;
      if (layerOf(to, layers) > layerOf(from, layers)) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

/** The import circles (strongly connected groups of two or more files, or a file importing itself), each as "a <-> b <-> ...", sorted. */
export function circles(graph: ImportGraph): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(group.sort().join(" <-> "));
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort();
}

describe("the layer checker", () => {
  const small: ImportGraph = new Map([
    ["src/hcl/a.ts", ["src/terraform/b.ts"]],
    ["src/terraform/b.ts", ["src/hcl/a.ts", "src/hcl/c.ts"]],
    ["src/hcl/c.ts", ["src/hcl/d.ts"]],
    ["src/hcl/d.ts", ["src/hcl/c.ts"]],
    ["src/lint/e.ts", ["src/lint/e.ts", "src/hcl/a.ts"]],
  ]);

  it("reads imports, re-exports, type imports and literal dynamic imports, relative only", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../terraform/b.js";',
      'export { c } from "./c.js";',
      "import {\n  d,\n  e,\n} from './d.js';",
      'const m = await import("../lint/e.js");',
      'import * as path from "node:path";',
      'const s = "import x from \\"./not-at-line-start.js\\"";',
    ].join("\n");
    const known = new Set(["src/hcl/a.ts", "src/terraform/b.ts", "src/hcl/c.ts", "src/hcl/d.ts", "src/lint/e.ts"]);
    expect(importsOf("src/hcl/x.ts", text, (p) => known.has(p))).toEqual(["src/hcl/a.ts", "src/hcl/c.ts", "src/hcl/d.ts", "src/lint/e.ts", "src/terraform/b.ts"]);
  });

  it("finds an import up a layer and every circle", () => {
    expect(upwardImports(small)).toEqual(["src/hcl/a.ts -> src/terraform/b.ts"]);
    expect(circles(small)).toEqual(["src/hcl/a.ts <-> src/terraform/b.ts", "src/hcl/c.ts <-> src/hcl/d.ts", "src/lint/e.ts"]);
  });
});

describe("the house (src/ and rules/)", () => {
  const graph = readGraph();

  it("puts every source file in a layer", () => {
    expect([...graph.keys()].filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it("has no import that runs up a layer, beyond those other branches remove", () => {
    expect(upwardImports(graph)).toEqual([...PENDING_UPWARD].sort());
  });

  it("has no import circle but the parser's expression <-> template recursion (and those other branches remove)", () => {
    expect(circles(graph)).toEqual([...ALLOWED_CIRCLES, ...PENDING_CIRCLES].sort());
  });
});

/** The longest a function may be, in lines from its first token to its last (nested functions included). */
const MAX_FUNCTION_LINES = 150;

/** The lexer and the parser: one long loop over tokens, one function per grammar production, exempt. */
const LONG_FUNCTIONS_ALLOWED = (file: string): boolean => file === "src/hcl/lexer.ts" || /^src\/hcl\/parser(-[a-z]+)?\.ts$/.test(file);

const trees = new Map<string, ts.SourceFile>();

/** The syntax tree of `text` (read once per file and text). */
function parsed(file: string, text: string): ts.SourceFile {
  let sf = trees.get(file);
  if (sf?.text !== text) trees.set(file, (sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)));
  return sf!;
}

/** How a function is called in a message: its name, or what it is assigned to. */
function functionName(fn: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(sf);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sf);
  if (ts.isConstructorDeclaration(fn)) return "constructor";
  return "(anonymous)";
}

/** Every function of `text` (declarations, methods, accessors, constructors, arrows, expressions) longer than `max` lines, as "file:line name (N lines)". */
export function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  const sf = parsed(file, text);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) out.push(`${file}:${first + 1} ${functionName(node, sf)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The types a rule catalogue is held in: a catalogue, a rule, a list of rules. */
const CATALOGUE_WORDS = /\b(?:RuleCatalogue|RuleDefinition|BUILTIN_CATALOGUE|REGISTRY|ALL_RULES)\b|Catalogue\b/;

/**
 * The module-level mutable bindings (`let`, `var`) of `text` that are
 * exported or that hold a rule catalogue or rules (by their type or their
 * initial value), as "file:line name".
 */
export function mutableCatalogueBindings(file: string, text: string): string[] {
  const sf = parsed(file, text);
  const out: string[] = [];
  for (const s of sf.statements) {
    if (!ts.isVariableStatement(s) || s.declarationList.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using)) continue;
    const exported = s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
    for (const d of s.declarationList.declarations) {
      const typed = `${d.type?.getText(sf) ?? ""} ${d.initializer?.getText(sf) ?? ""}`;
      if (exported || CATALOGUE_WORDS.test(typed)) out.push(`${file}:${sf.getLineAndCharacterOfPosition(d.getStart(sf)).line + 1} ${d.name.getText(sf)}`);
    }
  }
  return out;
}

describe("the code checkers", () => {
  it("measure a function from its first token to its last, nested functions included, and name it", () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  x += ${i};`).join("\n");
    const text = [
      "/** docs are not counted */",
      `export function long(): number {\n  let x = 0;\n${body(147)}\n  return x;\n}`,
      `function fits(): void {\n${body(148)}\n}`,
      `const arrow = (): void => {\n${body(149)}\n};`,
      `class K {\n  method(): void {\n    const inner = function () {\n${body(151)}\n    };\n  }\n}`,
    ].join("\n");
    expect(longFunctions("src/x.ts", text)).toEqual([
      "src/x.ts:2 long (151 lines)",
      "src/x.ts:303 arrow (151 lines)",
      "src/x.ts:455 method (155 lines)",
      "src/x.ts:456 inner (153 lines)",
    ]);
  });

  it("find a module-level let or var holding a catalogue or rules, and any exported one", () => {
    const text = [
      'import type { RuleCatalogue } from "./catalogue.js";',
      "let current: RuleCatalogue = BUILTIN_CATALOGUE;",
      "let plugins = [] as RuleDefinition[];",
      "var registry = new Map<string, RuleCatalogue>();",
      "export let count = 0;",
      "let hits = 0;",
      "const fixed: RuleCatalogue = BUILTIN_CATALOGUE;",
      "function f(): void {\n  let local: RuleCatalogue = fixed;\n  void local;\n}",
    ].join("\n");
    expect(mutableCatalogueBindings("src/config/x.ts", text)).toEqual([
      "src/config/x.ts:2 current",
      "src/config/x.ts:3 plugins",
      "src/config/x.ts:4 registry",
      "src/config/x.ts:5 count",
    ]);
  });
});

describe("the code (src/ and rules/)", () => {
  const files = [...sourceFiles("src"), ...sourceFiles("rules")].filter((f) => f.endsWith(".ts")).sort();
  const texts = new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]));

  it(`has no function over ${MAX_FUNCTION_LINES} lines outside the lexer and the parser`, () => {
    expect(files.filter((f) => !LONG_FUNCTIONS_ALLOWED(f)).flatMap((f) => longFunctions(f, texts.get(f)!))).toEqual([]);
  });

  it("holds no rule catalogue in a module-level mutable binding, and exports no mutable binding", () => {
    expect(files.flatMap((f) => mutableCatalogueBindings(f, texts.get(f)!))).toEqual([]);
    // The process-wide catalogue that loading a plugin replaced is gone: each config's catalogue is passed down.
    expect(files).not.toContain("src/config/known-rules.ts");
  });
});

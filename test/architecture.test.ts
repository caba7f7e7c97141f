/**
 * The layer rule of ARCHITECTURE.md, read from the code: every import of
 * `src/` and `rules/` points down (or stays in its own layer), and the only
 * import circle is the parser's expression <-> template recursion.
 *
 * Imports are read from the text: `import ... from "./x.js"`, `export ...
 * from "./x.js"`, `import type`, and `import("./x.js")` with a literal
 * specifier. Type-only imports count: a type is knowledge of the layer too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
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

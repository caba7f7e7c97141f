/**
 * The built-in rules are written with exactly the API a plugin gets: every
 * value a rule file imports from src/ is exported by the package entry point
 * (src/index.ts, `import { ... } from "tfcapi-lint"`).
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as api from "../../src/index.js";
import type { NodeKind, NodeOfKind, RuleVisitors, WalkSite } from "../../src/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function ruleFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) ruleFiles(p, out);
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** `name <- src/module` for every value (not `type`) a rule file imports from src/. */
function valueImportsFromSrc(): string[] {
  const found = new Set<string>();
  for (const file of ruleFiles(path.join(ROOT, "rules"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/gm)) {
      if (m[1] || !m[3]!.includes("/src/")) continue;
      for (const part of m[2]!.split(",")) {
        const name = part.trim().split(/\s+as\s+/)[0]!;
        if (name === "" || name.startsWith("type ")) continue;
        found.add(`${name} <- ${m[3]!.slice(m[3]!.indexOf("src/"))}`);
      }
    }
  }
  return [...found].sort();
}

describe("the rule API", () => {
  it("exports every value the built-in rules import", () => {
    const imports = valueImportsFromSrc();
    expect(imports.length).toBeGreaterThan(40);
    expect(imports.filter((i) => !(i.split(" ")[0]! in api))).toEqual([]);
  });

  it("exports defineRule and the analysis vocabulary by the names docs/rules-api.md uses", () => {
    const page = readFileSync(path.join(ROOT, "docs", "rules-api.md"), "utf8");
    const doc = page.slice(page.indexOf("## The vocabulary"), page.indexOf("## Testing a rule"));
    // The functions named in the first column of its tables.
    const firstCells = doc.split("\n").filter((l) => l.startsWith("| `")).map((l) => l.slice(2, l.indexOf(" | ", 2)));
    const named = firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Za-z]+)\(/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter((n) => !(n in api))).toEqual([]);
    expect(typeof api.defineRule).toBe("function");
  });

  it("exports the visitor types, and a rule written against the entry point can return visitors", () => {
    const calls: string[] = [];
    const kind: NodeKind = "FunctionCall";
    const onCall = (node: NodeOfKind<"FunctionCall">, site: WalkSite): void => {
      calls.push(`${site.file.path}:${node.nameRange.start.line} ${node.name}`);
    };
    const visitors: RuleVisitors = { [kind]: onCall };
    const rule = api.defineRule({ id: "probe/calls", severity: "info", roles: api.ROLES, scope: "root", fixable: false, summary: "every call", check: () => visitors });
    const out = api.lintModule(path.join(ROOT, "examples", "machinepool-aws"), { ruleSet: [rule] });
    expect(out.kind).toBe("report");
    // The same calls, found file by file with the exported collectCalls.
    const expected: string[] = [];
    if (out.kind === "report") {
      for (const file of out.load.root.expressions.files) {
        const attrs = (body: api.Body): api.Attribute[] => [...body.attributes, ...body.blocks.flatMap((b) => attrs(b.body))];
        for (const block of file.hcl.body.blocks) {
          for (const attr of attrs(block.body)) for (const c of api.collectCalls(attr.expr)) expected.push(`${file.path}:${c.nameRange.start.line} ${c.name}`);
        }
      }
    }
    expect(calls.length).toBeGreaterThan(10);
    expect(calls).toEqual(expected);
    expect(calls.slice(0, 3)).toEqual(["main.tf:6 sort", "main.tf:7 length", "main.tf:8 length"]);
  });
});

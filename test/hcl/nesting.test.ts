/**
 * Chains that nest the tree without brackets (operators, conditionals,
 * splats) count towards the nesting limit like brackets do, so no walker of
 * the tree can overflow the stack on them; and the limit can be raised for a
 * thread with a larger stack (the CLI's worker, src/cli/worker-pool.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { MAX_DEPTH, nestingLimit, nestingLimitHits, setNestingLimit } from "../../src/hcl/parser-core.js";
import type { Diagnostic, Expression } from "../../src/hcl/ast.js";
import { children } from "../../src/hcl/walk.js";

function brief(d: Diagnostic): string {
  return `${d.summary} @ ${d.subject.start.line}:${d.subject.start.column}`;
}

/** Depth of an expression tree, iteratively (the tree may be deeper than the stack). */
function depth(e: Expression): number {
  let max = 0;
  const stack: [Expression, number][] = [[e, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > max) max = d;
    for (const c of children(x)) stack.push([c, d + 1]);
  }
  return max;
}

afterEach(() => setNestingLimit(MAX_DEPTH));

describe("chains count as nesting", () => {
  const n = 10_000;
  // At the 257th operator, `?` or `[*]` (the k-th sits at column start + width * (k - 1) + offset).
  const cases: [string, string, string][] = [
    ["sums", "a = " + "1 + ".repeat(n) + "1\n", `Nesting too deep @ 1:${5 + 4 * 256 + 2}`],
    ["conditionals", "a = " + "x ? 1 : ".repeat(n) + "2\n", `Nesting too deep @ 1:${5 + 8 * 256 + 2}`],
    ["splats", "a = x" + "[*].y".repeat(n) + "\n", `Nesting too deep @ 1:${6 + 5 * 256}`],
  ];
  for (const [what, text, expected] of cases) {
    it(`${n} ${what}: one diagnostic at the ${MAX_DEPTH + 1}th level, counted as a limit hit`, () => {
      const hits = nestingLimitHits();
      const r = parseHcl(text, "main.tf");
      expect(r.diagnostics.map(brief)).toEqual([expected]);
      expect(r.diagnostics[0]!.code).toBe("nesting-too-deep");
      expect(nestingLimitHits()).toBe(hits + 1);
    });
  }

  it("chains within the limit parse as before, as deep as they are long", () => {
    const r = parseHcl("a = " + "1 + ".repeat(200) + "1\nb = " + "x ? 1 : ".repeat(200) + "2\n", "main.tf");
    expect(r.diagnostics).toEqual([]);
    const [a, b] = r.file.body.attributes;
    expect(depth(a!.expr)).toBe(201);
    expect(depth(b!.expr)).toBe(201);
  });
});

describe("setNestingLimit", () => {
  it("raises the limit for later parses in this thread", () => {
    const text = "a = " + "[".repeat(400) + "]".repeat(400) + "\n";
    expect(parseHcl(text, "main.tf").diagnostics.map(brief)).toEqual([`Nesting too deep @ 1:${5 + 256}`]);
    setNestingLimit(1000);
    expect(nestingLimit()).toBe(1000);
    expect(parseHcl(text, "main.tf").diagnostics).toEqual([]);
    const json = `{"locals": {"a": ${"[".repeat(400)}${"]".repeat(400)}}}`;
    expect(parseHcl(json, "main.tf.json").diagnostics).toEqual([]);
  });
});

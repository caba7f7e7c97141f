/**
 * The outline must equal what HashiCorp's parser reports (recorded from the
 * hcl-oracle tool into fixtures/hcl/<case>.outline.json, with diagnostic
 * details removed since ours are worded differently).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleFileOutline as hclOutline } from "../../src/terraform/parse.js";
import { outlineJson } from "../../src/hcl/outline.js";

const DIR = join(import.meta.dirname, "../../fixtures/hcl");
const CASES = readdirSync(DIR)
  .filter((f) => f.endsWith(".tf"))
  .sort();

function withoutDetails<T extends { diags: Array<{ detail?: string }> }>(o: T): T {
  for (const d of o.diags) delete d.detail;
  return o;
}

describe("hclOutline matches HashiCorp's parser", () => {
  it("has recorded cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });
  for (const name of CASES) {
    it(name, () => {
      const text = readFileSync(join(DIR, name), "utf8");
      const expected = JSON.parse(readFileSync(join(DIR, name.replace(/\.tf$/, ".outline.json")), "utf8"));
      expect(withoutDetails(hclOutline(text, name))).toEqual(expected);
    });
  }
});

describe("outline details", () => {
  it("counts characters (grapheme clusters) in columns and UTF-8 bytes in offsets", () => {
    const o = hclOutline('a = "héllo 👍🏽" == x\n', "u.tf");
    expect(o.body?.attrs[0].expr.refs).toEqual([
      { name: "x", range: { start: { line: 1, col: 18, byte: 25 }, end: { line: 1, col: 19, byte: 26 } } },
    ]);
  });

  it("adds the BOM's bytes to offsets but not to columns", () => {
    const o = hclOutline("\uFEFFa = 1\n", "b.tf");
    expect(o.body?.attrs[0].nameRange).toEqual({ start: { line: 1, col: 1, byte: 3 }, end: { line: 1, col: 2, byte: 4 } });
  });

  it("serialises like Go's encoding/json", () => {
    const o = hclOutline('a = "<&>"\n', "g.tf");
    expect(outlineJson(o)).toBe(
      '{"file":"g.tf","syntax":"native","diags":[],"body":{"attrs":[{"name":"a","range":{"start":{"line":1,"col":1,"byte":0},"end":{"line":1,"col":10,"byte":9}},"nameRange":{"start":{"line":1,"col":1,"byte":0},"end":{"line":1,"col":2,"byte":1}},"expr":{"kind":"Template","range":{"start":{"line":1,"col":5,"byte":4},"end":{"line":1,"col":10,"byte":9}},"calls":[],"refs":[]}}],"blocks":[]}}',
    );
    expect(outlineJson({ file: "x<y>.tf", syntax: "native", diags: [{ severity: "error", summary: "a\bb\\b" }] })).toBe(
      '{"file":"x\\u003cy\\u003e.tf","syntax":"native","diags":[{"severity":"error","summary":"a\\u0008b\\\\b"}]}',
    );
  });

  it("reports JSON files with diagnostics only", () => {
    const o = hclOutline("{", "x.tf.json");
    expect(o.syntax).toBe("json");
    expect(o.body).toBeUndefined();
    expect(o.diags.length).toBeGreaterThan(0);
  });

  it("accepts provider-defined functions (which HCL 2.14 rejects)", () => {
    const o = hclOutline('a = provider::aws::arn_parse("x")\n', "p.tf");
    expect(o.diags).toEqual([]);
    expect(o.body?.attrs[0].expr.calls.map((c) => c.name)).toEqual(["provider::aws::arn_parse"]);
  });
});

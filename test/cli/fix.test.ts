import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { applyFixes, fixesByFile, unifiedDiff, writeFileAtomic } from "../../src/lint/apply-fixes.js";
import type { Finding, Fix } from "../../src/lint/types.js";
import { tree } from "./helpers.js";

const at = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

function fix(file: string, start: number, end: number, text: string): Fix {
  return { description: "test", edits: [{ file, start, end, text }] };
}

describe("applyFixes", () => {
  it("applies non-overlapping fixes from the end, skipping overlaps and other files", () => {
    const text = "abcdefghij";
    const r = applyFixes(text, "f.tf", [fix("f.tf", 1, 3, "XY"), fix("f.tf", 2, 4, "no"), fix("f.tf", 8, 8, "+"), fix("g.tf", 0, 1, "no"), fix("f.tf", 0, 0, "<")]);
    expect(r).toEqual({ text: "<aXYdefgh+ij", applied: 3 });
  });

  it("takes a multi-edit fix whole or not at all", () => {
    const both: Fix = { description: "wrap", edits: [{ file: "f.tf", start: 0, end: 0, text: "sort(" }, { file: "f.tf", start: 3, end: 3, text: ")" }] };
    expect(applyFixes("abc", "f.tf", [both])).toEqual({ text: "sort(abc)", applied: 1 });
    expect(applyFixes("abc", "f.tf", [fix("f.tf", 0, 3, "z"), both])).toEqual({ text: "z", applied: 1 });
  });

  it("groups fixes of unsuppressed findings by file", () => {
    const f = (file: string, suppressed: boolean): Finding => ({
      ruleId: "x/y", severity: "warning", file, range: at, message: "m", fix: fix(file, 0, 0, "a"),
      ...(suppressed ? { suppressed: { justification: "", file, line: 1 } } : {}),
    });
    expect([...fixesByFile([f("a.tf", false), f("b.tf", true), f("a.tf", false)], undefined, "all").keys()]).toEqual(["a.tf"]);
    expect(fixesByFile([f("a.tf", false), f("a.tf", false)], undefined, "all").get("a.tf")).toHaveLength(2);
  });

  it("takes the safe fixes only unless told to take every one; a fix that does not say its kind is unsafe", () => {
    const f = (file: string, kind: "safe" | "unsafe" | undefined): Finding => ({
      ruleId: "x/y", severity: "warning", file, range: at, message: "m", fix: { ...fix(file, 0, 0, kind ?? "none"), ...(kind ? { kind } : {}) },
    });
    const findings = [f("a.tf", "safe"), f("a.tf", "unsafe"), f("b.tf", undefined), f("c.tf", "unsafe")];
    const texts = (m: Map<string, Fix[]>): [string, string[]][] => [...m].map(([file, fixes]) => [file, fixes.map((x) => x.edits[0]!.text)]);
    expect(texts(fixesByFile(findings))).toEqual([["a.tf", ["safe"]]]);
    expect(texts(fixesByFile(findings, undefined, "safe"))).toEqual([["a.tf", ["safe"]]]);
    expect(texts(fixesByFile(findings, undefined, "all"))).toEqual([["a.tf", ["safe", "unsafe"]], ["b.tf", ["none"]], ["c.tf", ["unsafe"]]]);
  });
});

describe("writeFileAtomic", () => {
  it("replaces the file and leaves no temporary file behind", () => {
    const dir = tree({ "main.tf": "old\n" });
    writeFileAtomic(path.join(dir, "main.tf"), "new\n");
    expect(readFileSync(path.join(dir, "main.tf"), "utf8")).toBe("new\n");
    expect(readdirSync(dir).sort()).toEqual([".git", "main.tf"]);
  });
});

describe("unifiedDiff", () => {
  it("shows one hunk with context", () => {
    expect(unifiedDiff("m.tf", "a\nb\nc\n", "a\nB\nc\n")).toBe("--- a/m.tf\n+++ b/m.tf\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    expect(unifiedDiff("m.tf", "same", "same")).toBe("");
  });

  it("says where a file has no newline at its end, and gives empty sides line 0", () => {
    // The last line gains a newline: it changes, and the old one is marked.
    expect(unifiedDiff("m.tf", "a\nb", "a\nb\n")).toBe("--- a/m.tf\n+++ b/m.tf\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    expect(unifiedDiff("m.tf", "a\n", "a\nb")).toBe("--- a/m.tf\n+++ b/m.tf\n@@ -1,1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n");
    expect(unifiedDiff("m.tf", "", "a\n")).toBe("--- a/m.tf\n+++ b/m.tf\n@@ -0,0 +1,1 @@\n+a\n");
    expect(unifiedDiff("m.tf", "a\n", "")).toBe("--- a/m.tf\n+++ b/m.tf\n@@ -1,1 +0,0 @@\n-a\n");
  });

  it("writes diffs that git apply takes, near the end of a file and without a final newline", () => {
    const cases: [string, string][] = [
      ["a\nb\nc\n", "a\nB\nc\n"],
      ['variable "a" {\n  type = string\n}\n', 'variable "a" {\n  type = string\n}\n# one\n'],
      ["x = 1\ny = 2", "x = 1\ny = 3"],
      ["x = 1\ny = 2", "x = 1\ny = 2\n"],
      ["x = 1\n", "x = 1\ny = 2"],
      ["", "a = 1\n"],
      ["1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12"],
    ];
    for (const [before, after] of cases) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "tfcapi-diff-"));
      try {
        writeFileSync(path.join(dir, "m.tf"), before);
        writeFileSync(path.join(dir, "p.diff"), unifiedDiff("m.tf", before, after));
        const r = spawnSync("git", ["apply", "p.diff"], { cwd: dir, encoding: "utf8" });
        expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
        expect(readFileSync(path.join(dir, "m.tf"), "utf8")).toBe(after);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});

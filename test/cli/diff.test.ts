import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { unifiedDiff } from "../../src/lint/apply-fixes.js";

/** Applies `diff` to a file holding `before` with git apply; returns the file's text after. */
function gitApply(before: string, diff: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tfcapi-diff-"));
  try {
    writeFileSync(path.join(dir, "m.tf"), before);
    writeFileSync(path.join(dir, "p.diff"), diff);
    const r = spawnSync("git", ["apply", "p.diff"], { cwd: dir, encoding: "utf8" });
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    return readFileSync(path.join(dir, "m.tf"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lines = (n: number, prefix = "line"): string[] => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("main.tf", "a\nb\n", "a\nb\n")).toBe("");
  });

  it("aligns unchanged lines between two changes into separate hunks with three lines of context", () => {
    const before = lines(20);
    const after = [...before];
    after.splice(2, 0, "inserted");
    after[15] = "changed 15";
    expect(unifiedDiff("main.tf", before.join("\n") + "\n", after.join("\n") + "\n")).toBe(
      [
        "--- a/main.tf",
        "+++ b/main.tf",
        "@@ -1,5 +1,6 @@",
        " line 1",
        " line 2",
        "+inserted",
        " line 3",
        " line 4",
        " line 5",
        "@@ -12,7 +13,7 @@",
        " line 12",
        " line 13",
        " line 14",
        "-line 15",
        "+changed 15",
        " line 16",
        " line 17",
        " line 18",
        "",
      ].join("\n"),
    );
  });

  it("merges changes closer than twice the context into one hunk", () => {
    const before = lines(12);
    const after = [...before];
    after[3] = "four";
    after[8] = "nine";
    expect(unifiedDiff("m.tf", before.join("\n"), after.join("\n")).split("\n").filter((l) => l.startsWith("@@"))).toEqual([
      "@@ -1,12 +1,12 @@",
    ]);
  });

  it("shows an expanded one-line block as one removal and its new lines, not the whole rest of the file", () => {
    const before = 'variable "a" {\n  type = string\n}\n\nvariable "b" { type = number default = 1 }\n\nvariable "c" {\n  type = bool\n}\n';
    const after = 'variable "a" {\n  type      = string\n  sensitive = true\n}\n\nvariable "b" {\n  type    = number\n  default = 1\n}\n\nvariable "c" {\n  type = bool\n}\n';
    const diff = unifiedDiff("variables.tf", before, after);
    expect(diff.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---"))).toEqual([
      "-  type = string",
      '-variable "b" { type = number default = 1 }',
    ]);
    expect(diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++"))).toEqual([
      "+  type      = string",
      "+  sensitive = true",
      '+variable "b" {',
      "+  type    = number",
      "+  default = 1",
      "+}",
    ]);
  });

  it("shows texts too different to align as one replaced region, which still applies", () => {
    // 3,000 changed lines are 6,000 line edits, past what is aligned (2,000).
    const before = ["keep 1", "keep 2", "keep 3", "keep 4", ...lines(3000, "old"), "tail 1", "tail 2", "tail 3", "tail 4"];
    const after = ["keep 1", "keep 2", "keep 3", "keep 4", ...lines(3000, "new"), "tail 1", "tail 2", "tail 3", "tail 4"];
    const diff = unifiedDiff("m.tf", before.join("\n") + "\n", after.join("\n") + "\n");
    const out = diff.split("\n");
    expect(out.slice(0, 7)).toEqual(["--- a/m.tf", "+++ b/m.tf", "@@ -2,3006 +2,3006 @@", " keep 2", " keep 3", " keep 4", "-old 1"]);
    expect(out.slice(3005, 3009)).toEqual(["-old 3000", "+new 1", "+new 2", "+new 3"]);
    expect(out.slice(-5)).toEqual(["+new 3000", " tail 1", " tail 2", " tail 3", ""]);
    expect(gitApply(before.join("\n") + "\n", diff)).toBe(after.join("\n") + "\n");
    // Without a final newline, on either side.
    const noEnd = unifiedDiff("m.tf", lines(3000, "old").join("\n"), lines(3000, "new").join("\n") + "\n");
    expect(noEnd.split("\n").slice(3002, 3005)).toEqual(["-old 3000", "\\ No newline at end of file", "+new 1"]);
    expect(gitApply(lines(3000, "old").join("\n"), noEnd)).toBe(lines(3000, "new").join("\n") + "\n");
  });
});

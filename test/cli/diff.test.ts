import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/lint/apply-fixes.js";

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
});

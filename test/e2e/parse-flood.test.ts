/**
 * Parse errors do not flood the report: one finding per cause (a run of
 * invalid characters, an unterminated string and the lines it swallows), at
 * most ten per file, then one finding that counts the rest. Through the real
 * CLI, with exact positions.
 */
import { describe, expect, it } from "vitest";
import { fixtureFiles, hasStackTrace, parseDoc, runCli, tree, type JsonDoc } from "./helpers.js";

/** `line:column-endLine:endColumn message` of the syntax/parse findings in `file`. */
function syntax(doc: JsonDoc, file: string): string[] {
  return doc.findings
    .filter((f) => f.id === "syntax/parse" && f.file === file)
    .map((f) => `${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.severity} ${f.message}`);
}

function lint(files: Record<string, string>): { doc: JsonDoc; stdout: string } {
  const dir = tree({ ...fixtureFiles("machine"), ...files });
  const r = runCli(["--role", "machine", "--format", "json", "."], { cwd: dir });
  expect(r.code, r.stderr).toBe(1);
  expect(hasStackTrace(r.stdout + r.stderr)).toBe(false);
  return { doc: parseDoc(r.stdout), stdout: r.stdout };
}

const NOT_ARGUMENT =
  "Argument or block definition required: Only arguments (`name = value`) and blocks (`type \"label\" { ... }`) can appear here.";
const MULTI_LINE =
  "Invalid multi-line string: A quoted string must close on the line where it starts; write `\\n` for a line break or use a heredoc (`<<EOT`).";
const UNTERMINATED = "Unterminated template string: The string is never closed; add the closing quote.";
const ESCAPE = (line: number) =>
  `${line}:8-${line}:10 error Invalid escape sequence: \`\\q\` is not an escape; use \`\\\\\` for a literal backslash.`;

describe("syntax/parse findings per cause, capped per file", () => {
  it("a line of 20,000 invalid characters is two findings, not 20,001", () => {
    const { doc, stdout } = lint({ "junk.tf": "@".repeat(20_000) + "\n" });
    expect(syntax(doc, "junk.tf")).toEqual([
      `1:1-1:2 error ${NOT_ARGUMENT}`,
      "1:1-1:20001 error Invalid character: 20000 characters in a row here have no meaning in HCL; remove them.",
    ]);
    expect(stdout.length).toBeLessThan(20_000);
  });

  it("separate invalid characters stay separate; a single one keeps its own explanation", () => {
    const { doc } = lint({ "junk.tf": "@@ = 1\nb = 2 ; c = 3\n" });
    expect(syntax(doc, "junk.tf")).toEqual([
      `1:1-1:2 error ${NOT_ARGUMENT}`,
      "1:1-1:3 error Invalid character: 2 characters in a row here have no meaning in HCL; remove them.",
      "2:7-2:8 error Invalid character: Semicolons are not used in HCL: separate arguments with newlines and list items with commas.",
    ]);
  });

  it("one unclosed quote in a long file: the string, its end, and a count of the lines it swallowed", () => {
    const rest = Array.from({ length: 30 }, (_, i) => `variable "v${i}" {\n  type = string\n}\n`).join("");
    const { doc } = lint({ "broken.tf": 'locals {\n  bootstrap = "abc }\n\n' + rest });
    expect(syntax(doc, "broken.tf")).toEqual([
      `2:21-4:1 error ${MULTI_LINE}`,
      `2:21-4:1 error ${UNTERMINATED}`,
      // HashiCorp's parser reports 92: one "Invalid multi-line string" per line holding a quote.
      "4:16-5:1 error and 90 more syntax errors in broken.tf",
    ]);
  });

  it("ten findings per file, then one that counts the rest (pointing at the first left out)", () => {
    const text = Array.from({ length: 25 }, (_, i) => `v${i} = "a\\qb"\n`).join("");
    const { doc } = lint({ "escapes.tf": text, "two.tf": 'w1 = "a\\qb"\nw2 = "a\\qb"\n' });
    expect(syntax(doc, "escapes.tf")).toEqual([
      ...Array.from({ length: 10 }, (_, i) => ESCAPE(i + 1)),
      "11:9-11:11 error and 15 more syntax errors in escapes.tf",
    ]);
    // The cap is per file: another file's findings are all shown.
    expect(syntax(doc, "two.tf")).toEqual([ESCAPE(1), ESCAPE(2)]);
  });

  it("exactly eleven: ten and 'and 1 more syntax error'", () => {
    const text = Array.from({ length: 11 }, (_, i) => `v${i} = "a\\qb"\n`).join("");
    const { doc } = lint({ "escapes.tf": text });
    expect(syntax(doc, "escapes.tf").slice(10)).toEqual(["11:9-11:11 error and 1 more syntax error in escapes.tf"]);
  });
});

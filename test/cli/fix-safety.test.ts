/**
 * --fix must never corrupt a file: no fix on a file with syntax errors, no
 * edit outside the node a fix was computed for, no write of a result that
 * gained a syntax error, and writes that keep owner, group, mode, hard links
 * and symbolic links. Runs the built CLI (npm run build).
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, statSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { engineOptions, lintModule } from "../helpers/lint.js";
import { dryRunDiff, fixOnDisk } from "../../src/cli/fix-run.js";
import { parseModuleFile } from "../../src/terraform/parse.js";
import { applyFixes, fixesByFile, fixFileText } from "../../src/lint/apply-fixes.js";
import { defineRule, type Finding, type Fix } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { BIN, fixtureFiles, insensitiveBootstrap, REPO, runCli, tree } from "./helpers.js";

const SENSITIVE = 'variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}';

/** The clean machine module with `bootstrap_data` replaced by `block`. */
function withBootstrap(block: string): Record<string, string> {
  return fixtureFiles("machine-clean", "", (f, t) => (f === "variables.tf" ? t.replace(SENSITIVE, block) : t));
}

const isRoot = process.getuid?.() === 0;

/** Tests that need root to set up (another owner) say why they did nothing; in CI they fail instead. */
function needsRoot(what: string): boolean {
  if (isRoot) return true;
  if (process.env.CI) throw new Error(`${what} needs root (to chown a file to another user); CI must run the tests as root`);
  console.warn(`skipped: ${what} needs root (to chown a file to another user)`);
  return false;
}

describe("--fix on a file with syntax errors", () => {
  it("leaves the file alone, says so, and a second run changes nothing either (the unclosed string of issue 9)", () => {
    // An unclosed string in bootstrap_data: the parser recovers into the next
    // block, and the sensitive fix used to land there (ten lines per run).
    const dir = tree(withBootstrap('variable "bootstrap_data" {\n  type    = string\n  default = "abc }'));
    const file = path.join(dir, "variables.tf");
    const before = readFileSync(file, "utf8");
    for (let run = 0; run < 2; run++) {
      const r = runCli(["--fix-unsafe", "-q", "."], { cwd: dir });
      expect(r.code).toBe(1);
      expect(readFileSync(file, "utf8")).toBe(before);
      expect(r.stderr).toBe("tfcapi-lint: variables.tf: not fixed: the file has syntax errors\ntfcapi-lint: fixed 0 problems in 0 files\n");
    }
    // --fix-dry-run shows no diff for it either.
    const dry = runCli(["--fix-dry-run", "--fix-unsafe", "-q", "."], { cwd: dir });
    expect(dry.stdout).not.toContain("+++");
    expect(dry.stderr).toBe("tfcapi-lint: variables.tf: not fixed: the file has syntax errors\n");
  });

  it("still fixes the module's other files", () => {
    const dir = tree({
      ...fixtureFiles("machine-clean", "vm/", insensitiveBootstrap),
      "vm/broken.tf": 'locals {\n  x = "abc\n}\n',
    });
    const r = runCli(["--fix-unsafe", "-q", "vm"], { cwd: dir });
    expect(r.stderr).toBe("tfcapi-lint: fixed 1 problem in 1 file\n");
    expect(readFileSync(path.join(dir, "vm", "variables.tf"), "utf8")).toContain(SENSITIVE);
    expect(readFileSync(path.join(dir, "vm", "broken.tf"), "utf8")).toBe('locals {\n  x = "abc\n}\n');
  });
});

describe("the applier", () => {
  const text = 'variable "a" {\n  type = string\n}\n\nvariable "b" {\n  type = string\n}\n';
  const inA = { start: 0, end: text.indexOf("}") + 1 };
  const intoB = text.indexOf('variable "b"') + 'variable "b" {\n'.length;
  const afterType = text.indexOf("string\n") + "string\n".length;
  const finding = (fix: Fix): Finding => ({
    ruleId: "input/sensitive",
    severity: "warning",
    file: "v.tf",
    range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } },
    message: "m",
    fix,
  });

  it("refuses a fix with an edit outside the node it was computed for", () => {
    const outside: Fix = { description: "x", edits: [{ file: "v.tf", start: intoB, end: intoB, text: "  sensitive = true\n" }], within: inA };
    const inside: Fix = { description: "y", edits: [{ file: "v.tf", start: afterType, end: afterType, text: "  sensitive = true\n" }], within: inA };
    expect(applyFixes(text, "v.tf", [outside])).toEqual({ text, applied: 0 });
    const refused: Finding[] = [];
    const byFile = fixesByFile([finding(outside), finding(inside)], refused, "all");
    expect(refused.map((f) => f.fix!.description)).toEqual(["x"]);
    expect(byFile.get("v.tf")!.map((f) => f.description)).toEqual(["y"]);
  });

  it("gives a fix without a node the innermost block around its finding", () => {
    const rule = defineRule({
      id: "input/sensitive",
      severity: "warning",
      roles: ROLES,
      summary: "test: a fix that edits the next block",
      scope: "root",
      fixable: true,
      check(ctx) {
        const a = ctx.declarations.variables.get("a")!;
        const b = ctx.declarations.variables.get("b")!;
        const at = b.block.openBraceRange.end.offset + 1;
        ctx.report({
          message: "a",
          file: a.file.path,
          range: a.block.typeRange,
          fix: { description: "edits b", edits: [{ file: a.file.path, start: at, end: at, text: "  sensitive = true\n" }] },
        });
      },
    });
    const dir = tree({ "v.tf": text });
    const outcome = lintModule(dir, { role: "machine", ruleSet: [rule] });
    if (outcome.kind !== "report") throw new Error(outcome.message);
    const f = outcome.report.findings.find((x) => x.ruleId === "input/sensitive")!;
    expect(f.fix!.within).toEqual(inA);
    const refused: Finding[] = [];
    expect(fixesByFile(outcome.report.findings, refused, "all").size).toBe(0);
    expect(refused).toEqual([f]);
  });

  it("does not fix a file with syntax errors, and keeps a result that would gain one from being written", () => {
    const ok: Fix = { description: "ok", edits: [{ file: "v.tf", start: afterType, end: afterType, text: "  sensitive = true\n" }] };
    expect(fixFileText("v.tf", text, [ok])).toEqual({ kind: "fixed", applied: 1, text: text.replace("  type = string\n", "  type = string\n  sensitive = true\n") });
    expect(fixFileText("v.tf", text.replace("string\n}", '"abc\n}'), [ok])).toEqual({ kind: "refused", reason: "the file has syntax errors" });
    const breaks: Fix = { description: "breaks", edits: [{ file: "v.tf", start: afterType, end: afterType, text: "  sensitive = {\n" }] };
    expect(fixFileText("v.tf", text, [breaks])).toEqual({
      kind: "refused",
      reason: expect.stringMatching(/^the fixes would have introduced a syntax error \(\d+:\d+: .+\); the file is left as it was$/),
      syntaxError: expect.stringMatching(/^\d+:\d+: .+$/),
    });
    // A one-line block HCL rejects is the syntax error its own fix removes.
    const oneLine = 'locals { a = 1, b = 2 }\n';
    const split: Fix = { description: "split", edits: [{ file: "l.tf", start: 7, end: 23, text: "{\n  a = 1\n  b = 2\n}" }] };
    expect(fixFileText("l.tf", oneLine, [split])).toEqual({ kind: "fixed", applied: 1, text: "locals {\n  a = 1\n  b = 2\n}\n" });
  });
});

describe("--fix writes", () => {
  it("ends with how many problems it fixed in how many files", () => {
    const dir = tree({ ...fixtureFiles("machine-clean", "a/", insensitiveBootstrap), ...fixtureFiles("machine-clean", "b/", insensitiveBootstrap) });
    const r = runCli(["--fix-unsafe", "-q", "a", "b"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("tfcapi-lint: fixed 2 problems in 2 files\n");
    expect(runCli(["--fix-unsafe", "-q", "a", "b"], { cwd: dir }).stderr).toBe("tfcapi-lint: fixed 0 problems in 0 files\n");
  });

  it("keeps the file's owner, group and mode (a root run does not give a user's file to root)", () => {
    if (!needsRoot("keeping the owner")) return;
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const file = path.join(dir, "variables.tf");
    chownSync(file, 65534, 65534);
    chmodSync(file, 0o604);
    const ino = statSync(file).ino;
    expect(runCli(["--fix-unsafe", "-q", dir]).code).toBe(0);
    const st = statSync(file);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([65534, 65534, 0o604]);
    expect(st.ino).not.toBe(ino); // written by rename (atomic), not in place
    expect(readFileSync(file, "utf8")).toContain(SENSITIVE);
  });

  it("writes a file with more than one hard link in place, so every link sees the fix", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const file = path.join(dir, "variables.tf");
    mkdirSync(path.join(dir, "backup"));
    const other = path.join(dir, "backup", "variables.tf.orig");
    linkSync(file, other);
    const ino = statSync(file).ino;
    expect(runCli(["--fix-unsafe", "-q", dir]).code).toBe(0);
    const st = statSync(file);
    expect([st.ino, st.nlink]).toEqual([ino, 2]);
    expect(readFileSync(other, "utf8")).toContain(SENSITIVE);
    expect(readFileSync(file, "utf8")).toBe(readFileSync(other, "utf8"));
  });

  it("writes a symbolically linked file at its target and keeps the link", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    mkdirSync(path.join(dir, "shared"));
    renameSync(path.join(dir, "variables.tf"), path.join(dir, "shared", "inputs.txt"));
    symlinkSync(path.join("shared", "inputs.txt"), path.join(dir, "variables.tf"));
    expect(runCli(["--fix-unsafe", "-q", dir]).code).toBe(0);
    expect(lstatSync(path.join(dir, "variables.tf")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, "variables.tf"))).toBe(path.join("shared", "inputs.txt"));
    expect(readFileSync(path.join(dir, "shared", "inputs.txt"), "utf8")).toContain(SENSITIVE);
  });

  it("names a directory it cannot write (exit 2), as a user without write permission there", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const file = path.join(dir, "variables.tf");
    const before = readFileSync(file, "utf8");
    let r: { code: number; stderr: string };
    if (isRoot) {
      // Root may write anywhere: run the CLI as nobody, who owns the file but not the directory.
      chmodSync(dir, 0o755);
      for (const f of ["main.tf", "outputs.tf", "variables.tf", "versions.tf"]) chownSync(path.join(dir, f), 65534, 65534);
      const p = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, BIN, "--fix-unsafe", "-q", "."], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", HOME: dir },
      });
      if (p.error) throw new Error(`setpriv (util-linux) is needed to run the CLI as another user: ${p.error.message}`);
      r = { code: p.status ?? -1, stderr: p.stderr };
    } else {
      chmodSync(dir, 0o555);
      r = runCli(["--fix-unsafe", "-q", "."], { cwd: dir });
      chmodSync(dir, 0o755);
    }
    expect(r.stderr).toBe(
      `tfcapi-lint: variables.tf: not fixed: cannot create a file in directory ${dir}: permission denied\ntfcapi-lint: fixed 0 problems in 0 files\n`,
    );
    expect(r.code).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("writes in place a file whose owner it cannot give to a new file", () => {
    if (!needsRoot("a file owned by another user")) return;
    // As nobody, in a directory nobody may write, fix a root-owned file that is world-writable.
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    chmodSync(dir, 0o777);
    const file = path.join(dir, "variables.tf");
    chmodSync(file, 0o666);
    const p = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, BIN, "--fix-unsafe", "-q", "."], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", HOME: dir },
    });
    expect(p.stderr).toBe("tfcapi-lint: fixed 1 problem in 1 file\n");
    const st = statSync(file);
    expect([st.uid, st.gid, st.mode & 0o777]).toEqual([0, 0, 0o666]);
    expect(readFileSync(file, "utf8")).toContain(SENSITIVE);
    chmodSync(dir, 0o755);
  });
});

/** The machine-aws example (clean) with `bug.tf` added. */
function exampleWith(bug: string): { dir: string; file: string } {
  const files: Record<string, string> = {};
  const example = path.join(REPO, "examples", "machine-aws");
  for (const f of readdirSync(example).filter((x) => x.endsWith(".tf"))) files[f] = readFileSync(path.join(example, f), "utf8");
  const dir = tree({ ...files, "bug.tf": bug });
  return { dir, file: path.join(dir, "bug.tf") };
}

describe("--fix on one-line blocks nested in one-line blocks", () => {
  const cases: [string, string, string][] = [
    [
      "two levels, one argument (the inner block is a valid one-line block)",
      'resource "terraform_data" "y" { nested { a = 1 } }\n',
      'resource "terraform_data" "y" {\n  nested { a = 1 }\n}\n',
    ],
    [
      "two levels, several arguments",
      'resource "terraform_data" "y" { nested { a = 1 bb = 2 } }\n',
      'resource "terraform_data" "y" {\n  nested {\n    a  = 1\n    bb = 2\n  }\n}\n',
    ],
    [
      "three levels, one argument",
      'resource "terraform_data" "y" { nested { nested { a = 1 } } }\n',
      'resource "terraform_data" "y" {\n  nested {\n    nested { a = 1 }\n  }\n}\n',
    ],
    [
      "three levels, several arguments (the bug report: four levels)",
      'resource "terraform_data" "y" { nested { nested { nested { a = 1 b = 2 } } } }\n',
      'resource "terraform_data" "y" {\n  nested {\n    nested {\n      nested {\n        a = 1\n        b = 2\n      }\n    }\n  }\n}\n',
    ],
    [
      "three levels, arguments at every level, commas",
      'resource "terraform_data" "y" { input = 1 nested { x = "}" nested { a = 1, b = { k = 2 } } } }\n',
      'resource "terraform_data" "y" {\n  input = 1\n  nested {\n    x = "}"\n    nested {\n      a = 1\n      b = { k = 2 }\n    }\n  }\n}\n',
    ],
  ];
  for (const [name, bug, fixed] of cases) {
    it(`${name}: splits them into valid HCL, and says so truthfully`, () => {
      const { dir, file } = exampleWith(bug);
      const dry = runCli(["--role", "machine", "--fix-dry-run", "--format", "compact", "."], { cwd: dir });
      expect(dry.code).toBe(1);
      // With an argument first, HCL points at the second item (the nested block).
      const [at, holds] = bug.includes("input") ? ["1:43", "1 argument and 1 nested block"] : ["1:33", "1 nested block"];
      expect(dry.stdout).toBe(
        `bug.tf:${at}: error: resource "terraform_data" "y" is written on one line with ${holds}, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line [syntax/one-line-block]\n`,
      );
      // The diff turns the file into the fixed text (which parses clean), as --fix does.
      const lines = fixed.split("\n").slice(0, -1);
      expect(dry.stderr).toBe(
        `--- a/bug.tf\n+++ b/bug.tf\n@@ -1,1 +1,${lines.length} @@\n-${bug.slice(0, -1)}\n${lines.map((l) => `+${l}\n`).join("")}tfcapi-lint: .: role machine (from --role)\n`,
      );
      expect(parseModuleFile(fixed, "bug.tf").diagnostics).toEqual([]);
      const r = runCli(["--role", "machine", "--fix", "--format", "compact", "."], { cwd: dir });
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 0,
        stdout: "",
        stderr: "tfcapi-lint: .: role machine (from --role)\ntfcapi-lint: fixed 1 problem in 1 file\n",
      });
      expect(readFileSync(file, "utf8")).toBe(fixed);
    });
  }
});

describe("the syntax guard after a one-line block", () => {
  const bug = 'resource "terraform_data" "y" { nested { nested { nested { a = 1 b = 2 } } } }\n';
  const edit = (text: string): Fix => ({ description: "split", kind: "safe", edits: [{ file: "bug.tf", start: 0, end: bug.length, text }] });

  it("refuses a result with a stray `}` that the parser does not report after the one-line block it still holds", () => {
    // What the split fix wrote before: the outer block split, one `}` too many.
    const stray = 'resource "terraform_data" "y" {\n  nested { nested { nested { a = 1 b = 2 } } } \n}\n}\n';
    expect(parseModuleFile(stray, "bug.tf").diagnostics.map((d) => d.code)).toEqual(["one-line-block"]);
    expect(fixFileText("bug.tf", bug, [edit(stray)])).toEqual({
      kind: "refused",
      reason: "the fixes would have introduced a syntax error (4:1: Argument or block definition required); the file is left as it was",
      syntaxError: "4:1: Argument or block definition required",
    });
  });

  it("refuses a result whose one-line block is never closed, and accepts one that only keeps a one-line block", () => {
    const unclosed = 'resource "terraform_data" "y" {\n  nested { nested { nested { a = 1 b = 2 } }\n}\n';
    expect(fixFileText("bug.tf", bug, [edit(unclosed)])).toEqual({
      kind: "refused",
      reason: "the fixes would have introduced a syntax error (1:31: Unclosed configuration block); the file is left as it was",
      syntaxError: "1:31: Unclosed configuration block",
    });
    const kept = 'resource "terraform_data" "y" {\n  nested { nested { nested { a = 1 b = 2 } } }\n}\n';
    expect(fixFileText("bug.tf", bug, [edit(kept)])).toEqual({ kind: "fixed", text: kept, applied: 1 });
  });

  it("sees a stray `}` after several one-line blocks, and lets a fix that adds none through", () => {
    const three = 'locals { a = 1, b = 2 }\nvariable "x" { type = string default = "a" }\nvariable "y" { type = string default = "b" }\n';
    const at = three.length;
    const add = (t: string): Fix => ({ description: "add", edits: [{ file: "l.tf", start: at, end: at, text: t }] });
    expect(fixFileText("l.tf", three, [add("}\n")])).toEqual({
      kind: "refused",
      reason: "the fixes would have introduced a syntax error (4:1: Argument or block definition required); the file is left as it was",
      syntaxError: "4:1: Argument or block definition required",
    });
    expect(fixFileText("l.tf", three, [add('output "z" {\n  value = 1\n}\n')])).toEqual({ kind: "fixed", applied: 1, text: `${three}output "z" {\n  value = 1\n}\n` });
  });

  it("does not apply an edit that contains or overlaps one taken earlier in the same pass", () => {
    const text = "abcdefghij";
    const fix = (start: number, end: number, t: string): Fix => ({ description: t, edits: [{ file: "f.tf", start, end, text: t }] });
    expect(applyFixes(text, "f.tf", [fix(2, 4, "X"), fix(0, 10, "Y")])).toEqual({ text: "abXefghij", applied: 1 });
    expect(applyFixes(text, "f.tf", [fix(0, 10, "Y"), fix(2, 4, "X")])).toEqual({ text: "Y", applied: 1 });
    expect(applyFixes(text, "f.tf", [fix(2, 6, "X"), fix(5, 8, "Z")])).toEqual({ text: "abXghij", applied: 1 });
    expect(applyFixes(text, "f.tf", [fix(2, 6, "X"), fix(2, 2, "I")])).toEqual({ text: "abXghij", applied: 1 });
    expect(applyFixes(text, "f.tf", [fix(2, 6, "X"), fix(6, 6, "I")])).toEqual({ text: "abXIghij", applied: 2 });
  });
});

describe("a pass refused after earlier passes fixed the file", () => {
  // Pass 1 adds a comment; pass 2 would open a block it never closes.
  const rule = defineRule({
    id: "input/sensitive",
    severity: "warning",
    roles: ROLES,
    summary: "test: a second fix that breaks the file",
    scope: "root",
    fixable: true,
    fixKinds: ["safe"],
    check(ctx) {
      for (const file of ctx.unit.allFiles) {
        if (file.path !== "v.tf") continue;
        const end = file.hcl.text.length;
        const text = file.hcl.text.includes("# one") ? 'locals {\n  x = "a"\n' : "# one\n";
        const range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
        ctx.report({ message: "m", file: file.path, range, fix: { description: "d", kind: "safe", edits: [{ file: file.path, start: end, end, text }], within: { start: 0, end } } });
      }
    },
  });

  const original = 'variable "a" {\n  type = string\n}\n';
  /** A module of `original` linted with the rule alone: its folder, options and first lint. */
  function linted() {
    const dir = tree({ "v.tf": original });
    const opts = engineOptions({ role: "machine" as const, ruleSet: [rule] });
    const first = lintModule(dir, opts);
    if (first.kind !== "report") throw new Error(first.message);
    return { dir, opts, first };
  }

  it("writes the earlier passes' fixes, counts only them, and says so", () => {
    const { dir, opts, first } = linted();
    const run = fixOnDisk(dir, opts, first, "safe");
    expect(readFileSync(path.join(dir, "v.tf"), "utf8")).toBe(`${original}# one\n`);
    expect({ written: run.written, applied: run.applied, notes: run.notes }).toEqual({
      written: ["v.tf"],
      applied: 1,
      notes: [
        "v.tf: partly fixed: the fixes of a later pass would have introduced a syntax error (5:8: Unclosed configuration block) and were left out; the fix of the earlier passes is written (run the linter again to see what is left)",
      ],
    });
  });

  it("the dry run shows the earlier passes' fixes and says the later one is left out", () => {
    const { dir, opts, first } = linted();
    const notes: string[] = [];
    const diff = dryRunDiff(first.report, dir, opts, dir, notes, "safe");
    expect(diff).toBe("--- a/v.tf\n+++ b/v.tf\n@@ -1,3 +1,4 @@\n variable \"a\" {\n   type = string\n }\n+# one\n");
    expect(notes).toEqual([
      "v.tf: partly fixable: the fixes of a later pass would introduce a syntax error (5:8: Unclosed configuration block) and are left out; the fix of the earlier passes is shown",
    ]);
    expect(readFileSync(path.join(dir, "v.tf"), "utf8")).toBe(original);
  });
});

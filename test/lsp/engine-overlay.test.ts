/**
 * What the language server adds to the engine, in process: an overlay of
 * several unsaved files, a parse cache that must not change any result, the
 * stepwise lint, and the ignore comments its code actions insert (native
 * and JSON syntax), checked by linting the edited text again.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LintOutcome } from "../../src/lint/engine.js";
import { lintModule, lintSteps } from "../helpers/lint.js";
import type { ParseCache } from "../../src/terraform/load.js";
import { Indexes, moduleLevelFile, placeFindings } from "../../src/lsp/diagnostics.js";
import { BUILTIN_CATALOGUE } from "../../src/catalogue.js";
import { ignoreEdit } from "../../src/lsp/edits.js";
import { chooseEncoding, TextPositions } from "../../src/lsp/positions.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NOW = new Date("2026-01-01T00:00:00Z");

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-overlay-")));
  mkdirSync(path.join(root, ".git"));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function copyExample(name: string): string {
  const dir = path.join(root, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  cpSync(path.join(REPO, "examples", name), dir, { recursive: true });
  return dir;
}

function findings(o: LintOutcome): string[] {
  if (o.kind !== "report") return [o.kind];
  return o.report.findings.map((f) => `${f.file}:${f.range.start.line}:${f.range.start.column} ${f.ruleId}${f.suppressed ? " (suppressed)" : ""}`);
}

describe("overlay of several files", () => {
  it("lints the unsaved texts of two files with the rest from disk, as if they were saved", () => {
    const dir = copyExample("broken-machinepool");
    const outputs = readFileSync(path.join(dir, "outputs.tf"), "utf8").replace('state   = "ok"', 'state   = "running"');
    const variables = readFileSync(path.join(dir, "variables.tf"), "utf8").replace(
      'variable "failure_domains" { type = list(string) default = [] }',
      'variable "failure_domains" {\n  type = list(string)\n}',
    );
    const overlaid = lintModule(dir, { overlay: new Map([[path.join(dir, "outputs.tf"), outputs], [path.join(dir, "variables.tf"), variables]]), now: NOW });
    const before = findings(lintModule(dir, { now: NOW }));
    writeFileSync(path.join(dir, "outputs.tf"), outputs);
    writeFileSync(path.join(dir, "variables.tf"), variables);
    const saved = findings(lintModule(dir, { now: NOW }));
    expect(findings(overlaid)).toEqual(saved);
    expect(before).toContain("outputs.tf:28:15 output/health-shape");
    expect(saved).not.toContain("outputs.tf:28:15 output/health-shape");
    expect(before).toContain("variables.tf:47:50 syntax/one-line-block");
    expect(saved).not.toContain("variables.tf:47:50 syntax/one-line-block");
  });

  it("adds a file that exists only in the editor, and ignores overlay entries of other directories and non-module names", () => {
    const dir = copyExample("machinepool-aws");
    const extra = 'resource "aws_s3_bucket" "b" {\n  bucket = "x"\n  tags   = { at = timestamp() }\n}\n';
    const o = lintModule(dir, {
      overlay: new Map([
        [path.join(dir, "new.tf"), extra],
        [path.join(root, "elsewhere", "main.tf"), "not hcl {{{"],
        [path.join(dir, "notes.txt"), "not hcl {{{"],
        [path.join(dir, ".hidden.tf"), "not hcl {{{"],
      ]),
      now: NOW,
    });
    expect(findings(o)).toEqual(["new.tf:3:19 drift/non-idempotent"]);
    expect(existsSync(path.join(dir, "new.tf"))).toBe(false);
  });
});

describe("parse cache", () => {
  function cases(dir: string, out: string[] = []): string[] {
    for (const entry of readdirSync(dir).sort()) {
      const p = path.join(dir, entry);
      if (entry === "expected.json") out.push(dir);
      else if (lstatSync(p).isDirectory()) cases(p, out);
    }
    return out;
  }

  it("gives the same findings as fresh parses on every fixture, also when reused", () => {
    const dirs = [...cases(path.join(REPO, "fixtures")), ...["cluster-aws", "machine-aws", "machinepool-aws", "broken-machinepool"].map((n) => path.join(REPO, "examples", n))];
    expect(dirs.length).toBeGreaterThan(100);
    for (const dir of dirs) {
      const expected = JSON.parse(existsSync(path.join(dir, "expected.json")) ? readFileSync(path.join(dir, "expected.json"), "utf8") : "{}") as { role?: "cluster" | "machine" | "machinepool" };
      const base = { now: NOW, ...(expected.role ? { role: expected.role } : {}) };
      const fresh = JSON.stringify(findings(lintModule(moduleDirOf(dir), base)));
      const cache: ParseCache = new Map();
      expect(JSON.stringify(findings(lintModule(moduleDirOf(dir), { ...base, parseCache: cache }))), dir).toBe(fresh);
      const size = cache.size;
      expect(JSON.stringify(findings(lintModule(moduleDirOf(dir), { ...base, parseCache: cache }))), dir).toBe(fresh);
      expect(cache.size, dir).toBe(size);
    }
  });

  it("parses again only what changed, and forgets files that are gone", () => {
    const dir = copyExample("machinepool-aws");
    const cache: ParseCache = new Map();
    lintModule(dir, { parseCache: cache });
    const first = new Map(cache);
    expect([...cache.keys()].map((k) => k.split("\0")[0])).toEqual(["main.tf", "outputs.tf", "userdata.tf", "variables.tf", "versions.tf"]);
    const outputs = path.join(dir, "outputs.tf");
    lintModule(dir, { parseCache: cache, overlay: new Map([[outputs, `${readFileSync(outputs, "utf8")}\n# edited\n`]]) });
    for (const [k, v] of cache) {
      if (k.startsWith("outputs.tf\0")) expect(v.parsed).not.toBe(first.get(k)!.parsed);
      else expect(v.parsed).toBe(first.get(k)!.parsed);
    }
    rmSync(path.join(dir, "userdata.tf"));
    lintModule(dir, { parseCache: cache });
    expect([...cache.keys()].map((k) => k.split("\0")[0])).toEqual(["main.tf", "outputs.tf", "variables.tf", "versions.tf"]);
  });
});

describe("lintSteps", () => {
  it("yields after loading and after each rule it runs, and ends with lintModule's outcome", () => {
    const dir = path.join(REPO, "examples", "broken-machinepool");
    const steps = lintSteps(dir, { now: NOW });
    let yields = 0;
    let r = steps.next();
    while (!r.done) {
      yields++;
      r = steps.next();
    }
    expect(yields).toBeGreaterThan(20);
    expect(findings(r.value)).toEqual(findings(lintModule(dir, { now: NOW })));
  });
});

describe("ignore comments the code actions insert", () => {
  function check(dir: string, file: string, ruleId: string, fileLevel: boolean): string {
    const o = lintModule(dir, { now: NOW });
    if (o.kind !== "report") throw new Error(o.kind);
    const finding = o.report.findings.find((f) => f.ruleId === ruleId && f.file === file)!;
    expect(finding, `${ruleId} in ${file}`).toBeDefined();
    const source = o.load.root.allFiles.find((f) => f.path === file)!;
    const ix = new TextPositions(source.hcl.text, "utf-16");
    const edit = ignoreEdit(source, finding, fileLevel, ix)!;
    const start = ix.offset(edit.range.start);
    const text = source.hcl.text.slice(0, start) + edit.newText + source.hcl.text.slice(ix.offset(edit.range.end));
    writeFileSync(path.join(dir, file), text);
    const after = lintModule(dir, { now: NOW });
    if (after.kind !== "report") throw new Error(after.kind);
    const unsuppressed = after.report.findings.filter((f) => !f.suppressed);
    expect(unsuppressed.filter((f) => f.ruleId === ruleId && f.file === file)).toEqual([]);
    expect(unsuppressed.filter((f) => f.ruleId.startsWith("lint/"))).toEqual([]);
    // Nothing else changed: the other findings are those of before.
    expect(unsuppressed.filter((f) => f.ruleId !== ruleId && f.file !== file).length).toBe(
      o.report.findings.filter((f) => !f.suppressed && f.ruleId !== ruleId && f.file !== file).length,
    );
    return text;
  }

  it("native syntax: a line/block comment above the finding's line, or a file comment at the top", () => {
    const dir = copyExample("broken-machinepool");
    const t = check(dir, "main.tf", "drift/non-idempotent", false);
    expect(t).toContain('    key                 = "captf.io/applied-at"\n    # tfcapi-lint-ignore: drift/non-idempotent\n    value               = timestamp()\n');
    const t2 = check(dir, "variables.tf", "input/reserved", true);
    expect(t2.startsWith("# tfcapi-lint-ignore-file: input/reserved\nvariable \"captf_contract\" {\n")).toBe(true);
  });

  it("native syntax: a finding inside a heredoc gets its comment above the attribute, not inside the text", () => {
    const dir = copyExample("machinepool-aws");
    writeFileSync(path.join(dir, "extra.tf"), 'resource "aws_instance" "x" {\n  ami       = "a"\n  user_data = <<-EOT\n    #!/bin/sh\n    echo ${timestamp()}\n  EOT\n}\n');
    const t = check(dir, "extra.tf", "drift/non-idempotent", false);
    expect(t).toBe('resource "aws_instance" "x" {\n  ami       = "a"\n  # tfcapi-lint-ignore: drift/non-idempotent\n  user_data = <<-EOT\n    #!/bin/sh\n    echo ${timestamp()}\n  EOT\n}\n');
  });

  it('JSON syntax: a "//" property in the block object, or in the top-level object', () => {
    const dir = copyExample("machinepool-aws");
    writeFileSync(
      path.join(dir, "extra.tf.json"),
      '{\n  "resource": {\n    "aws_s3_bucket": {\n      "b": {\n        "bucket": "x",\n        "tags": { "at": "${timestamp()}" }\n      }\n    }\n  }\n}\n',
    );
    const t = check(dir, "extra.tf.json", "drift/non-idempotent", false);
    expect(t).toBe(
      '{\n  "resource": {\n    "aws_s3_bucket": {\n      "b": {\n        "//": "tfcapi-lint-ignore: drift/non-idempotent",\n        "bucket": "x",\n        "tags": { "at": "${timestamp()}" }\n      }\n    }\n  }\n}\n',
    );
    JSON.parse(t);
    writeFileSync(path.join(dir, "extra.tf.json"), '{"resource": {"aws_s3_bucket": {"b": {"bucket": "x", "tags": {"at": "${uuid()}"}}}}}\n');
    const t2 = check(dir, "extra.tf.json", "drift/non-idempotent", true);
    expect(t2).toBe('{"//": "tfcapi-lint-ignore-file: drift/non-idempotent", "resource": {"aws_s3_bucket": {"b": {"bucket": "x", "tags": {"at": "${uuid()}"}}}}}\n');
    JSON.parse(t2);
  });
});

describe("placement and positions", () => {
  it("puts module-level findings in the file that would hold the declaration", () => {
    const files = ["main.tf", "outputs.tf", "variables.tf", "versions.tf"];
    expect(moduleLevelFile("output/required", files)).toBe("outputs.tf");
    expect(moduleLevelFile("input/required", files)).toBe("variables.tf");
    expect(moduleLevelFile("bootstrap/unused", files)).toBe("variables.tf");
    expect(moduleLevelFile("module/version", files)).toBe("versions.tf");
    expect(moduleLevelFile("output/health", ["a.tf", "b.tofu"])).toBe("a.tf");
    expect(moduleLevelFile("output/health", ["main.tf", "outputs.tofu"])).toBe("outputs.tofu");
    expect(moduleLevelFile("output/health", [])).toBeNull();
  });

  it("places every finding of the examples inside its file's text", () => {
    const o = lintModule(path.join(REPO, "examples", "broken-machinepool"), { now: NOW });
    if (o.kind !== "report") throw new Error(o.kind);
    const placed = placeFindings(o.report, new Indexes(o.report.sources, "utf-16"), BUILTIN_CATALOGUE);
    expect([...placed.keys()].sort()).toEqual(["main.tf", "outputs.tf", "variables.tf", "versions.tf"]);
    expect([...placed.values()].flat()).toHaveLength(o.report.findings.length);
  });

  it("converts positions between UTF-16, UTF-8 and UTF-32 both ways", () => {
    const text = "a = \"é🚀x\"\r\nb = 1\n";
    for (const [enc, xAt] of [["utf-16", 8], ["utf-8", 11], ["utf-32", 7]] as const) {
      const ix = new TextPositions(text, enc);
      const off = text.indexOf("x");
      expect(ix.position(off)).toEqual({ line: 0, character: xAt });
      expect(ix.offset({ line: 0, character: xAt })).toBe(off);
      expect(ix.positionAt(1, off + 1)).toEqual({ line: 0, character: xAt });
      expect(ix.lineText(0)).toBe('a = "é🚀x"');
      expect(ix.offset({ line: 0, character: 999 })).toBe(text.indexOf("\r"));
      expect(ix.position(text.indexOf("b"))).toEqual({ line: 1, character: 0 });
    }
    expect(chooseEncoding(["utf-32", "utf-8"])).toBe("utf-32");
    expect(chooseEncoding(undefined)).toBe("utf-16");
    expect(chooseEncoding(["latin1"])).toBe("utf-16");
  });
});

/**
 * The input/sensitive fix: applying it must give exactly the expected text,
 * the result must parse cleanly, and linting again must no longer report
 * the variable. Fixture cases plus generated edge cases (CRLF line endings,
 * a closing brace on the last argument's line, an empty block).
 */
import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import { applyFixes, fixesByFile } from "../src/lint/apply-fixes.js";
import { parseModuleFile as parseHcl } from "../src/terraform/parse.js";
import type { Finding } from "../src/lint/types.js";
import type { Role } from "../src/contract/roles-api.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const RULE = "input/sensitive";

function lint(dir: string, role: Role): Finding[] {
  const outcome = lintModule(dir, { role, only: [RULE], now: new Date("2026-01-01T00:00:00Z") });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome.report.findings;
}

interface Fixed {
  files: Map<string, { before: string; after: string }>;
  before: Finding[];
  after: Finding[];
}

/** Lint a copy of `src` (or of the files given), apply every fix, lint again. */
function fixIn(role: Role, populate: (dir: string) => void): Fixed {
  const work = mkdtempSync(path.join(tmpdir(), "tfcapi-inputs-fix-"));
  try {
    populate(work);
    const before = lint(work, role);
    const files = new Map<string, { before: string; after: string }>();
    for (const [file, fixes] of fixesByFile(before, undefined, "all")) {
      const abs = path.join(work, file);
      const text = readFileSync(abs, "utf8");
      const { text: after, applied } = applyFixes(text, file, fixes);
      expect(applied).toBe(fixes.length);
      writeFileSync(abs, after);
      files.set(file, { before: text, after });
      expect(parseHcl(after, file).diagnostics).toEqual([]);
    }
    return { files, before, after: lint(work, role) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function fixture(rel: string): Fixed {
  const src = path.join(FIXTURES, rel);
  const role = (JSON.parse(readFileSync(path.join(src, "expected.json"), "utf8")) as { role: Role }).role;
  return fixIn(role, (dir) => cpSync(moduleDirOf(src), dir, { recursive: true }));
}

function replaced(before: string, from: string, to: string): string {
  expect(before.split(from).length).toBe(2);
  return before.replace(from, to);
}

/** A machine module whose variables.tf is `variables` (other inputs in inputs.tf). */
function machineWith(variables: string): (dir: string) => void {
  return (dir) => {
    writeFileSync(path.join(dir, "variables.tf"), variables);
    writeFileSync(
      path.join(dir, "main.tf"),
      'resource "terraform_data" "bootstrap" {\n  input = sha256(var.bootstrap_data)\n}\n',
    );
  };
}

describe("input/sensitive fix", () => {
  it("adds sensitive = true after the last argument, at its indentation, aligned as terraform fmt aligns", () => {
    const r = fixture("input/sensitive/not-marked");
    expect(r.before.map((f) => f.fix?.description)).toEqual(['Mark variable "bootstrap_data" sensitive']);
    const v = r.files.get("variables.tf")!;
    expect(v.after).toBe(
      replaced(
        v.before,
        '  description = "Base64-encoded bootstrap data (cloud-init or ignition)."\n  type        = string\n}',
        '  description = "Base64-encoded bootstrap data (cloud-init or ignition)."\n  type        = string\n  sensitive   = true\n}',
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("turns sensitive = false into true", () => {
    const r = fixture("input/sensitive/marked-false");
    const v = r.files.get("variables.tf")!;
    expect(v.after).toBe(replaced(v.before, "sensitive = false", "sensitive = true"));
    expect(r.after).toEqual([]);
  });

  it("leaves a one-line block alone", () => {
    const r = fixture("input/sensitive/one-line-block");
    expect(r.before).toHaveLength(1);
    expect(r.before[0]!.fix).toBeUndefined();
    expect(r.files.size).toBe(0);
    expect(r.after).toHaveLength(1);
  });

  it("adds a property to the JSON variable object", () => {
    const r = fixture("input/sensitive/json-not-marked");
    const v = r.files.get("bootstrap.tf.json")!;
    expect(v.after).toBe(
      replaced(
        v.before,
        '"description": "Base64-encoded bootstrap data."\n',
        '"description": "Base64-encoded bootstrap data.",\n      "sensitive": true\n',
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("keeps CRLF line endings", () => {
    const text = 'variable "bootstrap_data" {\r\n    type = string\r\n}\r\n';
    const r = fixIn("machine", machineWith(text));
    expect(r.files.get("variables.tf")!.after).toBe(
      'variable "bootstrap_data" {\r\n    type      = string\r\n    sensitive = true\r\n}\r\n',
    );
    expect(r.after).toEqual([]);
  });

  it("fills an empty block, one level deeper than its braces", () => {
    const text = 'variable "bootstrap_data" {\n}\n';
    const r = fixIn("machine", machineWith(text));
    expect(r.files.get("variables.tf")!.after).toBe('variable "bootstrap_data" {\n  sensitive = true\n}\n');
    expect(r.after).toEqual([]);
  });

  it("inserts before a validation block", () => {
    const text = [
      'variable "bootstrap_data" {',
      "  type = string",
      "",
      "  validation {",
      "    condition     = can(base64decode(var.bootstrap_data))",
      '    error_message = "bootstrap_data must be base64."',
      "  }",
      "}",
      "",
    ].join("\n");
    const r = fixIn("machine", machineWith(text));
    expect(r.files.get("variables.tf")!.after).toBe(text.replace("  type = string\n", "  type      = string\n  sensitive = true\n"));
    expect(r.after).toEqual([]);
  });

  it("extends a one-line JSON object inline", () => {
    const r = fixIn("machine", (dir) => {
      writeFileSync(path.join(dir, "bootstrap.tf.json"), '{"variable": {"bootstrap_data": {"type": "string"}}}\n');
      writeFileSync(path.join(dir, "main.tf"), 'output "digest" {\n  value = sha256(var.bootstrap_data)\n}\n');
    });
    expect(r.files.get("bootstrap.tf.json")!.after).toBe('{"variable": {"bootstrap_data": {"type": "string", "sensitive": true}}}\n');
    expect(r.after).toEqual([]);
  });

  it("fills an empty JSON object", () => {
    const r = fixIn("machine", (dir) => {
      writeFileSync(path.join(dir, "bootstrap.tf.json"), '{\n  "variable": {\n    "bootstrap_data": {}\n  }\n}\n');
    });
    expect(r.files.get("bootstrap.tf.json")!.after).toBe('{\n  "variable": {\n    "bootstrap_data": {"sensitive": true}\n  }\n}\n');
    expect(r.after).toEqual([]);
  });
});

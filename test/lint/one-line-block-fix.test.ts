/**
 * syntax/one-line-block says which form of one-line block Terraform rejects
 * (arguments separated by commas; an argument on the line of the `{` with the
 * `}` on a later line) and its fix turns each into valid, aligned HCL.
 */
import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { fixOnDisk } from "../../src/cli/fix-run.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { type LintOptions } from "../../src/lint/engine.js";
import { engineOptions, lintModule } from "../helpers/lint.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/syntax/one-line-block");
const opts: LintOptions = { role: "machinepool", only: ["syntax/one-line-block"] };

function fixed(name: string): { message: string; before: string; after: string } {
  const work = mkdtempSync(path.join(tmpdir(), "tfcapi-one-line-"));
  try {
    cpSync(moduleDirOf(path.join(FIXTURES, name)), work, { recursive: true });
    const first = lintModule(work, opts);
    if (first.kind !== "report") throw new Error(first.message);
    expect(first.report.findings.map((f) => [f.ruleId, f.fix?.description])).toEqual([["syntax/one-line-block", "Expand the block to one argument per line"]]);
    const before = readFileSync(path.join(work, "instance.tf"), "utf8");
    const run = fixOnDisk(work, engineOptions(opts), first, "safe");
    expect(run.applied).toBe(1);
    const after = readFileSync(path.join(work, "instance.tf"), "utf8");
    expect(parseHcl(after, "instance.tf").diagnostics).toEqual([]);
    if (run.outcome.kind !== "report") throw new Error("lint failed");
    expect(run.outcome.report.findings).toEqual([]);
    return { message: first.report.findings[0]!.message, before, after };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

describe("syntax/one-line-block messages and fixes", () => {
  it("arguments separated by a comma", () => {
    const r = fixed("comma-separated");
    expect(r.message).toBe(
      'variable "instance_type" is written on one line with 2 arguments separated by a comma, which Terraform rejects (a one-line block may hold a single argument, and arguments are separated by line breaks, not commas); put each argument on its own line',
    );
    expect(r.after).toBe(
      r.before.replace('variable "instance_type" { type = string, default = "m6i.large" }', 'variable "instance_type" {\n  type    = string\n  default = "m6i.large"\n}'),
    );
  });

  it("an argument on the line of the brace, closed on a later line", () => {
    const r = fixed("argument-on-brace-line");
    expect(r.message).toBe(
      'variable "instance_type" has an argument on the line of its "{" but closes on a later line, which Terraform rejects (a block that holds an argument on its first line must close on that line); put the argument on its own line',
    );
    expect(r.after).toBe(r.before.replace('variable "instance_type" { type = string\n}', 'variable "instance_type" {\n  type = string\n}'));
  });

  it("two arguments without a separator keep the message they had", () => {
    const outcome = lintModule(moduleDirOf(path.join(FIXTURES, "two-arguments")), opts);
    if (outcome.kind !== "report") throw new Error(outcome.message);
    expect(outcome.report.findings.map((f) => f.message)).toEqual([
      'variable "instance_type" is written on one line with 2 arguments, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line',
    ]);
  });
});

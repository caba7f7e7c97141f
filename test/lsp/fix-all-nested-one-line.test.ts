/**
 * The language server's *Fix all* on one-line blocks nested in one-line
 * blocks: the same passes and syntax guard as --fix, so the edits it offers
 * turn the buffer into valid HCL with every level split, never a text with
 * unbalanced braces.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseModuleFile } from "../../src/terraform/parse.js";
import { applyEdits, uri, workspace } from "./client.js";

const BUG = 'resource "terraform_data" "y" { nested { nested { nested { a = 1 b = 2 } } } }\n';
const FIXED = 'resource "terraform_data" "y" {\n  nested {\n    nested {\n      nested {\n        a = 1\n        b = 2\n      }\n    }\n  }\n}\n';

const ws = workspace("lsp-nested", { copy: { vm: "examples/machine-aws" } });

describe("Fix all on nested one-line blocks", () => {
  it("splits every level into valid HCL, and leaves the file on disk alone", async () => {
    const c = await ws.start();
    const bug = ws.at("vm", "bug.tf");
    await c.open(bug, BUG);
    const found = await c.latest(uri(bug), (d) => d.some((x) => x.code === "syntax/one-line-block"));
    expect(found.map((d) => [d.code, d.range.start])).toEqual([["syntax/one-line-block", { line: 0, character: 32 }]]);
    const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await c.codeActions(bug, at, ["source.fixAll"]);
    expect(actions.map((a) => a.title)).toEqual(["Fix all auto-fixable tfcapi-lint findings in this file"]);
    const fixed = applyEdits(BUG, actions[0]!.edit!.changes![uri(bug)]!);
    expect(fixed).toBe(FIXED);
    expect(parseModuleFile(fixed, "bug.tf").diagnostics).toEqual([]);
    expect(() => readFileSync(bug, "utf8")).toThrow();
    expect(await c.stop()).toBe(0);
  });
});

/**
 * The language server's *Fix all* with a plugin fix that never settles:
 * as with --fix, that rule's fixes are left out (never applied ten times),
 * the other rules' fixes are offered, and the user is warned once, by name.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DESCRIBED, LOOP_PLUGIN, ORIGINAL } from "../plugins/loop-plugin.js";
import { applyEdits, uri, workspace } from "./client.js";

const ws = workspace("lsp-settle", {
  copy: { pool: "examples/machinepool-aws" },
  files: { "lint/loop.mjs": LOOP_PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/loop.mjs"]\n' },
});

describe("Fix all with a fix that does not settle", () => {
  it("offers only the fixes that settle, and warns once naming the rule", async () => {
    const c = await ws.start();
    const main = ws.at("pool", "main.tf");
    await c.open(main, ORIGINAL);
    await c.latest(uri(main), (d) => d.some((x) => x.code === "loop/stamp") && d.some((x) => x.code === "loop/described"));
    const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    for (let i = 0; i < 2; i++) {
      const actions = await c.codeActions(main, at, ["source.fixAll"]);
      expect(actions.map((a) => a.title)).toEqual(["Fix all auto-fixable tfcapi-lint findings in this file"]);
      const edits = actions[0]!.edit!.changes![uri(main)]!;
      expect(applyEdits(ORIGINAL, edits)).toBe(DESCRIBED);
    }
    expect(c.messages).toEqual([
      {
        type: 2,
        message: "tfcapi-lint: the fixes of rule loop/stamp did not settle in 10 passes (each pass changed main.tf again); Fix all leaves them out and applies the other rules' fixes",
      },
    ]);
    expect(readFileSync(main, "utf8")).toBe(ORIGINAL);
    expect(await c.stop()).toBe(0);
  });
});

/**
 * The language server makes *Fix all* once per lint result: editors ask for
 * code actions every time the cursor moves, and Fix all lints the module
 * again after each pass. A plugin rule counts the module's lints in a file.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DESCRIBED, LOOP_PLUGIN, ORIGINAL } from "../plugins/loop-plugin.js";
import { applyEdits, uri, workspace } from "./client.js";

/** The loop plugin's settled rule alone, plus a rule that appends a line to lints.log on every lint of the module. */
const COUNTING_PLUGIN = LOOP_PLUGIN.replace(
  "  rules: [",
  `  rules: [
    {
      id: "loop/count",
      severity: "info",
      roles: ["machinepool"],
      summary: "Counts the lints of the module",
      check() {
        appendFileSync(new URL("./lints.log", import.meta.url), "lint\\n");
      },
    },`,
).replace("export default", 'import { appendFileSync } from "node:fs";\nexport default');

const ws = workspace("lsp-fix-all-once", {
  copy: { pool: "examples/machinepool-aws" },
  files: {
    "lint/count.mjs": COUNTING_PLUGIN,
    "lint/lints.log": "",
    ".tfcapi-lint.hcl": 'plugins = ["./lint/count.mjs"]\n\nrule "loop/stamp" {\n  severity = "off"\n}\n',
  },
});

const lints = (): number => readFileSync(ws.at("lint", "lints.log"), "utf8").split("\n").filter(Boolean).length;

describe("Fix all, asked for again and again", () => {
  it("lints the module for it once per lint result, and again after an edit", async () => {
    const c = await ws.start();
    const main = ws.at("pool", "main.tf");
    await c.open(main, ORIGINAL);
    await c.latest(uri(main), (d) => d.some((x) => x.code === "loop/described"));
    const shown = lints();
    const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const first = await c.codeActions(main, at);
    expect(first.map((a) => a.title)).toEqual(["Fix all auto-fixable tfcapi-lint findings in this file"]);
    expect(applyEdits(ORIGINAL, first[0]!.edit!.changes![uri(main)]!)).toBe(DESCRIBED);
    // One pass: the fixed text linted once to see that nothing is left.
    const afterFirst = lints();
    expect(afterFirst).toBe(shown + 1);
    for (let i = 0; i < 3; i++) {
      const again = await c.codeActions(main, at);
      expect(again).toEqual(first);
      await c.codeActions(main, at, ["source.fixAll"]);
    }
    expect(lints()).toBe(afterFirst);
    // An edit makes a new lint result: Fix all is made again, for the new text.
    const edited = ORIGINAL.replace("resource", "# edited\nresource");
    await c.change(main, edited);
    await c.latest(uri(main), (d) => d.some((x) => x.code === "loop/described" && x.range.start.line === 32));
    const relinted = lints();
    const fresh = await c.codeActions(main, at);
    expect(applyEdits(edited, fresh[0]!.edit!.changes![uri(main)]!)).toBe(DESCRIBED.replace("resource", "# edited\nresource"));
    expect(lints()).toBe(relinted + 1);
    expect(await c.stop()).toBe(0);
  });
});

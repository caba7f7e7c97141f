/**
 * A module that shows no CAPTF role yet (a file just created, a helper
 * module) still gets the syntax findings Terraform would reject it for; the
 * contract rules stay silent until a role is known.
 */
import { expect, it } from "vitest";
import { uri, workspace } from "./client.js";

const ws = workspace("lsp-norole", { dirs: ["new"] });

it("an unsaved file of a module with no role shows its syntax errors, and they clear when fixed", async () => {
  const c = await ws.start();
  const main = ws.at("new", "main.tf");
  await c.open(main, 'variable "x" {\n');
  const shown = await c.latest(uri(main), (d) => d.length > 0);
  expect(shown.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character])).toEqual([["syntax/parse", 1, 0, 13]]);
  expect(shown[0]!.message).toMatch(/^Unclosed configuration block/);
  await c.change(main, 'variable "x" {\n  type = string\n}\n');
  expect(await c.latest(uri(main), (d) => d.length === 0)).toEqual([]);
});

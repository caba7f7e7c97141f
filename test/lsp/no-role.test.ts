/**
 * A module that shows no CAPTF role yet (a file just created, a helper
 * module) still gets the syntax findings Terraform would reject it for; the
 * contract rules stay silent until a role is known.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { LspClient, uri } from "./client.js";

let root: string;
let c: LspClient | undefined;

beforeAll(() => {
  ensureBuilt();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-lsp-norole-")));
  mkdirSync(path.join(root, ".git"));
  mkdirSync(path.join(root, "new"));
});
afterAll(() => {
  c?.kill();
  rmSync(root, { recursive: true, force: true });
});

it("an unsaved file of a module with no role shows its syntax errors, and they clear when fixed", async () => {
  c = new LspClient({ cwd: root });
  await c.initialize({}, { debounceMs: 0 }, root);
  await c.initialized();
  const main = path.join(root, "new", "main.tf");
  await c.open(main, 'variable "x" {\n');
  const shown = await c.latest(uri(main), (d) => d.length > 0);
  expect(shown.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character])).toEqual([["syntax/parse", 1, 0, 13]]);
  expect(shown[0]!.message).toMatch(/^Unclosed configuration block/);
  await c.change(main, 'variable "x" {\n  type = string\n}\n');
  expect(await c.latest(uri(main), (d) => d.length === 0)).toEqual([]);
});

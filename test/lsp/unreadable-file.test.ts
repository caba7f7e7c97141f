/**
 * A finding about a module file the server has no text for (a link that
 * cannot be resolved) is shown where module-level findings go, as the CLI
 * reports it, instead of being dropped.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { LspClient, REPO, uri } from "./client.js";

let root: string;
let c: LspClient | undefined;

beforeAll(() => {
  ensureBuilt();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-lsp-loop-")));
  mkdirSync(path.join(root, ".git"));
  cpSync(path.join(REPO, "examples", "machine-aws"), path.join(root, "m"), { recursive: true });
  symlinkSync("loop.tf", path.join(root, "m", "loop.tf"));
});
afterAll(() => {
  c?.kill();
  rmSync(root, { recursive: true, force: true });
});

it("a module file link that loops is reported on versions.tf", async () => {
  c = new LspClient({ cwd: root });
  await c.initialize({}, { debounceMs: 0 }, root);
  await c.initialized();
  const main = path.join(root, "m", "main.tf");
  await c.open(main, readFileSync(main, "utf8"));
  const shown = await c.latest(uri(path.join(root, "m", "versions.tf")), (d) => d.length > 0);
  expect(shown).toEqual([
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 11 } },
      severity: 1,
      code: "module/source-escape",
      codeDescription: { href: "https://github.com/captf-io/tfcapi-lint/blob/main/rules/module/source-escape.md" },
      source: "tfcapi-lint",
      message: "module file loop.tf is a symbolic link that cannot be resolved (too many levels of symbolic links)",
    },
  ]);
});

/**
 * A finding about a module file the server has no text for (a link that
 * cannot be resolved) is shown where module-level findings go, as the CLI
 * reports it, instead of being dropped.
 */
import { readFileSync, symlinkSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { uri, workspace } from "./client.js";

const ws = workspace("lsp-loop", { copy: { m: "examples/machine-aws" } });
beforeAll(() => symlinkSync("loop.tf", ws.at("m", "loop.tf")));

it("a module file link that loops is reported on versions.tf", async () => {
  const c = await ws.start();
  const main = ws.at("m", "main.tf");
  await c.open(main, readFileSync(main, "utf8"));
  const shown = await c.latest(uri(ws.at("m", "versions.tf")), (d) => d.length > 0);
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

/**
 * Plugins off in the language server (`tfcapi-lint lsp --no-plugins`, or
 * initializationOptions.plugins = false), as an editor starts it for a
 * folder it does not trust: a config that lists a plugin loads nothing (the
 * plugin's module is never even imported), its rule does not run, and the
 * user is told once per config file with window/showMessage. An ignore
 * comment naming the unloaded plugin's rule is not an unknown rule.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LspClient, uri, workspace, type Diagnostic } from "./client.js";

/** A plugin that leaves a marker file next to itself when it is imported, and reports every launch template. */
const PLUGIN = `
import { writeFileSync } from "node:fs";
writeFileSync(new URL("./imported.txt", import.meta.url), "the plugin was imported\\n");

export default {
  name: "acme",
  rules: [
    {
      id: "acme/template-owner",
      severity: "error",
      roles: ["machinepool"],
      summary: "Launch templates say what they are for",
      check(ctx) {
        for (const r of ctx.expressions.resources.values()) {
          if (r.type === "aws_launch_template") ctx.report({ message: r.address + " has no description; add one", file: r.file, range: r.block.labelRanges[1] });
        }
      },
    },
  ],
};
`;

const ws = workspace("lsp-no-plugins", {
  copy: { pool: "examples/machinepool-aws" },
  files: { "lint/acme.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n\nrule "acme/template-owner" {\n  severity = "warning"\n}\n' },
  killAfterEach: true,
});
const marker = (): string => ws.at("lint", "imported.txt");
const main = (): string => ws.at("pool", "main.tf");
const config = (): string => ws.at(".tfcapi-lint.hcl");

/** main.tf with an ignore comment naming the plugin's rule and one naming no rule at all, above the launch template. */
function withIgnores(): string {
  const text = readFileSync(main(), "utf8");
  const edited = text.replace(
    'resource "aws_launch_template" "node" {',
    '# tfcapi-lint-ignore: acme/template-owner -- described elsewhere\n# tfcapi-lint-ignore: input/no-such-rule -- a typo\nresource "aws_launch_template" "node" {',
  );
  expect(edited).not.toBe(text);
  return edited;
}

/** Open main.tf and the other module files, change main.tf once more, and return main.tf's last diagnostics. */
async function lintTwice(client: LspClient): Promise<Diagnostic[]> {
  const text = withIgnores();
  await client.open(main(), text);
  await client.latest(uri(main()), (d) => d.some((x) => x.code === "lint/unknown-rule"));
  const variables = ws.at("pool", "variables.tf");
  await client.open(variables, readFileSync(variables, "utf8"));
  await client.change(main(), `${text}\n`);
  return client.nextDiagnostics(uri(main()));
}

const MESSAGE = (why: string): string =>
  `tfcapi-lint: plugins are off (${why}), so the plugin listed in ${ws.at(".tfcapi-lint.hcl")} (./lint/acme.mjs) was not loaded and its rules do not run. ` +
  "Plugins are code from the folder: turn them on only for a folder you trust.";

describe("the language server with plugins off", () => {
  it("--no-plugins: the plugin is not imported, its rule does not run, and the user is told once", async () => {
    // An initialization option cannot turn them back on.
    const c = await ws.start({}, { debounceMs: 0, plugins: true }, { args: ["lsp", "--stdio", "--no-plugins"] });
    const diags = await lintTwice(c);
    expect(diags.map((d) => [d.code, d.range.start.line, d.message])).toEqual([
      ["lint/unknown-rule", 32, 'tfcapi-lint-ignore names "input/no-such-rule", which is not a tfcapi-lint rule; run "tfcapi-lint rules" for the list'],
    ]);
    expect(c.messages).toEqual([{ type: 2, message: MESSAGE("--no-plugins") }]);
    expect(existsSync(marker())).toBe(false);
    expect(c.diagnostics.get(uri(config())) ?? []).toEqual([]);
    expect(await c.stop()).toBe(0);
  });

  it("initializationOptions.plugins = false does the same", async () => {
    const c = await ws.start({}, { debounceMs: 0, plugins: false });
    const diags = await lintTwice(c);
    expect(diags.map((d) => d.code)).toEqual(["lint/unknown-rule"]);
    expect(c.messages).toEqual([{ type: 2, message: MESSAGE("initializationOptions.plugins is false") }]);
    expect(existsSync(marker())).toBe(false);
    expect(await c.stop()).toBe(0);
  });

  it("without either, the same folder's plugin is imported and its rule runs (what the tests above keep out)", async () => {
    const c = await ws.start();
    await c.open(main(), readFileSync(main(), "utf8"));
    const diags = await c.latest(uri(main()), (d) => d.some((x) => x.code === "acme/template-owner"));
    expect(diags.map((d) => [d.code, d.range.start.line, d.severity])).toEqual([["acme/template-owner", 31, 2]]);
    expect(c.messages).toEqual([]);
    expect(existsSync(marker())).toBe(true);
    rmSync(marker());
    expect(await c.stop()).toBe(0);
  });
});

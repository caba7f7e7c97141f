/**
 * The language server runs the plugins the module's config lists, as the
 * CLI does: their findings, with the config's severity and the rule's url,
 * the rule's docs on hover, and a plugin that cannot be loaded shown on the
 * config file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LspClient, uri, workspace } from "./client.js";

const PLUGIN = `
export default {
  name: "acme",
  rules: [
    {
      id: "acme/template-owner",
      severity: "error",
      roles: ["machinepool"],
      summary: "Launch templates say what they are for",
      docs: "# acme/template-owner\\n\\nEvery launch template has a description.\\n",
      url: "https://example.test/acme/template-owner",
      check(ctx) {
        for (const r of ctx.expressions.resources.values()) {
          if (r.type === "aws_launch_template" && !r.body.attributes.some((a) => a.name === "description")) {
            ctx.report({ message: r.address + " has no description; add one", file: r.file, range: r.block.labelRanges[1] });
          }
        }
      },
    },
  ],
};
`;

const ws = workspace("lsp-plugins", {
  copy: { "good/pool": "examples/machinepool-aws", "bad/pool": "examples/machinepool-aws", "fixme/pool": "examples/machinepool-aws" },
  files: {
    "good/lint/acme.mjs": PLUGIN,
    "good/.tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n\nrule "acme/template-owner" {\n  severity = "warning"\n}\n',
    "bad/lint/acme.mjs": PLUGIN,
    "bad/.tfcapi-lint.hcl": 'plugins = ["./lint/missing.mjs"]\n',
    // A plugin with a syntax error, fixed while the server runs.
    "fixme/lint/acme.mjs": "export default {\n",
    "fixme/.tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n',
  },
});
let c: LspClient | undefined;

describe("plugins in the language server", () => {
  it("shows a plugin rule's findings with the config's severity, and its docs on hover", async () => {
    c = await ws.start();
    const main = ws.at("good", "pool", "main.tf");
    await c.open(main, readFileSync(main, "utf8"));
    const diags = await c.latest(uri(main), (d) => d.some((x) => x.code === "acme/template-owner"));
    expect(diags.filter((d) => d.code === "acme/template-owner")).toEqual([
      {
        range: { start: { line: 31, character: 31 }, end: { line: 31, character: 37 } },
        severity: 2,
        code: "acme/template-owner",
        codeDescription: { href: "https://example.test/acme/template-owner" },
        source: "tfcapi-lint",
        message: "aws_launch_template.node has no description; add one",
      },
    ]);
    const hover = await c.hover(main, { line: 31, character: 33 });
    expect(hover?.contents.value).toContain("Every launch template has a description.");
  });

  it("a plugin that cannot be loaded is an error on the config file", async () => {
    const main = ws.at("bad", "pool", "main.tf");
    await c!.open(main, readFileSync(main, "utf8"));
    const config = ws.at("bad", ".tfcapi-lint.hcl");
    const diags = await c!.latest(uri(config), (d) => d.length > 0);
    expect(diags).toEqual([
      {
        range: { start: { line: 0, character: 11 }, end: { line: 0, character: 32 } },
        severity: 1,
        source: "tfcapi-lint",
        message: `config error: plugin "./lint/missing.mjs": ${ws.at("bad", "lint", "missing.mjs")} does not exist`,
      },
    ]);
  });

  it("a plugin that failed to load is loaded again on the next lint once it is fixed, without a restart", async () => {
    const main = ws.at("fixme", "pool", "main.tf");
    const text = readFileSync(main, "utf8");
    await c!.open(main, text);
    const config = ws.at("fixme", ".tfcapi-lint.hcl");
    const broken = await c!.latest(uri(config), (d) => d.length > 0);
    expect(broken.map((d) => d.message)).toEqual([expect.stringMatching(/^config error: plugin "\.\/lint\/acme\.mjs": cannot be loaded: /)]);
    // Another name than the good module's plugin: one process loads both.
    writeFileSync(ws.at("fixme", "lint", "acme.mjs"), PLUGIN.replace('name: "acme"', 'name: "fixed"').replaceAll("acme/template-owner", "fixed/template-owner"));
    await c!.change(main, text + "\n");
    const diags = await c!.latest(uri(main), (d) => d.some((x) => x.code === "fixed/template-owner"));
    expect(diags.filter((d) => d.code === "fixed/template-owner").map((d) => [d.range.start.line, d.range.start.character, d.severity])).toEqual([[31, 31, 1]]);
    expect(await c!.latest(uri(config), (d) => d.length === 0)).toEqual([]);
  });
});

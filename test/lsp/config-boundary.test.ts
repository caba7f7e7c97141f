/**
 * The language server looks a module's `.tfcapi-lint.hcl` up as the CLI
 * does: outside git, not above the home directory when the module is under
 * it, else not above the server's working directory.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { LspClient, uri, workspace } from "./client.js";

// top/.tfcapi-lint.hcl turns bootstrap/encoding off; the module is top/home/proj/pool; no .git anywhere.
const top = workspace("lsp-home", {
  git: false,
  files: { ".tfcapi-lint.hcl": 'rule "bootstrap/encoding" {\n  severity = "off"\n}\n' },
  copy: { "home/proj/pool": "examples/broken-machinepool" },
});
const mod = (): string => top.at("home", "proj", "pool");

async function encodingFindings(home: string): Promise<number> {
  const c = new LspClient({ cwd: top.root, env: { HOME: home } });
  try {
    await c.initialize({}, { debounceMs: 0 }, mod());
    await c.initialized();
    const main = path.join(mod(), "main.tf");
    await c.open(main, readFileSync(main, "utf8"));
    const diags = await c.latest(uri(main), (d) => d.length > 0);
    expect(c.stderr).toBe("");
    return diags.filter((d) => d.code === "bootstrap/encoding").length;
  } finally {
    c.kill();
  }
}

describe("config lookup of the language server outside git", () => {
  it("stops at the home directory when the module is under it: the file above home is not read", async () => {
    expect(await encodingFindings(top.at("home"))).toBe(1);
  });

  it("with the module outside home, stops at the working directory: the file there is read", async () => {
    expect(await encodingFindings(path.join(tmpdir(), "tfcapi-lint-no-such-home"))).toBe(0);
  });
});

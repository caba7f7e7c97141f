/**
 * The language server looks a module's `.tfcapi-lint.hcl` up as the CLI
 * does: outside git, not above the home directory when the module is under
 * it, else not above the server's working directory.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { LspClient, REPO, uri } from "./client.js";

let top: string;
let mod: string;

beforeAll(() => {
  ensureBuilt();
  // top/.tfcapi-lint.hcl turns bootstrap/encoding off; the module is top/home/proj/pool; no .git anywhere.
  top = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-lsp-home-")));
  writeFileSync(path.join(top, ".tfcapi-lint.hcl"), 'rule "bootstrap/encoding" {\n  severity = "off"\n}\n');
  mod = path.join(top, "home", "proj", "pool");
  mkdirSync(path.dirname(mod), { recursive: true });
  cpSync(path.join(REPO, "examples", "broken-machinepool"), mod, { recursive: true });
});
afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

async function encodingFindings(home: string): Promise<number> {
  const c = new LspClient({ cwd: top, env: { HOME: home } });
  try {
    await c.initialize({}, { debounceMs: 0 }, mod);
    await c.initialized();
    const main = path.join(mod, "main.tf");
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
    expect(await encodingFindings(path.join(top, "home"))).toBe(1);
  });

  it("with the module outside home, stops at the working directory: the file there is read", async () => {
    expect(await encodingFindings(path.join(tmpdir(), "tfcapi-lint-no-such-home"))).toBe(0);
  });
});

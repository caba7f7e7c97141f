/**
 * The editor setups the README and editors/ document: the VS Code extension
 * folder is valid JSON and JavaScript that starts `tfcapi-lint lsp`; the
 * Neovim snippets compile as Lua; and the server commands of the Neovim and
 * Helix configurations start a server that initializes and exits cleanly.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { LspClient, REPO } from "./client.js";

const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const editors = README.slice(README.indexOf("### Editors"), README.indexOf("### Releases for pre-commit"));

describe("editors/vscode", () => {
  const dir = path.join(REPO, "editors", "vscode");
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    main: string;
    engines: { vscode: string };
    activationEvents: string[];
    dependencies: Record<string, string>;
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };

  it("is an extension manifest whose main file is valid JavaScript", () => {
    expect(pkg.main).toBe("./extension.js");
    expect(pkg.engines.vscode).toMatch(/^\^1\.\d+\.\d+$/);
    expect(Object.keys(pkg.dependencies)).toEqual(["vscode-languageclient"]);
    expect(pkg.activationEvents).toEqual(["workspaceContains:**/*.tf", "workspaceContains:**/*.tf.json", "workspaceContains:**/*.tofu", "workspaceContains:**/*.tofu.json"]);
    expect(pkg.contributes.configuration.properties["tfcapi-lint.debounceMs"]!.default).toBe(75);
    const check = spawnSync(process.execPath, ["--check", path.join(dir, "extension.js")], { encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
  });

  it("starts `tfcapi-lint lsp` over stdio for the four module file patterns", () => {
    const src = readFileSync(path.join(dir, "extension.js"), "utf8");
    expect(src).toContain('require("vscode-languageclient/node")');
    expect(src).toContain('{ command, args: ["lsp"], transport: TransportKind.stdio }');
    expect(src).toContain('[{ scheme: "file", pattern: "**/*.{tf,tf.json,tofu,tofu.json}" }]');
  });
});

/** The Lua code blocks of the README's Editors section. */
const luaBlocks = [...editors.matchAll(/^```lua\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const nvim = spawnSync("nvim", ["--version"], { encoding: "utf8" });

describe("Neovim configuration", () => {
  it.skipIf(nvim.status !== 0 && !process.env.CI)("compiles as Lua (README snippet and editors/nvim/tfcapi-lint.lua)", () => {
    expect(luaBlocks).toHaveLength(1);
    const tmp = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-lua-"));
    try {
      const snippet = path.join(tmp, "snippet.lua");
      writeFileSync(snippet, luaBlocks[0]!);
      for (const file of [snippet, path.join(REPO, "editors", "nvim", "tfcapi-lint.lua")]) {
        const r = spawnSync("nvim", ["--headless", "--clean", "-c", `lua assert(loadfile(${JSON.stringify(file)}))`, "-c", "qall!"], { encoding: "utf8", timeout: 30_000 });
        expect(r.status, `${file}: ${r.stderr}`).toBe(0);
        expect(r.stderr, file).toBe("");
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

/** Start the command a configuration names (with this checkout's CLI for `tfcapi-lint`), initialize, shut down. */
async function startsAServer(args: string[]): Promise<void> {
  const c = new LspClient({ cwd: REPO, args });
  try {
    const init = await c.initialize();
    expect(init.capabilities.hoverProvider).toBe(true);
    await c.initialized();
    expect(await c.stop()).toBe(0);
  } finally {
    c.kill();
  }
}

describe("the server commands the configurations name", () => {
  ensureBuilt();

  it("Neovim: cmd = { tfcapi-lint, lsp, --stdio } (README and editors/nvim)", async () => {
    const cmd = /cmd = \{ "tfcapi-lint", ((?:"[^"]+"(?:, )?)+) \}/.exec(luaBlocks[0]!)![1]!;
    const args = [...cmd.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(args).toEqual(["lsp", "--stdio"]);
    expect(readFileSync(path.join(REPO, "editors", "nvim", "tfcapi-lint.lua"), "utf8")).toContain('{ "tfcapi-lint", "lsp", "--stdio" }');
    await startsAServer(args);
  });

  it("Helix: [language-server.tfcapi-lint] command and args", async () => {
    const toml = /^```toml\n([\s\S]*?)^```$/m.exec(editors)![1]!;
    expect(toml).toMatch(/^\[language-server\.tfcapi-lint\]\ncommand = "tfcapi-lint"\n/m);
    const args = JSON.parse(/^args = (\[.*\])$/m.exec(toml)![1]!) as string[];
    expect(args).toEqual(["lsp", "--stdio"]);
    expect(toml).toMatch(/^language-servers = \[.*"tfcapi-lint".*\]$/m);
    await startsAServer(args);
  });

  it("`tfcapi-lint --stdio` alone starts the server too", async () => {
    await startsAServer(["--stdio"]);
  });
});

describe("start-up", () => {
  it("a lint run loads neither dist/lsp.cjs nor vscode-languageserver, and the CLI bundle holds no server code", () => {
    ensureBuilt();
    const probe = (args: string[]) =>
      spawnSync(
        process.execPath,
        [
          "-e",
          `const { main } = require(${JSON.stringify(path.join(REPO, "dist", "cli-loader.cjs"))});
           main(${JSON.stringify(args)}, { stdout() {}, stderr() {}, readStdin: async () => "", env: {}, cwd: process.cwd(), isTTY: false })
             .then((code) => { process.stdout.write(JSON.stringify({ code, loaded: Object.keys(require.cache).map((k) => k.split("/").slice(-2).join("/")) })); process.exit(0); });`,
        ],
        { cwd: REPO, encoding: "utf8", input: "" },
      );
    const lint = JSON.parse(probe(["examples/machinepool-aws"]).stdout) as { code: number; loaded: string[] };
    expect(lint.code).toBe(0);
    expect(lint.loaded.filter((k) => /lsp|vscode/.test(k))).toEqual([]);
    expect(readFileSync(path.join(REPO, "dist", "cli.cjs"), "utf8")).not.toMatch(/vscode-languageserver|createConnection/);
  });
});

/**
 * The editor setups the README and editors/ document: the VS Code extension
 * folder is valid JSON and JavaScript that starts `tfcapi-lint lsp`; the
 * Neovim snippets compile as Lua; and the server commands of the Neovim and
 * Helix configurations start a server that initializes and exits cleanly.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { LspClient, REPO, uri } from "./client.js";

const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const editors = README.slice(README.indexOf("### Editors"), README.indexOf("### Releases for pre-commit"));

describe("editors/vscode", () => {
  const dir = path.join(REPO, "editors", "vscode");
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    main: string;
    engines: { vscode: string };
    activationEvents: string[];
    dependencies: Record<string, string>;
    capabilities: { untrustedWorkspaces: { supported: string | boolean; description: string; restrictedConfigurations: string[] } };
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
    expect(src).toContain("{ command: server.command, args: server.args, transport: TransportKind.stdio }");
    expect(src).toContain("initializationOptions: { debounceMs: config.get(\"debounceMs\"), plugins: server.plugins }");
    expect(src).toContain('[{ scheme: "file", pattern: "**/*.{tf,tf.json,tofu,tofu.json}" }]');
  });

  it("declares limited support for untrusted workspaces, with the executable setting restricted", () => {
    expect(pkg.capabilities.untrustedWorkspaces.supported).toBe("limited");
    expect(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual(["tfcapi-lint.path"]);
    expect(pkg.capabilities.untrustedWorkspaces.description).toContain("no rule plugins");
    const src = readFileSync(path.join(dir, "extension.js"), "utf8");
    expect(src).toContain("vscode.workspace.isTrusted");
    expect(src).toContain("vscode.workspace.onDidGrantWorkspaceTrust");
    expect(src).toContain("showInformationMessage(UNTRUSTED_NOTICE)");
  });

  describe("which server it starts (serverCommand)", () => {
    // extension.js loads vscode only when activated: its choice of server is plain code.
    const ext = createRequire(import.meta.url)(path.join(dir, "extension.js")) as {
      serverCommand(w: { trusted: boolean; configuredPath?: unknown; userPath?: unknown; folders: string[]; platform?: string; exists?: (f: string) => boolean }): { command: string; args: string[]; plugins: boolean };
    };
    const folder = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-vscode-")));
    const local = path.join(folder, "node_modules", ".bin", "tfcapi-lint");
    mkdirSync(path.dirname(local), { recursive: true });
    writeFileSync(local, "#!/bin/sh\n");

    it("trusted: the setting, else the folder's node_modules/.bin, else PATH, with plugins", () => {
      expect(ext.serverCommand({ trusted: true, configuredPath: "/opt/tfcapi-lint", folders: [folder], platform: "linux" })).toEqual({ command: "/opt/tfcapi-lint", args: ["lsp"], plugins: true });
      expect(ext.serverCommand({ trusted: true, configuredPath: "", folders: [folder], platform: "linux" })).toEqual({ command: local, args: ["lsp"], plugins: true });
      expect(ext.serverCommand({ trusted: true, folders: [path.join(folder, "none")], platform: "linux" })).toEqual({ command: "tfcapi-lint", args: ["lsp"], plugins: true });
    });

    it("untrusted: never the folder's node_modules/.bin nor its own setting; the user's setting or PATH, with --no-plugins", () => {
      expect(ext.serverCommand({ trusted: false, configuredPath: path.join(folder, "evil"), folders: [folder], platform: "linux" })).toEqual({
        command: "tfcapi-lint",
        args: ["lsp", "--no-plugins"],
        plugins: false,
      });
      expect(ext.serverCommand({ trusted: false, configuredPath: "/home/me/bin/tfcapi-lint", userPath: "/home/me/bin/tfcapi-lint", folders: [folder], platform: "linux" })).toEqual({
        command: "/home/me/bin/tfcapi-lint",
        args: ["lsp", "--no-plugins"],
        plugins: false,
      });
      // Whatever the folder holds, nothing in it is looked at.
      let looked = false;
      ext.serverCommand({ trusted: false, folders: [folder], exists: () => (looked = true) });
      expect(looked).toBe(false);
      rmSync(folder, { recursive: true, force: true });
    });
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

describe("the README's setups for a folder you do not trust", () => {
  /** A folder whose config lists a plugin that leaves a marker when imported. */
  function untrustedFolder(): string {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-untrusted-")));
    mkdirSync(path.join(root, ".git"));
    mkdirSync(path.join(root, "lint"));
    cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
    writeFileSync(
      path.join(root, "lint", "evil.mjs"),
      'import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./imported.txt", import.meta.url), "imported\\n");\nexport default { name: "evil", rules: [] };\n',
    );
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), 'plugins = ["./lint/evil.mjs"]\n');
    return root;
  }

  /** Start the server as a setup says, open a module file, and return what the user was shown. */
  async function shownFor(args: string[], init: Record<string, unknown>): Promise<{ messages: string[]; imported: boolean }> {
    ensureBuilt();
    const root = untrustedFolder();
    const c = new LspClient({ cwd: root, args });
    try {
      await c.initialize({}, { debounceMs: 0, ...init }, root);
      await c.initialized();
      const main = path.join(root, "pool", "main.tf");
      await c.open(main, readFileSync(main, "utf8"));
      await c.latest(uri(main), () => true);
      expect(await c.stop()).toBe(0);
      return { messages: c.messages.map((m) => m.message), imported: existsSync(path.join(root, "lint", "imported.txt")) };
    } finally {
      c.kill();
      rmSync(root, { recursive: true, force: true });
    }
  }

  const told = (why: string) => [expect.stringMatching(new RegExp(`^tfcapi-lint: plugins are off \\(${why}\\), so the plugin listed in .*\\.tfcapi-lint\\.hcl \\(\\./lint/evil\\.mjs\\) was not loaded`))];

  it("Neovim: cmd with --no-plugins, or init_options = { plugins = false }", async () => {
    const cmd = /`cmd = \{ "tfcapi-lint", ((?:"[^"]+"(?:, )?)+) \}`/.exec(editors)![1]!;
    const args = [...cmd.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(args).toEqual(["lsp", "--stdio", "--no-plugins"]);
    expect(editors).toContain("`init_options = { plugins = false }`");
    expect(editors).toContain('`require("tfcapi-lint").setup({ plugins = false })`');
    expect(await shownFor(args, {})).toEqual({ messages: told("--no-plugins"), imported: false });
    expect(await shownFor(["lsp", "--stdio"], { plugins: false })).toEqual({ messages: told("initializationOptions.plugins is false"), imported: false });
  });

  it("Helix: args with --no-plugins, or config = { plugins = false }", async () => {
    const args = JSON.parse(/`args = (\[[^\]]*"--no-plugins"\])`/.exec(editors)![1]!) as string[];
    expect(args).toEqual(["lsp", "--stdio", "--no-plugins"]);
    expect(editors).toContain("`config = { plugins = false }`");
    expect(await shownFor(args, {})).toEqual({ messages: told("--no-plugins"), imported: false });
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

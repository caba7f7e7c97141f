/**
 * End to end in a real editor: headless Neovim (`nvim --headless --clean`)
 * opens a copy of examples/broken-machinepool with editors/nvim/tfcapi-lint.lua,
 * which attaches the built server (vim.lsp.start on Neovim 0.8+,
 * vim.lsp.start_client + buf_attach_client on 0.7); the diagnostics Neovim
 * holds (`vim.diagnostic.get()`) are written to JSON and compared with the
 * CLI's findings, before and after an unsaved edit of the buffer.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, cliFindings, REPO, workspace } from "./client.js";

const nvim = spawnSync("nvim", ["--version"], { encoding: "utf8" });
const HAVE_NVIM = nvim.status === 0;
if (!HAVE_NVIM) {
  if (process.env.CI) throw new Error("nvim is not installed; CI must install the neovim package for the language server test");
  console.warn("skipping the Neovim test: nvim is not installed (apt-get install neovim)");
}

interface NvimDiagnostic {
  file: string;
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  message: string;
  source: string;
  code: string;
}

const INIT = `
local out, repo, node, bin, module = os.getenv("OUT"), os.getenv("REPO"), os.getenv("NODE"), os.getenv("BIN"), os.getenv("MODULE")
local lsp = dofile(repo .. "/editors/nvim/tfcapi-lint.lua")
lsp.setup({ cmd = { node, bin, "lsp", "--stdio" }, init_options = { debounceMs = 20 } })

local function dump(name)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local lspd = (d.user_data and d.user_data.lsp) or {}
    table.insert(list, {
      file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ":t"),
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source,
      code = d.code or lspd.code,
    })
  end
  local f = io.open(out .. "/" .. name, "w")
  f:write(vim.fn.json_encode(list))
  f:close()
end

local function files_with_diagnostics()
  local seen, n = {}, 0
  for _, d in ipairs(vim.diagnostic.get()) do
    if not seen[d.bufnr] then seen[d.bufnr] = true; n = n + 1 end
  end
  return n
end

local function health_shape_count()
  local n = 0
  for _, d in ipairs(vim.diagnostic.get()) do
    local lspd = (d.user_data and d.user_data.lsp) or {}
    if (d.code or lspd.code) == "output/health-shape" then n = n + 1 end
  end
  return n
end

vim.cmd("edit " .. module .. "/outputs.tf")
if not vim.wait(30000, function() return files_with_diagnostics() == 4 end, 20) then
  io.stderr:write("no diagnostics for the four files\\n")
  vim.cmd("cquit 1")
end
vim.wait(300)
dump("initial.json")

-- An unsaved edit: a valid health state.
local line = vim.api.nvim_buf_get_lines(0, 27, 28, false)[1]
vim.api.nvim_buf_set_lines(0, 27, 28, false, { (line:gsub('"ok"', '"running"')) })
if not vim.wait(30000, function() return health_shape_count() == 0 end, 20) then
  io.stderr:write("the health-shape diagnostic did not go away\\n")
  vim.cmd("cquit 1")
end
vim.wait(300)
dump("edited.json")
vim.cmd("qall!")
`;

describe.skipIf(!HAVE_NVIM)("Neovim headless with editors/nvim/tfcapi-lint.lua", () => {
  const ws = workspace("nvim", { dirs: ["out"], copy: { pool: "examples/broken-machinepool" }, files: { "init.lua": INIT } });

  function cli(dir: string): NvimDiagnostic[] {
    return cliFindings(dir).map((f) => ({
      file: f.file,
      lnum: f.line - 1,
      col: f.column - 1,
      end_lnum: f.endLine - 1,
      end_col: f.endColumn - 1,
      severity: { error: 1, warning: 2, info: 3 }[f.severity],
      message: f.message,
      source: "tfcapi-lint",
      code: f.id,
    }));
  }

  const order = (list: NvimDiagnostic[]): NvimDiagnostic[] =>
    [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.lnum - b.lnum || a.col - b.col || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)));

  it("shows the module's findings in every file, and follows an unsaved edit", () => {
    const r = spawnSync("nvim", ["--headless", "--clean", "-u", ws.at("init.lua")], {
      cwd: ws.root,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, OUT: ws.at("out"), REPO, NODE: process.execPath, BIN, MODULE: ws.at("pool") },
    });
    expect(r.status, `nvim: ${r.stderr}`).toBe(0);

    const initial = JSON.parse(readFileSync(ws.at("out", "initial.json"), "utf8")) as NvimDiagnostic[];
    const expected = cli(ws.at("pool"));
    expect(expected).toHaveLength(19);
    expect(order(initial)).toEqual(order(expected));
    expect(initial.find((d) => d.code === "output/health-shape")).toEqual({
      file: "outputs.tf",
      lnum: 27,
      col: 14,
      end_lnum: 27,
      end_col: 18,
      severity: 1,
      message: 'health.state "ok" is not a health state; use one of "pending", "running", "degraded", "stopped", "terminated", "unknown"',
      source: "tfcapi-lint",
      code: "output/health-shape",
    });

    const edited = JSON.parse(readFileSync(ws.at("out", "edited.json"), "utf8")) as NvimDiagnostic[];
    expect(order(edited)).toEqual(order(expected.filter((d) => d.code !== "output/health-shape")));
    // The buffer was never written.
    expect(readFileSync(ws.at("pool", "outputs.tf"), "utf8")).toBe(readFileSync(path.join(REPO, "examples", "broken-machinepool", "outputs.tf"), "utf8"));
  });
});

/** Neovim with `setup({ plugins = false })`: records what the server shows, the client's command and the diagnostics. */
const NO_PLUGINS_INIT = `
local out, repo, node, bin, module = os.getenv("OUT"), os.getenv("REPO"), os.getenv("NODE"), os.getenv("BIN"), os.getenv("MODULE")
local shown = {}
vim.lsp.handlers["window/showMessage"] = function(_, result) table.insert(shown, result) end
local lsp = dofile(repo .. "/editors/nvim/tfcapi-lint.lua")
lsp.setup({ cmd = { node, bin, "lsp", "--stdio" }, plugins = false, init_options = { debounceMs = 20 } })
vim.cmd("edit " .. module .. "/main.tf")
if not vim.wait(30000, function() return #shown > 0 end, 20) then
  io.stderr:write("the server showed no message\\n")
  vim.cmd("cquit 1")
end
vim.wait(500)
local cmd = {}
for _, client in pairs(vim.lsp.get_active_clients()) do cmd = client.config.cmd end
local codes = {}
for _, d in ipairs(vim.diagnostic.get()) do
  local lspd = (d.user_data and d.user_data.lsp) or {}
  table.insert(codes, d.code or lspd.code)
end
local f = io.open(out .. "/no-plugins.json", "w")
f:write(vim.fn.json_encode({ shown = shown, cmd = cmd, codes = codes }))
f:close()
vim.cmd("qall!")
`;

describe.skipIf(!HAVE_NVIM)("Neovim with setup({ plugins = false })", () => {
  const ws = workspace("nvim-np", {
    dirs: ["out"],
    copy: { pool: "examples/machinepool-aws" },
    files: {
      // A plugin that would leave a marker when imported, and report every resource.
      "lint/acme.mjs":
        'import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./imported.txt", import.meta.url), "imported\\n");\n' +
        'export default { name: "acme", rules: [{ id: "acme/any", severity: "error", roles: ["machinepool"], summary: "s", check(ctx) { ctx.report({ message: "m" }); } }] };\n',
      ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n',
      "init.lua": NO_PLUGINS_INIT,
    },
  });

  it("starts the server with --no-plugins: the plugin is not imported and the message reaches the editor", () => {
    const r = spawnSync("nvim", ["--headless", "--clean", "-u", ws.at("init.lua")], {
      cwd: ws.root,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, OUT: ws.at("out"), REPO, NODE: process.execPath, BIN, MODULE: ws.at("pool") },
    });
    expect(r.status, `nvim: ${r.stderr}`).toBe(0);
    const got = JSON.parse(readFileSync(ws.at("out", "no-plugins.json"), "utf8")) as { shown: { type: number; message: string }[]; cmd: string[]; codes: string[] | Record<string, never> };
    expect(got.cmd).toEqual([process.execPath, BIN, "lsp", "--stdio", "--no-plugins"]);
    expect(got.shown).toEqual([
      {
        type: 2,
        message:
          `tfcapi-lint: plugins are off (--no-plugins), so the plugin listed in ${ws.at(".tfcapi-lint.hcl")} (./lint/acme.mjs) was not loaded and its rules do not run. ` +
          "Plugins are code from the folder: turn them on only for a folder you trust.",
      },
    ]);
    // json_encode writes an empty Lua table as [] or {}: no diagnostic either way.
    expect(Object.keys(got.codes)).toEqual([]);
    expect(existsSync(ws.at("lint", "imported.txt"))).toBe(false);
  });
});

-- tfcapi-lint language server for Neovim (0.7 and later).
--
-- Put this file on your 'runtimepath' as lua/tfcapi-lint.lua (or dofile()
-- it) and call:
--
--   require("tfcapi-lint").setup()
--   require("tfcapi-lint").setup({ cmd = { "npx", "tfcapi-lint", "lsp", "--stdio" } })
--   require("tfcapi-lint").setup({ plugins = false })
--
-- plugins = false starts the server with --no-plugins: it loads none of the
-- rule plugins a .tfcapi-lint.hcl lists (they are code from the folder you
-- opened) and says so once. Use it for folders you do not trust.
--
-- Every buffer of a module file (*.tf, *.tf.json, *.tofu, *.tofu.json) is
-- attached to one server per directory tree root. Neovim 0.8+ has
-- vim.lsp.start(), which finds or starts the client itself; 0.7 has only
-- vim.lsp.start_client() + vim.lsp.buf_attach_client(), used as a fallback.
local M = {}

local PATTERNS = { "*.tf", "*.tf.json", "*.tofu", "*.tofu.json" }
local clients = {} -- root directory -> client id (0.7 fallback)

--- The directory to use as the workspace root: the nearest ancestor holding
--- .git or .tfcapi-lint.hcl, else the file's own directory.
local function root_of(fname)
  local dir = vim.fn.fnamemodify(fname, ":p:h")
  local d = dir
  while true do
    if vim.fn.isdirectory(d .. "/.git") == 1 or vim.fn.filereadable(d .. "/.tfcapi-lint.hcl") == 1 then
      return d
    end
    local parent = vim.fn.fnamemodify(d, ":h")
    if parent == d then
      return dir
    end
    d = parent
  end
end

--- Attach buffer `bufnr` to the server (started when needed).
function M.attach(bufnr, opts)
  opts = opts or {}
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == "" then
    return nil
  end
  local root = root_of(fname)
  local cmd = vim.deepcopy(opts.cmd or { "tfcapi-lint", "lsp", "--stdio" })
  if opts.plugins == false then
    table.insert(cmd, "--no-plugins")
  end
  local config = {
    name = "tfcapi-lint",
    cmd = cmd,
    root_dir = root,
    init_options = opts.init_options or {},
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Attach every module-file buffer as it is read or created.
function M.setup(opts)
  local group = vim.api.nvim_create_augroup("tfcapi-lint", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    pattern = PATTERNS,
    callback = function(args)
      M.attach(args.buf, opts)
    end,
  })
end

return M

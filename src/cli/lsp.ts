/**
 * `tfcapi-lint lsp [--stdio]`: the language server. It lives in its own
 * bundle (dist/lsp.cjs, next to the CLI bundle; see scripts/build.mjs) so
 * that no other command loads vscode-languageserver.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { UsageError } from "./args.js";

/** Whether argv asks for the language server: `lsp ...`, or `--stdio` alone as editors pass it. */
export function isLspCommand(argv: readonly string[]): boolean {
  return argv[0] === "lsp" || (argv.length === 1 && argv[0] === "--stdio");
}

export const LSP_HELP = `Usage: tfcapi-lint lsp [--stdio] [--no-plugins]

Run the language server (Language Server Protocol over stdin and stdout) for
editors: diagnostics as you type, quick fixes, ignore comments, rule docs on
hover. An editor starts it; see the README's Editors section for VS Code,
Neovim and Helix. --stdio is accepted for clients that pass it.

  --no-plugins   load no rule plugin a .tfcapi-lint.hcl lists (plugins are
                 code from the folder: use this for folders you do not
                 trust); the editor is told once per config file. The
                 initialization option "plugins": false does the same.
`;

/**
 * Start the server; the promise settles only if it cannot start (the server
 * ends the process on \`exit\`), or with 0 after \`--help\`.
 */
export function startLsp(argv: readonly string[], out: (text: string) => void = (t) => void process.stdout.write(t)): Promise<number> {
  const rest = argv[0] === "lsp" ? argv.slice(1) : argv;
  for (const a of rest) {
    if (a !== "--stdio" && a !== "--no-plugins" && a !== "--help" && a !== "-h") {
      throw new UsageError(`lsp: unknown argument "${a}" (the server talks over stdin and stdout; --stdio is accepted for clients that pass it; --no-plugins loads no plugin)`);
    }
  }
  if (rest.some((a) => a === "--help" || a === "-h")) {
    out(LSP_HELP);
    return Promise.resolve(0);
  }
  const bundle = fileURLToPath(new URL("./lsp.cjs", import.meta.url));
  if (!existsSync(bundle)) throw new Error(`the language server bundle ${bundle} is missing; run npm run build`);
  const server = createRequire(import.meta.url)(bundle) as { runServer(options?: { plugins?: boolean }): Promise<never> };
  return server.runServer(rest.includes("--no-plugins") ? { plugins: false } : {});
}

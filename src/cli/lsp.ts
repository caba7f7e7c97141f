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

/** Start the server; the promise settles only if it cannot start (the server ends the process on `exit`). */
export function startLsp(argv: readonly string[]): Promise<number> {
  const rest = argv[0] === "lsp" ? argv.slice(1) : argv;
  for (const a of rest) {
    if (a !== "--stdio") throw new UsageError(`lsp: unknown argument "${a}" (the server talks over stdin and stdout; --stdio is accepted for clients that pass it)`);
  }
  const bundle = fileURLToPath(new URL("./lsp.cjs", import.meta.url));
  if (!existsSync(bundle)) throw new Error(`the language server bundle ${bundle} is missing; run npm run build`);
  const server = createRequire(import.meta.url)(bundle) as { runServer(): Promise<never> };
  return server.runServer();
}

// A minimal VS Code client for the tfcapi-lint language server: it starts
// `tfcapi-lint lsp --stdio` (vscode-languageclient adds --stdio) for module
// files; diagnostics, quick fixes, "fix all" and hover come from the server.
//
// Workspace trust: in a folder VS Code does not trust (restricted mode) the
// extension runs only an executable the user chose outside the folder (the
// user-level tfcapi-lint.path setting, else tfcapi-lint on PATH), never the
// folder's node_modules/.bin, and starts the server with --no-plugins (the
// plugins a .tfcapi-lint.hcl lists are code from the folder). It says so
// once, and restarts with the folder's own setup when the folder is trusted.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** The files the server lints. */
const DOCUMENT_SELECTOR = [{ scheme: "file", pattern: "**/*.{tf,tf.json,tofu,tofu.json}" }];

const UNTRUSTED_NOTICE =
  "tfcapi-lint: this folder is not trusted, so the language server runs from your own installation (the tfcapi-lint.path user setting, else tfcapi-lint on PATH), " +
  "not from the folder's node_modules, and loads no rule plugins. Trust the folder to use its own tfcapi-lint and plugins.";

/**
 * The server to start. Trusted: the tfcapi-lint.path setting, else the first
 * workspace folder's node_modules/.bin/tfcapi-lint, else tfcapi-lint on PATH.
 * Untrusted: the user-level tfcapi-lint.path (`userPath`; a folder's own
 * setting is not read), else tfcapi-lint on PATH, with plugins off.
 *
 * @param {{ trusted: boolean, configuredPath?: unknown, userPath?: unknown, folders: string[], platform?: string, exists?: (file: string) => boolean }} w
 * @returns {{ command: string, args: string[], plugins: boolean }}
 */
function serverCommand(w) {
  const nonEmpty = (v) => typeof v === "string" && v !== "";
  if (!w.trusted) {
    return { command: nonEmpty(w.userPath) ? w.userPath : "tfcapi-lint", args: ["lsp", "--no-plugins"], plugins: false };
  }
  if (nonEmpty(w.configuredPath)) return { command: w.configuredPath, args: ["lsp"], plugins: true };
  const exists = w.exists ?? fs.existsSync;
  for (const folder of w.folders) {
    const local = path.join(folder, "node_modules", ".bin", (w.platform ?? process.platform) === "win32" ? "tfcapi-lint.cmd" : "tfcapi-lint");
    if (exists(local)) return { command: local, args: ["lsp"], plugins: true };
  }
  return { command: "tfcapi-lint", args: ["lsp"], plugins: true };
}

let client;
let told = false;

async function start() {
  const vscode = require("vscode");
  const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
  const config = vscode.workspace.getConfiguration("tfcapi-lint");
  const trusted = vscode.workspace.isTrusted !== false;
  const server = serverCommand({
    trusted,
    configuredPath: config.get("path"),
    userPath: config.inspect("path")?.globalValue,
    folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
  });
  if (!trusted && !told) {
    told = true;
    void vscode.window.showInformationMessage(UNTRUSTED_NOTICE);
  }
  const serverOptions = { command: server.command, args: server.args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: { debounceMs: config.get("debounceMs"), plugins: server.plugins },
  };
  client = new LanguageClient("tfcapi-lint", "tfcapi-lint", serverOptions, clientOptions);
  await client.start();
}

async function activate(context) {
  const vscode = require("vscode");
  context.subscriptions.push({ dispose: () => (client ? client.stop() : undefined) });
  // Trusting the folder later: start again with its own executable and plugins.
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      if (client) await client.stop();
      await start();
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, DOCUMENT_SELECTOR, UNTRUSTED_NOTICE, serverCommand };

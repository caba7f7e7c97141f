// A minimal VS Code client for the tfcapi-lint language server: it starts
// `tfcapi-lint lsp --stdio` (vscode-languageclient adds --stdio) for module
// files; diagnostics, quick fixes, "fix all" and hover come from the server.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

/** The files the server lints. */
const DOCUMENT_SELECTOR = [{ scheme: "file", pattern: "**/*.{tf,tf.json,tofu,tofu.json}" }];

let client;

/** tfcapi-lint.path, else the first workspace folder's node_modules/.bin/tfcapi-lint, else PATH. */
function serverCommand(config) {
  const configured = config.get("path");
  if (typeof configured === "string" && configured !== "") return configured;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const local = path.join(folder.uri.fsPath, "node_modules", ".bin", process.platform === "win32" ? "tfcapi-lint.cmd" : "tfcapi-lint");
    if (fs.existsSync(local)) return local;
  }
  return "tfcapi-lint";
}

async function activate(context) {
  const config = vscode.workspace.getConfiguration("tfcapi-lint");
  const command = serverCommand(config);
  const serverOptions = { command, args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: { debounceMs: config.get("debounceMs") },
  };
  client = new LanguageClient("tfcapi-lint", "tfcapi-lint", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => (client ? client.stop() : undefined) });
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, DOCUMENT_SELECTOR, serverCommand };

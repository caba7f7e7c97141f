/**
 * `tfcapi-lint lsp`: the Language Server Protocol over stdin/stdout
 * (vscode-languageserver). Built as its own bundle, dist/lsp.cjs, which
 * src/cli/lsp.ts loads only for this command.
 *
 * - Every open module file (.tf, .tf.json, .tofu, .tofu.json) makes its
 *   directory a tracked module. A module is linted whole, with the text of
 *   every open document in place of the file on disk: at once when a file
 *   it loaded changes while it is idle, and a burst of changes once, a
 *   short while (debounce) after the burst's last change (scheduler.ts).
 * - Diagnostics are published for every file of the module that has
 *   findings, and cleared when they go away. A file can get diagnostics from
 *   several tracked modules (a child module's files from its parent's lint
 *   and its own); the client sees their union.
 * - Linting runs in steps (lint/engine.ts lintSteps): after a slice of work
 *   the server yields to its event loop, and a run whose module changed
 *   meanwhile is abandoned; a finished run whose module changed is not
 *   published.
 * - The configuration is found as the CLI finds it (the nearest
 *   .tfcapi-lint.hcl up to the repository root), re-read when the client
 *   reports a change (workspace/didChangeWatchedFiles, or an edit of the
 *   config file open in the editor); a config error is a diagnostic on the
 *   config file and the module is linted with the defaults meanwhile.
 * The server is built of rooms, each a file here: documents.ts (open
 * buffers, versions) with positions.ts (encodings), configuration.ts
 * (settings, config files, plugins, lint options), scheduler.ts (tracked
 * modules, when to lint them, stepwise runs and their abandoning), diagnostics.ts
 * (placing findings, publishing), actions.ts (quick fixes, ignore comments,
 * fix-all) with edits.ts, and hover.ts. This file wires them to the
 * connection.
 *
 * - No request handler lets an exception escape: it is logged and answered
 *   with an empty result.
 * - Plugins can be turned off (`tfcapi-lint lsp --no-plugins`, or
 *   `initializationOptions.plugins: false`), for a folder whose code the
 *   user does not trust: a config that lists plugins then loads none, and
 *   the user is told so once per config file (window/showMessage).
 */
import * as path from "node:path";
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Hover,
  type InitializeParams,
  type InitializeResult,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import { CONFIG_FILE_NAME } from "../config/load.js";
import { Actions, FIX_ALL_KIND } from "./actions.js";
import { Configuration, initializeSettings, startSettings, type ServerOptions, type Settings } from "./configuration.js";
import { DiagnosticsBoard } from "./diagnostics.js";
import { Documents, isConfigFile, isModuleFile, pathOf } from "./documents.js";
import { hover } from "./hover.js";
import { Scheduler } from "./scheduler.js";

export { DEFAULT_DEBOUNCE_MS, type ServerOptions } from "./configuration.js";
export { FIX_ALL_KIND } from "./actions.js";

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The reader of stdin, made to say on stderr what is wrong when whoever runs
 * the server does not speak LSP to it (a person trying the command, a
 * misconfigured editor) instead of exiting without a word. The process ends
 * when the input does: 0 after a shutdown request, else 1, as the protocol
 * asks of a server whose client went away.
 */
function stdinReader(shutdownReceived: () => boolean): StreamMessageReader {
  const reader = new StreamMessageReader(process.stdin);
  let heard = false;
  let complained = false;
  const complain = (what: string): void => {
    if (complained) return;
    complained = true;
    process.stderr.write(
      `tfcapi-lint lsp: ${what}. This is the language server: an editor starts it and speaks the Language Server Protocol on its standard input and output (see the README's Editors section).\n`,
    );
  };
  reader.onError((err) => complain(`the input is not a Language Server Protocol message (${errorText(err).replace(/\s+/g, " ")})`));
  process.stdin.on("end", () => {
    if (!heard) complain("the input ended before any message");
    process.exit(shutdownReceived() ? 0 : 1);
  });
  const listen = reader.listen.bind(reader);
  reader.listen = (callback) =>
    listen((message) => {
      heard = true;
      callback(message);
    });
  return reader;
}

/** The rooms of one server, wired to its connection. */
class Server {
  readonly settings: Settings;
  readonly documents = new Documents();
  readonly board: DiagnosticsBoard;
  readonly configuration: Configuration;
  readonly scheduler: Scheduler;
  readonly actions: Actions;

  constructor(
    private readonly connection: Connection,
    options: ServerOptions,
  ) {
    this.settings = startSettings(options);
    const warn = (message: string): void => {
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
    };
    this.board = new DiagnosticsBoard(this.documents, (params) => void connection.sendDiagnostics(params));
    this.configuration = new Configuration(this.settings, this.documents, this.board, warn);
    this.scheduler = new Scheduler(this.settings, this.documents, this.configuration, this.board, (text) => this.log(text));
    this.actions = new Actions(this.documents, this.scheduler, warn);
  }

  log(text: string): void {
    try {
      this.connection.console.error(`tfcapi-lint: ${text}`);
    } catch {
      // the connection is gone
    }
  }

  /** A handler that logs an exception and answers `fallback` instead of letting it escape. */
  safe<P, R>(what: string, fallback: R, fn: (p: P) => R): (p: P) => R {
    return (p: P) => {
      try {
        return fn(p);
      } catch (err) {
        this.log(`${what} failed: ${errorText(err)}`);
        return fallback;
      }
    };
  }

  initialize(params: InitializeParams): InitializeResult {
    initializeSettings(this.settings, params);
    return {
      capabilities: {
        positionEncoding: this.settings.encoding,
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        hoverProvider: true,
      },
      serverInfo: { name: "tfcapi-lint" },
    };
  }

  initialized(): void {
    if (!this.settings.watchDynamically) return;
    this.connection.client
      .register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: `**/${CONFIG_FILE_NAME}` }, { globPattern: "**/*.{tf,tf.json,tofu,tofu.json}" }],
      })
      .catch((err: unknown) => this.log(`cannot register the file watcher: ${errorText(err)}`));
  }

  /** Every config is read again, and every module linted again. */
  configChanged(): void {
    this.configuration.clear();
    this.scheduler.scheduleAll();
  }

  opened(document: TextDocument): void {
    const abs = pathOf(document.uri);
    if (abs === null) return;
    this.documents.set(abs, document);
    if (isConfigFile(abs)) {
      this.configChanged();
      return;
    }
    if (!isModuleFile(abs)) return;
    this.scheduler.track(path.dirname(abs));
    this.scheduler.changed(abs);
  }

  edited(document: TextDocument): void {
    const abs = pathOf(document.uri);
    if (abs === null || !this.documents.has(abs)) return;
    this.documents.set(abs, document);
    if (isConfigFile(abs)) this.configChanged();
    else if (isModuleFile(abs)) this.scheduler.changed(abs);
  }

  closed(document: TextDocument): void {
    const abs = pathOf(document.uri);
    if (abs === null) return;
    this.documents.delete(abs);
    if (isConfigFile(abs)) {
      this.configChanged();
      return;
    }
    if (!isModuleFile(abs)) return;
    const dir = path.dirname(abs);
    if (this.documents.moduleDocs(dir).length === 0) this.scheduler.untrack(dir);
    this.scheduler.changed(abs);
  }

  watchedFilesChanged(uris: readonly string[]): void {
    let config = false;
    for (const uri of uris) {
      const abs = pathOf(uri);
      if (abs === null) continue;
      if (isConfigFile(abs)) config = true;
      else if (isModuleFile(abs) && !this.documents.has(abs)) this.scheduler.changed(abs);
    }
    if (config) {
      // A config file that went away takes its diagnostics with it.
      for (const owner of this.board.owners()) if (owner.startsWith("config:")) this.board.contribute(owner, new Map());
      this.configChanged();
    }
  }

  stats(): object {
    const { stats } = this.scheduler;
    const { encoding, debounceMs, pluginsOn } = this.settings;
    return { runs: stats.runs, abandoned: stats.abandoned, leading: stats.leading, waited: stats.waited, lastWorkMs: stats.lastWorkMs, lastCpuMs: stats.lastCpuMs, workMs: [...stats.workMs], encoding, debounceMs, plugins: pluginsOn, linting: this.scheduler.linting };
  }
}

/** Start the server on stdin/stdout; it ends the process on `exit`. */
export function runServer(options: ServerOptions = {}): Promise<never> {
  let shutdownReceived = false;
  const reader = stdinReader(() => shutdownReceived);
  const connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
  const documents = new TextDocuments(TextDocument);
  const server = new Server(connection, options);
  const safe = server.safe.bind(server);

  connection.onInitialize(safe("initialize", { capabilities: {} } as InitializeResult, (params: InitializeParams) => server.initialize(params)));
  connection.onInitialized(safe("initialized", undefined, () => server.initialized()));
  documents.onDidOpen(safe("didOpen", undefined, ({ document }) => server.opened(document)));
  documents.onDidChangeContent(safe("didChange", undefined, ({ document }) => server.edited(document)));
  documents.onDidClose(safe("didClose", undefined, ({ document }) => server.closed(document)));
  connection.onDidChangeWatchedFiles(safe("didChangeWatchedFiles", undefined, (params) => server.watchedFilesChanged(params.changes.map((c) => c.uri))));
  connection.onCodeAction(safe("codeAction", [] as CodeAction[], (p) => server.actions.codeActions(p.textDocument.uri, p.range, p.context.only)));
  connection.onHover(safe("hover", null as Hover | null, (p) => hover(server.scheduler, p.textDocument.uri, p.position)));
  connection.onRequest("tfcapi-lint/stats", safe("stats", null, () => server.stats()));
  connection.onShutdown(() => {
    shutdownReceived = true;
    server.scheduler.stop();
  });

  process.on("uncaughtException", (err) => server.log(`internal error: ${errorText(err)}`));
  process.on("unhandledRejection", (err) => server.log(`internal error: ${errorText(err)}`));

  documents.listen(connection);
  connection.listen();
  return new Promise<never>(() => {});
}

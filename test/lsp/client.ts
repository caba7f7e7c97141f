/**
 * A language client for the tests: vscode-jsonrpc over the stdio of the
 * built CLI (`node bin/tfcapi-lint.js lsp --stdio`), recording every
 * notification and answering the server's requests as an editor would;
 * and `workspace`, the temporary folder a test file's servers run in.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node.js";
import { cleanup, ensureBuilt, tempDir } from "../ship/helpers.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(REPO, "bin", "tfcapi-lint.js");

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Diagnostic {
  range: Range;
  severity?: number;
  code?: string | number;
  codeDescription?: { href: string };
  source?: string;
  message: string;
}
export interface TextEdit {
  range: Range;
  newText: string;
}
export interface CodeAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  diagnostics?: Diagnostic[];
  edit?: { changes?: Record<string, TextEdit[]> };
}

export const uri = (abs: string): string => pathToFileURL(abs).href;

/** A finding as the CLI's JSON report gives it: what the editors must show. */
export interface CliFinding {
  id: string;
  severity: "error" | "warning" | "info";
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** What the CLI reports for a module directory (`--format json`). */
export function cliFindings(dir: string, extra: string[] = []): CliFinding[] {
  const r = spawnSync(process.execPath, [BIN, "--format", "json", ...extra, "."], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return (JSON.parse(r.stdout) as { findings: CliFinding[] }).findings;
}

/** Where a diagnostic's rule page is (codeDescription.href). */
export const DOCS = "https://github.com/captf-io/tfcapi-lint/blob/main/rules/";

/** A CLI finding as the server must show it (ASCII lines: UTF-16 columns are characters). */
export function asDiagnostic(f: CliFinding): Diagnostic {
  return {
    range: { start: { line: f.line - 1, character: f.column - 1 }, end: { line: f.endLine - 1, character: f.endColumn - 1 } },
    severity: { error: 1, warning: 2, info: 3 }[f.severity],
    code: f.id,
    codeDescription: { href: `${DOCS}${f.id}.md` },
    source: "tfcapi-lint",
    message: f.message,
  };
}

/** Apply LSP text edits (UTF-16 positions) to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const offset = (p: Position): number => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

export class LspClient {
  readonly child: ChildProcess;
  readonly conn: MessageConnection;
  /** Latest diagnostics per URI, and every publication in order. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly publications: { uri: string; version?: number; diagnostics: Diagnostic[]; at: number }[] = [];
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  readonly logs: string[] = [];
  /** window/showMessage notifications, in order. */
  readonly messages: { type: number; message: string }[] = [];
  stderr = "";
  private waiters: (() => void)[] = [];
  private readonly exited: Promise<number | null>;
  private versions = new Map<string, number>();

  constructor(opts: { cwd: string; args?: string[]; env?: Record<string, string> }) {
    this.child = spawn(process.execPath, [BIN, ...(opts.args ?? ["lsp", "--stdio"])], {
      cwd: opts.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", ...opts.env },
    });
    this.child.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
    this.conn = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.conn.onNotification("textDocument/publishDiagnostics", (p: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.publications.push({ ...p, at: performance.now() });
      this.wake();
    });
    this.conn.onNotification("window/logMessage", (p: { message: string }) => {
      this.logs.push(p.message);
    });
    this.conn.onNotification("window/showMessage", (p: { type: number; message: string }) => {
      this.messages.push({ type: p.type, message: p.message });
      this.wake();
    });
    this.conn.onRequest("client/registerCapability", (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
      this.registrations.push(...p.registrations);
      this.wake();
      return null;
    });
    this.conn.listen();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Wait until `check` holds (re-checked on every notification), at most `ms`. */
  async until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; stderr: ${this.stderr}; logs: ${this.logs.join(" | ")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Wait for the next publication for `u` after the current count that satisfies `check`. */
  async nextDiagnostics(u: string, check: (d: Diagnostic[]) => boolean = () => true, ms?: number): Promise<Diagnostic[]> {
    const from = this.publications.length;
    let found: Diagnostic[] | undefined;
    await this.until(
      `diagnostics for ${u}`,
      () => {
        for (let i = from; i < this.publications.length; i++) {
          const p = this.publications[i]!;
          if (p.uri === u && check(p.diagnostics)) {
            found = p.diagnostics;
            return true;
          }
        }
        return false;
      },
      ms,
    );
    return found!;
  }

  /** Wait until the latest diagnostics for `u` satisfy `check`; returns them. */
  async latest(u: string, check: (d: Diagnostic[]) => boolean, ms?: number): Promise<Diagnostic[]> {
    await this.until(`diagnostics for ${u}`, () => this.diagnostics.has(u) && check(this.diagnostics.get(u)!), ms);
    return this.diagnostics.get(u)!;
  }

  initialize(capabilities: Record<string, unknown> = {}, initializationOptions: Record<string, unknown> = {}, rootDir?: string): Promise<{ capabilities: Record<string, unknown> }> {
    return this.conn.sendRequest("initialize", {
      processId: process.pid,
      rootUri: rootDir ? uri(rootDir) : null,
      capabilities,
      initializationOptions,
    }) as Promise<{ capabilities: Record<string, unknown> }>;
  }

  async initialized(): Promise<void> {
    await this.conn.sendNotification("initialized", {});
  }

  async open(abs: string, text: string, languageId = "terraform"): Promise<void> {
    this.versions.set(uri(abs), 1);
    await this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri: uri(abs), languageId, version: 1, text } });
  }

  /** Replace the whole text of an open document (unsaved). */
  async change(abs: string, text: string): Promise<void> {
    const u = uri(abs);
    const v = (this.versions.get(u) ?? 1) + 1;
    this.versions.set(u, v);
    await this.conn.sendNotification("textDocument/didChange", { textDocument: { uri: u, version: v }, contentChanges: [{ text }] });
  }

  /** Apply incremental edits to an open document (unsaved). */
  async edit(abs: string, edits: readonly TextEdit[]): Promise<void> {
    const u = uri(abs);
    const v = (this.versions.get(u) ?? 1) + 1;
    this.versions.set(u, v);
    await this.conn.sendNotification("textDocument/didChange", {
      textDocument: { uri: u, version: v },
      contentChanges: edits.map((e) => ({ range: e.range, text: e.newText })),
    });
  }

  async close(abs: string): Promise<void> {
    await this.conn.sendNotification("textDocument/didClose", { textDocument: { uri: uri(abs) } });
  }

  codeActions(abs: string, range: Range, only?: string[]): Promise<CodeAction[]> {
    return this.conn.sendRequest("textDocument/codeAction", {
      textDocument: { uri: uri(abs) },
      range,
      context: { diagnostics: [], ...(only ? { only } : {}) },
    }) as Promise<CodeAction[]>;
  }

  hover(abs: string, position: Position): Promise<{ contents: { kind: string; value: string }; range?: Range } | null> {
    return this.conn.sendRequest("textDocument/hover", { textDocument: { uri: uri(abs) }, position }) as Promise<{
      contents: { kind: string; value: string };
      range?: Range;
    } | null>;
  }

  async watched(changes: { uri: string; type: 1 | 2 | 3 }[]): Promise<void> {
    await this.conn.sendNotification("workspace/didChangeWatchedFiles", { changes });
  }

  /** shutdown, exit; resolves to the exit status. */
  async stop(): Promise<number | null> {
    await this.conn.sendRequest("shutdown");
    await this.conn.sendNotification("exit");
    const code = await this.exited;
    this.conn.dispose();
    return code;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
    this.conn.dispose();
  }
}

/** What a test file's temporary workspace holds (see `workspace`). */
export interface WorkspaceSpec {
  /** Make `.git` at the root, so that the root is the project's top (default true). */
  git?: boolean;
  /** Folders to copy (of the checkout, or absolute), by where they go: `{ pool: "examples/machinepool-aws" }`. */
  copy?: Record<string, string>;
  /** Files to write, by where they go (their folders are made): `{ "lint/acme.mjs": PLUGIN }`. */
  files?: Record<string, string>;
  /** Empty folders to make. */
  dirs?: string[];
  /** Kill the clients started with `client()` after each test instead of after the file's tests. */
  killAfterEach?: boolean;
}

export interface Workspace {
  /** The workspace folder (a real path); set once the workspace's beforeAll has run. */
  readonly root: string;
  /** A path in the workspace. */
  at(...parts: string[]): string;
  /** A language server started in the workspace; killed after the test or the file (see `killAfterEach`). */
  client(opts?: { args?: string[]; env?: Record<string, string> }): LspClient;
  /** A `client(opts)` sent initialize (rootUri the workspace; initializationOptions `{ debounceMs: 0 }` unless given) and initialized. */
  start(capabilities?: Record<string, unknown>, initializationOptions?: Record<string, unknown>, opts?: { args?: string[]; env?: Record<string, string> }): Promise<LspClient>;
}

/**
 * Register the hooks of a temporary workspace for the tests of the file (or
 * describe block) it is called in: beforeAll builds the CLI if need be and
 * makes `tfcapi-lint-<name>-XXXXXX` in the temporary folder with what `spec`
 * says (`.git` first, then `dirs`, `copy` and `files`); afterAll kills the
 * clients started with `client()` and removes the folder. A test's own set-up
 * goes in its own beforeAll, registered after this call, so it runs after.
 */
export function workspace(name: string, spec: WorkspaceSpec = {}): Workspace {
  let root: string | undefined;
  const started: LspClient[] = [];
  const killStarted = (): void => {
    for (const c of started.splice(0)) c.kill();
  };
  beforeAll(() => {
    ensureBuilt();
    root = tempDir(name);
    if (spec.git !== false) mkdirSync(path.join(root, ".git"));
    for (const dir of spec.dirs ?? []) mkdirSync(path.join(root, dir), { recursive: true });
    for (const [dest, from] of Object.entries(spec.copy ?? {})) cpSync(path.resolve(REPO, from), path.join(root, dest), { recursive: true });
    for (const [dest, text] of Object.entries(spec.files ?? {})) {
      mkdirSync(path.dirname(path.join(root, dest)), { recursive: true });
      writeFileSync(path.join(root, dest), text);
    }
  });
  if (spec.killAfterEach) afterEach(killStarted);
  afterAll(() => {
    killStarted();
    cleanup(root);
  });
  const ws: Workspace = {
    get root(): string {
      if (root === undefined) throw new Error(`the workspace ${name} is made in beforeAll: use its root in a hook or a test`);
      return root;
    },
    at: (...parts) => path.join(ws.root, ...parts),
    client: (opts = {}) => {
      const c = new LspClient({ cwd: ws.root, ...opts });
      started.push(c);
      return c;
    },
    start: async (capabilities = {}, initializationOptions = { debounceMs: 0 }, opts = {}) => {
      const c = ws.client(opts);
      await c.initialize(capabilities, initializationOptions, ws.root);
      await c.initialized();
      return c;
    },
  };
  return ws;
}

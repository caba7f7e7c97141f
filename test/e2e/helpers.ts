/**
 * End-to-end helpers: temporary module trees (from strings or copies of
 * fixtures/e2e modules), running the built CLI as a child process with a
 * timeout (a hang is a failure, not a stuck test run), and file snapshots.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(REPO, "bin", "tfcapi-lint.js");
export const E2E = path.join(REPO, "fixtures", "e2e");

const created: string[] = [];
afterEach(() => {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
});

/** A fresh temporary directory (real path) with a `.git` marker so config lookup stops there. */
export function tempDir(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-e2e-")));
  created.push(root);
  mkdirSync(path.join(root, ".git"));
  return root;
}

/** Write `{ relPath: content }` under `root` (directories created as needed). */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A temporary tree from `{ relPath: content }`; returns its real path. */
export function tree(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  writeTree(root, files);
  return root;
}

/** Copy fixtures/e2e/<name> into `<tmp>/<as>`; returns the temporary root (the module is at `<root>/<as>`). */
export function copyFixture(name: string, as: string = name, root: string = tempDir()): string {
  cpSync(path.join(E2E, name), path.join(root, as), { recursive: true });
  return root;
}

/** The files of fixtures/e2e/<name> (top level only) as `{ name: text }`, optionally edited (null drops a file). */
export function fixtureFiles(
  name: string,
  prefix = "",
  edit: (file: string, text: string) => string | null = (_f, t) => t,
): Record<string, string> {
  const dir = path.join(E2E, name);
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    if (!statSync(path.join(dir, f)).isFile()) continue;
    const text = edit(f, readFileSync(path.join(dir, f), "utf8"));
    if (text !== null) out[`${prefix}${f}`] = text;
  }
  return out;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the process had to be killed after the timeout. */
  timedOut: boolean;
}

export function runCli(
  args: string[],
  opts: { cwd?: string; input?: string; env?: Record<string, string>; timeoutMs?: number; stdio?: "pipe" | "ignore-stdin" } = {},
): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    input: opts.input ?? "",
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 30_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", TFCAPI_LINT_DEBUG: "", ...opts.env },
  });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? "", stderr: r.stderr ?? "", timedOut };
}

/** The first line of a text (without its newline). */
export function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i < 0 ? text : text.slice(0, i);
}

/** No JavaScript stack trace or internal-error marker in the output. */
export function hasStackTrace(text: string): boolean {
  return /\n\s+at [^\n]+(:\d+:\d+\)?|<anonymous>)/.test(text) || /internal error/i.test(text) || /\b(TypeError|RangeError|ReferenceError|SyntaxError):/.test(text);
}

export interface FileState {
  kind: "file" | "dir" | "symlink" | "other";
  /** File content (base64) or link target. */
  content: string;
  mtimeMs: number;
  mode: number;
  ino: number;
}

/** Every entry under `root` (not following symlinks), by relative path. */
export function snapshot(root: string): Map<string, FileState> {
  const out = new Map<string, FileState>();
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const a = path.join(abs, name);
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(a);
      if (st.isSymbolicLink()) {
        out.set(r, { kind: "symlink", content: readlinkSync(a), mtimeMs: st.mtimeMs, mode: st.mode, ino: st.ino });
      } else if (st.isDirectory()) {
        out.set(r, { kind: "dir", content: "", mtimeMs: st.mtimeMs, mode: st.mode, ino: st.ino });
        walk(a, r);
      } else if (st.isFile()) {
        out.set(r, { kind: "file", content: readFileSync(a).toString("base64"), mtimeMs: st.mtimeMs, mode: st.mode, ino: st.ino });
      } else {
        out.set(r, { kind: "other", content: "", mtimeMs: st.mtimeMs, mode: st.mode, ino: st.ino });
      }
    }
  };
  walk(root, "");
  return out;
}

export interface JsonFinding {
  id: string;
  severity: string;
  file: string;
  line: number;
  message: string;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface JsonDoc {
  module: string;
  contract: string;
  role: string;
  findings: JsonFinding[];
  summary: { error: number; warning: number; info: number };
  fileSet: string;
}

export function parseDoc(stdout: string): JsonDoc {
  return JSON.parse(stdout) as JsonDoc;
}

/** `id severity file:line:column` per finding, in report order. */
export function briefs(doc: JsonDoc): string[] {
  return doc.findings.map((f) => `${f.id} ${f.severity} ${f.file}:${f.line}:${f.column}`);
}

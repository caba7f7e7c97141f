/** Shared helpers of the shipping tests (package, pre-commit, action, editor, README). */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin", "tfcapi-lint.js");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** An environment without colour, CI markers or the caller's GitHub files. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined };
  for (const key of Object.keys(env)) {
    if (key.startsWith("GITHUB_") || key.startsWith("INPUT_") || key === "RUNNER_TEMP") delete env[key];
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function run(cmd: string, args: readonly string[], opts: SpawnSyncOptions = {}): Run {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") };
}

/** Run the built CLI of this checkout. */
export function runCli(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Run {
  return run(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), input: opts.input ?? "" });
}

/** `npm test` builds first; a direct `vitest run` may not have. */
export function ensureBuilt(): void {
  if (existsSync(path.join(ROOT, "dist", "cli.js"))) return;
  const r = run(process.execPath, ["scripts/build.mjs"], { cwd: ROOT });
  if (r.code !== 0) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
}

/** A fresh temporary directory (real path), removed by `cleanup`. */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `tfcapi-lint-${prefix}-`)));
}

export function cleanup(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Copy a directory of the checkout (e.g. an example module) to `dest`. */
export function copyFromRoot(rel: string, dest: string): void {
  mkdirSync(path.dirname(dest), { recursive: true });
  cpSync(path.join(ROOT, rel), dest, { recursive: true });
}

/**
 * The files a commit of the working tree would hold: tracked files that
 * still exist plus untracked ones that are not ignored.
 */
export function checkoutFiles(): string[] {
  const r = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT });
  if (r.code !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return [...new Set(r.stdout.split("\0").filter((f) => f !== ""))].filter((f) => existsSync(path.join(ROOT, f))).sort();
}

export const GIT_IDENTITY = [
  "-c", "user.name=tfcapi-lint tests",
  "-c", "user.email=tests@tfcapi-lint.invalid",
  "-c", "commit.gpgsign=false",
  "-c", "init.defaultBranch=main",
];

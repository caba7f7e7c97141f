/** Test helpers: temporary module trees, test-only rules, running the built CLI. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { defineRule, type RuleDefinition } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(REPO, "bin", "tfcapi-lint.js");

const created: string[] = [];
afterEach(() => {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
});

/** Make a temporary directory tree from `{ relPath: content }`; returns its real path. */
export function tree(files: Record<string, string | Buffer>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-test-")));
  created.push(root);
  // A .git marker keeps config lookup from walking above the test tree.
  mkdirSync(path.join(root, ".git"));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return root;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    input: opts.input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", ...opts.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

// Root ignores mode bits: as root, the CLI runs as uid/gid 65534 through
// setpriv (util-linux), so that permission tests really meet a refusal.
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync("setpriv", ["--version"]).status === 0;

/**
 * Whether a test can run the CLI where mode bits apply (not root, or root
 * with setpriv). Without it, CI fails at once; elsewhere `what` is skipped
 * with a warning saying why.
 */
export function canDropPrivileges(what: string): boolean {
  if (!isRoot || hasSetpriv) return true;
  if (process.env.CI) throw new Error(`setpriv (util-linux) is required to test ${what} as root`);
  console.warn(`skipping ${what}: running as root without setpriv (util-linux), and root can read and search any directory`);
  return false;
}

/** Run the CLI so that mode bits apply: as uid 65534 when we are root. */
export function runUnprivileged(args: string[], cwd: string): CliResult {
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", HOME: cwd };
  const r = isRoot
    ? spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, BIN, ...args], { cwd, encoding: "utf8", env, timeout: 30_000 })
    : spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env, timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Test-only rule: every variable `default` attribute is a finding. */
export const DEFAULT_RULE: RuleDefinition = defineRule({
  id: "input/default",
  severity: "warning",
  roles: ROLES,
  summary: "test: every variable default",
  scope: "root",
  fixable: false,
  check(ctx) {
    for (const v of ctx.declarations.variables.values()) {
      if (v.defaultAttr) ctx.report({ message: `default on ${v.name}`, file: v.file.path, range: v.defaultAttr.range });
    }
  },
});

/** Test-only rule: every variable block is a finding (error). */
export const VARIABLE_RULE: RuleDefinition = defineRule({
  id: "input/reserved",
  severity: "error",
  roles: ROLES,
  summary: "test: every variable block",
  scope: "root",
  fixable: false,
  declarationCheck: true,
  check(ctx) {
    for (const v of ctx.declarations.variables.values()) {
      ctx.report({ message: `variable ${v.name}`, file: v.file.path, range: v.range });
    }
  },
});

/** Test-only rule: a module-level finding. */
export const MODULE_RULE: RuleDefinition = defineRule({
  id: "output/health",
  severity: "error",
  roles: ROLES,
  summary: "test: module-level",
  scope: "root",
  fixable: false,
  check(ctx) {
    if (!ctx.declarations.outputs.has("health")) ctx.report({ message: "no health output" });
  },
});

/** A compact view of findings for exact assertions. */
export function brief(findings: readonly { ruleId: string; severity: string; file: string; range: { start: { line: number; column: number } }; suppressed?: unknown }[]): string[] {
  return findings.map((f) => `${f.ruleId} ${f.severity} ${f.file}:${f.range.start.line}:${f.range.start.column}${f.suppressed ? " suppressed" : ""}`);
}

/** The files of a fixtures/cli module, optionally edited, as a `tree()` spec under `prefix`. */
export function fixtureFiles(name: string, prefix = "", edit: (file: string, text: string) => string | null = (_f, t) => t): Record<string, string> {
  const dir = path.join(REPO, "fixtures", "cli", name);
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    const text = edit(f, readFileSync(path.join(dir, f), "utf8"));
    if (text !== null) out[`${prefix}${f}`] = text;
  }
  return out;
}

/** The clean machine module with `bootstrap_data` not marked sensitive (one warning). */
export function insensitiveBootstrap(file: string, text: string): string {
  return file === "variables.tf" ? text.replace('  type      = string\n  sensitive = true\n', "  type = string\n") : text;
}

/** The clean machine module without the `interruptible` output (one error). */
export function noInterruptible(file: string, text: string): string {
  return file === "outputs.tf" ? text.replace('output "interruptible" {\n  value = false\n}\n\n', "") : text;
}

/** `open` `depth` times, then `inner`, then `close` `depth` times: text nested `depth` levels deep. */
export function nested(open: string, inner: string, close: string, depth: number): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** The variables schema `tfcapi-lint schema` prints for a module whose only variable, `x`, has the schema `x`. */
export function schemaOfX(x: string): string {
  return `{"type":"object","properties":{"x":${x}},"required":["x"],"additionalProperties":false}`;
}

/**
 * What a one-module lint loads at start-up: the built CLI must use its V8
 * code cache and load no Node built-in beyond what it needs (each costs
 * milliseconds of every start; see scripts/build.mjs). Timings are measured
 * by `npm run bench`, never here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, cleanEnv, ensureBuilt, run } from "./helpers.js";

let work: string;
let hook: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-startup-"));
  hook = path.join(work, "hook.cjs");
  // Writes the built-in modules the process has loaded to the file named in
  // TFCAPI_LINT_LOADED when it exits.
  writeFileSync(
    hook,
    `"use strict";
process.on("exit", () => require("node:fs").writeFileSync(process.env.TFCAPI_LINT_LOADED, process.moduleLoadList.join("\\n")));
`,
  );
  writeFileSync(path.join(work, "empty.cjs"), "");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Built-ins the process loaded; colour and TTY variables unset, stdout a pipe. */
function loaded(args: string[], name: string): { code: number; modules: Set<string> } {
  const file = path.join(work, `${name}.txt`);
  const env = cleanEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, NODE_OPTIONS: undefined, TFCAPI_LINT_LOADED: file });
  const r = run(process.execPath, ["--require", hook, ...args], { cwd: ROOT, env });
  return { code: r.code, modules: new Set(readFileSync(file, "utf8").split("\n")) };
}

describe("start-up of the built CLI", () => {
  it("compiles dist/cli.cjs with its code cache", () => {
    const r = run(process.execPath, ["-e", `process.stdout.write(String(require(${JSON.stringify(path.join(ROOT, "dist", "cli-loader.cjs"))}).codeCacheUsed))`], {
      cwd: ROOT,
      env: cleanEnv({ NODE_OPTIONS: undefined }),
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("true");
  });

  it("a one-module lint loads only node:vm and util.parseArgs beyond what an empty script loads", () => {
    const base = loaded([path.join(work, "empty.cjs")], "empty");
    const lint = loaded([BIN, "examples/machinepool-aws"], "lint");
    expect(base.code).toBe(0);
    expect(lint.code).toBe(0);
    const extra = [...lint.modules].filter((m) => !base.modules.has(m)).sort();
    // Not, among others: node:stream (process.stdout, picocolors' colour
    // probe), node:module (createRequire), node:os, node:worker_threads,
    // node:crypto (SARIF only), internal/fs/dir.
    expect(extra).toEqual(["NativeModule internal/util/parse_args/parse_args", "NativeModule internal/util/parse_args/utils", "NativeModule vm"]);
  });

  it("a module with findings, in colour, loads no more", () => {
    const lint = loaded([BIN, "--color", "examples/broken-machinepool"], "broken");
    const base = loaded([path.join(work, "empty.cjs")], "empty");
    expect(lint.code).toBe(1);
    expect([...lint.modules].filter((m) => !base.modules.has(m)).sort()).toEqual([
      "NativeModule internal/util/parse_args/parse_args",
      "NativeModule internal/util/parse_args/utils",
      "NativeModule vm",
    ]);
  });
});

/**
 * A 20 MB module file (190,000 small resources) is linted under a 1 GiB
 * heap: the process must not run out of memory (V8 aborts with exit 134 and
 * a native stack trace), and the findings keep their exact positions.
 * Asserts the exit status and the output, never the time.
 */
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { BIN, fixtureFiles, hasStackTrace, tree } from "./helpers.js";

const RESOURCES = 190_000;
/** The resources whose input is timestamp(): one in the middle, the last one. */
const VOLATILE = [95_000, RESOURCES - 1];

function resourcesFile(): string {
  const parts: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const input = VOLATILE.includes(i) ? "timestamp()" : `"value-${i}"`;
    parts.push(`resource "terraform_data" "r${i}" {\n  input = ${input}\n  triggers_replace = { id = "id-${i}", n = ${i} }\n}\n\n`);
  }
  return parts.join("");
}

describe("a 20 MB file under --max-old-space-size=1024", () => {
  it("lints without crashing, with exact positions", async () => {
    const dir = tree(fixtureFiles("machine"));
    const text = resourcesFile();
    expect(text.length).toBeGreaterThan(20_000_000);
    writeFileSync(path.join(dir, "resources.tf"), text);

    // Asynchronously: the run takes a while, and vitest's worker must keep answering meanwhile.
    const r = await new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--max-old-space-size=1024", BIN, "--role", "machine", "--format", "compact", "."], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", TFCAPI_LINT_DEBUG: "", NODE_OPTIONS: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("error", reject);
      child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
    });
    expect(r.signal).toBe(null);
    expect(hasStackTrace(r.stderr), r.stderr.slice(0, 2000)).toBe(false);
    expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
    // Each resource takes five lines; `input` is the second.
    const line = (i: number) => i * 5 + 2;
    expect(r.stdout).toBe(
      VOLATILE.map(
        (i) =>
          `resources.tf:${line(i)}:11: warning: timestamp() gives terraform_data.r${i} "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]\n`,
      ).join(""),
    );
    expect(r.stderr).toBe("tfcapi-lint: .: role machine (from --role)\n");
  }, 900_000);

  it("a module too large for the heap it may use is a clear read error (exit 2), not a crash", () => {
    const dir = tree(fixtureFiles("machine"));
    // 12 MB (and the fixture's few KB) need at least 481 MB of heap; a 256 MB heap has less than that free.
    writeFileSync(path.join(dir, "resources.tf"), resourcesFile().slice(0, 12 * 1024 * 1024));
    const r = spawnSync(process.execPath, ["--max-old-space-size=256", BIN, "--role", "machine", "--format", "compact", "."], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", GITHUB_STEP_SUMMARY: "", TFCAPI_LINT_DEBUG: "", NODE_OPTIONS: "" },
    });
    expect(r.signal).toBe(null);
    expect(hasStackTrace(r.stderr)).toBe(false);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^tfcapi-lint: \.: role machine \(from --role\)\ntfcapi-lint: resources\.tf \(12\.0 MB\) is too large to lint in the memory this process may use: the module's files need at least 481 MB of heap and \d+ MB are free; raise Node's limit, e\.g\. NODE_OPTIONS=--max-old-space-size=4096\n$/,
    );
  });
});

/** `--also-write FORMAT=FILE` and `--full-report FORMAT=FILE`: more reports of one run (the GitHub Action's single CLI run). */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { REPO } from "./helpers.js";

async function run(args: string[], cwd = REPO): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => "", env: {}, cwd, isTTY: false };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function temp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-also-")));
  dirs.push(d);
  return d;
}

describe("--also-write", () => {
  it("writes the other formats of the same run, byte for byte what separate runs print", async () => {
    const out = temp();
    const mod = "examples/broken-machinepool";
    const r = await run(["--format", "compact", "--also-write", `json=${out}/r.json`, "--also-write", `sarif=${out}/r.sarif`, mod]);
    const compact = await run(["--format", "compact", mod]);
    expect(r).toEqual(compact);
    expect(r.code).toBe(1);
    expect(readFileSync(path.join(out, "r.json"), "utf8")).toBe((await run(["--format", "json", mod])).stdout);
    expect(readFileSync(path.join(out, "r.sarif"), "utf8")).toBe((await run(["--format", "sarif", mod])).stdout);
  });

  it.each([
    [["--also-write", "sarif"], '--also-write expects FORMAT=PATH (e.g. --also-write sarif=report.sarif), got "sarif"'],
    [["--also-write", "=x.sarif"], '--also-write expects FORMAT=PATH (e.g. --also-write sarif=report.sarif), got "=x.sarif"'],
    [["--also-write", "yaml=x.yaml"], '--also-write: unknown format "yaml" (known: text, compact, json, sarif, github, checkstyle, junit)'],
    [["--also-write", "json=main.tf"], "--also-write json=main.tf: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)"],
  ])("rejects %j", async (args, message) => {
    const r = await run([...args, "examples/machinepool-aws"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`tfcapi-lint: ${message}\nRun tfcapi-lint --help for usage.\n`);
  });

  it("with -q, --also-write copies what is printed and --full-report keeps every finding", async () => {
    const out = temp();
    const mod = "examples/broken-machinepool";
    const r = await run(["-q", "--format", "compact", "--also-write", `json=${out}/quiet.json`, "--full-report", `json=${out}/full.json`, "--full-report", `compact=${out}/full.txt`, mod]);
    expect(r).toEqual(await run(["-q", "--format", "compact", mod]));
    expect(readFileSync(path.join(out, "quiet.json"), "utf8")).toBe((await run(["-q", "--format", "json", mod])).stdout);
    const full = (await run(["--format", "json", mod])).stdout;
    expect(readFileSync(path.join(out, "full.json"), "utf8")).toBe(full);
    expect(readFileSync(path.join(out, "full.txt"), "utf8")).toBe((await run(["--format", "compact", mod])).stdout);
    // The module has warnings, which -q hides and the full report keeps.
    const summary = (JSON.parse(full) as { summary: { error: number; warning: number } }).summary;
    expect(summary.warning).toBeGreaterThan(0);
    expect((JSON.parse(readFileSync(path.join(out, "quiet.json"), "utf8")) as { summary: unknown }).summary).toEqual({ error: summary.error, warning: 0, info: 0 });
  });

  it("without -q, --full-report is --also-write", async () => {
    const out = temp();
    const mod = "examples/broken-machinepool";
    await run(["--full-report", `sarif=${out}/full.sarif`, mod]);
    expect(readFileSync(path.join(out, "full.sarif"), "utf8")).toBe((await run(["--format", "sarif", mod])).stdout);
  });

  it.each([
    [["--full-report", "json"], '--full-report expects FORMAT=PATH (e.g. --full-report json=report.json), got "json"'],
    [["--full-report", "yaml=x.yaml"], '--full-report: unknown format "yaml" (known: text, compact, json, sarif, github, checkstyle, junit)'],
    [["--full-report", "json=outputs.tf"], "--full-report json=outputs.tf: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)"],
  ])("rejects %j", async (args, message) => {
    const r = await run([...args, "examples/machinepool-aws"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`tfcapi-lint: ${message}\nRun tfcapi-lint --help for usage.\n`);
  });

  it("exits 2 when a report cannot be written", async () => {
    const out = temp();
    const r = await run(["--also-write", `json=${out}/missing/r.json`, "examples/machinepool-aws"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tfcapi-lint: cannot write the json report to ${out}/missing/r.json: directory ${out}/missing does not exist\n`);
    expect(existsSync(path.join(out, "missing"))).toBe(false);
  });
});

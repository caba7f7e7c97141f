/**
 * The Action with the Go action's `command: image`, run end to end: the run
 * script, the built CLI and an OCI layout (with a space in its path) in the
 * workspace. The counts come from the JSON copy of the run with every
 * finding (--full-report), so the image command must write it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { GOOD_CONFIG, goodEntries, Layout } from "../image/helpers.js";
import { cleanEnv, cleanup, ensureBuilt, ROOT, run, runCli, tempDir } from "./helpers.js";

const SCRIPT = path.join(ROOT, "scripts", "action-run.mjs");
let ws: string | undefined;

beforeAll(async () => {
  ensureBuilt();
  ws = tempDir("action-image");
  mkdirSync(path.join(ws, ".git"));
  // Runs as root: one image/user-root warning, and the image/entrypoint info.
  const layout = new Layout(path.join(ws, "build", "my image"));
  layout.top([layout.image([await layout.layer(goodEntries())], { ...GOOD_CONFIG, User: "0" })]);
});
afterAll(() => cleanup(ws));

function runAction(inputs: Record<string, string>): { code: number; stdout: string; outputs: Record<string, string> } {
  const out = path.join(ws!, ".out");
  writeFileSync(out, "");
  writeFileSync(path.join(ws!, ".summary"), "");
  const env = cleanEnv({
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: ws,
    GITHUB_OUTPUT: out,
    GITHUB_STEP_SUMMARY: path.join(ws!, ".summary"),
    GITHUB_ACTION_PATH: ROOT,
    RUNNER_TEMP: ws,
    ...inputs,
  });
  const r = run(process.execPath, [SCRIPT], { cwd: ROOT, env });
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(out, "utf8").split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { code: r.code, stdout: r.stdout, outputs };
}

describe("the Action with command: image", () => {
  it("checks an OCI layout and sets every output", () => {
    const r = runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:build/my image", INPUT_ROLE: "cluster", INPUT_SARIF_FILE: "reports/image.sarif" });
    const direct = runCli(["image", "--role", "cluster", "--format", "github", "oci:build/my image"], { cwd: ws!, env: cleanEnv({ GITHUB_ACTIONS: "true" }) });
    expect(r.stdout).toBe(direct.stdout);
    expect(r.stdout).toContain("::warning title=image/user-root::oci:build/my image: the image runs as root (0); set USER 65532:65532\n");
    expect(r.code).toBe(0);
    expect(r.outputs).toEqual({ findings: "2", errors: "0", warnings: "1", notices: "1", modules: "1", baselined: "0", "sarif-file": "reports/image.sarif", "exit-code": "0" });
    const sarif = JSON.parse(readFileSync(path.join(ws!, "reports", "image.sarif"), "utf8")) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((x) => x.ruleId)).toEqual(["image/entrypoint", "image/user-root"]);
  });

  it("strict: true fails on the warning, json: true prints the JSON report", () => {
    const r = runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:build/my image", INPUT_STRICT: "true", INPUT_JSON: "true" });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { image: { ref: string }; summary: unknown };
    expect(doc.image.ref).toBe("oci:build/my image");
    expect(doc.summary).toEqual({ error: 0, warning: 1, info: 1 });
    expect(r.outputs["exit-code"]).toBe("1");
    expect(r.outputs.warnings).toBe("1");
  });

  it("args: -q hides the warning from the log only: the outputs count it and strict still fails the step", () => {
    const r = runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:build/my image", INPUT_ROLE: "cluster", INPUT_STRICT: "true", INPUT_ARGS: "-q" });
    const direct = runCli(["image", "--role", "cluster", "--strict", "-q", "--format", "github", "oci:build/my image"], { cwd: ws!, env: cleanEnv({ GITHUB_ACTIONS: "true" }) });
    expect(direct.code).toBe(1);
    expect(r.stdout).toBe(direct.stdout);
    expect(r.stdout).not.toContain("::warning");
    expect(r.code).toBe(1);
    expect(r.outputs).toEqual({ findings: "2", errors: "0", warnings: "1", notices: "1", modules: "1", baselined: "0", "sarif-file": "", "exit-code": "1" });
  });
});

describe("inputs that do not apply to command: image", () => {
  it("config is refused with a clear annotation (the image command reads no config file)", () => {
    const r = runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:build/my image", INPUT_CONFIG: ".tfcapi-lint.hcl" });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("::error title=tfcapi-lint action::config is not used with command: image (an image is checked without .tfcapi-lint.hcl)\n");
    expect(r.outputs).toEqual({});
  });
});

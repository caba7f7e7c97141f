/**
 * Options the image command shares with the module command: --also-write
 * (the GitHub Action reads its counts from a JSON copy of the run) and the
 * --max-warnings message, on a layout built byte by byte.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { GOOD_CONFIG, goodEntries, Layout, rows, run, type JsonDoc } from "./helpers.js";

let layout: Layout;
let ref: string;
// The image runs as root: one warning (image/user-root) and the entrypoint info.
const ROOT_USER = { ...GOOD_CONFIG, User: "0" };

beforeAll(async () => {
  layout = new Layout();
  layout.top([layout.image([await layout.layer(goodEntries())], ROOT_USER)]);
  ref = `oci:${layout.dir}`;
});
afterAll(() => layout.remove());

describe("image --also-write", () => {
  test("writes the same run's report in each extra format", async () => {
    const json = path.join(layout.dir, "also.json");
    const sarif = path.join(layout.dir, "also.sarif");
    const r = await run(["image", "--format", "compact", "--also-write", `json=${json}`, "--also-write", `sarif=${sarif}`, ref]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      `${ref}:0:0: info: the image sets an Entrypoint, which the runner replaces [image/entrypoint]\n` +
        `${ref}:0:0: warning: the image runs as root (0); set USER 65532:65532 [image/user-root]\n`,
    );
    const direct = JSON.parse((await run(["image", "--json", ref])).stdout) as JsonDoc;
    const doc = JSON.parse(readFileSync(json, "utf8")) as JsonDoc;
    expect(doc).toEqual(direct);
    expect(rows(doc).map((f) => f[0])).toEqual(["image/entrypoint", "image/user-root"]);
    const log = JSON.parse(readFileSync(sarif, "utf8")) as { runs: { results: { ruleId: string }[] }[] };
    expect(log.runs[0]!.results.map((x) => x.ruleId)).toEqual(["image/entrypoint", "image/user-root"]);
  });

  test("an unknown format or a module file name is a usage error, before anything is read", async () => {
    const bad = await run(["image", "--also-write", "yaml=out.yaml", "oci:/nonexistent"]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe('tfcapi-lint: --also-write: unknown format "yaml" (known: text, compact, json, sarif, github, checkstyle, junit)\nRun tfcapi-lint --help for usage.\n');
    const tf = await run(["image", "--also-write", "json=main.tf", "oci:/nonexistent"]);
    expect(tf.code).toBe(3);
    expect(tf.stderr).toBe("tfcapi-lint: --also-write json=main.tf: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)\nRun tfcapi-lint --help for usage.\n");
    expect(existsSync("main.tf")).toBe(false);
  });

  test("a report that cannot be written is exit 2 naming the file", async () => {
    const where = path.join(layout.dir, "no-such-dir", "r.json");
    const r = await run(["image", "--also-write", `json=${where}`, ref]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tfcapi-lint: cannot write the json report to ${where}: directory ${path.dirname(where)} does not exist\n`);
  });
});

describe("image --max-warnings", () => {
  test("says the limit was exceeded, in text and JUnit, and fails", async () => {
    const text = await run(["image", "--max-warnings", "0", ref]);
    expect(text.code).toBe(1);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toBe("✖ 1 warning, more than --max-warnings 0");
    const junit = await run(["image", "--format", "junit", "--max-warnings", "0", ref]);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain("1 warning, more than --max-warnings 0");
    const within = await run(["image", "--max-warnings", "1", ref]);
    expect(within.code).toBe(0);
    expect(within.stdout).not.toContain("more than --max-warnings");
  });
});

describe("image option checks, as the module command makes them", () => {
  test("an unknown rule in --allow-warning is a usage error (it was silently accepted)", async () => {
    const r = await run(["image", "--allow-warning", "nope/nope", ref]);
    expect(r).toEqual({ code: 3, stdout: "", stderr: 'tfcapi-lint: --allow-warning: unknown rule "nope/nope" (run "tfcapi-lint rules" for the list)\nRun tfcapi-lint --help for usage.\n' });
    const bad = await run(["image", "--allow-warning", "Not An Id", ref]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe('tfcapi-lint: --allow-warning: "Not An Id" is not a valid rule id (run "tfcapi-lint rules" for the list)\nRun tfcapi-lint --help for usage.\n');
  });

  test("--config is refused instead of being ignored", async () => {
    const r = await run(["image", "--config", "/nonexistent.hcl", ref]);
    expect(r).toEqual({
      code: 3,
      stdout: "",
      stderr: "tfcapi-lint: --config cannot be used with the image command (it reads no .tfcapi-lint.hcl; use --rule and --allow-warning)\nRun tfcapi-lint --help for usage.\n",
    });
  });
});

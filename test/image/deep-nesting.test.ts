/**
 * `image` lints a module nested to any depth on the main thread, as
 * `module` and `schema` do, so the same module gives the same answer
 * through all three. Runs the built CLI.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { GOOD_CONFIG, goodEntries, Layout, CLUSTER_MAIN } from "./helpers.js";

const REPO = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(REPO, "bin", "tfcapi-lint.js");
const layouts: Layout[] = [];
afterAll(() => layouts.forEach((l) => l.remove()));

function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" }, timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A timestamp() (drift/non-idempotent) inside `levels` brackets: reported at column 11 + levels. */
const deepDrift = (levels: number): string => `resource "terraform_data" "deep" {\n  input = ${"[".repeat(levels)}timestamp()${"]".repeat(levels)}\n}\n`;

describe("image: a deeply nested module", () => {
  test("is linted in full (100,000 levels), with the finding at its exact column", async () => {
    const l = new Layout();
    layouts.push(l);
    const levels = 100_000;
    const entries = [...goodEntries(CLUSTER_MAIN), { name: "captf/module/deep.tf", content: deepDrift(levels) }];
    l.top([l.image([await l.layer(entries)], { ...GOOD_CONFIG, Entrypoint: null })]);
    const r = cli(["image", "--role", "cluster", "-f", "compact", `oci:${l.dir}`]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      `/captf/module/deep.tf:2:${11 + levels}: warning: timestamp() gives terraform_data.deep "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]\n`,
    );
    expect(r.code).toBe(0);
  });
});

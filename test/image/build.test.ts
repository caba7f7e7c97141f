/**
 * The built CLI: the image command is its own bundle that `module` never
 * loads; progress on a terminal (a pty from util-linux `script`); the image
 * rules in `rules` and `explain`.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GOOD_CONFIG, goodEntries, Layout, needTool, run } from "./helpers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin", "tfcapi-lint.js");
const work = mkdtempSync(path.join(tmpdir(), "tfcapi-image-build-"));
let layout: Layout;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, "dist", "image.cjs"))) {
    const b = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
    if (b.status !== 0) throw new Error(b.stderr);
  }
  layout = new Layout(path.join(work, "img"));
  // 5 MiB that do not compress: over the 4 MiB progress threshold.
  const entries = [...goodEntries(), { name: "usr/lib/blob", content: randomBytes(5 * 1024 * 1024) }];
  layout.top([layout.image([await layout.layer(entries, "gzip")], { ...GOOD_CONFIG, Entrypoint: null })]);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function node(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the image bundle", () => {
  test("dist/cli.cjs holds no image code; dist/image.cjs does", () => {
    const cli = readFileSync(path.join(ROOT, "dist", "cli.cjs"), "utf8");
    const image = readFileSync(path.join(ROOT, "dist", "image.cjs"), "utf8");
    for (const marker of ["tar-stream", "fzstd", "whiteout", ".wh..wh..opq"]) expect(cli.includes(marker), marker).toBe(false);
    expect(image.includes(".wh..wh..opq")).toBe(true);
  });

  test("module linting never loads dist/image.cjs; image does", () => {
    const hook = path.join(work, "hook.cjs");
    writeFileSync(
      hook,
      `const M = require("node:module");
const load = M._load;
M._load = function (request, ...rest) {
  if (String(request).endsWith("image.cjs")) process.stderr.write("LOADED image.cjs\\n");
  return load.call(this, request, ...rest);
};
`,
    );
    const mod = node(["--require", hook, BIN, "examples/machinepool-aws"]);
    expect(mod.code).toBe(0);
    expect(mod.stderr).toBe("");
    const img = node(["--require", hook, BIN, "image", "--format", "compact", `oci:${layout.dir}`]);
    expect(img.stderr).toBe("LOADED image.cjs\n");
    expect([img.code, img.stdout]).toEqual([0, ""]);
  });

  test("the built CLI keeps the exit codes: 2 unreadable, 3 bad platform", () => {
    const missing = node([BIN, "image", `oci:${path.join(work, "nothing")}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`tfcapi-lint: cannot read image oci:${path.join(work, "nothing")}: cannot read the image layout ${path.join(work, "nothing")}: no such file\n`);
    const bad = node([BIN, "image", "--platform", "amd64", `oci:${layout.dir}`]);
    expect(bad.code).toBe(3);
  });
});

describe("progress", () => {
  test("no progress when stderr is not a terminal", () => {
    const r = node([BIN, "image", "--format", "compact", `oci:${layout.dir}`]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
  });

  test("a large layer shows progress on a terminal's stderr", () => {
    if (!needTool("script")) return;
    const out = path.join(work, "stdout.txt");
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} image --format compact oci:${layout.dir} > ${out}`;
    const r = spawnSync("script", ["-qec", cmd, "/dev/null"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(r.status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("");
    const layer = JSON.parse(readFileSync(path.join(layout.dir, "blobs", "sha256", JSON.parse(readFileSync(path.join(layout.dir, "index.json"), "utf8")).manifests[0].digest.slice(7)), "utf8")).layers[0];
    const short = (layer.digest as string).slice(7, 19);
    const total = (layer.size / 1024 / 1024).toFixed(1);
    expect(r.stdout).toContain(`pulling layer 1/1 ${short}`);
    expect(r.stdout.replace(/\r\n/g, "\n")).toMatch(new RegExp(`\\r\\u001b\\[2Kpulling layer 1/1 ${short}  ${total}/${total} MiB\\n$`));
  });
});

describe("the image rules in rules and explain", () => {
  test("rules lists every image check; explain prints its page", async () => {
    const r = await run(["rules", "--format", "json"]);
    const ids = (JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id).filter((id) => id.startsWith("image/"));
    expect(ids).toEqual([
      "image/module-present",
      "image/runtime-present",
      "image/runtime-version",
      "image/providers-absent",
      "image/providers-layout",
      "image/providers-complete",
      "image/reserved-paths",
      "image/label-role",
      "image/label-contract",
      "image/label-capacity",
      "image/user-root",
      "image/user-unresolved",
      "image/module-readable",
      "image/module-link",
      "image/entrypoint",
      "image/platform",
      "image/variables-schema",
      "image/capacity-size-variable",
    ]);
    for (const id of ids) {
      const e = await run(["explain", id]);
      expect(e.code).toBe(0);
      expect(e.stdout.startsWith(`# ${id}\n`)).toBe(true);
    }
  });

  test("a module lint's JUnit and SARIF do not list the image checks", async () => {
    const junit = await run(["--format", "junit", "examples/machinepool-aws"], ROOT);
    expect(junit.stdout).toContain('name="pool/autoscaling-ignore-changes"');
    expect(junit.stdout).not.toMatch(/name="image\//);
    const sarif = await run(["--format", "sarif", "examples/machinepool-aws"], ROOT);
    const ids = (JSON.parse(sarif.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } } }[] }).runs[0]!.tool.driver.rules.map((x) => x.id);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.filter((id) => id.startsWith("image/"))).toEqual([]);
  });
});

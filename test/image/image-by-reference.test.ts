/**
 * `tfcapi-lint image HOST/REPO:TAG` end to end: Debian's docker-registry on
 * 127.0.0.1 (a free port, anonymous, plain HTTP with --insecure), images
 * pushed with skopeo from byte-built OCI layouts (one platform, and a
 * two-platform index), linted by reference through the registry client
 * (src/image/registry.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GOOD_CONFIG, goodEntries, Layout, needTool, rows, run, withPlatform, type JsonDoc } from "./helpers.js";

const ready = needTool("docker-registry") && needTool("skopeo");
const work = mkdtempSync(path.join(tmpdir(), "tfcapi-image-ref-"));
let registry: ChildProcess | null = null;
let host = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error("docker-registry did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}

function push(layoutRef: string, dest: string, extra: string[] = []): void {
  const r = spawnSync("skopeo", ["copy", "--quiet", "--insecure-policy", "--dest-tls-verify=false", ...extra, layoutRef, `docker://${host}/${dest}`], {
    encoding: "utf8",
    env: { ...process.env, REGISTRY_AUTH_FILE: path.join(work, "no-auth.json") },
  });
  if (r.status !== 0) throw new Error(`skopeo copy failed: ${r.stderr}`);
}

beforeAll(async () => {
  if (!ready) return;
  const port = await freePort();
  host = `127.0.0.1:${port}`;
  const config = path.join(work, "config.yml");
  writeFileSync(
    config,
    ["version: 0.1", "log:", "  level: error", "  accesslog:", "    disabled: true", "storage:", "  filesystem:", `    rootdirectory: ${path.join(work, "data")}`, "http:", `  addr: ${host}`, ""].join("\n"),
  );
  registry = spawn("docker-registry", ["serve", config], { stdio: "ignore" });
  await waitForPort(port);
});

afterAll(async () => {
  if (registry && registry.exitCode === null) {
    const exited = new Promise((r) => registry!.once("exit", r));
    registry.kill("SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe.runIf(ready)("linting by registry reference", () => {
  test("a single-platform image: the same findings as from the layout", async () => {
    const l = new Layout(path.join(work, "single"));
    l.top([l.image([await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"))], GOOD_CONFIG)]);
    push(`oci:${l.dir}`, "captf/cluster:v1");
    const r = await run(["image", "--json", "--insecure", "--role", "cluster", `${host}/captf/cluster:v1`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    expect(doc.image.ref).toBe(`${host}/captf/cluster:v1`);
    expect(doc.image.platforms).toEqual(["linux/amd64"]);
    expect(rows(doc)).toEqual([
      ["image/entrypoint", "info", "", 0, "the image sets an Entrypoint, which the runner replaces"],
      ["image/runtime-present", "error", "/captf/runtime", 0, "/captf/runtime is missing: the runner executes it to run terraform or tofu"],
    ]);
    const fromLayout = await run(["image", "--json", "--role", "cluster", `oci:${l.dir}`]);
    expect((JSON.parse(fromLayout.stdout) as JsonDoc).findings).toEqual(doc.findings);
  });

  test("a two-platform index pushed with --all: --platform and --all-platforms", async () => {
    const l = new Layout(path.join(work, "multi"));
    const amd = withPlatform(l.image([await l.layer(goodEntries())], { ...GOOD_CONFIG, Entrypoint: null }), "linux", "amd64");
    const arm = withPlatform(l.image([await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"))], { ...GOOD_CONFIG, Entrypoint: null }, { architecture: "arm64" }), "linux", "arm64");
    l.top([l.index([amd, arm])]);
    push(`oci:${l.dir}`, "captf/cluster:multi", ["--all"]);
    const def = await run(["image", "--json", "--insecure", `${host}/captf/cluster:multi`]);
    expect(def.code).toBe(0);
    expect(rows(JSON.parse(def.stdout) as JsonDoc)).toEqual([]);
    const all = await run(["image", "--json", "--insecure", "--all-platforms", `${host}/captf/cluster:multi`]);
    const doc = JSON.parse(all.stdout) as JsonDoc;
    expect(doc.image.platforms).toEqual(["linux/amd64", "linux/arm64"]);
    expect(rows(doc)).toEqual([["image/runtime-present", "error", "/captf/runtime", 0, "[linux/arm64] /captf/runtime is missing: the runner executes it to run terraform or tofu"]]);
    const none = await run(["image", "--json", "--insecure", "--platform", "linux/s390x", `${host}/captf/cluster:multi`]);
    expect(rows(JSON.parse(none.stdout) as JsonDoc)).toEqual([["image/platform", "error", "", 0, "the index has no manifest for linux/s390x"]]);
  });

  test("a tag that does not exist is exit 2", async () => {
    const r = await run(["image", "--insecure", `${host}/captf/cluster:nope`]);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(`tfcapi-lint: cannot read image ${host}/captf/cluster:nope: `)).toBe(true);
  });
});

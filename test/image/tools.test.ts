/**
 * Images built with the real tools: umoci (init/new/unpack/repack/config,
 * which writes its own whiteouts when a file is removed between two
 * repacks) and skopeo (copies between layouts, recompressing to zstd,
 * converting to Docker v2 media types, and to a docker-archive).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLUSTER_MAIN, needTool, rows, run, type JsonDoc } from "./helpers.js";

const haveUmoci = needTool("umoci");
const haveSkopeo = needTool("skopeo");
const work = mkdtempSync(path.join(tmpdir(), "tfcapi-image-tools-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

async function lintJson(ref: string, args: string[] = []): Promise<{ code: number; doc: JsonDoc; stderr: string }> {
  const r = await run(["image", "--json", ...args, ref]);
  return { code: r.code, doc: JSON.parse(r.stdout) as JsonDoc, stderr: r.stderr };
}

const LABELS = ["io.captf.role=cluster", "io.captf.contract=v1alpha1", "io.captf.runtime=tofu"];
const ENTRYPOINT_ROW = ["image/entrypoint", "info", "", 0, "the image sets an Entrypoint, which the runner replaces"];

describe.runIf(haveUmoci)("umoci-built images", () => {
  const layoutDir = path.join(work, "layout");
  const bundle = path.join(work, "bundle");
  const rootfs = path.join(bundle, "rootfs");

  beforeAll(() => {
    sh("umoci", ["init", "--layout", layoutDir]);
    sh("umoci", ["new", "--image", `${layoutDir}:base`]);
    sh("umoci", ["unpack", "--image", `${layoutDir}:base`, bundle]);
    // A good cluster image, plus a stray file under a mounted path.
    mkdirSync(path.join(rootfs, "captf", "module"), { recursive: true });
    mkdirSync(path.join(rootfs, "captf", "providers"), { recursive: true });
    mkdirSync(path.join(rootfs, "captf", "work"), { recursive: true });
    mkdirSync(path.join(rootfs, "usr", "local", "bin"), { recursive: true });
    writeFileSync(path.join(rootfs, "captf", "module", "main.tf"), CLUSTER_MAIN);
    writeFileSync(path.join(rootfs, "captf", "work", "leftover.tfstate"), "{}");
    writeFileSync(path.join(rootfs, "usr", "local", "bin", "tofu"), "#!/bin/sh\n");
    chmodSync(path.join(rootfs, "usr", "local", "bin", "tofu"), 0o755);
    symlinkSync("/usr/local/bin/tofu", path.join(rootfs, "captf", "runtime"));
    chownSync(path.join(rootfs, "captf", "module", "main.tf"), 65532, 65532);
    chmodSync(path.join(rootfs, "captf", "module", "main.tf"), 0o600);
    sh("umoci", ["repack", "--image", `${layoutDir}:v1`, bundle]);
    // Second layer: the stray file removed (umoci writes a whiteout).
    unlinkSync(path.join(rootfs, "captf", "work", "leftover.tfstate"));
    sh("umoci", ["repack", "--image", `${layoutDir}:v2`, bundle]);
    for (const tag of ["v1", "v2"]) {
      sh("umoci", [
        "config",
        "--image",
        `${layoutDir}:${tag}`,
        "--config.user",
        "65532:65532",
        "--config.entrypoint",
        "/bin/sh",
        ...LABELS.flatMap((l) => ["--config.label", l]),
      ]);
    }
  });

  test("the first image ships a file under /captf/work", async () => {
    const { code, doc } = await lintJson(`oci:${layoutDir}:v1`, ["--role", "cluster"]);
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([
      ENTRYPOINT_ROW,
      ["image/reserved-paths", "error", "/captf/work", 0, "1 file under /captf/work, which is mounted when the Job runs (the mount hides them)"],
    ]);
  });

  test("umoci's whiteout removes it: a good image with only the entrypoint info", async () => {
    const { code, doc } = await lintJson(`oci:${layoutDir}:v2`, ["--role", "cluster", "--strict", "--platform", "linux/amd64"]);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([ENTRYPOINT_ROW]);
    expect(doc.image.platforms).toEqual(["linux/amd64"]);
  });

  test("umoci user without group: the module file owned by 65532 is readable", async () => {
    sh("umoci", ["config", "--image", `${layoutDir}:v2`, "--tag", "v3", "--config.user", "65533"]);
    const { doc } = await lintJson(`oci:${layoutDir}:v3`);
    expect(rows(doc)).toEqual([
      ENTRYPOINT_ROW,
      ["image/module-readable", "warning", "/captf/module/main.tf", 0, "user 65533 cannot read 1 path (files need r, directories x): /captf/module/main.tf"],
    ]);
  });

  describe.runIf(haveSkopeo)("copied with skopeo", () => {
    test("recompressed to zstd", async () => {
      sh("skopeo", ["copy", "--dest-compress-format", "zstd", `oci:${layoutDir}:v2`, `oci:${path.join(work, "zstd")}:v2`]);
      const manifests = readdirSync(path.join(work, "zstd", "blobs", "sha256")).map((f) => readFileSync(path.join(work, "zstd", "blobs", "sha256", f), "utf8"));
      expect(manifests.some((m) => m.includes("application/vnd.oci.image.layer.v1.tar+zstd"))).toBe(true);
      const { code, doc } = await lintJson(`oci:${path.join(work, "zstd")}`, ["--role", "cluster", "--strict"]);
      expect(code).toBe(0);
      expect(rows(doc)).toEqual([ENTRYPOINT_ROW]);
    });

    test("converted to Docker v2 media types", async () => {
      sh("skopeo", ["copy", "--format", "v2s2", `oci:${layoutDir}:v1`, `oci:${path.join(work, "docker")}:v1`]);
      const index = readFileSync(path.join(work, "docker", "index.json"), "utf8");
      expect(index).toContain("application/vnd.docker.distribution.manifest.v2+json");
      const { doc } = await lintJson(`oci:${path.join(work, "docker")}:v1`, ["--role", "cluster"]);
      expect(rows(doc).map((r) => r[0])).toEqual(["image/entrypoint", "image/reserved-paths"]);
    });

    test("a legacy docker-archive (not an OCI layout) is exit 2", async () => {
      const tarFile = path.join(work, "legacy.tar");
      sh("skopeo", ["copy", `oci:${layoutDir}:v2`, `docker-archive:${tarFile}:captf/cluster:v2`]);
      const dir = path.join(work, "legacy");
      mkdirSync(dir);
      sh("tar", ["-xf", tarFile, "-C", dir]);
      const r = await run(["image", `oci:${dir}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`tfcapi-lint: cannot read image oci:${dir}: ${dir} is not an OCI image layout: cannot read oci-layout (no such file)\n`);
    });
  });
});

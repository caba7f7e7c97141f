/**
 * The registry client against a real distribution registry (Debian's
 * docker-registry) without authentication, over plain HTTP (`--insecure`).
 * Images are pushed with skopeo from OCI layouts written byte by byte.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRegistrySource } from "../../src/image/registry.js";
import { ImageReadError, type ImageSource } from "../../src/image/source.js";
import {
  Layout,
  MT,
  cleanEnv,
  freePort,
  push,
  removeTemps,
  sha256,
  skipWithout,
  startRegistry,
  tempDir,
  type Desc,
  type Registry,
} from "./registry-helpers.js";

const skip = skipWithout(["docker-registry", "skopeo"]);

async function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe.skipIf(skip)("registry source: anonymous registry over HTTP", () => {
  let reg: Registry;
  let layout: Layout;
  let app: { manifest: Desc; config: Desc; layer: Desc };
  let big: { manifest: Desc; config: Desc; layer: Desc };
  let arm: { manifest: Desc; config: Desc; layer: Desc };
  let index: Desc;
  let env: NodeJS.ProcessEnv;
  const sources: ImageSource[] = [];

  async function open(ref: string, insecure = true, onProgress?: (d: number, t: number, g: string) => void) {
    const s = await openRegistrySource(ref, { insecure, env, ...(onProgress ? { onProgress } : {}) });
    sources.push(s);
    return s;
  }

  beforeAll(async () => {
    reg = await startRegistry();
    const dir = tempDir();
    env = cleanEnv(path.join(dir, "home"));
    layout = new Layout(path.join(dir, "layout"));
    app = layout.image({
      files: { "captf/module/main.tf": 'variable "name" {}\n' },
      labels: { "io.captf.role": "infrastructure" },
    });
    layout.tag("v1", app.manifest);
    // skopeo compresses uncompressed layers on push; random bytes stay about as large gzipped.
    big = layout.image({ files: { "data/blob.bin": randomBytes(3 * 1024 * 1024) } });
    layout.tag("big", big.manifest);
    arm = layout.image({ files: { "captf/module/main.tf": "# arm\n" }, arch: "arm64" });
    index = layout.index([app.manifest, arm.manifest]);
    layout.tag("multi", index);
    await push(`oci:${layout.dir}:v1`, `${reg.host}/team/app:v1`);
    await push(`oci:${layout.dir}:big`, `${reg.host}/team/big:1`);
    await push(`oci:${layout.dir}:multi`, `${reg.host}/team/multi:1`, ["--multi-arch", "all"]);
    await push(`oci:${layout.dir}:v1`, `${reg.host}/team/docker:v2s2`, ["--format", "v2s2"]);
  });

  afterAll(async () => {
    for (const s of sources) await s.close();
    await reg?.stop();
    removeTemps();
  });

  it("resolves a tag to the pushed OCI manifest, byte for byte", async () => {
    const s = await open(`${reg.host}/team/app:v1`);
    expect(s.ref).toBe(`${reg.host}/team/app:v1`);
    const { descriptor, bytes } = await s.resolve();
    expect(descriptor).toEqual({ mediaType: MT.manifest, digest: app.manifest.digest, size: app.manifest.size });
    expect(bytes.equals(layout.blobs.get(app.manifest.digest)!)).toBe(true);
  });

  it("fetches the config blob within a limit and refuses one over it", async () => {
    const s = await open(`${reg.host}/team/app:v1`);
    const cfg = await s.fetch(app.config, "blob", 1 << 20);
    expect(cfg.equals(layout.blobs.get(app.config.digest)!)).toBe(true);
    expect(JSON.parse(cfg.toString()).config.Labels).toEqual({ "io.captf.role": "infrastructure" });
    await expect(s.fetch(app.config, "blob", 10)).rejects.toThrow(
      new ImageReadError(
        `blob ${app.config.digest} of ${reg.host}/team/app is ${app.config.size} bytes, over the limit of 10`,
      ),
    );
  });

  it("streams a layer, reporting progress, and verifies it at the end", async () => {
    const seen: [number, number, string][] = [];
    const s = await open(`${reg.host}/team/big:1`, true, (d, t, g) => seen.push([d, t, g]));
    const stream = await s.openBlob(big.layer);
    const got = await readAll(stream);
    expect(sha256(got)).toBe(big.layer.digest);
    expect(got.length).toBe(big.layer.size);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual([big.layer.size, big.layer.size, big.layer.digest]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
  });

  it("errors at the end of a blob whose descriptor gives the wrong size", async () => {
    const s = await open(`${reg.host}/team/app:v1`);
    const stream = await s.openBlob({ ...app.layer, size: app.layer.size + 5 });
    await expect(readAll(stream)).rejects.toThrow(
      `blob ${app.layer.digest} of ${reg.host}/team/app is ${app.layer.size} bytes, not the ${app.layer.size + 5} its descriptor says`,
    );
  });

  it("reads an index and the manifests it lists", async () => {
    const s = await open(`${reg.host}/team/multi:1`);
    const { descriptor, bytes } = await s.resolve();
    expect(descriptor).toEqual({ mediaType: MT.index, digest: index.digest, size: index.size });
    const listed = JSON.parse(bytes.toString()).manifests as Desc[];
    expect(listed.map((m) => m.platform?.architecture)).toEqual(["amd64", "arm64"]);
    const armBytes = await s.fetch(listed[1]!, "manifest", 1 << 20);
    expect(armBytes.equals(layout.blobs.get(arm.manifest.digest)!)).toBe(true);
    const armConfig = JSON.parse((await s.fetch(arm.config, "blob", 1 << 20)).toString());
    expect(armConfig.architecture).toBe("arm64");
  });

  it("reads a Docker v2 manifest", async () => {
    const s = await open(`${reg.host}/team/docker:v2s2`);
    const { descriptor, bytes } = await s.resolve();
    expect(descriptor.mediaType).toBe("application/vnd.docker.distribution.manifest.v2+json");
    expect(descriptor.digest).toBe(sha256(bytes));
    const m = JSON.parse(bytes.toString());
    expect(m.config.mediaType).toBe("application/vnd.docker.container.image.v1+json");
    const cfg = await s.fetch(m.config, "blob", 1 << 20);
    expect(JSON.parse(cfg.toString()).os).toBe("linux");
  });

  it("resolves a digest-pinned reference, with or without a tag", async () => {
    for (const ref of [`${reg.host}/team/app@${app.manifest.digest}`, `${reg.host}/team/app:v1@${app.manifest.digest}`]) {
      const s = await open(ref);
      const { descriptor } = await s.resolve();
      expect(descriptor.digest).toBe(app.manifest.digest);
    }
  });

  it("reports a digest the repository does not have, and a missing tag, as not found", async () => {
    const wrong = `sha256:${"0".repeat(64)}`;
    await expect((await open(`${reg.host}/team/app@${wrong}`)).resolve()).rejects.toThrow(
      new ImageReadError(`${reg.host}/team/app@${wrong} not found (${reg.host} has no manifest "${wrong}" for team/app)`),
    );
    await expect((await open(`${reg.host}/team/app:v9`)).resolve()).rejects.toThrow(
      new ImageReadError(`${reg.host}/team/app:v9 not found (${reg.host} has no manifest "v9" for team/app)`),
    );
    await expect((await open(`${reg.host}/team/nothing:v1`)).resolve()).rejects.toThrow(
      `${reg.host}/team/nothing:v1 not found`,
    );
  });

  it("reports a blob the repository does not have", async () => {
    const s = await open(`${reg.host}/team/app:v1`);
    await expect(s.openBlob(big.layer)).rejects.toThrow(
      new ImageReadError(`blob ${big.layer.digest} of ${reg.host}/team/app not found`),
    );
  });

  it("without --insecure, says the registry does not speak HTTPS and suggests --insecure", async () => {
    const s = await open(`${reg.host}/team/app:v1`, false);
    const err = await s.resolve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageReadError);
    expect((err as Error).message).toMatch(
      new RegExp(`^cannot pull ${reg.host}/team/app:v1: ${reg.host} did not answer over HTTPS \\(its answer is not TLS\\); if it is a plain-HTTP registry, use --insecure$`),
    );
  });

  it("names the registry when nothing listens there", async () => {
    const port = await freePort();
    const s = await open(`127.0.0.1:${port}/team/app:v1`, false);
    await expect(s.resolve()).rejects.toThrow(
      new ImageReadError(`cannot pull 127.0.0.1:${port}/team/app:v1: cannot connect to 127.0.0.1:${port}: connection refused`),
    );
    const t = await open(`127.0.0.1:${port}/team/app:v1`, true);
    await expect(t.resolve()).rejects.toThrow(
      new ImageReadError(
        `cannot pull 127.0.0.1:${port}/team/app:v1: HTTPS: cannot connect to 127.0.0.1:${port}: connection refused; ` +
          `HTTP: cannot connect to 127.0.0.1:${port}: connection refused`,
      ),
    );
  });

  it("refuses unsupported digests and is safe to close twice", async () => {
    const s = await open(`${reg.host}/team/app:v1`);
    await expect(s.fetch({ ...app.config, digest: `sha512:${"a".repeat(128)}` }, "blob", 1000)).rejects.toThrow(
      `unsupported digest "sha512:${"a".repeat(128)}" in ${reg.host}/team/app:v1 (only sha256 is supported)`,
    );
    await s.close();
    await s.close();
    await expect(s.resolve()).rejects.toThrow(ImageReadError);
  });
});

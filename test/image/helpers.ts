/**
 * Builds OCI image layouts byte by byte for the image tests: tar layers
 * written with tar-stream (uncompressed, gzip with node:zlib, zstd with the
 * `zstd` CLI), blobs under blobs/sha256, manifests, nested indexes.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";

export interface Entry {
  name: string;
  type?: "file" | "directory" | "symlink" | "link";
  mode?: number;
  uid?: number;
  gid?: number;
  content?: string | Buffer;
  linkname?: string;
}

export type Compression = "none" | "gzip" | "zstd";

export interface Desc {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os: string; architecture: string; variant?: string };
  annotations?: Record<string, string>;
}

export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
export const OCI_INDEX = "application/vnd.oci.image.index.v1+json";
export const OCI_CONFIG = "application/vnd.oci.image.config.v1+json";
export const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
export const DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
export const DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json";

export function sha256(b: Buffer): string {
  return `sha256:${createHash("sha256").update(b).digest("hex")}`;
}

/** A tar archive of the entries (directories, files, links), in order. */
export async function tarBytes(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    pack.on("end", () => resolve());
    pack.on("error", reject);
  });
  for (const e of entries) {
    const type = e.type ?? (e.linkname !== undefined ? "symlink" : e.name.endsWith("/") ? "directory" : "file");
    const header: Partial<tar.Header> & { name: string } = {
      name: e.name,
      type,
      mode: e.mode ?? (type === "directory" ? 0o755 : 0o644),
      uid: e.uid ?? 0,
      gid: e.gid ?? 0,
      mtime: new Date(0),
    };
    if (e.linkname !== undefined) header.linkname = e.linkname;
    if (type === "file") {
      const content = typeof e.content === "string" ? Buffer.from(e.content) : (e.content ?? Buffer.alloc(0));
      await new Promise<void>((resolve, reject) => pack.entry({ ...header, size: content.length }, content, (err) => (err ? reject(err) : resolve())));
    } else {
      await new Promise<void>((resolve, reject) => pack.entry(header, (err) => (err ? reject(err) : resolve())));
    }
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export function compress(bytes: Buffer, how: Compression): Buffer {
  if (how === "gzip") return gzipSync(bytes);
  if (how === "zstd") return execFileSync("zstd", ["-q", "-c", "-3"], { input: bytes, maxBuffer: 1 << 30 });
  return bytes;
}

export function hasTool(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
}

/** Skips (or, under CI, fails) a test that needs a tool. */
export function needTool(name: string): boolean {
  if (hasTool(name)) return true;
  if (process.env.CI) throw new Error(`${name} is required under CI but is not installed`);
  console.warn(`skipping: ${name} is not installed (apt-get install ${name})`);
  return false;
}

export class Layout {
  readonly dir: string;
  constructor(dir?: string) {
    this.dir = dir ?? mkdtempSync(path.join(tmpdir(), "tfcapi-image-test-"));
    mkdirSync(path.join(this.dir, "blobs", "sha256"), { recursive: true });
    writeFileSync(path.join(this.dir, "oci-layout"), '{"imageLayoutVersion":"1.0.0"}');
  }

  blob(bytes: Buffer, mediaType: string): Desc {
    const digest = sha256(bytes);
    writeFileSync(path.join(this.dir, "blobs", "sha256", digest.slice(7)), bytes);
    return { mediaType, digest, size: bytes.length };
  }

  json(value: unknown, mediaType: string): Desc {
    return this.blob(Buffer.from(JSON.stringify(value)), mediaType);
  }

  async layer(entries: Entry[], how: Compression = "gzip"): Promise<Desc> {
    const type = how === "gzip" ? "application/vnd.oci.image.layer.v1.tar+gzip" : how === "zstd" ? "application/vnd.oci.image.layer.v1.tar+zstd" : "application/vnd.oci.image.layer.v1.tar";
    return this.blob(compress(await tarBytes(entries), how), type);
  }

  /** An image manifest with its config. */
  image(layers: Desc[], config: Record<string, unknown>, opts: { os?: string; architecture?: string; variant?: string; docker?: boolean } = {}): Desc {
    const cfg = this.json(
      { architecture: opts.architecture ?? "amd64", os: opts.os ?? "linux", ...(opts.variant ? { variant: opts.variant } : {}), config, rootfs: { type: "layers", diff_ids: [] } },
      opts.docker ? DOCKER_CONFIG : OCI_CONFIG,
    );
    const mt = opts.docker ? DOCKER_MANIFEST : OCI_MANIFEST;
    return this.json({ schemaVersion: 2, mediaType: mt, config: cfg, layers }, mt);
  }

  index(manifests: Desc[], docker = false): Desc {
    const mt = docker ? DOCKER_LIST : OCI_INDEX;
    return this.json({ schemaVersion: 2, mediaType: mt, manifests }, mt);
  }

  /** Writes index.json listing these descriptors. */
  top(manifests: Desc[]): this {
    writeFileSync(path.join(this.dir, "index.json"), JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests }));
    return this;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function withPlatform(d: Desc, os: string, architecture: string, variant?: string): Desc {
  return { ...d, platform: { os, architecture, ...(variant ? { variant } : {}) } };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process. */
export async function run(args: string[], cwd = process.cwd()): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readStdin: async () => "",
    env: { NO_COLOR: "1" },
    cwd,
    isTTY: false,
    stderrIsTTY: false,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

export interface JsonDoc {
  image: { ref: string; digest: string; platforms: string[] };
  contract: string;
  role: string;
  findings: { id: string; severity: string; file: string; line: number; message: string; column: number }[];
  summary: { error: number; warning: number; info: number };
}

/** The findings of a JSON report as [id, severity, file, line, message]. */
export function rows(doc: JsonDoc): [string, string, string, number, string][] {
  return doc.findings.map((f) => [f.id, f.severity, f.file, f.line, f.message]);
}

// ---- a good cluster module and image -------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The project's clean skeleton modules (fixtures/skeletons/ROLE/main.tf). */
export function skeleton(role: "cluster" | "machine" | "machinepool"): string {
  return readFileSync(path.join(ROOT, "fixtures", "skeletons", role, "main.tf"), "utf8");
}

export const CLUSTER_MAIN = `terraform {\n  required_version = ">= 1.6"\n}\n\n${skeleton("cluster")}`;

/** The entries of a good cluster image: module, executable runtime (a link), empty mirror. */
export function goodEntries(main = CLUSTER_MAIN): Entry[] {
  return [
    { name: "captf/", type: "directory" },
    { name: "captf/module/", type: "directory" },
    { name: "captf/module/main.tf", content: main },
    { name: "captf/providers/", type: "directory" },
    { name: "usr/", type: "directory" },
    { name: "usr/local/", type: "directory" },
    { name: "usr/local/bin/", type: "directory" },
    { name: "usr/local/bin/terraform", content: "#!/bin/sh\n", mode: 0o755 },
    { name: "captf/runtime", linkname: "/usr/local/bin/terraform" },
  ];
}

export const GOOD_LABELS = { "io.captf.role": "cluster", "io.captf.contract": "v1alpha1", "io.captf.runtime": "terraform" };
export const GOOD_CONFIG = { User: "65532:65532", Entrypoint: ["/bin/sh"], Labels: GOOD_LABELS };

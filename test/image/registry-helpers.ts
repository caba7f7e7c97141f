/**
 * Test helpers for the registry client: a real distribution registry
 * (Debian's `docker-registry`) on 127.0.0.1, OCI layouts written byte by
 * byte, pushes with skopeo, and TLS material made with openssl.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const MT = {
  index: "application/vnd.oci.image.index.v1+json",
  manifest: "application/vnd.oci.image.manifest.v1+json",
  config: "application/vnd.oci.image.config.v1+json",
  layerGzip: "application/vnd.oci.image.layer.v1.tar+gzip",
  layerTar: "application/vnd.oci.image.layer.v1.tar",
} as const;

/** Tools missing from PATH among `names`. */
export function missingTools(names: string[]): string[] {
  return names.filter((n) => spawnSync("sh", ["-c", `command -v ${n}`], { stdio: "ignore" }).status !== 0);
}

/**
 * True when the suite must be skipped because a tool is absent (printing why);
 * throws instead under CI, where every tool must be installed.
 */
export function skipWithout(names: string[]): boolean {
  const missing = missingTools(names);
  if (missing.length === 0) return false;
  const why = `registry tests need ${missing.join(", ")} on PATH (Debian: docker-registry, skopeo, apache2-utils, openssl)`;
  if (process.env.CI) throw new Error(`${why}; CI must install them`);
  console.warn(`SKIPPED: ${why}`);
  return true;
}

const temps: string[] = [];
export function tempDir(prefix = "tfcapi-lint-registry-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
export function removeTemps(): void {
  while (temps.length > 0) rmSync(temps.pop()!, { recursive: true, force: true });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export function sha256(b: Buffer | string): string {
  return `sha256:${createHash("sha256").update(b).digest("hex")}`;
}

export interface Desc {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os: string; architecture: string; variant?: string };
  annotations?: Record<string, string>;
}

/** A one-file-per-entry ustar archive (regular files only), enough for a layer. */
export function tar(files: Record<string, Buffer | string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const h = Buffer.alloc(512);
    h.write(name, 0, 100, "utf8");
    h.write("0000644\0", 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(data.length.toString(8).padStart(11, "0") + "\0", 124);
    h.write("00000000000\0", 136);
    h.write("        ", 148);
    h.write("0", 156);
    h.write("ustar\0", 257);
    h.write("00", 263);
    let sum = 0;
    for (const byte of h) sum += byte;
    h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    parts.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** Writes an OCI image layout byte by byte. */
export class Layout {
  readonly blobs = new Map<string, Buffer>();
  private readonly refs: Desc[] = [];
  constructor(readonly dir: string) {
    mkdirSync(path.join(dir, "blobs", "sha256"), { recursive: true });
    writeFileSync(path.join(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  }

  blob(mediaType: string, bytes: Buffer | string): Desc {
    const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
    const digest = sha256(b);
    writeFileSync(path.join(this.dir, "blobs", "sha256", digest.slice(7)), b);
    this.blobs.set(digest, b);
    return { mediaType, digest, size: b.length };
  }

  /** An image manifest with one layer holding `files`; returns the manifest, config and layer descriptors. */
  image(opts: {
    files: Record<string, Buffer | string>;
    arch?: string;
    labels?: Record<string, string>;
    gzip?: boolean;
  }): { manifest: Desc; config: Desc; layer: Desc } {
    const raw = tar(opts.files);
    const gz = opts.gzip ?? true;
    const layer = this.blob(gz ? MT.layerGzip : MT.layerTar, gz ? gzipSync(raw) : raw);
    const config = this.blob(
      MT.config,
      JSON.stringify({
        architecture: opts.arch ?? "amd64",
        os: "linux",
        config: { Labels: opts.labels ?? {} },
        rootfs: { type: "layers", diff_ids: [sha256(raw)] },
      }),
    );
    const manifest = this.blob(
      MT.manifest,
      JSON.stringify({ schemaVersion: 2, mediaType: MT.manifest, config, layers: [layer] }),
    );
    return { manifest: { ...manifest, platform: { os: "linux", architecture: opts.arch ?? "amd64" } }, config, layer };
  }

  index(manifests: Desc[]): Desc {
    return this.blob(MT.index, JSON.stringify({ schemaVersion: 2, mediaType: MT.index, manifests }));
  }

  /** Names `desc` in index.json as `name` (skopeo's `oci:DIR:name`). */
  tag(name: string, desc: Desc): void {
    this.refs.push({ ...desc, annotations: { "org.opencontainers.image.ref.name": name } });
    writeFileSync(
      path.join(this.dir, "index.json"),
      JSON.stringify({ schemaVersion: 2, mediaType: MT.index, manifests: this.refs }),
    );
  }
}

/** Runs a command, throwing with its output when it fails. */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: opts.env ?? process.env, input: opts.input, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * skopeo copy from a layout to a registry over plain HTTP or unverified TLS.
 * Asynchronous: a token server in the test process must keep answering.
 */
export function push(src: string, dest: string, extra: string[] = []): Promise<void> {
  const args = ["copy", "--quiet", "--insecure-policy", "--dest-tls-verify=false", ...extra, src, `docker://${dest}`];
  const env = { ...process.env, REGISTRY_AUTH_FILE: path.join(tmpdir(), "tfcapi-lint-no-auth.json") };
  return new Promise((resolve, reject) => {
    const child = spawn("skopeo", args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`skopeo ${args.join(" ")} failed (${code}): ${out}`));
    });
  });
}

export interface Registry {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts `docker-registry serve` with filesystem storage; `extra` is YAML appended under the top level. */
export async function startRegistry(opts: {
  auth?: string;
  tls?: { cert: string; key: string };
} = {}): Promise<Registry> {
  const dir = tempDir("tfcapi-lint-docker-registry-");
  const port = await freePort();
  const lines = [
    "version: 0.1",
    "log:",
    "  level: error",
    "  accesslog:",
    "    disabled: true",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${path.join(dir, "data")}`,
    "http:",
    `  addr: 127.0.0.1:${port}`,
    "  secret: tfcapi-lint-test-secret",
  ];
  if (opts.tls) lines.push("  tls:", `    certificate: ${opts.tls.cert}`, `    key: ${opts.tls.key}`);
  if (opts.auth) lines.push(opts.auth);
  const config = path.join(dir, "config.yml");
  writeFileSync(config, `${lines.join("\n")}\n`);
  const child: ChildProcess = spawn("docker-registry", ["serve", config], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited: ${stderr}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`docker-registry did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host: `127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** A CA and a server certificate for 127.0.0.1 signed by it (openssl). */
export function makeTls(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => path.join(dir, n);
  run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=tfcapi-lint test CA",
    "-keyout", f("ca.key"), "-out", f("ca.pem")]);
  run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", f("server.key"),
    "-out", f("server.csr")]);
  writeFileSync(f("ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  run("openssl", ["x509", "-req", "-in", f("server.csr"), "-CA", f("ca.pem"), "-CAkey", f("ca.key"), "-CAcreateserial",
    "-days", "2", "-extfile", f("ext.cnf"), "-out", f("server.pem")]);
  return { ca: f("ca.pem"), cert: f("server.pem"), key: f("server.key") };
}

/** An env with only what the test sets: no credentials of the machine leak in. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...extra };
}

export function dockerConfig(dir: string, content: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "config.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

export function basic(user: string, pass: string): string {
  return Buffer.from(`${user}:${pass}`).toString("base64");
}

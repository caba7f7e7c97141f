/**
 * What a real registry does not do on its own, from a small registry the
 * test serves with node:http on 127.0.0.1: blob redirects to another host
 * (object storage), content that does not match its digest, unsupported
 * manifest types, refusals and error bodies.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openRegistrySource } from "../../src/image/registry.js";
import { ImageReadError, type ImageSource } from "../../src/image/source.js";
import { basic, cleanEnv, dockerConfig, removeTemps, tempDir } from "./registry-helpers.js";

const sha = (b: Buffer | string) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

const LAYER = Buffer.alloc(200_000, "layer bytes ");
const OTHER = Buffer.alloc(200_000, "other bytes ");
const CONFIG = Buffer.from('{"architecture":"amd64","os":"linux"}');
const MANIFEST = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: sha(CONFIG), size: CONFIG.length },
    layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: sha(LAYER), size: LAYER.length }],
  }),
);
const LAYER_DESC = { mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: sha(LAYER), size: LAYER.length };

interface Hit {
  host: string;
  path: string;
  authorization: string | undefined;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

describe("registry source: redirects, lying servers and refusals", () => {
  let registry: http.Server;
  let storage: http.Server;
  let host: string;
  let storageHost: string;
  let hits: Hit[] = [];
  let env: NodeJS.ProcessEnv;
  let configFile: string;
  const sources: ImageSource[] = [];

  async function open(ref: string): Promise<ImageSource> {
    const s = await openRegistrySource(ref, { insecure: true, env });
    sources.push(s);
    return s;
  }

  beforeAll(async () => {
    storage = http.createServer((req, res) => {
      hits.push({ host: storageHost, path: req.url ?? "", authorization: req.headers.authorization });
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      res.end(req.url?.startsWith("/good/") ? LAYER : OTHER);
    });
    registry = http.createServer((req, res) => {
      const url = req.url ?? "";
      hits.push({ host, path: url, authorization: req.headers.authorization });
      if (req.headers.authorization !== `Basic ${basic("bob", "pw")}`) {
        res.writeHead(401, { "WWW-Authenticate": 'Basic realm="edge"' }).end();
        return;
      }
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
      if (url === "/v2/") return json(200, {});
      const m = /^\/v2\/(.+)\/(manifests|blobs)\/(.+)$/.exec(url);
      if (!m) return json(404, {});
      const [, repo, kind, target] = m;
      if (repo === "lab/app" && kind === "manifests") {
        return res
          .writeHead(200, { "Content-Type": "application/vnd.oci.image.manifest.v1+json", "Docker-Content-Digest": sha(MANIFEST) })
          .end(MANIFEST);
      }
      if (repo === "lab/app" && kind === "blobs" && target === sha(LAYER)) {
        return res.writeHead(307, { Location: `http://${storageHost}/good/${target}?sig=1` }).end();
      }
      if (repo === "lab/liar" && kind === "blobs") {
        return res.writeHead(307, { Location: `http://${storageHost}/bad/${target}` }).end();
      }
      if (repo === "lab/liar" && kind === "manifests") {
        return res
          .writeHead(200, { "Content-Type": "application/vnd.oci.image.manifest.v1+json", "Docker-Content-Digest": sha("x") })
          .end(MANIFEST);
      }
      if (repo === "lab/schema1") {
        return res
          .writeHead(200, { "Content-Type": "application/vnd.docker.distribution.manifest.v1+prettyjws" })
          .end('{"schemaVersion":1,"name":"lab/schema1"}');
      }
      if (repo === "lab/private") {
        return json(403, { errors: [{ code: "DENIED", message: "requested access to the resource is denied" }] });
      }
      if (repo === "lab/broken") {
        return json(500, { errors: [{ code: "UNKNOWN", message: "storage backend unavailable" }] });
      }
      if (repo === "lab/huge" && kind === "manifests") {
        const big = Buffer.alloc(5 * 1024 * 1024, " ");
        return res
          .writeHead(200, { "Content-Type": "application/vnd.oci.image.manifest.v1+json", "Content-Length": String(big.length) })
          .end(big);
      }
      if (repo === "lab/endless" && kind === "manifests") {
        // No Content-Length: the limit is enforced while reading.
        res.writeHead(200, { "Content-Type": "application/vnd.oci.image.manifest.v1+json" });
        for (let i = 0; i < 5; i++) res.write(Buffer.alloc(1024 * 1024, " "));
        return res.end();
      }
      return json(404, { errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown" }] });
    });
    host = await listen(registry);
    storageHost = await listen(storage);
    const dir = tempDir();
    const home = path.join(dir, "home");
    configFile = dockerConfig(path.join(home, ".docker"), { auths: { [host]: { auth: basic("bob", "pw") } } });
    env = cleanEnv(home);
  });

  beforeEach(() => {
    hits = [];
  });

  afterAll(async () => {
    for (const s of sources) await s.close();
    await new Promise<void>((r) => registry.close(() => r()));
    await new Promise<void>((r) => storage.close(() => r()));
    removeTemps();
  });

  it("follows a blob redirect to another host without sending it the registry's Authorization", async () => {
    const s = await open(`${host}/lab/app:v1`);
    const chunks: Buffer[] = [];
    for await (const c of await s.openBlob(LAYER_DESC)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(LAYER)).toBe(true);
    const auth = `Basic ${basic("bob", "pw")}`;
    expect(hits).toEqual([
      { host, path: "/v2/", authorization: undefined },
      { host, path: `/v2/lab/app/blobs/${LAYER_DESC.digest}`, authorization: auth },
      { host: storageHost, path: `/good/${LAYER_DESC.digest}?sig=1`, authorization: undefined },
    ]);
    // The credentials came from ~/.docker/config.json (no DOCKER_CONFIG set).
    expect(configFile).toBe(path.join(env.HOME!, ".docker", "config.json"));
  });

  it("errors at the end of a streamed blob whose bytes do not match the digest", async () => {
    const s = await open(`${host}/lab/liar:v1`);
    const stream = await s.openBlob(LAYER_DESC);
    let received = 0;
    const err = await (async () => {
      for await (const c of stream) received += (c as Buffer).length;
    })().catch((e: unknown) => e);
    // The error replaces the end of the stream (the last buffered bytes may not be delivered).
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThanOrEqual(OTHER.length);
    expect(err).toBeInstanceOf(ImageReadError);
    expect((err as Error).message).toBe(
      `blob ${LAYER_DESC.digest} of ${host}/lab/liar does not match its digest (its content is ${sha(OTHER)})`,
    );
  });

  it("refuses small content that does not match its digest", async () => {
    const s = await open(`${host}/lab/liar:v1`);
    await expect(s.fetch(LAYER_DESC, "blob", 1 << 20)).rejects.toThrow(
      new ImageReadError(`blob ${LAYER_DESC.digest} of ${host}/lab/liar does not match its digest (its content is ${sha(OTHER)})`),
    );
  });

  it("refuses a manifest whose Docker-Content-Digest disagrees with its bytes", async () => {
    await expect((await open(`${host}/lab/liar:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(
        `the manifest of ${host}/lab/liar:v1 does not match the digest ${host} gives for it (${sha("x")}; its content is ${sha(MANIFEST)})`,
      ),
    );
  });

  it("refuses a manifest that is not the one a pinned reference names", async () => {
    const pinned = `sha256:${"ab".repeat(32)}`;
    await expect((await open(`${host}/lab/app:v1@${pinned}`)).resolve()).rejects.toThrow(
      new ImageReadError(`the manifest of ${host}/lab/app:v1@${pinned} has the digest ${sha(MANIFEST)}, not the one the reference names`),
    );
  });

  it("refuses schema 1 manifests and oversized ones", async () => {
    await expect((await open(`${host}/lab/schema1:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(
        `${host}/lab/schema1:v1 is a manifest of type application/vnd.docker.distribution.manifest.v1+prettyjws, which is not supported (OCI or Docker v2 manifests and indexes only)`,
      ),
    );
    await expect((await open(`${host}/lab/huge:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(`the manifest of ${host}/lab/huge:v1 is ${5 * 1024 * 1024} bytes, over the limit of ${4 * 1024 * 1024}`),
    );
    await expect((await open(`${host}/lab/endless:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(`the manifest of ${host}/lab/endless:v1 is more than ${4 * 1024 * 1024} bytes, over the limit`),
    );
  });

  it("names the credentials file on a refusal and passes the registry's error text on", async () => {
    await expect((await open(`${host}/lab/private:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(`${host} denied access to lab/private for the credentials from ${configFile}`),
    );
    await expect((await open(`${host}/lab/broken:v1`)).resolve()).rejects.toThrow(
      new ImageReadError(
        `${host} (manifest v1 of lab/broken) answered HTTP 500 Internal Server Error (UNKNOWN: storage backend unavailable)`,
      ),
    );
  });
});

/**
 * The bearer-token flow against a real docker-registry configured with
 * `auth: token`: the test runs the token server itself (node:http on
 * 127.0.0.1), signing RS256 JWTs with an openssl-made certificate that the
 * registry trusts through its rootcertbundle.
 */
import { createPrivateKey, sign, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openRegistrySource } from "../../src/image/registry.js";
import { ImageReadError, type ImageSource } from "../../src/image/source.js";
import {
  Layout,
  basic,
  cleanEnv,
  dockerConfig,
  push,
  removeTemps,
  run,
  skipWithout,
  startRegistry,
  tempDir,
  type Desc,
  type Registry,
} from "./registry-helpers.js";

const skip = skipWithout(["docker-registry", "skopeo", "openssl"]);

const SERVICE = "tfcapi-lint-test-registry";
const ISSUER = "tfcapi-lint-test-issuer";
const USERS: Record<string, string> = { alice: "s3cret" };
const REFRESH: Record<string, string> = { "refresh-for-alice": "alice" };

interface Seen {
  method: string;
  service: string | null;
  scopes: string[];
  user: string | undefined;
  grant?: string | null;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

describe.skipIf(skip)("registry source: bearer tokens from a token server", () => {
  let reg: Registry;
  let tokenServer: http.Server;
  let dir: string;
  let app: { manifest: Desc; config: Desc; layer: Desc };
  let seen: Seen[] = [];
  let field: "token" | "access_token" = "token";
  const sources: ImageSource[] = [];
  let n = 0;

  function envWith(content: unknown) {
    const home = path.join(dir, `home${++n}`);
    const file = dockerConfig(path.join(home, "docker"), content);
    return { env: cleanEnv(home, { DOCKER_CONFIG: path.join(home, "docker") }), file };
  }

  async function open(env: NodeJS.ProcessEnv) {
    const s = await openRegistrySource(`${reg.host}/team/app:v1`, { insecure: true, env });
    sources.push(s);
    return s;
  }

  beforeAll(async () => {
    dir = tempDir();
    const key = path.join(dir, "signer.key");
    const cert = path.join(dir, "signer.pem");
    run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=tfcapi-lint token signer",
      "-keyout", key, "-out", cert]);
    const privateKey = createPrivateKey(readFileSync(key));
    const der = new X509Certificate(readFileSync(cert)).raw.toString("base64");

    function jwt(user: string | undefined, scopes: string[]): string {
      const now = Math.floor(Date.now() / 1000);
      const access = user
        ? scopes.map((s) => {
            const [type, name, actions] = s.split(":");
            return { type, name, actions: (actions ?? "").split(",") };
          })
        : [];
      const header = b64url(JSON.stringify({ typ: "JWT", alg: "RS256", x5c: [der] }));
      const claims = b64url(
        JSON.stringify({ iss: ISSUER, sub: user ?? "", aud: SERVICE, exp: now + 300, nbf: now - 10, iat: now, jti: `${now}-${Math.random()}`, access }),
      );
      const signature = sign("sha256", Buffer.from(`${header}.${claims}`), privateKey);
      return `${header}.${claims}.${b64url(signature)}`;
    }

    tokenServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://localhost");
        let params = url.searchParams;
        if (req.method === "POST") params = new URLSearchParams(Buffer.concat(chunks).toString());
        let user: string | undefined;
        const auth = req.headers.authorization;
        if (auth?.startsWith("Basic ")) {
          const [u, p] = Buffer.from(auth.slice(6), "base64").toString().split(":");
          if (!u || USERS[u] !== p) {
            res.writeHead(401, { "Content-Type": "application/json" }).end('{"details":"bad credentials"}');
            return;
          }
          user = u;
        }
        if (req.method === "POST") {
          user = REFRESH[params.get("refresh_token") ?? ""];
          if (!user) {
            res.writeHead(401).end();
            return;
          }
        }
        const scopes = params.getAll("scope").flatMap((s) => s.split(" ")).filter(Boolean);
        seen.push({ method: req.method ?? "", service: params.get("service"), scopes, user, grant: params.get("grant_type") });
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ [field]: jwt(user, scopes), expires_in: 300 }));
      });
    });
    await new Promise<void>((r) => tokenServer.listen(0, "127.0.0.1", r));
    const tokenPort = (tokenServer.address() as AddressInfo).port;

    reg = await startRegistry({
      auth: [
        "auth:",
        "  token:",
        `    realm: http://127.0.0.1:${tokenPort}/token`,
        `    service: ${SERVICE}`,
        `    issuer: ${ISSUER}`,
        `    rootcertbundle: ${cert}`,
      ].join("\n"),
    });
    const layout = new Layout(path.join(dir, "layout"));
    app = layout.image({ files: { "captf/module/main.tf": "# token\n" } });
    layout.tag("v1", app.manifest);
    await push(`oci:${layout.dir}:v1`, `${reg.host}/team/app:v1`, ["--dest-creds", "alice:s3cret"]);
  });

  beforeEach(() => {
    seen = [];
    field = "token";
  });

  afterAll(async () => {
    for (const s of sources) await s.close();
    await reg?.stop();
    await new Promise<void>((r) => (tokenServer ? tokenServer.close(() => r()) : r()));
    removeTemps();
  });

  it("gets a pull token with the configured credentials and reads manifest, config and layer", async () => {
    const { env } = envWith({ auths: { [reg.host]: { auth: basic("alice", "s3cret") } } });
    const s = await open(env);
    expect((await s.resolve()).descriptor.digest).toBe(app.manifest.digest);
    const cfg = await s.fetch(app.config, "blob", 1 << 20);
    expect(JSON.parse(cfg.toString()).os).toBe("linux");
    let size = 0;
    for await (const c of await s.openBlob(app.layer)) size += (c as Buffer).length;
    expect(size).toBe(app.layer.size);
    // One token serves every request of the source.
    expect(seen).toEqual([
      { method: "GET", service: SERVICE, scopes: ["repository:team/app:pull"], user: "alice", grant: null },
    ]);
  });

  it("reads the token from access_token too", async () => {
    field = "access_token";
    const { env } = envWith({ auths: { [reg.host]: { username: "alice", password: "s3cret" } } });
    expect((await (await open(env)).resolve()).descriptor.digest).toBe(app.manifest.digest);
    expect(seen.length).toBe(1);
  });

  it("exchanges an identity token (OAuth2 refresh token) with a POST", async () => {
    const { env } = envWith({ auths: { [reg.host]: { identitytoken: "refresh-for-alice" } } });
    expect((await (await open(env)).resolve()).descriptor.digest).toBe(app.manifest.digest);
    expect(seen).toEqual([
      { method: "POST", service: SERVICE, scopes: ["repository:team/app:pull"], user: "alice", grant: "refresh_token" },
    ]);
  });

  it("reports a password the token server refuses, naming the file", async () => {
    const { env, file } = envWith({ auths: { [reg.host]: { auth: basic("alice", "wrong") } } });
    await expect((await open(env)).resolve()).rejects.toThrow(
      new ImageReadError(`authentication failed for ${reg.host} (check the credentials from ${file})`),
    );
  });

  it("tries anonymously, and says credentials are needed when the anonymous token grants nothing", async () => {
    const { env } = envWith({});
    const err = await (await open(env)).resolve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageReadError);
    expect((err as Error).message).toMatch(
      new RegExp(`^${reg.host.replace(/\./g, "\\.")} requires authentication for team/app and no credentials were found for it \\(searched `),
    );
    expect(seen.every((s) => s.user === undefined && s.scopes.includes("repository:team/app:pull"))).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
  });
});

/**
 * An ImageSource backed by a registry speaking the distribution API v2
 * (Docker Hub, GHCR, Harbor, the CNCF distribution registry, ...).
 *
 * - HTTPS with the system's CAs (plus NODE_EXTRA_CA_CERTS). `--insecure`
 *   behaves like docker's "insecure registry": HTTPS without certificate
 *   verification first, plain HTTP when the registry does not speak TLS.
 * - Authentication as the registry's `WWW-Authenticate` challenge asks:
 *   Basic (credentials sent as is) or Bearer (a pull token from the realm,
 *   with the credentials, an identity token, or anonymously).
 * - Every byte is checked against its sha256; blobs are streamed, never
 *   held whole, and redirects to another host (object storage) are followed
 *   without the registry's Authorization header.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { Transform, type Readable } from "node:stream";
import { credentialFiles, findCredentials, type Credentials } from "./registry-auth.js";
import { parseRegistryRef, type RegistryRef } from "./registry-ref.js";
import {
  ImageReadError,
  MEDIA,
  type ContentKind,
  type Descriptor,
  type ImageSource,
} from "./source.js";

export { parseRegistryRef, type RegistryRef } from "./registry-ref.js";

export interface RegistryOptions {
  /** Allow plain HTTP and unverified certificates for this registry. */
  insecure: boolean;
  /** Where credential files, helpers (PATH) and HOME are looked up. */
  env: NodeJS.ProcessEnv;
  /** Called as layer bytes arrive: bytes so far, the blob's size, its digest. */
  onProgress?: (done: number, total: number, digest: string) => void;
}

/** What a registry may answer for a manifest request: OCI and Docker v2, indexes and manifests. */
const MANIFEST_TYPES: readonly string[] = [MEDIA.ociIndex, MEDIA.ociManifest, MEDIA.dockerList, MEDIA.dockerManifest];
/** Registries must accept manifests of at least 4 MiB; nothing bigger is read. */
const MANIFEST_LIMIT = 4 * 1024 * 1024;
const MAX_REDIRECTS = 10;
const IDLE_TIMEOUT_MS = 60_000;
const SHA256 = /^sha256:[a-f0-9]{64}$/;

/** A transport failure (no HTTP answer), with the URL it happened on. */
class NetError extends Error {
  constructor(
    readonly err: NodeJS.ErrnoException,
    readonly url: URL,
  ) {
    super(err.message);
  }
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses the first challenge of a `WWW-Authenticate` header (`Bearer realm="...",service="..."`). */
export function parseChallenge(header: string | undefined): Challenge | undefined {
  if (!header) return undefined;
  const m = /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s*(.*)$/s.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (const p of (m[2] ?? "").matchAll(re)) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : (p[3] ?? "");
  }
  return { scheme: m[1]!.toLowerCase(), params };
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function drain(res: http.IncomingMessage): void {
  res.resume();
  res.on("error", () => undefined);
}

const CERT_CODES = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Certificate verification failures in words (Node's codes are OpenSSL's names). */
const CERT_WORDS: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: "its chain ends in a self-signed CA this machine does not trust",
  DEPTH_ZERO_SELF_SIGNED_CERT: "it is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "it is signed by a CA this machine does not trust",
  UNABLE_TO_GET_ISSUER_CERT: "it is signed by a CA this machine does not trust",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "it is signed by a CA this machine does not trust",
  CERT_UNTRUSTED: "it is signed by a CA this machine does not trust",
  CERT_HAS_EXPIRED: "it has expired",
  CERT_NOT_YET_VALID: "it is not valid yet; check this machine's clock",
  ERR_TLS_CERT_ALTNAME_INVALID: "it was issued for another host name",
};
/** The failures that trusting a CA (NODE_EXTRA_CA_CERTS) can fix. */
const CA_CODES = new Set(["SELF_SIGNED_CERT_IN_CHAIN", "DEPTH_ZERO_SELF_SIGNED_CERT", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_UNTRUSTED"]);

/**
 * A failed connection or transfer in words, never the system's or
 * OpenSSL's own text ("read ECONNRESET", "socket hang up").
 */
export function netWords(err: NodeJS.ErrnoException, where: string): string {
  const code = String(err.code ?? "");
  switch (code) {
    case "ECONNREFUSED":
      return `cannot connect to ${where}: connection refused`;
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
      return `the connection to ${where} was reset`;
    case "EHOSTUNREACH":
    case "EHOSTDOWN":
      return `cannot reach ${where}: no route to the host`;
    case "ENETUNREACH":
    case "ENETDOWN":
      return `cannot reach ${where}: the network is unreachable`;
    case "ETIMEDOUT":
      return `${where} did not answer in time`;
    case "ERR_STREAM_PREMATURE_CLOSE":
      return `the connection to ${where} closed before the transfer ended`;
  }
  if (code.startsWith("HPE_")) return `${where} did not answer with valid HTTP`;
  if (err.message === "aborted") return `the connection to ${where} closed before the transfer ended`;
  return `the connection to ${where} failed${code !== "" ? ` (${code})` : ""}`;
}

class RegistrySource implements ImageSource {
  readonly ref: string;
  private readonly parsed: RegistryRef;
  private readonly opts: RegistryOptions;
  /** The registry's own HTTPS agent (verification off with --insecure). */
  private readonly httpsAgent: https.Agent;
  /** HTTPS elsewhere (token realms, blob storage): always verified. */
  private readonly otherHttpsAgent: https.Agent;
  private readonly httpAgent: http.Agent;
  private base: URL | undefined;
  private pinged: Promise<void> | undefined;
  private pingChallenge: Challenge | undefined;
  private creds: Credentials | undefined | null = null;
  private authorization: string | undefined;
  private closed = false;

  constructor(ref: string, opts: RegistryOptions) {
    this.ref = ref;
    this.parsed = parseRegistryRef(ref);
    this.opts = opts;
    this.httpsAgent = new https.Agent({ keepAlive: true, rejectUnauthorized: !opts.insecure });
    this.otherHttpsAgent = new https.Agent({ keepAlive: true });
    this.httpAgent = new http.Agent({ keepAlive: true });
  }

  private get host(): string {
    return this.parsed.registry;
  }

  private get repo(): string {
    return this.parsed.repository;
  }

  // ---- transport ------------------------------------------------------

  private agentFor(url: URL): http.Agent {
    if (url.protocol === "http:") return this.httpAgent;
    return this.base && url.host === this.base.host ? this.httpsAgent : this.otherHttpsAgent;
  }

  private send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<http.IncomingMessage> {
    if (this.closed) return Promise.reject(new ImageReadError(`the connection to ${this.host} is closed`));
    const mod = url.protocol === "http:" ? http : https;
    return new Promise((resolve, reject) => {
      const req = mod.request(
        url,
        { method, headers: { "User-Agent": "tfcapi-lint", ...headers }, agent: this.agentFor(url) },
        resolve,
      );
      req.setTimeout(IDLE_TIMEOUT_MS, () => {
        const err: NodeJS.ErrnoException = new Error(`no answer within ${IDLE_TIMEOUT_MS / 1000} s`);
        err.code = "ETIMEDOUT";
        req.destroy(err);
      });
      req.on("error", (err: NodeJS.ErrnoException) => reject(new NetError(err, url)));
      req.end(body);
    });
  }

  private describeNet(err: NetError): string {
    const c = err.err;
    const where = err.url.host;
    const code = String(c.code ?? "");
    if (code === "ECONNREFUSED") return `cannot connect to ${where}: connection refused`;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot resolve the host name ${err.url.hostname}`;
    if (code === "ETIMEDOUT") return c.syscall === "connect" ? `cannot connect to ${where}: no answer in time` : `${where} did not answer: ${c.message}`;
    if (CERT_CODES.has(code) || code.startsWith("ERR_TLS_CERT") || /certificate/i.test(c.message)) {
      const why = CERT_WORDS[code] ?? "it cannot be verified";
      const ca = CA_CODES.has(code) ? "add its CA to NODE_EXTRA_CA_CERTS" : "";
      const insecure = where === this.base?.host || !this.base ? "use --insecure to skip verification" : "";
      const what = [ca, insecure].filter((x) => x !== "").join(", or ");
      return `the TLS certificate of ${where} is not trusted (${why})${what === "" ? "" : `; ${what}`}`;
    }
    // OpenSSL's own text ("ssl3_get_record:wrong version number") says nothing to a user: an answer that is not TLS.
    if (err.url.protocol === "https:" && (code === "EPROTO" || code.startsWith("ERR_SSL") || /wrong version number|packet length too long|ssl/i.test(c.message))) {
      return `${where} did not answer over HTTPS (its answer is not TLS)` + (this.opts.insecure ? "" : "; if it is a plain-HTTP registry, use --insecure");
    }
    return netWords(c, where);
  }

  private netError(err: unknown): Error {
    if (err instanceof NetError) return new ImageReadError(this.describeNet(err));
    return err as Error;
  }

  /** Finds the scheme (HTTPS, or HTTP with --insecure) and the registry's challenge, once. */
  private ready(): Promise<void> {
    this.pinged ??= this.ping();
    return this.pinged;
  }

  private async ping(): Promise<void> {
    const schemes = this.opts.insecure ? ["https:", "http:"] : ["https:"];
    const failures: string[] = [];
    for (const scheme of schemes) {
      const url = new URL(`${scheme}//${this.host}/v2/`);
      this.base = new URL(`${scheme}//${this.host}`);
      try {
        const res = await this.send(url, "GET", {});
        drain(res);
        if (res.statusCode === 401) this.pingChallenge = parseChallenge(res.headers["www-authenticate"]);
        return;
      } catch (err) {
        if (!(err instanceof NetError)) throw err;
        failures.push(`${scheme === "https:" ? "HTTPS" : "HTTP"}: ${this.describeNet(err)}`);
      }
    }
    this.base = undefined;
    throw new ImageReadError(
      failures.length === 1
        ? `cannot pull ${this.ref}: ${failures[0]!.replace(/^HTTPS: /, "")}`
        : `cannot pull ${this.ref}: ${failures.join("; ")}`,
    );
  }

  private sameOrigin(url: URL): boolean {
    return !!this.base && url.protocol === this.base.protocol && url.host === this.base.host;
  }

  /** Sends a request, following redirects; Authorization only ever goes to the registry itself. */
  private async follow(url: URL, headers: Record<string, string>): Promise<http.IncomingMessage> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const h = { ...headers };
      if (this.authorization && this.sameOrigin(current)) h.Authorization = this.authorization;
      const res = await this.send(current, "GET", h);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) {
        drain(res);
        const next = new URL(location, current);
        if (next.protocol !== "https:" && next.protocol !== "http:") {
          throw new ImageReadError(`${this.host} redirected to an unsupported URL ${next.protocol}//${next.host}`);
        }
        if (current.protocol === "https:" && next.protocol === "http:" && !this.opts.insecure) {
          throw new ImageReadError(`${this.host} redirected from HTTPS to plain HTTP (${next.host}); refused without --insecure`);
        }
        current = next;
        continue;
      }
      return res;
    }
    throw new ImageReadError(`${this.host} redirected more than ${MAX_REDIRECTS} times`);
  }

  /** A GET on the registry at `path`, authenticating once when challenged. */
  private async get(path: string, accept?: string): Promise<http.IncomingMessage> {
    try {
      await this.ready();
      if (this.pingChallenge && !this.authorization) await this.authenticate(this.pingChallenge);
      const headers: Record<string, string> = accept ? { Accept: accept } : {};
      const url = new URL(path, this.base);
      for (let attempt = 0; ; attempt++) {
        const res = await this.follow(url, headers);
        if (res.statusCode === 401) {
          drain(res);
          const challenge = parseChallenge(res.headers["www-authenticate"]);
          if (attempt === 0 && challenge) {
            // First refusal: (re)authenticate as this answer asks (a token may have expired).
            this.authorization = undefined;
            await this.authenticate(challenge);
            continue;
          }
          throw await this.unauthorized();
        }
        if (res.statusCode === 403) {
          drain(res);
          const creds = await this.credentials();
          throw new ImageReadError(
            `${this.host} denied access to ${this.repo}` +
              (creds ? ` for the credentials from ${creds.source}` : " (no credentials were found for it)"),
          );
        }
        return res;
      }
    } catch (err) {
      throw this.netError(err);
    }
  }

  // ---- authentication -------------------------------------------------

  private async credentials(): Promise<Credentials | undefined> {
    if (this.creds === null) this.creds = await findCredentials(this.host, this.repo, this.opts.env);
    return this.creds;
  }

  private async unauthorized(): Promise<ImageReadError> {
    const creds = await this.credentials();
    if (creds) return new ImageReadError(`authentication failed for ${this.host} (check the credentials from ${creds.source})`);
    return new ImageReadError(
      `${this.host} requires authentication for ${this.repo} and no credentials were found for it ` +
        `(searched ${credentialFiles(this.opts.env).join(", ")}); log in with docker login or podman login`,
    );
  }

  private async authenticate(challenge: Challenge): Promise<void> {
    const creds = await this.credentials();
    if (challenge.scheme === "basic") {
      if (!creds) throw await this.unauthorized();
      if (creds.username === undefined) {
        throw new ImageReadError(
          `${this.host} asks for a user name and password, but ${creds.source} holds only an identity token for it`,
        );
      }
      this.authorization = `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ""}`).toString("base64")}`;
      return;
    }
    if (challenge.scheme !== "bearer") {
      throw new ImageReadError(`${this.host} asks for an unsupported authentication scheme "${challenge.scheme}"`);
    }
    const realmText = challenge.params.realm;
    if (!realmText) throw new ImageReadError(`${this.host} asks for a bearer token but names no realm to get it from`);
    let realm: URL;
    try {
      realm = new URL(realmText);
    } catch {
      throw new ImageReadError(`${this.host} names an invalid token realm "${realmText}"`);
    }
    if (realm.protocol !== "https:" && realm.protocol !== "http:") {
      throw new ImageReadError(`${this.host} names an unsupported token realm ${realmText}`);
    }
    if (realm.protocol === "http:" && this.base?.protocol === "https:" && !this.opts.insecure) {
      throw new ImageReadError(
        `${this.host} names a plain-HTTP token realm (${realm.host}); refused for an HTTPS registry without --insecure`,
      );
    }
    const scopes = [`repository:${this.repo}:pull`];
    if (challenge.params.scope && !scopes.includes(challenge.params.scope)) scopes.push(challenge.params.scope);
    const service = challenge.params.service;
    let res: http.IncomingMessage;
    if (creds?.identityToken) {
      const form = new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: creds.identityToken,
        client_id: "tfcapi-lint",
        scope: scopes.join(" "),
        ...(service ? { service } : {}),
      });
      res = await this.send(realm, "POST", { "Content-Type": "application/x-www-form-urlencoded" }, form.toString());
    } else {
      const url = new URL(realm);
      if (service) url.searchParams.set("service", service);
      for (const s of scopes) url.searchParams.append("scope", s);
      const headers: Record<string, string> = {};
      if (creds?.username !== undefined) {
        headers.Authorization = `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ""}`).toString("base64")}`;
      }
      res = await this.send(url, "GET", headers);
    }
    const status = res.statusCode ?? 0;
    if (status === 401 || status === 403) {
      drain(res);
      throw await this.unauthorized();
    }
    if (status !== 200) {
      throw await this.statusError(res, `the token server ${realm.host} for ${this.host}`);
    }
    const body = await this.readLimited(res, 1024 * 1024, `the token from ${realm.host}`);
    let token: unknown;
    try {
      const data = JSON.parse(body.toString("utf8")) as { token?: unknown; access_token?: unknown };
      token = typeof data.token === "string" && data.token ? data.token : data.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== "string" || token === "") {
      throw new ImageReadError(`the token server ${realm.host} for ${this.host} answered without a token`);
    }
    this.authorization = `Bearer ${token}`;
  }

  // ---- bodies ---------------------------------------------------------

  private async readLimited(res: http.IncomingMessage, limit: number, what: string): Promise<Buffer> {
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      res.destroy();
      throw new ImageReadError(`${what} is ${declared} bytes, over the limit of ${limit}`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of res) {
        const b = chunk as Buffer;
        total += b.length;
        if (total > limit) {
          res.destroy();
          throw new ImageReadError(`${what} is more than ${limit} bytes, over the limit`);
        }
        chunks.push(b);
      }
    } catch (err) {
      if (err instanceof ImageReadError) throw err;
      throw new ImageReadError(`reading ${what} from ${this.host} failed: ${netWords(err as NodeJS.ErrnoException, this.host)}`);
    }
    return Buffer.concat(chunks, total);
  }

  private async statusError(res: http.IncomingMessage, what: string): Promise<ImageReadError> {
    let detail = "";
    try {
      const body = await this.readLimited(res, 64 * 1024, "an error answer");
      const data = JSON.parse(body.toString("utf8")) as { errors?: { code?: unknown; message?: unknown }[] };
      detail = (data.errors ?? [])
        .map((e) => [e.code, e.message].filter((x) => typeof x === "string" && x).join(": "))
        .filter(Boolean)
        .join("; ");
    } catch {
      detail = "";
    }
    return new ImageReadError(
      `${what} answered HTTP ${res.statusCode}${res.statusMessage ? ` ${res.statusMessage}` : ""}${detail ? ` (${detail})` : ""}`,
    );
  }

  private checkDigest(desc: Descriptor): void {
    if (!SHA256.test(desc.digest)) {
      throw new ImageReadError(`unsupported digest "${desc.digest}" in ${this.ref} (only sha256 is supported)`);
    }
  }

  // ---- ImageSource ----------------------------------------------------

  async resolve(): Promise<{ descriptor: Descriptor; bytes: Buffer }> {
    const target = this.parsed.digest ?? this.parsed.tag ?? "latest";
    const res = await this.get(`/v2/${this.repo}/manifests/${target}`, MANIFEST_TYPES.join(", "));
    if (res.statusCode === 404) {
      drain(res);
      throw new ImageReadError(`${this.ref} not found (${this.host} has no manifest "${target}" for ${this.repo})`);
    }
    if (res.statusCode !== 200) throw await this.statusError(res, `${this.host} (manifest ${target} of ${this.repo})`);
    const bytes = await this.readLimited(res, MANIFEST_LIMIT, `the manifest of ${this.ref}`);
    const digest = sha256(bytes);
    const said = res.headers["docker-content-digest"];
    if (typeof said === "string" && said.startsWith("sha256:") && said !== digest) {
      throw new ImageReadError(
        `the manifest of ${this.ref} does not match the digest ${this.host} gives for it (${said}; its content is ${digest})`,
      );
    }
    if (this.parsed.digest && this.parsed.digest !== digest) {
      throw new ImageReadError(`the manifest of ${this.ref} has the digest ${digest}, not the one the reference names`);
    }
    const mediaType = this.mediaTypeOf(res, bytes);
    return { descriptor: { mediaType, digest, size: bytes.length }, bytes };
  }

  private mediaTypeOf(res: http.IncomingMessage, bytes: Buffer): string {
    const header = (res.headers["content-type"] ?? "").split(";")[0]!.trim();
    if (MANIFEST_TYPES.includes(header)) return header;
    let body: { mediaType?: unknown; manifests?: unknown; config?: unknown; layers?: unknown } = {};
    try {
      body = JSON.parse(bytes.toString("utf8")) as typeof body;
    } catch {
      throw new ImageReadError(`the manifest of ${this.ref} is not JSON (${header || "no media type"})`);
    }
    if (typeof body.mediaType === "string" && MANIFEST_TYPES.includes(body.mediaType)) return body.mediaType;
    if (body.mediaType === undefined && (header === "application/json" || header === "")) {
      if (Array.isArray(body.manifests)) return MEDIA.ociIndex;
      if (body.config && Array.isArray(body.layers)) return MEDIA.ociManifest;
    }
    const kind = typeof body.mediaType === "string" ? body.mediaType : header;
    throw new ImageReadError(
      `${this.ref} is a manifest of type ${kind || "(none)"}, which is not supported (OCI or Docker v2 manifests and indexes only)`,
    );
  }

  async fetch(desc: Descriptor, kind: ContentKind, limit: number): Promise<Buffer> {
    this.checkDigest(desc);
    const what = `${kind === "manifest" ? "manifest" : "blob"} ${desc.digest} of ${this.host}/${this.repo}`;
    if (desc.size > limit) throw new ImageReadError(`${what} is ${desc.size} bytes, over the limit of ${limit}`);
    const res =
      kind === "manifest"
        ? await this.get(
            `/v2/${this.repo}/manifests/${desc.digest}`,
            [desc.mediaType, ...MANIFEST_TYPES.filter((t) => t !== desc.mediaType)].join(", "),
          )
        : await this.get(`/v2/${this.repo}/blobs/${desc.digest}`);
    if (res.statusCode === 404) {
      drain(res);
      throw new ImageReadError(`${what} not found`);
    }
    if (res.statusCode !== 200) throw await this.statusError(res, what);
    const bytes = await this.readLimited(res, limit, what);
    const got = sha256(bytes);
    if (got !== desc.digest) throw new ImageReadError(`${what} does not match its digest (its content is ${got})`);
    if (bytes.length !== desc.size) {
      throw new ImageReadError(`${what} is ${bytes.length} bytes, not the ${desc.size} its descriptor says`);
    }
    return bytes;
  }

  async openBlob(desc: Descriptor): Promise<Readable> {
    this.checkDigest(desc);
    const what = `blob ${desc.digest} of ${this.host}/${this.repo}`;
    const res = await this.get(`/v2/${this.repo}/blobs/${desc.digest}`);
    if (res.statusCode === 404) {
      drain(res);
      throw new ImageReadError(`${what} not found`);
    }
    if (res.statusCode !== 200) throw await this.statusError(res, what);
    const hash = createHash("sha256");
    const progress = this.opts.onProgress;
    let done = 0;
    const out = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        done += chunk.length;
        if (done > desc.size) {
          cb(new ImageReadError(`${what} is longer than the ${desc.size} bytes its descriptor says`));
          return;
        }
        hash.update(chunk);
        progress?.(done, desc.size, desc.digest);
        cb(null, chunk);
      },
      flush(cb) {
        const got = `sha256:${hash.digest("hex")}`;
        if (got !== desc.digest) cb(new ImageReadError(`${what} does not match its digest (its content is ${got})`));
        else if (done !== desc.size) cb(new ImageReadError(`${what} is ${done} bytes, not the ${desc.size} its descriptor says`));
        else cb();
      },
    });
    res.on("error", (err: NodeJS.ErrnoException) => out.destroy(new ImageReadError(`reading ${what} failed: ${netWords(err, this.host)}`)));
    out.on("close", () => {
      if (!res.complete) res.destroy();
    });
    res.pipe(out);
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.httpsAgent.destroy();
    this.otherHttpsAgent.destroy();
    this.httpAgent.destroy();
  }
}

/** An ImageSource for a registry reference; throws ImageRefError when `ref` is not one. */
export async function openRegistrySource(ref: string, opts: RegistryOptions): Promise<ImageSource> {
  return new RegistrySource(ref, opts);
}

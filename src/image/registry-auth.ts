/**
 * Registry credentials from the files docker and podman/skopeo write, in
 * the order containers-auth.json(5) searches them:
 *
 *   1. `$REGISTRY_AUTH_FILE`, else `$XDG_RUNTIME_DIR/containers/auth.json`
 *   2. `$XDG_CONFIG_HOME/containers/auth.json` (default `~/.config/...`)
 *   3. `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`
 *
 * The first file that has credentials for the registry wins. Inside a file:
 * a `credHelpers` entry for the host, then the most specific `auths` key
 * (`host/ns/repo`, `host/ns`, `host`; `https://host/v1/` style keys count as
 * `host`, Docker Hub's names all count as `docker.io`), then `credsStore`.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DOCKER_HUB_NAMES, credentialHost } from "./registry-ref.js";
import { ImageReadError } from "./source.js";
import { errorText } from "../terraform/files.js";

export interface Credentials {
  username?: string;
  password?: string;
  /** An OAuth2 refresh token (`identitytoken`, or a helper's `<token>` user). */
  identityToken?: string;
  /** Where they came from, for messages: a file, or a helper and the file naming it. */
  source: string;
}

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
  identitytoken?: unknown;
}

interface AuthFile {
  auths?: Record<string, AuthEntry>;
  credHelpers?: Record<string, string>;
  credsStore?: string;
}

/** The credential files searched, most important first (missing files are skipped). */
export function credentialFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || os.homedir();
  const files: string[] = [];
  if (env.REGISTRY_AUTH_FILE) files.push(env.REGISTRY_AUTH_FILE);
  else if (env.XDG_RUNTIME_DIR) files.push(path.join(env.XDG_RUNTIME_DIR, "containers", "auth.json"));
  files.push(path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "containers", "auth.json"));
  files.push(path.join(env.DOCKER_CONFIG || path.join(home, ".docker"), "config.json"));
  return files;
}

/** `https://index.docker.io/v1/` → `docker.io`; `host:5000/ns` stays; a scheme drops any path. */
export function normalizeAuthKey(key: string): string {
  let k = key.trim();
  const scheme = /^[a-z]+:\/\//i.exec(k);
  if (scheme) {
    k = k.slice(scheme[0].length);
    const slash = k.indexOf("/");
    if (slash >= 0) k = k.slice(0, slash);
  }
  k = k.replace(/\/+$/, "");
  const slash = k.indexOf("/");
  const host = slash >= 0 ? k.slice(0, slash) : k;
  const rest = slash >= 0 ? k.slice(slash) : "";
  return (DOCKER_HUB_NAMES.has(host.toLowerCase()) ? "docker.io" : host.toLowerCase()) + rest;
}

async function readAuthFile(file: string): Promise<AuthFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ImageReadError(`cannot read the credentials file ${file}: ${errorText(err)}; fix its permissions, or point REGISTRY_AUTH_FILE / DOCKER_CONFIG elsewhere`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ImageReadError(`the credentials file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new ImageReadError(`the credentials file ${file} does not hold a JSON object`);
  }
  const obj = data as Record<string, unknown>;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  const out: AuthFile = {};
  if (isObject(obj.auths)) out.auths = obj.auths as Record<string, AuthEntry>;
  if (isObject(obj.credHelpers)) {
    out.credHelpers = {};
    for (const [k, v] of Object.entries(obj.credHelpers)) if (typeof v === "string") out.credHelpers[k] = v;
  }
  if (typeof obj.credsStore === "string" && obj.credsStore !== "") out.credsStore = obj.credsStore;
  return out;
}

function fromEntry(entry: AuthEntry, key: string, file: string): Credentials | undefined {
  if (entry === null || typeof entry !== "object") return undefined;
  const source = file;
  if (typeof entry.identitytoken === "string" && entry.identitytoken !== "") {
    return { identityToken: entry.identitytoken, source };
  }
  if (typeof entry.auth === "string" && entry.auth !== "") {
    const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) {
      throw new ImageReadError(`the "auth" value of "${key}" in ${file} is not base64 of "user:password"`);
    }
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), source };
  }
  if (typeof entry.username === "string" && entry.username !== "") {
    return { username: entry.username, password: typeof entry.password === "string" ? entry.password : "", source };
  }
  return undefined;
}

/** The server address docker passes a helper: Docker Hub's legacy URL, else `host[:port]`. */
function helperServer(host: string): string {
  return host === "docker.io" ? "https://index.docker.io/v1/" : host;
}

async function runHelper(
  name: string,
  server: string,
  how: string,
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<Credentials | undefined> {
  const program = `docker-credential-${name}`;
  const described = `credential helper ${program} (${how} in ${file})`;
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string; missing: boolean }>(
    (resolve) => {
      const child = execFile(
        program,
        ["get"],
        { env, timeout: 60_000, maxBuffer: 1 << 20, encoding: "utf8" },
        (err, stdout, stderr) => {
          const e = err as (NodeJS.ErrnoException & { code?: unknown }) | null;
          resolve({
            code: e ? (typeof e.code === "number" ? e.code : -1) : 0,
            stdout: String(stdout ?? ""),
            stderr: String(stderr ?? ""),
            missing: e?.code === "ENOENT" || e?.code === "EACCES",
          });
        },
      );
      child.stdin?.on("error", () => undefined);
      child.stdin?.end(`${server}\n`);
    },
  );
  if (result.missing) throw new ImageReadError(`${described} is not installed or not executable on PATH`);
  const said = (result.stdout.trim() || result.stderr.trim()).split("\n")[0] ?? "";
  if (result.code !== 0) {
    if (/credentials not found/i.test(said)) return undefined;
    throw new ImageReadError(`${described} failed for ${server}${said ? `: ${said}` : ` (exit ${result.code})`}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(result.stdout);
  } catch {
    throw new ImageReadError(`${described} printed something other than JSON for ${server}`);
  }
  const obj = (data ?? {}) as { Username?: unknown; Secret?: unknown };
  const user = typeof obj.Username === "string" ? obj.Username : "";
  const secret = typeof obj.Secret === "string" ? obj.Secret : "";
  if (secret === "" && user === "") return undefined;
  if (user === "<token>") return { identityToken: secret, source: described };
  return { username: user, password: secret, source: described };
}

/** Keys to try for a repository, most specific first: `host/a/b`, `host/a`, `host`. */
function candidates(host: string, repository: string): string[] {
  const parts = repository.split("/");
  const out: string[] = [];
  for (let n = parts.length; n > 0; n--) out.push(`${host}/${parts.slice(0, n).join("/")}`);
  out.push(host);
  return out;
}

/** Credentials for `registry`/`repository`, or undefined (anonymous). */
export async function findCredentials(
  registry: string,
  repository: string,
  env: NodeJS.ProcessEnv,
): Promise<Credentials | undefined> {
  const host = credentialHost(registry).toLowerCase();
  for (const file of credentialFiles(env)) {
    const data = await readAuthFile(file);
    if (!data) continue;
    if (data.credHelpers) {
      for (const [key, helper] of Object.entries(data.credHelpers)) {
        if (normalizeAuthKey(key) === host && helper !== "") {
          const found = await runHelper(helper, helperServer(host), `credHelpers "${key}"`, file, env);
          if (found) return found;
        }
      }
    }
    if (data.auths) {
      const byKey = new Map<string, [string, AuthEntry]>();
      for (const [key, entry] of Object.entries(data.auths)) {
        const norm = normalizeAuthKey(key);
        if (!byKey.has(norm)) byKey.set(norm, [key, entry]);
      }
      for (const want of candidates(host, repository)) {
        const hit = byKey.get(want);
        if (!hit) continue;
        const found = fromEntry(hit[1], hit[0], file);
        if (found) return found;
      }
    }
    if (data.credsStore) {
      const found = await runHelper(data.credsStore, helperServer(host), "credsStore", file, env);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The registry client against a real docker-registry that demands htpasswd
 * basic auth, with credentials from docker/podman files and a credential
 * helper on a temporary PATH.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const skip = skipWithout(["docker-registry", "skopeo", "htpasswd"]);

describe.skipIf(skip)("registry source: htpasswd basic auth", () => {
  let reg: Registry;
  let dir: string;
  let app: { manifest: Desc; config: Desc; layer: Desc };
  const sources: ImageSource[] = [];
  let n = 0;

  /** A fresh HOME with a docker config dir holding `content`; returns env and the file. */
  function withDockerConfig(content: unknown, extra: Record<string, string> = {}) {
    const home = path.join(dir, `home${++n}`);
    const file = dockerConfig(path.join(home, "docker"), content);
    return { env: cleanEnv(home, { DOCKER_CONFIG: path.join(home, "docker"), ...extra }), file, home };
  }

  async function resolveWith(env: NodeJS.ProcessEnv, ref = `${reg.host}/team/app:v1`) {
    const s = await openRegistrySource(ref, { insecure: true, env });
    sources.push(s);
    return s.resolve();
  }

  beforeAll(async () => {
    dir = tempDir();
    const htpasswd = path.join(dir, "htpasswd");
    writeFileSync(htpasswd, run("htpasswd", ["-Bbn", "alice", "s3cret"]));
    reg = await startRegistry({
      auth: ["auth:", "  htpasswd:", "    realm: tfcapi-lint-test", `    path: ${htpasswd}`].join("\n"),
    });
    const layout = new Layout(path.join(dir, "layout"));
    app = layout.image({ files: { "captf/module/main.tf": "# basic\n" } });
    layout.tag("v1", app.manifest);
    await push(`oci:${layout.dir}:v1`, `${reg.host}/team/app:v1`, ["--dest-creds", "alice:s3cret"]);
  });

  afterAll(async () => {
    for (const s of sources) await s.close();
    await reg?.stop();
    removeTemps();
  });

  it("pulls with the auth of a docker config file (DOCKER_CONFIG)", async () => {
    const { env } = withDockerConfig({ auths: { [reg.host]: { auth: basic("alice", "s3cret") } } });
    const s = await openRegistrySource(`${reg.host}/team/app:v1`, { insecure: true, env });
    sources.push(s);
    const { descriptor } = await s.resolve();
    expect(descriptor.digest).toBe(app.manifest.digest);
    const layer = await s.openBlob(app.layer);
    let size = 0;
    for await (const c of layer) size += (c as Buffer).length;
    expect(size).toBe(app.layer.size);
  });

  it("accepts username/password fields and an https://host/v1/ style key", async () => {
    const a = withDockerConfig({ auths: { [reg.host]: { username: "alice", password: "s3cret" } } });
    expect((await resolveWith(a.env)).descriptor.digest).toBe(app.manifest.digest);
    const b = withDockerConfig({ auths: { [`https://${reg.host}/v1/`]: { auth: basic("alice", "s3cret") } } });
    expect((await resolveWith(b.env)).descriptor.digest).toBe(app.manifest.digest);
  });

  it("names the file when the password is wrong", async () => {
    const { env, file } = withDockerConfig({ auths: { [reg.host]: { auth: basic("alice", "wrong") } } });
    await expect(resolveWith(env)).rejects.toThrow(
      new ImageReadError(`authentication failed for ${reg.host} (check the credentials from ${file})`),
    );
  });

  it("says which files it searched when there are no credentials", async () => {
    const { env, home } = withDockerConfig({ auths: { "other.example:5000": { auth: basic("x", "y") } } });
    await expect(resolveWith(env)).rejects.toThrow(
      new ImageReadError(
        `${reg.host} requires authentication for team/app and no credentials were found for it ` +
          `(searched ${path.join(home, ".config", "containers", "auth.json")}, ${path.join(home, "docker", "config.json")}); ` +
          "log in with docker login or podman login",
      ),
    );
  });

  it("asks a credHelpers helper, passing the server on stdin", async () => {
    const bin = path.join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    const log = path.join(dir, "helper-stdin.txt");
    writeFileSync(
      path.join(bin, "docker-credential-test"),
      [
        "#!/bin/sh",
        `[ "$1" = get ] || exit 3`,
        `cat > "${log}"`,
        `printf '{"ServerURL":"%s","Username":"alice","Secret":"s3cret"}' "$(cat "${log}")"`,
      ].join("\n") + "\n",
    );
    chmodSync(path.join(bin, "docker-credential-test"), 0o755);
    const { env } = withDockerConfig({
      auths: { [reg.host]: { auth: basic("alice", "wrong") } },
      credHelpers: { [reg.host]: "test" },
    });
    env.PATH = `${bin}:${env.PATH}`;
    expect((await resolveWith(env)).descriptor.digest).toBe(app.manifest.digest);
    expect(readFileSync(log, "utf8")).toBe(`${reg.host}\n`);
  });

  it("says so when the named helper is not installed", async () => {
    const { env, file } = withDockerConfig({ credHelpers: { [reg.host]: "nothere" } });
    await expect(resolveWith(env)).rejects.toThrow(
      new ImageReadError(
        `credential helper docker-credential-nothere (credHelpers "${reg.host}" in ${file}) is not installed or not executable on PATH`,
      ),
    );
  });

  it("prefers REGISTRY_AUTH_FILE over the docker config, and the most specific key in it", async () => {
    const authFile = path.join(dir, "auth-good.json");
    writeFileSync(
      authFile,
      JSON.stringify({
        auths: {
          [reg.host]: { auth: basic("alice", "wrong") },
          [`${reg.host}/team/app`]: { auth: basic("alice", "s3cret") },
        },
      }),
    );
    const good = withDockerConfig(
      { auths: { [reg.host]: { auth: basic("alice", "wrong") } } },
      { REGISTRY_AUTH_FILE: authFile },
    );
    expect((await resolveWith(good.env)).descriptor.digest).toBe(app.manifest.digest);

    const badFile = path.join(dir, "auth-bad.json");
    writeFileSync(badFile, JSON.stringify({ auths: { [reg.host]: { auth: basic("alice", "nope") } } }));
    const bad = withDockerConfig(
      { auths: { [reg.host]: { auth: basic("alice", "s3cret") } } },
      { REGISTRY_AUTH_FILE: badFile },
    );
    await expect(resolveWith(bad.env)).rejects.toThrow(
      new ImageReadError(`authentication failed for ${reg.host} (check the credentials from ${badFile})`),
    );
  });

  it("reads $XDG_RUNTIME_DIR/containers/auth.json before the docker config", async () => {
    const runtime = path.join(dir, "runtime");
    mkdirSync(path.join(runtime, "containers"), { recursive: true });
    const file = path.join(runtime, "containers", "auth.json");
    writeFileSync(file, JSON.stringify({ auths: { [reg.host]: { auth: basic("alice", "bad") } } }));
    const { env } = withDockerConfig(
      { auths: { [reg.host]: { auth: basic("alice", "s3cret") } } },
      { XDG_RUNTIME_DIR: runtime },
    );
    await expect(resolveWith(env)).rejects.toThrow(
      new ImageReadError(`authentication failed for ${reg.host} (check the credentials from ${file})`),
    );
  });
});

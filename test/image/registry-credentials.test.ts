/**
 * Credential lookup on its own: which file wins, how keys match, and the
 * docker-credential helper protocol (shell-script helpers on a temp PATH).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialFiles, findCredentials, normalizeAuthKey } from "../../src/image/registry-auth.js";
import { ImageReadError } from "../../src/image/source.js";
import { basic, cleanEnv, removeTemps, tempDir } from "./registry-helpers.js";

let dir: string;
let bin: string;
let n = 0;

beforeAll(() => {
  dir = tempDir();
  bin = path.join(dir, "bin");
  mkdirSync(bin);
  // A helper that answers for one server and says "not found" otherwise, logging what it was asked.
  const helper = (name: string, body: string) => {
    const file = path.join(bin, `docker-credential-${name}`);
    writeFileSync(file, `#!/bin/sh\nserver=$(cat)\necho "$server" >> "${dir}/${name}.log"\n${body}\n`);
    chmodSync(file, 0o755);
  };
  helper(
    "store",
    `case "$server" in
  https://index.docker.io/v1/) echo '{"ServerURL":"x","Username":"hubuser","Secret":"hubpass"}' ;;
  tok.example) echo '{"ServerURL":"x","Username":"<token>","Secret":"refresh-1"}' ;;
  *) echo "credentials not found in native keychain"; exit 1 ;;
esac`,
  );
  helper("broken", `echo "keychain is locked" >&2; exit 2`);
  helper("garbage", `echo "not json"`);
});

afterAll(() => removeTemps());

function home(files: Record<string, unknown>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const h = path.join(dir, `home${++n}`);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(h, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  }
  return cleanEnv(h, { PATH: `${bin}:${process.env.PATH}`, ...extra });
}

describe("credential files", () => {
  it("lists the files in containers-auth.json order", () => {
    expect(credentialFiles({ HOME: "/h" })).toEqual(["/h/.config/containers/auth.json", "/h/.docker/config.json"]);
    expect(
      credentialFiles({ HOME: "/h", XDG_RUNTIME_DIR: "/run/u", XDG_CONFIG_HOME: "/cfg", DOCKER_CONFIG: "/dc" }),
    ).toEqual(["/run/u/containers/auth.json", "/cfg/containers/auth.json", "/dc/config.json"]);
    expect(credentialFiles({ HOME: "/h", REGISTRY_AUTH_FILE: "/a.json", XDG_RUNTIME_DIR: "/run/u" })).toEqual([
      "/a.json",
      "/h/.config/containers/auth.json",
      "/h/.docker/config.json",
    ]);
  });

  it("normalizes keys", () => {
    expect(normalizeAuthKey("https://index.docker.io/v1/")).toBe("docker.io");
    expect(normalizeAuthKey("index.docker.io")).toBe("docker.io");
    expect(normalizeAuthKey("http://Reg.Example:5000/v2/")).toBe("reg.example:5000");
    expect(normalizeAuthKey("quay.io/org/repo/")).toBe("quay.io/org/repo");
  });

  it("matches Docker Hub under any of its names", async () => {
    for (const key of ["https://index.docker.io/v1/", "docker.io", "index.docker.io"]) {
      const env = home({ ".docker/config.json": { auths: { [key]: { auth: basic("hub", "pw") } } } });
      const found = await findCredentials("registry-1.docker.io", "library/alpine", env);
      expect(found).toEqual({ username: "hub", password: "pw", source: path.join(env.HOME!, ".docker/config.json") });
    }
  });

  it("reads ~/.config/containers/auth.json before the docker config", async () => {
    const env = home({
      ".config/containers/auth.json": { auths: { "r.example": { auth: basic("podman", "a") } } },
      ".docker/config.json": { auths: { "r.example": { auth: basic("docker", "b") } } },
    });
    expect((await findCredentials("r.example", "x", env))?.username).toBe("podman");
    const env2 = home(
      { "xdg/containers/auth.json": { auths: { "r.example": { auth: basic("xdg", "c") } } } },
      {},
    );
    env2.XDG_CONFIG_HOME = path.join(env2.HOME!, "xdg");
    expect((await findCredentials("r.example", "x", env2))?.username).toBe("xdg");
  });

  it("falls through to the next file when one has nothing for the registry", async () => {
    const env = home({
      ".config/containers/auth.json": { auths: { "other.example": { auth: basic("o", "o") }, "r.example": {} } },
      ".docker/config.json": { auths: { "r.example": { auth: basic("docker", "b") } } },
    });
    expect((await findCredentials("r.example", "x", env))?.username).toBe("docker");
    expect(await findCredentials("none.example", "x", env)).toBeUndefined();
  });

  it("uses the most specific namespace key", async () => {
    const env = home({
      ".config/containers/auth.json": {
        auths: {
          "r.example": { auth: basic("host", "1") },
          "r.example/team": { auth: basic("team", "2") },
          "r.example/team/app": { auth: basic("app", "3") },
        },
      },
    });
    expect((await findCredentials("r.example", "team/app", env))?.username).toBe("app");
    expect((await findCredentials("r.example", "team/other", env))?.username).toBe("team");
    expect((await findCredentials("r.example", "teams/app", env))?.username).toBe("host");
  });

  it("reads identitytoken entries", async () => {
    const env = home({ ".docker/config.json": { auths: { "r.example": { identitytoken: "rt" } } } });
    expect(await findCredentials("r.example", "x", env)).toEqual({
      identityToken: "rt",
      source: path.join(env.HOME!, ".docker/config.json"),
    });
  });

  it("asks credsStore with Docker Hub's legacy server URL, and takes <token> as an identity token", async () => {
    const env = home({ ".docker/config.json": { auths: { "https://index.docker.io/v1/": {} }, credsStore: "store" } });
    const cfg = path.join(env.HOME!, ".docker/config.json");
    expect(await findCredentials("registry-1.docker.io", "library/alpine", env)).toEqual({
      username: "hubuser",
      password: "hubpass",
      source: `credential helper docker-credential-store (credsStore in ${cfg})`,
    });
    expect(await findCredentials("tok.example", "x", env)).toEqual({
      identityToken: "refresh-1",
      source: `credential helper docker-credential-store (credsStore in ${cfg})`,
    });
    // "credentials not found" from the helper means anonymous, not an error.
    expect(await findCredentials("nobody.example:5000", "x", env)).toBeUndefined();
    expect(readFileSync(path.join(dir, "store.log"), "utf8")).toBe(
      "https://index.docker.io/v1/\ntok.example\nnobody.example:5000\n",
    );
  });

  it("turns helper failures and bad files into clear errors", async () => {
    const env = home({ ".docker/config.json": { credHelpers: { "r.example": "broken", "g.example": "garbage" } } });
    const cfg = path.join(env.HOME!, ".docker/config.json");
    await expect(findCredentials("r.example", "x", env)).rejects.toThrow(
      new ImageReadError(
        `credential helper docker-credential-broken (credHelpers "r.example" in ${cfg}) failed for r.example: keychain is locked`,
      ),
    );
    await expect(findCredentials("g.example", "x", env)).rejects.toThrow(
      new ImageReadError(
        `credential helper docker-credential-garbage (credHelpers "g.example" in ${cfg}) printed something other than JSON for g.example`,
      ),
    );
    const bad = home({ ".docker/config.json": "{ not json" });
    await expect(findCredentials("r.example", "x", bad)).rejects.toThrow(
      new RegExp(`^the credentials file ${path.join(bad.HOME!, ".docker/config.json")} is not valid JSON: `),
    );
    const badAuth = home({ ".docker/config.json": { auths: { "r.example": { auth: basic("nocolon", "").slice(0, 4) } } } });
    await expect(findCredentials("r.example", "x", badAuth)).rejects.toThrow(
      new ImageReadError(
        `the "auth" value of "r.example" in ${path.join(badAuth.HOME!, ".docker/config.json")} is not base64 of "user:password"`,
      ),
    );
  });
});

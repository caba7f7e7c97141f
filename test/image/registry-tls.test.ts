/**
 * HTTPS: docker-registry serving TLS with a certificate from a CA the test
 * makes with openssl. Untrusted by default, trusted through
 * NODE_EXTRA_CA_CERTS (in a child process, since Node reads it at start),
 * accepted unverified with --insecure.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRegistrySource } from "../../src/image/registry.js";
import { ImageReadError } from "../../src/image/source.js";
import {
  Layout,
  cleanEnv,
  makeTls,
  push,
  removeTemps,
  skipWithout,
  startRegistry,
  tempDir,
  type Desc,
  type Registry,
} from "./registry-helpers.js";

const skip = skipWithout(["docker-registry", "skopeo", "openssl"]);
const REPO = path.resolve(import.meta.dirname, "../..");

describe.skipIf(skip)("registry source: HTTPS", () => {
  let reg: Registry;
  let dir: string;
  let tls: { ca: string; cert: string; key: string };
  let app: { manifest: Desc; config: Desc; layer: Desc };
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = tempDir();
    env = cleanEnv(path.join(dir, "home"));
    tls = makeTls(dir);
    reg = await startRegistry({ tls: { cert: tls.cert, key: tls.key } });
    const layout = new Layout(path.join(dir, "layout"));
    app = layout.image({ files: { "captf/module/main.tf": "# tls\n" } });
    layout.tag("v1", app.manifest);
    await push(`oci:${layout.dir}:v1`, `${reg.host}/team/app:v1`);
  });

  afterAll(async () => {
    await reg?.stop();
    removeTemps();
  });

  it("refuses a certificate from an unknown CA, suggesting NODE_EXTRA_CA_CERTS or --insecure", async () => {
    const s = await openRegistrySource(`${reg.host}/team/app:v1`, { insecure: false, env });
    const err = await s.resolve().catch((e: unknown) => e);
    await s.close();
    expect(err).toBeInstanceOf(ImageReadError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^cannot pull ${reg.host}/team/app:v1: the TLS certificate of ${reg.host} is not trusted \\(it is signed by a CA this machine does not trust\\); ` +
          "add its CA to NODE_EXTRA_CA_CERTS, or use --insecure to skip verification$",
      ),
    );
  });

  it("with --insecure, uses HTTPS without verifying the certificate", async () => {
    const s = await openRegistrySource(`${reg.host}/team/app:v1`, { insecure: true, env });
    expect((await s.resolve()).descriptor.digest).toBe(app.manifest.digest);
    let size = 0;
    for await (const c of await s.openBlob(app.layer)) size += (c as Buffer).length;
    expect(size).toBe(app.layer.size);
    await s.close();
  });

  it("trusts the CA named by NODE_EXTRA_CA_CERTS", async () => {
    const bundle = path.join(dir, "registry.mjs");
    await build({
      entryPoints: [path.join(REPO, "src/image/registry.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: bundle,
      logLevel: "silent",
    });
    const script = [
      `import { openRegistrySource } from ${JSON.stringify(pathToFileURL(bundle).href)};`,
      `const s = await openRegistrySource(${JSON.stringify(`${reg.host}/team/app:v1`)}, { insecure: false, env: process.env });`,
      "try { const { descriptor } = await s.resolve(); console.log(descriptor.digest); }",
      "catch (e) { console.log(`${e.name}: ${e.message}`); }",
      "finally { await s.close(); }",
    ].join("\n");
    const runChild = (extra: Record<string, string>) =>
      spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
        env: { ...env, ...extra },
        timeout: 60_000,
      });
    const trusted = runChild({ NODE_EXTRA_CA_CERTS: tls.ca });
    expect(trusted.stderr).toBe("");
    expect(trusted.stdout).toBe(`${app.manifest.digest}\n`);
    const untrusted = runChild({});
    expect(untrusted.stdout).toMatch(/^ImageReadError: cannot pull .* the TLS certificate of .* is not trusted/);
  });
});

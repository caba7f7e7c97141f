/**
 * Reading images: compressions, whiteouts and opaque directories, paths that
 * leave the root, indexes (nested, Docker lists, attestations), platform
 * selection, size caps, unreadable input, references, output formats.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import type { Io } from "../../src/cli/io.js";
import { runImage } from "../../src/cli/image-command.js";
import { cleanEntryPath } from "../../src/image/fs.js";
import {
  compress,
  GOOD_CONFIG,
  goodEntries,
  Layout,
  needTool,
  rows,
  run,
  sha256,
  tarBytes,
  withPlatform,
  type Compression,
  type Desc,
  type Entry,
  type JsonDoc,
} from "./helpers.js";

const layouts: Layout[] = [];
afterAll(() => layouts.forEach((l) => l.remove()));
function layout(): Layout {
  const l = new Layout();
  layouts.push(l);
  return l;
}
const noEntrypoint = { ...GOOD_CONFIG, Entrypoint: null };

async function json(args: string[]): Promise<{ code: number; doc: JsonDoc; stderr: string }> {
  const r = await run(["image", "--json", ...args]);
  return { code: r.code, doc: r.stdout === "" ? (null as unknown as JsonDoc) : (JSON.parse(r.stdout) as JsonDoc), stderr: r.stderr };
}

describe("layer compressions", () => {
  for (const how of ["none", "gzip", "zstd"] as Compression[]) {
    test(`${how}: a good image has no findings`, async () => {
      if (how === "zstd" && !needTool("zstd")) return;
      const l = layout();
      l.top([l.image([await l.layer(goodEntries(), how)], noEntrypoint)]);
      const { code, doc, stderr } = await json([`oci:${l.dir}`]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(rows(doc)).toEqual([]);
    });
  }

  test("layers of different compressions stack in order", async () => {
    if (!needTool("zstd")) return;
    const l = layout();
    const entries = goodEntries();
    const a = await l.layer(entries.slice(0, 3), "zstd");
    const b = await l.layer(entries.slice(3, 6), "none");
    const c = await l.layer(entries.slice(6), "gzip");
    l.top([l.image([a, b, c], noEntrypoint)]);
    expect(rows((await json([`oci:${l.dir}`])).doc)).toEqual([]);
  });
});

describe("whiteouts and opaque directories", () => {
  test(".wh.NAME deletes a file and a whole directory of a lower layer", async () => {
    const l = layout();
    const lower = await l.layer([...goodEntries(), { name: "captf/work/old.txt", content: "x" }, { name: "captf/config/a/b", content: "y" }]);
    const upper = await l.layer([{ name: "captf/work/.wh.old.txt", content: "" }, { name: "captf/.wh.config", content: "" }]);
    l.top([l.image([lower, upper], noEntrypoint)]);
    expect(rows((await json([`oci:${l.dir}`])).doc)).toEqual([]);
  });

  test("a whiteout of the module file makes the module absent", async () => {
    const l = layout();
    const lower = await l.layer(goodEntries());
    const upper = await l.layer([{ name: "captf/module/.wh.main.tf", content: "" }]);
    l.top([l.image([lower, upper], noEntrypoint)]);
    expect(rows((await json(["--role", "cluster", `oci:${l.dir}`])).doc).map((r) => r[0])).toEqual(["image/module-present"]);
  });

  test(".wh..wh..opq empties a directory of lower layers but keeps its own layer's entries", async () => {
    const l = layout();
    const lower = await l.layer([...goodEntries(), { name: "captf/bin/", type: "directory" }, { name: "captf/bin/a", content: "1" }, { name: "captf/bin/b/c", content: "2" }]);
    const upper = await l.layer([{ name: "captf/bin/.wh..wh..opq", content: "" }, { name: "captf/bin/new", content: "3" }]);
    l.top([l.image([lower, upper], noEntrypoint)]);
    expect(rows((await json([`oci:${l.dir}`])).doc)).toEqual([
      ["image/reserved-paths", "error", "/captf/bin", 0, "1 file under /captf/bin, which is mounted when the Job runs (the mount hides them)"],
    ]);
    const only = layout();
    only.top([only.image([lower, await only.layer([{ name: "captf/bin/.wh..wh..opq", content: "" }])], noEntrypoint)]);
    // the layer blobs of `lower` live in the other layout: copy it
    writeFileSync(path.join(only.dir, "blobs", "sha256", lower.digest.slice(7)), readFileSync(path.join(l.dir, "blobs", "sha256", lower.digest.slice(7))));
    expect(rows((await json([`oci:${only.dir}`])).doc)).toEqual([]);
  });

  test("a later file replaces a directory (and what was under it)", async () => {
    const l = layout();
    const lower = await l.layer([...goodEntries(), { name: "captf/config/", type: "directory" }, { name: "captf/config/x", content: "1" }]);
    const upper = await l.layer([{ name: "captf/config", content: "now a file" }]);
    l.top([l.image([lower, upper], noEntrypoint)]);
    expect(rows((await json([`oci:${l.dir}`])).doc)).toEqual([]);
  });
});

describe("paths", () => {
  test("cleaned paths, and those that leave the root are skipped", () => {
    expect(cleanEntryPath("./captf/module/main.tf")).toBe("/captf/module/main.tf");
    expect(cleanEntryPath("/captf//module/./x/../main.tf")).toBe("/captf/module/main.tf");
    expect(cleanEntryPath("captf/module/")).toBe("/captf/module");
    expect(cleanEntryPath("../etc/passwd")).toBeNull();
    expect(cleanEntryPath("captf/../../x")).toBeNull();
    expect(cleanEntryPath("./")).toBe("/");
  });

  test("an entry that climbs out of the root is ignored", async () => {
    const l = layout();
    l.top([l.image([await l.layer([...goodEntries(), { name: "../captf/work/evil", content: "x" }, { name: "captf/../../captf/config/evil", content: "x" }])], noEntrypoint)]);
    expect(rows((await json([`oci:${l.dir}`])).doc)).toEqual([]);
  });
});

describe("indexes and platforms", () => {
  async function multi(l: Layout, docker = false): Promise<{ amd: Desc; arm: Desc; att: Desc }> {
    const amdLayer = await l.layer(goodEntries());
    const armLayer = await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"));
    const amd = withPlatform(l.image([amdLayer], noEntrypoint, { docker }), "linux", "amd64");
    const arm = withPlatform(l.image([armLayer], noEntrypoint, { architecture: "arm64", variant: "v8", docker }), "linux", "arm64", "v8");
    const att = { ...withPlatform(l.json({ schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json", config: l.json({}, "application/vnd.oci.image.config.v1+json"), layers: [] }, "application/vnd.oci.image.manifest.v1+json"), "unknown", "unknown"), annotations: { "vnd.docker.reference.type": "attestation-manifest" } };
    return { amd, arm, att };
  }

  test("an index: linux/amd64 by default, --platform chooses, none matching is image/platform", async () => {
    const l = layout();
    const { amd, arm, att } = await multi(l);
    const index = l.index([arm, att, amd]);
    l.top([index]);
    const def = await json([`oci:${l.dir}`]);
    expect(def.code).toBe(0);
    expect(def.doc.image).toEqual({ ref: `oci:${l.dir}`, digest: index.digest, platforms: ["linux/amd64"] });
    expect(rows(def.doc)).toEqual([]);
    const armRun = await json(["--platform", "linux/arm64", `oci:${l.dir}`]);
    expect(armRun.doc.image.platforms).toEqual(["linux/arm64/v8"]);
    expect(rows(armRun.doc)).toEqual([["image/runtime-present", "error", "/captf/runtime", 0, "/captf/runtime is missing: the runner executes it to run terraform or tofu"]]);
    const none = await json(["--platform", "linux/s390x", `oci:${l.dir}`]);
    expect(none.code).toBe(1);
    expect(none.doc.image.platforms).toEqual([]);
    expect(rows(none.doc)).toEqual([["image/platform", "error", "", 0, "the index has no manifest for linux/s390x"]]);
  });

  test("--all-platforms: every manifest, attestations skipped, messages prefixed [os/arch]", async () => {
    const l = layout();
    const { amd, arm, att } = await multi(l);
    l.top([l.index([amd, att, arm])]);
    const { code, doc } = await json(["--all-platforms", `oci:${l.dir}`]);
    expect(code).toBe(1);
    expect(doc.image.platforms).toEqual(["linux/amd64", "linux/arm64/v8"]);
    expect(rows(doc)).toEqual([["image/runtime-present", "error", "/captf/runtime", 0, "[linux/arm64] /captf/runtime is missing: the runner executes it to run terraform or tofu"]]);
  });

  test("nested indexes and Docker manifest lists, a manifest without a platform takes the config's", async () => {
    const l = layout();
    const { amd, arm } = await multi(l, true);
    const { platform: _p, ...amdNoPlatform } = amd;
    const inner = l.index([arm], true);
    const middle = l.index([inner, amdNoPlatform]);
    l.top([l.index([middle])]);
    const def = await json([`oci:${l.dir}`]);
    expect(def.doc.image.platforms).toEqual(["linux/amd64"]);
    expect(rows(def.doc)).toEqual([]);
    const all = await json(["--all-platforms", `oci:${l.dir}`]);
    expect(all.doc.image.platforms).toEqual(["linux/arm64/v8", "linux/amd64"]);
  });

  test("machine labels that differ between platforms warn", async () => {
    const l = layout();
    const machineLabels = (cpu: string): Record<string, unknown> => ({
      ...noEntrypoint,
      Labels: { "io.captf.role": "machine", "io.captf.contract": "v1alpha1", "io.captf.capacity": `{"cpu":"${cpu}"}` },
    });
    const layer = await l.layer(goodEntries().filter((e) => e.name !== "captf/module/main.tf"));
    const a = withPlatform(l.image([layer], machineLabels("2")), "linux", "amd64");
    const b = withPlatform(l.image([layer], machineLabels("4"), { architecture: "arm64" }), "linux", "arm64");
    l.top([l.index([a, b])]);
    const { doc } = await json(["--all-platforms", "--role", "machine", `oci:${l.dir}`]);
    expect(rows(doc).filter((r) => r[0] === "image/label-capacity")).toEqual([
      ["image/label-capacity", "warning", "", 0, 'the io.captf.capacity label differs between the platforms (linux/amd64: {"cpu":"2"}; linux/arm64: {"cpu":"4"})'],
    ]);
  });

  test("oci:DIR:TAG picks the image by its ref.name annotation", async () => {
    const l = layout();
    const good = { ...l.image([await l.layer(goodEntries())], noEntrypoint), annotations: { "org.opencontainers.image.ref.name": "good" } };
    const bad = { ...l.image([await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"))], noEntrypoint), annotations: { "org.opencontainers.image.ref.name": "bad" } };
    l.top([good, bad]);
    expect(rows((await json([`oci:${l.dir}:good`])).doc)).toEqual([]);
    expect(rows((await json([`oci:${l.dir}:bad`])).doc).map((r) => r[0])).toEqual(["image/runtime-present"]);
    const missing = await json([`oci:${l.dir}:nope`]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(`tfcapi-lint: the layout ${l.dir} has no image named "nope" (it has: good, bad)\n`);
  });
});

describe("caps", () => {
  async function capped(entries: Entry[], caps: { kept: number; scanned: number }): Promise<{ code: number; stderr: string }> {
    const l = layout();
    l.top([l.image([await l.layer(entries, "gzip")], noEntrypoint)]);
    let stderr = "";
    const io: Io = { stdout: () => {}, stderr: (t) => (stderr += t), readStdin: async () => "", env: {}, cwd: process.cwd(), isTTY: false, stderrIsTTY: false };
    const code = await runImage(parseArgs(["image", "--json", `oci:${l.dir}`]), io, { caps });
    return { code, stderr };
  }

  test("kept bytes (module files + 512 per entry) over the cap is exit 2", async () => {
    const big = [...goodEntries(), { name: "captf/module/big.tf", content: `# ${"x".repeat(20000)}\n` }];
    expect((await capped(big, { kept: 64 * 1024, scanned: 1 << 30 })).code).toBe(0);
    const r = await capped(big, { kept: 16 * 1024, scanned: 1 << 30 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tfcapi-lint: cannot read image oci:.*: layer 1 of 1 \(sha256:[0-9a-f]{64}\): the image holds more than 16 KiB of module files, mirror indexes and entries; refusing to read further\n$/);
  });

  test("many entries count 512 bytes each", async () => {
    const many = [...goodEntries(), ...Array.from({ length: 200 }, (_, i) => ({ name: `usr/share/f${i}`, content: "" }))];
    expect((await capped(many, { kept: 64 * 1024, scanned: 1 << 30 })).code).toBe(2);
    expect((await capped(many, { kept: 256 * 1024, scanned: 1 << 30 })).code).toBe(0);
  });

  test("scanned bytes over the cap is exit 2, even for files that are not kept", async () => {
    const entries = [...goodEntries(), { name: "usr/lib/blob", content: Buffer.alloc(300 * 1024) }];
    expect((await capped(entries, { kept: 1 << 30, scanned: 1 << 20 })).code).toBe(0);
    const r = await capped(entries, { kept: 1 << 30, scanned: 256 * 1024 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the image's layers are larger than 256 KiB uncompressed; refusing to read further");
  });
});

describe("unreadable input is exit 2 with a clear message", () => {
  async function expectRead(ref: string, message: string | RegExp): Promise<void> {
    const r = await run(["image", ref]);
    expect(r.code).toBe(2);
    if (typeof message === "string") {
      expect(r.stderr).toBe(message);
      // The report says it too (every format shows what could not be read).
      expect(r.stdout).toBe(`error  ${message.slice("tfcapi-lint: ".length, -1)}  (not linted)\n\n✖ nothing linted: 1 read error\n`);
    } else {
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toMatch(/\(not linted\)\n\n✖ nothing linted: 1 read error\n$/);
    }
  }

  test("an image that cannot be read still gets the report asked for: SARIF to -o, JSON by --also-write", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-image-report-"));
    try {
      const sarifPath = path.join(dir, "image.sarif");
      const jsonPath = path.join(dir, "image.json");
      const r = await run(["image", "-f", "sarif", "-o", sarifPath, "--also-write", `json=${jsonPath}`, `oci:${dir}/none`], dir);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`tfcapi-lint: cannot read image oci:${dir}/none: cannot read the image layout ${dir}/none: no such file\n`);
      const sarif = JSON.parse(readFileSync(sarifPath, "utf8")) as {
        runs: { results: unknown[]; invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[];
      };
      expect(sarif.runs[0]!.results).toEqual([]);
      expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
      expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual([
        `cannot read image oci:${dir}/none: cannot read the image layout ${dir}/none: no such file`,
      ]);
      const json = JSON.parse(readFileSync(jsonPath, "utf8")) as { readErrors: { file: string; message: string }[]; findings: unknown[] };
      expect(json.findings).toEqual([]);
      expect(json.readErrors).toEqual([{ file: "", message: `cannot read image oci:${dir}/none: cannot read the image layout ${dir}/none: no such file` }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("not a layout, missing files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-image-bad-"));
    try {
      await expectRead(`oci:${dir}/none`, `tfcapi-lint: cannot read image oci:${dir}/none: cannot read the image layout ${dir}/none: no such file\n`);
      await expectRead(`oci:${dir}`, `tfcapi-lint: cannot read image oci:${dir}: ${dir} is not an OCI image layout: cannot read oci-layout (no such file)\n`);
      writeFileSync(path.join(dir, "oci-layout"), "{}");
      await expectRead(`oci:${dir}`, `tfcapi-lint: cannot read image oci:${dir}: ${dir} is not an OCI image layout: oci-layout has no imageLayoutVersion\n`);
      writeFileSync(path.join(dir, "oci-layout"), '{"imageLayoutVersion":"1.0.0"}');
      await expectRead(`oci:${dir}`, `tfcapi-lint: cannot read image oci:${dir}: ${dir} is not an OCI image layout: cannot read index.json (no such file)\n`);
      writeFileSync(path.join(dir, "index.json"), "{not json");
      await expectRead(`oci:${dir}`, `tfcapi-lint: cannot read image oci:${dir}: index.json of ${dir} is not valid JSON\n`);
      writeFileSync(path.join(dir, "index.json"), '{"schemaVersion":2,"manifests":[]}');
      await expectRead(`oci:${dir}`, `tfcapi-lint: cannot read image oci:${dir}: the layout ${dir} holds no image (index.json lists no manifest)\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a missing blob, a corrupt manifest, a corrupt layer", async () => {
    const l = layout();
    const layer = await l.layer(goodEntries());
    const img = l.image([layer], noEntrypoint);
    l.top([img]);
    const blob = (d: Desc): string => path.join(l.dir, "blobs", "sha256", d.digest.slice(7));
    const saved = readFileSync(blob(layer));
    rmSync(blob(layer));
    await expectRead(`oci:${l.dir}`, `tfcapi-lint: cannot read image oci:${l.dir}: layer ${layer.digest} is missing from the layout (no such file)\n`);
    const corrupt = Buffer.from(saved);
    corrupt[corrupt.length - 20] ^= 0xff;
    writeFileSync(blob(layer), corrupt);
    await expectRead(`oci:${l.dir}`, new RegExp(`^tfcapi-lint: cannot read image oci:.*: layer 1 of 1 \\(${layer.digest}\\): `));
    writeFileSync(blob(layer), saved);
    appendFileSync(blob(img), " ");
    await expectRead(`oci:${l.dir}`, new RegExp(`^tfcapi-lint: cannot read image oci:.*: manifest ${img.digest} is corrupt: its content hashes to sha256:[0-9a-f]{64}\\n$`));
  });

  test("a truncated gzip layer, a truncated zstd layer, a truncated tar", async () => {
    for (const how of ["gzip", "zstd", "none"] as Compression[]) {
      if (how === "zstd" && !needTool("zstd")) continue;
      const l = layout();
      const full = compress(await tarBytes([...goodEntries(), { name: "usr/lib/blob", content: Buffer.alloc(64 * 1024, 7) }]), how);
      const cut = full.subarray(0, how === "none" ? 2000 : Math.floor(full.length / 2));
      const mt = how === "none" ? "application/vnd.oci.image.layer.v1.tar" : `application/vnd.oci.image.layer.v1.tar+${how}`;
      const layer = l.blob(cut, mt);
      l.top([l.image([layer], noEntrypoint)]);
      const expected = {
        gzip: "truncated gzip data",
        zstd: "truncated or invalid zstd data",
        none: "the layer's tar stream ends in the middle of an entry (truncated layer)",
      }[how];
      await expectRead(`oci:${l.dir}`, new RegExp(`^tfcapi-lint: cannot read image oci:.*: layer 1 of 1 \\(${layer.digest}\\): ${expected.replace(/[()]/g, "\\$&")}`));
    }
  });

  test("a layer blob whose descriptor has the wrong digest", async () => {
    const l = layout();
    const layer = await l.layer(goodEntries());
    const other = sha256(Buffer.from("something else"));
    writeFileSync(path.join(l.dir, "blobs", "sha256", other.slice(7)), readFileSync(path.join(l.dir, "blobs", "sha256", layer.digest.slice(7))));
    l.top([l.image([{ ...layer, digest: other }], noEntrypoint)]);
    await expectRead(`oci:${l.dir}`, new RegExp(`: layer ${other} is corrupt: its content hashes to ${layer.digest}\\n$`));
  });

  test("a config blob that is not JSON", async () => {
    const l = layout();
    const cfg = l.blob(Buffer.from("nope"), "application/vnd.oci.image.config.v1+json");
    l.top([l.json({ schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json", config: cfg, layers: [] }, "application/vnd.oci.image.manifest.v1+json")]);
    await expectRead(`oci:${l.dir}`, `tfcapi-lint: cannot read image oci:${l.dir}: image config ${cfg.digest} is not valid JSON\n`);
  });

  test("an unreadable truncated blob file", async () => {
    const l = layout();
    const layer = await l.layer(goodEntries(), "gzip");
    l.top([l.image([layer], noEntrypoint)]);
    truncateSync(path.join(l.dir, "blobs", "sha256", layer.digest.slice(7)), 10);
    await expectRead(`oci:${l.dir}`, new RegExp(`layer 1 of 1 \\(${layer.digest}\\): layer ${layer.digest} is corrupt: its content hashes to sha256:[0-9a-f]{64}\\n$`));
  });
});

describe("references and options", () => {
  test("bad --platform, options of other commands, no reference: exit 3", async () => {
    const l = layout();
    l.top([l.image([await l.layer(goodEntries())], noEntrypoint)]);
    const cases: [string[], string][] = [
      [["image", "--platform", "linux", `oci:${l.dir}`], 'tfcapi-lint: invalid --platform "linux": expected OS/ARCH or OS/ARCH/VARIANT, e.g. linux/amd64\n'],
      [["image", "--platform", "linux/amd64/v1/x", `oci:${l.dir}`], 'tfcapi-lint: invalid --platform "linux/amd64/v1/x": expected OS/ARCH or OS/ARCH/VARIANT, e.g. linux/amd64\n'],
      [["image"], "tfcapi-lint: image takes exactly one reference, oci:DIR or host/repo[:tag|@digest] (got 0)\nRun tfcapi-lint --help for usage.\n"],
      [["image", "--fix", `oci:${l.dir}`], "tfcapi-lint: --fix cannot be used with the image command\nRun tfcapi-lint --help for usage.\n"],
      [["image", "--fix-unsafe", `oci:${l.dir}`], "tfcapi-lint: --fix-unsafe cannot be used with the image command\nRun tfcapi-lint --help for usage.\n"],
      [["image", "--role", "pool", `oci:${l.dir}`], 'tfcapi-lint: unknown role "pool" (use cluster, machine or machinepool)\nRun tfcapi-lint --help for usage.\n'],
      [["image", "--platform", "linux/amd64", "--all-platforms", `oci:${l.dir}`], "tfcapi-lint: use either --platform or --all-platforms, not both\nRun tfcapi-lint --help for usage.\n"],
      [["image", "oci:"], "tfcapi-lint: oci: needs a directory, e.g. oci:./img\n"],
      [["--platform", "linux/amd64", "."], "tfcapi-lint: --platform is an option of the image command (tfcapi-lint image REF)\nRun tfcapi-lint --help for usage.\n"],
    ];
    for (const [args, stderr] of cases) {
      const r = await run(args);
      expect([r.code, r.stderr, r.stdout]).toEqual([3, stderr, ""]);
    }
  });

  test("a registry reference goes to the registry client", async () => {
    const seen: { ref: string; insecure: boolean }[] = [];
    const io: Io = { stdout: () => {}, stderr: () => {}, readStdin: async () => "", env: {}, cwd: process.cwd(), isTTY: false, stderrIsTTY: false };
    const { ImageReadError } = await import("../../src/image/source.js");
    const code = await runImage(parseArgs(["image", "--insecure", "127.0.0.1:5000/captf/pool:v1"]), io, {
      openRegistry: async (ref, opts) => {
        seen.push({ ref, insecure: opts.insecure });
        throw new ImageReadError("no registry in this test");
      },
    });
    expect(code).toBe(2);
    expect(seen).toEqual([{ ref: "127.0.0.1:5000/captf/pool:v1", insecure: true }]);
  });
});

describe("output formats", () => {
  test("text: the first line names the image, digest and platforms; files are image paths", async () => {
    const l = layout();
    const img = l.image([await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"))], GOOD_CONFIG);
    l.top([img]);
    const r = await run(["image", `oci:${l.dir}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `image oci:${l.dir} (${img.digest}) platforms linux/amd64`,
        "",
        `oci:${l.dir}`,
        "  -  info  the image sets an Entrypoint, which the runner replaces  image/entrypoint",
        "",
        "/captf/runtime",
        "  -  error  /captf/runtime is missing: the runner executes it to run terraform or tofu  image/runtime-present",
        "",
        "✖ 2 problems (1 error, 0 warnings, 1 info)",
        "role: cluster (from the io.captf.role label)",
        "file set: terraform (.tf, .tf.json)",
        "",
      ].join("\n"),
    );
  });

  test("compact, sarif, github, checkstyle, junit all work", async () => {
    const l = layout();
    l.top([l.image([await l.layer(goodEntries().filter((e) => e.name !== "captf/runtime"))], noEntrypoint)]);
    const compact = await run(["image", "--format", "compact", `oci:${l.dir}`]);
    expect(compact.stdout).toBe("/captf/runtime:0:0: error: /captf/runtime is missing: the runner executes it to run terraform or tofu [image/runtime-present]\n");
    const sarif = await run(["image", "--format", "sarif", `oci:${l.dir}`]);
    const log = JSON.parse(sarif.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string }[] }[] };
    expect(log.runs[0]!.results.map((x) => x.ruleId)).toEqual(["image/runtime-present"]);
    expect(log.runs[0]!.tool.driver.rules.map((x) => x.id)).toContain("image/runtime-present");
    for (const format of ["github", "checkstyle", "junit"]) {
      const r = await run(["image", "--format", format, `oci:${l.dir}`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("/captf/runtime is missing");
    }
  });
});

describe("layouts as docker save (Docker 25+) writes them", () => {
  test("index.json with containerd's image name, manifest.json beside it", async () => {
    const l = layout();
    const img = l.image([await l.layer(goodEntries())], noEntrypoint, { docker: true });
    l.top([{ ...img, annotations: { "io.containerd.image.name": "docker.io/captf/cluster:v1", "org.opencontainers.image.ref.name": "v1" } }]);
    writeFileSync(path.join(l.dir, "manifest.json"), JSON.stringify([{ Config: "blobs/sha256/x", RepoTags: ["captf/cluster:v1"], Layers: [] }]));
    for (const ref of [`oci:${l.dir}`, `oci:${l.dir}:v1`, `oci:${l.dir}:docker.io/captf/cluster:v1`]) {
      const { code, doc } = await json([ref]);
      expect(code).toBe(0);
      expect(doc.image).toEqual({ ref, digest: img.digest, platforms: ["linux/amd64"] });
      expect(rows(doc)).toEqual([]);
    }
  });
});

describe("options shared with module linting", () => {
  async function broken(): Promise<string> {
    const l = layout();
    const main = goodEntries().find((e) => e.name === "captf/module/main.tf")!.content as string;
    const entries = [
      ...goodEntries().filter((e) => e.name !== "captf/module/main.tf" && e.name !== "captf/runtime"),
      { name: "captf/module/main.tf", content: `${main}\n# tfcapi-lint-ignore: output/reserved -- kept for old tooling\noutput "captf_legacy" {\n  value = 1\n}\noutput "captf_other" {\n  value = 2\n}\n` },
    ];
    l.top([l.image([await l.layer(entries)], { ...GOOD_CONFIG, User: "root" })]);
    return `oci:${l.dir}`;
  }

  test("inline ignores in the module, --rule, --quiet, --max-warnings, --output-file", async () => {
    const ref = await broken();
    const all = await json([ref]);
    expect(all.doc.findings.map((f) => [f.id, f.severity, f.file])).toEqual([
      ["image/entrypoint", "info", ""],
      ["image/user-root", "warning", ""],
      ["output/reserved", "warning", "/captf/module/main.tf"],
      ["image/runtime-present", "error", "/captf/runtime"],
    ]);
    expect((all.doc as unknown as { suppressed: { id: string; file: string }[] }).suppressed.map((f) => [f.id, f.file])).toEqual([["output/reserved", "/captf/module/main.tf"]]);
    const quiet = await json(["--quiet", ref]);
    expect(quiet.doc.findings.map((f) => f.id)).toEqual(["image/runtime-present"]);
    const off = await json(["--rule", "image/runtime-present=off", "--rule", "image/user-root=error", ref]);
    expect(off.code).toBe(1);
    expect(off.doc.findings.map((f) => [f.id, f.severity])).toEqual([
      ["image/entrypoint", "info"],
      ["image/user-root", "error"],
      ["output/reserved", "warning"],
    ]);
    const mw = await json(["--rule", "image/runtime-present=off", "--max-warnings", "1", ref]);
    expect(mw.code).toBe(1);
    const ok = await json(["--rule", "image/runtime-present=off", "--max-warnings", "2", ref]);
    expect(ok.code).toBe(0);
    const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-image-out-"));
    try {
      const r = await run(["image", "--format", "compact", "-o", path.join(dir, "report.txt"), ref]);
      expect([r.code, r.stdout]).toEqual([1, ""]);
      expect(readFileSync(path.join(dir, "report.txt"), "utf8")).toContain("/captf/runtime:0:0: error: /captf/runtime is missing");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("--all-platforms prefixes module lint findings too", async () => {
    const l = layout();
    const main = goodEntries().find((e) => e.name === "captf/module/main.tf")!.content as string;
    const entries = [...goodEntries().filter((e) => e.name !== "captf/module/main.tf"), { name: "captf/module/main.tf", content: `${main}\noutput "captf_x" {\n  value = 1\n}\n` }];
    const layer = await l.layer(entries);
    l.top([l.index([withPlatform(l.image([layer], noEntrypoint), "linux", "amd64"), withPlatform(l.image([layer], noEntrypoint, { architecture: "arm64" }), "linux", "arm64")])]);
    const { doc } = await json(["--all-platforms", ref(l)]);
    expect(doc.findings.map((f) => [f.id, f.file, f.message.slice(0, 14)])).toEqual([
      ["output/reserved", "/captf/module/main.tf", "[linux/amd64] "],
      ["output/reserved", "/captf/module/main.tf", "[linux/arm64] "],
    ]);
  });
});

function ref(l: Layout): string {
  return `oci:${l.dir}`;
}

/**
 * A finding's path (Finding.related) in the language server: a client that
 * says it shows related information gets `relatedInformation` on the
 * diagnostic (each hop's file URI, range in the negotiated position
 * encoding, label), hops in other files and in a child module included; a
 * client that does not say so gets plain diagnostics.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO, uri, workspace, type Diagnostic } from "./client.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

type WithRelated = Diagnostic & { relatedInformation?: { location: { uri: string; range: unknown }; message: string }[] };

const ws = workspace("lsp-related", {
  copy: {
    pool: moduleDirOf(path.join(REPO, "fixtures/version/distro-suffix/through-local-chain")),
    lt: moduleDirOf(path.join(REPO, "fixtures/bootstrap/encoding/child-module-double-encodes")),
  },
  killAfterEach: true,
});
let pool: string;
let lt: string;

beforeAll(() => {
  pool = ws.at("pool");
  lt = ws.at("lt");
  // A non-ASCII character inside a hop's range: its end differs between encodings.
  const main = path.join(pool, "main.tf");
  writeFileSync(main, readFileSync(main, "utf8").replace('"capi-ubuntu-2204-${local.clean_version}"', '"capi-ubuntu-2204-é-${local.clean_version}"'));
});

const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

/** Open `file` in a new client; the diagnostic of rule `id` shown in `shownIn` (default: the file). */
async function diagnosticsOf(capabilities: Record<string, unknown>, file: string, id: string, shownIn = file): Promise<WithRelated> {
  const c = await ws.start(capabilities);
  await c.open(file, readFileSync(file, "utf8"));
  const list = await c.latest(uri(shownIn), (d) => d.some((x) => x.code === id));
  return list.find((x) => x.code === id)! as WithRelated;
}

describe("relatedInformation", () => {
  it("carries the hops in UTF-16 when the client supports it", async () => {
    const d = await diagnosticsOf(
      { textDocument: { publishDiagnostics: { relatedInformation: true } }, general: { positionEncodings: ["utf-16"] } },
      path.join(pool, "main.tf"),
      "version/distro-suffix",
    );
    expect(d.range).toEqual(range(22, 17, 22, 33));
    expect(d.relatedInformation).toEqual([
      { location: { uri: uri(path.join(pool, "main.tf")), range: range(13, 18, 13, 143) }, message: "local.image_name" },
      { location: { uri: uri(path.join(pool, "main.tf")), range: range(12, 18, 12, 35) }, message: "local.image_version" },
      { location: { uri: uri(path.join(pool, "main.tf")), range: range(11, 18, 11, 57) }, message: "local.k8s_version" },
      { location: { uri: uri(path.join(pool, "variables.tf")), range: range(59, 0, 59, 29) }, message: "var.kubernetes_version (variable)" },
    ]);
  });

  it("converts the hops' ranges to the negotiated encoding (UTF-8: é counts two)", async () => {
    const d = await diagnosticsOf(
      { textDocument: { publishDiagnostics: { relatedInformation: true } }, general: { positionEncodings: ["utf-8"] } },
      path.join(pool, "main.tf"),
      "version/distro-suffix",
    );
    expect(d.relatedInformation![0]).toEqual({ location: { uri: uri(path.join(pool, "main.tf")), range: range(13, 18, 13, 144) }, message: "local.image_name" });
  });

  it("points into the child module and the caller for a finding in a child module", async () => {
    const child = path.join(lt, "modules", "launch-template", "main.tf");
    const d = await diagnosticsOf({ textDocument: { publishDiagnostics: { relatedInformation: true } } }, path.join(lt, "main.tf"), "bootstrap/encoding", child);
    expect(d.range).toEqual(range(22, 27, 22, 54));
    expect(d.relatedInformation).toEqual([
      { location: { uri: uri(child), range: range(8, 0, 8, 20) }, message: "var.user_data (variable)" },
      { location: { uri: uri(path.join(lt, "main.tf")), range: range(5, 16, 5, 34) }, message: "module.launch_template.user_data" },
      { location: { uri: uri(path.join(lt, "variables.tf")), range: range(38, 0, 38, 25) }, message: "var.bootstrap_data (variable)" },
    ]);
  });

  it("leaves it out when the client does not say it supports it", async () => {
    const d = await diagnosticsOf({ general: { positionEncodings: ["utf-16"] } }, path.join(pool, "main.tf"), "version/distro-suffix");
    expect(d.range).toEqual(range(22, 17, 22, 33));
    expect("relatedInformation" in d).toBe(false);
  });
});

/**
 * The benchmark corpus generator (bench/corpus.mjs): deterministic, big
 * enough for the targets in bench/run.mjs, every role and syntax present,
 * and every file valid HCL for our parser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { generateCorpus } from "../../bench/corpus.mjs";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { cleanup, tempDir } from "./helpers.js";

function moduleFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) moduleFiles(p, out);
    else if (/\.(tf|tofu)(\.json)?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

function digest(dir: string): string {
  const h = createHash("sha256");
  for (const f of moduleFiles(dir)) h.update(path.relative(dir, f)).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex");
}

describe("bench/corpus.mjs", () => {
  let base: string | undefined;
  let a = "";
  let b = "";
  let stats: { files: number; bytes: number; modules: number };

  beforeAll(() => {
    base = tempDir("corpus");
    a = path.join(base, "a");
    b = path.join(base, "b");
    stats = generateCorpus(a);
    generateCorpus(b);
  }, 120_000);
  afterAll(() => cleanup(base));

  it("writes the same bytes every time", () => {
    expect(digest(a)).toBe(digest(b));
  });

  it("has at least 3,000 module files and 10 MB of them, across all roles and syntaxes", () => {
    const files = moduleFiles(a);
    const bytes = files.reduce((n, f) => n + readFileSync(f).length, 0);
    expect(files.length).toBeGreaterThanOrEqual(3000);
    expect(bytes).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    expect(stats.files).toBeGreaterThanOrEqual(files.length);
    const dirs = new Set(files.map((f) => path.basename(path.dirname(f))));
    expect(dirs.size).toBe(stats.modules);
    for (const role of ["cluster", "machine", "machinepool"]) expect([...dirs].some((d) => d.endsWith(`-${role}-${d.slice(-3)}`)), role).toBe(true);
    expect(files.filter((f) => f.endsWith(".tf.json")).length).toBeGreaterThan(100);
    expect(files.filter((f) => f.endsWith(".tofu")).length).toBeGreaterThan(100);
    const text = files.filter((f) => f.endsWith(".tf")).map((f) => readFileSync(f, "utf8")).join("\n");
    for (const construct of ["dynamic \"", "<<-EOT", "<<-EOF", "%{ for ", "[for ", "{ for ", "lifecycle {", "locals {"]) {
      expect(text, construct).toContain(construct);
    }
  });

  it("is valid HCL throughout (no parser diagnostics)", () => {
    const bad: string[] = [];
    for (const f of moduleFiles(a)) {
      const r = parseHcl(readFileSync(f, "utf8"), f);
      if (r.diagnostics.length > 0) bad.push(`${path.relative(a, f)}: ${r.diagnostics[0]!.summary}`);
    }
    expect(bad).toEqual([]);
  });
});

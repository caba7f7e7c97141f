/**
 * Differential test of the native-syntax parser against HashiCorp's HCL
 * (hcl 2.23 compiled to WebAssembly in @cdktn/hcl2json).
 *
 * Thousands of seeded random programs, valid ones from the generator and
 * mutated ones (mostly invalid), go through both parsers. The verdicts must
 * agree: we report an error exactly when HCL does. For programs both accept,
 * block types, labels and attribute names must agree with hcl2json's JSON.
 * Every native file under fixtures/ and examples/ is checked the same way.
 * hcl2json's JSON is also fed back through our JSON-syntax parser, which
 * must find the same Terraform blocks and arguments (a round trip through
 * both syntaxes).
 *
 * hcl2json fails in two distinct ways: "parse config: ..." is HCL's parser
 * rejecting the text (what we compare against), while "convert to HCL: ..."
 * means the text parsed but hcl2json could not render some value as JSON
 * (it folds unary operators on literals, e.g. `-true`). For the latter only
 * the verdict "valid" is compared. No divergence is excluded.
 *
 * To reproduce one case: DIFF_CASE=<index> npx vitest run test/hcl/differential.test.ts
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { differences, hcl2json, makeCase } from "../gen/differential.js";
import { TRICKY_SNIPPETS } from "../gen/tricky-snippets.js";
import { findCaseDirs, moduleDir, readCase } from "../../scripts/fixture-modules.mjs";

const SEED = 20261129;
const CASES = 2400;
const ROOT = join(import.meta.dirname, "..", "..");

/** The file's text, or null if it disappeared since it was listed (concurrent edits). */
function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * The module files under fixtures/ and examples/ whose names match: a fixture
 * case that names a base module contributes the files of its built module
 * (so every file a fixture lints is read, not only those on disk).
 */
function moduleFilesMatching(pattern: RegExp): string[] {
  const based = findCaseDirs(join(ROOT, "fixtures")).filter((d) => readCase(d).base !== null);
  const inBased = (file: string): boolean => based.some((d) => file.startsWith(d + sep));
  return [
    ...filesMatching(join(ROOT, "fixtures"), pattern).filter((f) => !inBased(f)),
    ...based.flatMap((d) => filesMatching(moduleDir(d), pattern)),
    ...filesMatching(join(ROOT, "examples"), pattern),
  ];
}

function filesMatching(dir: string, pattern: RegExp): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries.sort()) {
    const full = join(dir, name);
    let isDir: boolean;
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      continue; // removed since listed
    }
    if (isDir) out.push(...filesMatching(full, pattern));
    else if (pattern.test(name)) out.push(full);
  }
  return out;
}

describe("native parser agrees with HashiCorp's HCL", () => {
  beforeAll(async () => {
    // Loading and starting the WebAssembly module takes a few seconds.
    await hcl2json.parse("warmup.tf", "a = 1\n");
  }, 300_000);

  it(`agrees on ${CASES} generated programs (seed ${SEED})`, async () => {
    const only = process.env.DIFF_CASE === undefined ? null : Number(process.env.DIFF_CASE);
    const failures: string[] = [];
    const kinds = new Map<string, number>();
    let rejected = 0;
    for (let i = 0; i < CASES; i++) {
      if (only !== null && i !== only) continue;
      const { text, kind } = makeCase(SEED, i);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      // The round trip needs generator output: a mutation can give a known
      // block type the wrong number of labels, which JSON cannot express.
      const { problems, weReject } = await differences("main.tf", text, kind === "valid");
      if (weReject) rejected++;
      if (problems.length > 0) {
        failures.push(`seed ${SEED} case ${i} (${kind}):\n  ${problems.slice(0, 5).join("\n  ")}\n--- input ---\n${text}\n-------------`);
      }
    }
    if (failures.length > 0) console.log(failures.slice(0, 10).join("\n\n"));
    expect(failures.length, failures[0] ?? "").toBe(0);
    if (only === null) {
      // The mix must exercise both outcomes, or the test proves little.
      expect(kinds.get("valid")).toBe(CASES / 3);
      expect(rejected).toBeGreaterThan(CASES / 3);
      expect(rejected).toBeLessThan(CASES);
    }
  }, 300_000);

  it(`agrees on ${TRICKY_SNIPPETS.length} hand-picked tricky inputs`, async () => {
    const failures: string[] = [];
    for (const [i, text] of TRICKY_SNIPPETS.entries()) {
      const { problems } = await differences("main.tf", text, false);
      if (problems.length > 0) failures.push(`snippet ${i} ${JSON.stringify(text)}: ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("agrees on every native file under fixtures/ and examples/", async () => {
    const files = moduleFilesMatching(/\.(tf|tofu)$/);
    const failures: string[] = [];
    for (const file of files) {
      const text = readIfPresent(file);
      if (text === null) continue;
      const { problems } = await differences(file, text, false);
      if (problems.length > 0) failures.push(`${relative(ROOT, file)}:\n  ${problems.join("\n  ")}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("reads every JSON configuration under fixtures/ and examples/ as JSON.parse does", () => {
    // JSON.parse is the oracle for the JSON text itself: our reader must
    // report a JSON syntax error exactly when JSON.parse throws.
    const files = moduleFilesMatching(/\.(tf|tofu)\.json$/);
    const failures: string[] = [];
    for (const file of files) {
      const text = readIfPresent(file);
      if (text === null) continue;
      let valid = true;
      try {
        JSON.parse(text.replace(/^\ufeff/, ""));
      } catch {
        valid = false;
      }
      const syntaxErrors = parseHcl(text, file).diagnostics.filter((d) => d.code === "json-syntax");
      if (valid !== (syntaxErrors.length === 0)) {
        failures.push(`${relative(ROOT, file)}: JSON.parse ${valid ? "accepts" : "rejects"}, we report ${syntaxErrors.map((d) => d.summary).join(", ") || "nothing"}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

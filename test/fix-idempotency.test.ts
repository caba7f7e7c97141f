/**
 * A second --fix run changes nothing: for every fixable rule of the registry
 * and every fixture case under fixtures/<rule-id>/ (so a new fixable rule is
 * covered as soon as it has fixtures), fix a copy to stability with the CLI's
 * fix loop, check the result parses whenever the case did, then fix again
 * and expect no change at all. Every fixable rule must have at least one case
 * where its fix applies.
 */
import { describe, expect, it } from "vitest";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_RULES } from "../rules/index.js";
import { fixOnDisk } from "../src/cli/fix-run.js";
import { parseModuleFile as parseHcl } from "../src/terraform/parse.js";
import { type LintOptions } from "../src/lint/engine.js";
import { engineOptions, lintModule } from "./helpers/lint.js";
import type { Role } from "../src/contract/roles-api.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const MODULE_FILE = /\.(tf|tofu)(\.json)?$/;

function casesOf(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir).sort()) {
    const p = path.join(dir, entry);
    if (entry === "expected.json") out.push(dir);
    else if (lstatSync(p).isDirectory()) casesOf(p, out);
  }
  return out;
}

/** Every module file under `dir` (relative path -> text). */
function snapshot(dir: string, rel = "", out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${entry}` : entry;
    const st = lstatSync(path.join(dir, r));
    if (st.isDirectory()) snapshot(dir, r, out);
    else if (MODULE_FILE.test(entry)) out.set(r, readFileSync(path.join(dir, r), "utf8"));
  }
  return out;
}

function parses(file: string, text: string): boolean {
  return parseHcl(text.replace(/^\ufeff/, ""), file).diagnostics.every((d) => d.severity !== "error");
}

function fixRun(dir: string, opts: LintOptions): number {
  const first = lintModule(dir, opts);
  if (first.kind !== "report") throw new Error(first.message);
  return fixOnDisk(dir, engineOptions(opts), first, "all").applied;
}

const fixable = ALL_RULES.filter((r) => r.fixable);

describe("--fix is idempotent on the fixtures of every fixable rule", () => {
  it("the registry has fixable rules, each with fixtures", () => {
    expect(fixable.map((r) => r.id).sort()).toEqual(
      ["input/sensitive", "output/provider-id-list-shape", "pool/autoscaling-ignore-changes", "syntax/one-line-block"],
    );
    for (const r of fixable) expect(casesOf(path.join(FIXTURES, ...r.id.split("/"))).length).toBeGreaterThan(0);
  });

  for (const rule of fixable) {
    it(rule.id, () => {
      let fixedCases = 0;
      for (const src of casesOf(path.join(FIXTURES, ...rule.id.split("/")))) {
        const expected = JSON.parse(readFileSync(path.join(src, "expected.json"), "utf8")) as { role?: Role; rules?: string[] | "all" };
        const only = expected.rules === "all" ? undefined : (expected.rules ?? [rule.id]);
        const opts: LintOptions = { ...(expected.role ? { role: expected.role } : {}), ...(only ? { only } : {}), now: new Date("2026-01-01T00:00:00Z") };
        const work = mkdtempSync(path.join(tmpdir(), "tfcapi-idem-"));
        try {
          cpSync(moduleDirOf(src), work, { recursive: true });
          const before = snapshot(work);
          const applied = fixRun(work, opts);
          const after = snapshot(work);
          const name = path.relative(FIXTURES, src);
          if (applied > 0) fixedCases++;
          for (const [file, text] of after) {
            if (parses(file, before.get(file)!)) expect(parses(file, text), `${name}/${file} parses after --fix`).toBe(true);
          }
          // The second run: nothing to apply, no byte changed.
          expect(fixRun(work, opts), `${name}: second run applies nothing`).toBe(0);
          expect(snapshot(work), `${name}: second run changes nothing`).toEqual(after);
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      }
      expect(fixedCases, `${rule.id}: at least one fixture case where its fix applies`).toBeGreaterThan(0);
    });
  }
});

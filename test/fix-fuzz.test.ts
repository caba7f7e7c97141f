/**
 * Fuzzing the fix pipeline: real-looking modules (with fixable findings)
 * are mutated the way files break while being edited (truncation, a deleted
 * span, a duplicated line, an unclosed string, an unclosed or lost brace),
 * then fixed to stability with every rule on. Seeded, bounded: the same
 * mutants on every run, a few seconds in all.
 *
 * For every mutant: nothing throws; every applied edit lies inside the
 * top-level block that holds its finding; the result parses whenever the
 * mutant did; the CLI's fix loop gives the same result; and a second run
 * changes nothing.
 */
import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { fixOnDisk } from "../src/cli/fix-run.js";
import type { Role } from "../src/contract/roles-api.js";
import { parseModuleFile as parseHcl } from "../src/terraform/parse.js";
import { type LintOptions } from "../src/lint/engine.js";
import { engineOptions, lintModule } from "./helpers/lint.js";
import { fixesByFile, fixFileText, MAX_FIX_PASSES } from "../src/lint/apply-fixes.js";
import type { Finding } from "../src/lint/types.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";
import { mulberry32 } from "../scripts/mulberry32.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MUTANTS_PER_MODULE = 12;

/** Modules with findings of every fixable rule, and the role to lint them as. */
const MODULES: { dir: string; role: Role; edit?: (file: string, text: string) => string }[] = [
  {
    dir: "fixtures/cli/machine-clean",
    role: "machine",
    edit: (f, t) => (f === "variables.tf" ? t.replace("  type      = string\n  sensitive = true\n", "  type = string\n") : t),
  },
  { dir: "examples/broken-machinepool", role: "machinepool" },
  { dir: "fixtures/pool/autoscaling-ignore-changes/aws-missing-lifecycle", role: "machinepool" },
  { dir: "fixtures/syntax/one-line-block/several-in-one-file", role: "machinepool" },
  { dir: "fixtures/output/provider-id-list-shape/unsorted-distinct", role: "machinepool" },
];


type Mutation = (text: string, rnd: () => number) => string;

const pick = (rnd: () => number, n: number): number => Math.floor(rnd() * n);

const MUTATIONS: Record<string, Mutation> = {
  truncate: (t, rnd) => t.slice(0, pick(rnd, t.length)),
  deleteSpan: (t, rnd) => {
    const at = pick(rnd, t.length);
    return t.slice(0, at) + t.slice(Math.min(t.length, at + 1 + pick(rnd, 40)));
  },
  duplicateLine: (t, rnd) => {
    const lines = t.split("\n");
    const i = pick(rnd, lines.length);
    lines.splice(i, 0, lines[i]!);
    return lines.join("\n");
  },
  unclosedString: (t, rnd) => {
    const quotes = [...t.matchAll(/"/g)].map((m) => m.index!);
    if (quotes.length === 0) return t;
    const at = quotes[pick(rnd, quotes.length)]!;
    return t.slice(0, at) + t.slice(at + 1);
  },
  unclosedBrace: (t, rnd) => {
    const braces = [...t.matchAll(/\}/g)].map((m) => m.index!);
    if (braces.length === 0) return t;
    const at = braces[pick(rnd, braces.length)]!;
    return t.slice(0, at) + t.slice(at + 1);
  },
  extraBrace: (t, rnd) => {
    const at = pick(rnd, t.length);
    return `${t.slice(0, at)}{${t.slice(at)}`;
  },
};

function moduleFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => /\.(tf|tofu)(\.json)?$/.test(f)).sort();
}

function snapshot(dir: string): Map<string, string> {
  return new Map(moduleFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
}

function parses(file: string, text: string): boolean {
  return parseHcl(text, file).diagnostics.every((d) => d.severity !== "error");
}

/** The top-level block of `text` that holds [start, end). */
function topBlock(file: string, text: string, start: number, end: number): { start: number; end: number } | null {
  for (const b of parseHcl(text, file).file.body.blocks) {
    if (b.range.start.offset <= start && end <= b.range.end.offset) return { start: b.range.start.offset, end: b.range.end.offset };
  }
  return null;
}

/** Fix to stability with the library pieces the CLI uses, checking every applied edit. */
function fixChecked(dir: string, opts: LintOptions, label: string): void {
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const outcome = lintModule(dir, opts);
    if (outcome.kind !== "report") return;
    const refused: Finding[] = [];
    const byFile = fixesByFile(outcome.report.findings, refused, "all");
    let changed = false;
    for (const [file, fixes] of byFile) {
      const text = outcome.report.sources.get(file)!;
      const result = fixFileText(file, text, fixes);
      if (result.kind !== "fixed") continue;
      for (const f of outcome.report.findings) {
        if (!f.fix || f.suppressed || refused.includes(f) || f.fix.edits[0]?.file !== file) continue;
        const block = topBlock(file, text, f.range.start.offset, f.range.end.offset);
        for (const e of f.fix.edits) {
          expect(block !== null && e.start >= block.start && e.end <= block.end, `${label}: ${f.ruleId} edits ${file}@${e.start}-${e.end} outside its finding's block`).toBe(true);
        }
      }
      writeFileSync(path.join(dir, file), result.text);
      changed = true;
    }
    if (!changed) return;
  }
}

function cliFix(dir: string, opts: LintOptions): number {
  const first = lintModule(dir, opts);
  if (first.kind !== "report") return 0;
  return fixOnDisk(dir, engineOptions(opts), first, "all").applied;
}

describe("fix pipeline fuzz", () => {
  it(`${MODULES.length * MUTANTS_PER_MODULE} mutants: no crash, no edit outside a finding's block, parses when the input did, idempotent`, () => {
    const kinds = Object.keys(MUTATIONS);
    const scratch = mkdtempSync(path.join(tmpdir(), "tfcapi-fuzz-"));
    let fixedMutants = 0;
    let brokenMutants = 0;
    try {
      MODULES.forEach((m, mi) => {
        const rnd = mulberry32(0x5eed + mi);
        const src = moduleDirOf(path.join(ROOT, m.dir));
        const files = moduleFiles(src);
        for (let k = 0; k < MUTANTS_PER_MODULE; k++) {
          const kind = kinds[k % kinds.length]!;
          const target = files[pick(rnd, files.length)]!;
          const label = `${m.dir} #${k} ${kind} ${target}`;
          const a = path.join(scratch, `${mi}-${k}-a`);
          const b = path.join(scratch, `${mi}-${k}-b`);
          for (const d of [a, b]) {
            cpSync(src, d, { recursive: true });
            for (const f of files) {
              let text = readFileSync(path.join(src, f), "utf8");
              if (m.edit) text = m.edit(f, text);
              if (f === target) text = MUTATIONS[kind]!(text, mulberry32(0xf00d + mi * 1000 + k));
              writeFileSync(path.join(d, f), text);
            }
          }
          const opts: LintOptions = { role: m.role, now: new Date("2026-01-01T00:00:00Z") };
          const before = snapshot(a);
          const inputParses = [...before].every(([f, t]) => parses(f, t));
          if (!inputParses) brokenMutants++;

          fixChecked(a, opts, label);
          const after = snapshot(a);
          if ([...after].some(([f, t]) => t !== before.get(f))) fixedMutants++;
          if (inputParses) for (const [f, t] of after) expect(parses(f, t), `${label}: ${f} parses after the fixes`).toBe(true);
          // Files with syntax errors are never touched.
          for (const [f, t] of before) if (!parseHcl(t, f).diagnostics.every((d) => d.severity !== "error" || d.code === "one-line-block")) expect(after.get(f), `${label}: ${f}`).toBe(t);

          // The CLI's loop gives the same files, and a second run changes nothing.
          cliFix(b, opts);
          expect(snapshot(b), `${label}: CLI fix loop`).toEqual(after);
          expect(cliFix(b, opts), `${label}: second run`).toBe(0);
          expect(snapshot(b), `${label}: second run`).toEqual(after);
          rmSync(a, { recursive: true, force: true });
          rmSync(b, { recursive: true, force: true });
        }
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    // The mutants exercise both paths: broken inputs, and inputs the fixes changed.
    expect(brokenMutants).toBeGreaterThan(10);
    expect(fixedMutants).toBeGreaterThan(10);
  }, 60_000);
});

/**
 * The syntax, output and autoscaling rules on damaged input: prefixes of a
 * few realistic files (cut at many points, so most end mid-token or
 * mid-block) and copies with one character deleted must lint without
 * throwing, every finding must lie inside its
 * file, and every fix must apply cleanly (edits in range, not overlapping).
 */
import { afterAll, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "../src/lint/engine.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const RULES = [
  "syntax/parse",
  "syntax/one-line-block",
  "output/required",
  "output/health",
  "output/reserved",
  "output/endpoint-never-set",
  "output/provider-id-list-shape",
  "pool/autoscaling-ignore-changes",
];

const CASES: { fixture: string; file: string; role: "cluster" | "machinepool"; step: number }[] = [
  { fixture: "pool/autoscaling-ignore-changes/eks-desired-size-managed", file: "main.tf", role: "machinepool", step: 13 },
  { fixture: "pool/autoscaling-ignore-changes/aws-ignore-list-multiline", file: "main.tf", role: "machinepool", step: 29 },
  { fixture: "syntax/one-line-block/several-in-one-file", file: "settings.tf", role: "machinepool", step: 5 },
  { fixture: "syntax/one-line-block/crlf", file: "image.tf", role: "machinepool", step: 7 },
  { fixture: "output/provider-id-list-shape/json-filter-running", file: "outputs.tf.json", role: "machinepool", step: 19 },
  { fixture: "output/endpoint-never-set/constant-condition", file: "outputs.tf", role: "cluster", step: 17 },
];

const work = mkdtempSync(path.join(tmpdir(), "tfcapi-robust-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("rules on truncated files", () => {
  for (const c of CASES) {
    it(`${c.fixture}/${c.file}`, () => {
      const dir = path.join(work, c.fixture.replace(/\//g, "_"));
      cpSync(path.join(FIXTURES, c.fixture), dir, { recursive: true });
      const original = readFileSync(path.join(dir, c.file), "utf8");
      let runs = 0;
      const variants: string[] = [];
      for (let cut = 0; cut <= original.length; cut += c.step) {
        variants.push(original.slice(0, cut), original.slice(0, cut) + original.slice(cut + 1));
      }
      for (const text of variants) {
        writeFileSync(path.join(dir, c.file), text);
        const outcome = lintModule(dir, { role: c.role, only: RULES, now: new Date("2026-01-01T00:00:00Z") });
        expect(outcome.kind).toBe("report");
        if (outcome.kind !== "report") continue;
        runs++;
        for (const f of outcome.report.findings) {
          if (f.file === "") {
            expect(f.range.start.line).toBe(0);
            continue;
          }
          const fileText = f.file === c.file ? text : readFileSync(path.join(dir, f.file), "utf8");
          expect(f.range.start.offset).toBeLessThanOrEqual(f.range.end.offset);
          expect(f.range.end.offset).toBeLessThanOrEqual(fileText.length);
          for (const e of f.fix?.edits ?? []) {
            expect(e.start).toBeGreaterThanOrEqual(0);
            expect(e.start).toBeLessThanOrEqual(e.end);
            expect(e.end).toBeLessThanOrEqual((e.file === c.file ? text : readFileSync(path.join(dir, e.file), "utf8")).length);
          }
        }
      }
      expect(runs).toBe(variants.length);
    });
  }
});

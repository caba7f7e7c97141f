/**
 * Every rule on damaged input: prefixes of realistic fixture files (cut at
 * many points, so most end mid-token or mid-block) and copies with one
 * character deleted must lint without throwing, every finding must lie inside
 * its file, and every fix edit must stay inside the file it edits.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import { ALL_RULES } from "../rules/index.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const RULES = ALL_RULES.map((r) => r.id);

const CASES: { fixture: string; file: string; role: "cluster" | "machine" | "machinepool"; step: number }[] = [
  { fixture: "pool/autoscaling-ignore-changes/eks-desired-size-managed", file: "main.tf", role: "machinepool", step: 13 },
  { fixture: "pool/autoscaling-ignore-changes/aws-ignore-list-multiline", file: "main.tf", role: "machinepool", step: 29 },
  { fixture: "syntax/one-line-block/several-in-one-file", file: "settings.tf", role: "machinepool", step: 5 },
  { fixture: "syntax/one-line-block/crlf", file: "image.tf", role: "machinepool", step: 7 },
  { fixture: "output/provider-id-list-shape/json-filter-running", file: "outputs.tf.json", role: "machinepool", step: 19 },
  { fixture: "output/endpoint-never-set/constant-condition", file: "outputs.tf", role: "cluster", step: 17 },
  { fixture: "bootstrap/encoding/mime-multipart-or-unchanged", file: "main.tf", role: "machinepool", step: 11 },
  { fixture: "bootstrap/encoding/google-metadata-unchanged", file: "main.tf", role: "machine", step: 13 },
  { fixture: "bootstrap/encoding/json-launch-template-double-encoded", file: "main.tf.json", role: "machinepool", step: 7 },
  { fixture: "pool/bootstrap-replaces-instances/null-resource-triggers-via-local", file: "main.tf", role: "machinepool", step: 17 },
  { fixture: "pool/min-max-unpinned/azure-dynamic-profile-gated", file: "main.tf", role: "machinepool", step: 19 },
  { fixture: "cluster/gate-on-initialized/gated-through-local", file: "addons.tf", role: "cluster", step: 13 },
  { fixture: "cluster/endpoint-prevent-destroy/load-balancer-unprotected", file: "loadbalancer.tf", role: "cluster", step: 11 },
  { fixture: "cluster/sg-control-plane-ports/oci-nsg-supervisor-missing", file: "security.tf", role: "cluster", step: 23 },
  { fixture: "cluster/lb-registration-in-cluster/openstack-members-from-data-source", file: "loadbalancer.tf", role: "cluster", step: 29 },
  { fixture: "output/endpoint-gated-on-initialized/condition-on-output", file: "outputs.tf", role: "cluster", step: 5 },
];

const work = mkdtempSync(path.join(tmpdir(), "tfcapi-robust-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("every rule on truncated files", () => {
  for (const c of CASES) {
    it(`${c.fixture}/${c.file}`, () => {
      const dir = path.join(work, c.fixture.replace(/\//g, "_"));
      cpSync(moduleDirOf(path.join(FIXTURES, c.fixture)), dir, { recursive: true });
      const original = readFileSync(path.join(dir, c.file), "utf8");
      const variants: string[] = [];
      for (let cut = 0; cut <= original.length; cut += c.step) {
        variants.push(original.slice(0, cut), original.slice(0, cut) + original.slice(cut + 1));
      }
      const textOf = (file: string, current: string): string =>
        file === c.file ? current : readFileSync(path.join(dir, file), "utf8");
      let runs = 0;
      for (const text of variants) {
        writeFileSync(path.join(dir, c.file), text);
        const outcome = lintModule(dir, { role: c.role, only: RULES, now: new Date("2026-01-01T00:00:00Z") });
        expect(outcome.kind).toBe("report");
        if (outcome.kind !== "report") continue;
        runs++;
        for (const f of outcome.report.findings) {
          expect(RULES).toContain(f.ruleId);
          if (f.file === "") {
            expect(f.range.start.line).toBe(0);
            continue;
          }
          expect(f.range.start.offset).toBeLessThanOrEqual(f.range.end.offset);
          expect(f.range.end.offset).toBeLessThanOrEqual(textOf(f.file, text).length);
          for (const e of f.fix?.edits ?? []) {
            expect(e.start).toBeGreaterThanOrEqual(0);
            expect(e.start).toBeLessThanOrEqual(e.end);
            expect(e.end).toBeLessThanOrEqual(textOf(e.file, text).length);
          }
        }
      }
      expect(runs).toBe(variants.length);
    });
  }
});

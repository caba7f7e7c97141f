/**
 * Realistic CAPTF modules (fixtures/realistic), the contract's own minimal
 * skeletons (fixtures/skeletons) and the shipped examples are linted with
 * EVERY rule, as `--strict` would: `findings` lists the errors and warnings
 * exactly (a clean module has none, so any there is either a false positive
 * of a rule or a real mistake in the module) and `info`, when present, the
 * info findings (they never fail a run; the skeletons have no
 * required_version, which module/version notes).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import type { Role } from "../src/contract/roles-api.js";
import type { ExpectedFinding } from "./helpers/expected.js";
import { toFixtureFinding } from "../src/testing.js";
import { moduleDir, readCase } from "../scripts/fixture-modules.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NOW = new Date("2026-01-01T00:00:00Z");


interface Expected {
  role: Role;
  rules: "all";
  /** Errors and warnings. */
  findings: ExpectedFinding[];
  /** Info findings (default none). */
  info?: ExpectedFinding[];
}

interface Case {
  name: string;
  dir: string;
  expected: Expected;
}

function casesUnder(base: string): Case[] {
  const abs = path.join(ROOT, base);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .sort()
    .filter((entry) => existsSync(path.join(abs, entry, "expected.json")))
    .map((entry) => ({
      name: `${base}/${entry}`,
      dir: moduleDir(path.join(abs, entry)),
      expected: readCase(path.join(abs, entry)).expected as unknown as Expected,
    }));
}

function lintAll(dir: string, role?: Role) {
  const outcome = lintModule(dir, { ...(role ? { role } : {}), now: NOW });
  if (outcome.kind !== "report") throw new Error(`lint failed: ${outcome.message}`);
  return outcome;
}

function project(findings: ReturnType<typeof lintAll>["report"]["findings"]): ExpectedFinding[] {
  return findings.map((f) => {
    const { message: _message, ...rest } = toFixtureFinding(f);
    return rest;
  });
}

const CASES = [...casesUnder("fixtures/realistic"), ...casesUnder("fixtures/skeletons")];

describe("realistic modules and skeletons, every rule", () => {
  it("has the realistic corpus and the three skeletons", () => {
    const names = CASES.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "fixtures/realistic/aws-cluster",
        "fixtures/realistic/aws-cluster-kubevip",
        "fixtures/realistic/aws-cluster-rke2",
        "fixtures/realistic/aws-machine",
        "fixtures/realistic/aws-machine-json",
        "fixtures/realistic/aws-machine-kube-vip",
        "fixtures/realistic/aws-machine-rke2",
        "fixtures/realistic/aws-machinepool",
        "fixtures/realistic/aws-machinepool-split",
        "fixtures/realistic/azure-cluster",
        "fixtures/realistic/azure-cluster-rke2",
        "fixtures/realistic/azure-machine",
        "fixtures/realistic/azure-machinepool",
        "fixtures/realistic/gcp-cluster",
        "fixtures/realistic/gcp-cluster-foreach",
        "fixtures/realistic/gcp-machine",
        "fixtures/realistic/gcp-machinepool",
        "fixtures/realistic/hcloud-cluster",
        "fixtures/realistic/hcloud-machine",
        "fixtures/realistic/oci-cluster",
        "fixtures/realistic/oci-cluster-foreach",
        "fixtures/realistic/oci-machine",
        "fixtures/realistic/oci-machine-rke2",
        "fixtures/realistic/oci-machinepool",
        "fixtures/realistic/openstack-cluster",
        "fixtures/realistic/openstack-cluster-foreach",
        "fixtures/realistic/openstack-cluster-kube-vip",
        "fixtures/realistic/openstack-cluster-resource-foreach",
        "fixtures/realistic/openstack-machine",
        "fixtures/realistic/openstack-machine-kube-vip",
        "fixtures/realistic/openstack-machine-rke2",
        "fixtures/realistic/openstack-machinepool",
        "fixtures/skeletons/cluster",
        "fixtures/skeletons/machine",
        "fixtures/skeletons/machinepool",
      ]),
    );
    for (const c of CASES) expect(c.expected.rules, c.name).toBe("all");
  });

  for (const c of CASES) {
    it(`${c.name} (${c.expected.role}): findings match exactly`, () => {
      const outcome = lintAll(c.dir, c.expected.role);
      expect(outcome.report.role).toBe(c.expected.role);
      expect(outcome.readErrors).toEqual([]);
      const failing = outcome.report.findings.filter((f) => f.severity !== "info");
      const info = outcome.report.findings.filter((f) => f.severity === "info");
      expect(project(failing)).toEqual(c.expected.findings);
      expect(project(info)).toEqual(c.expected.info ?? []);
      expect(outcome.report.findings.filter((f) => f.suppressed)).toEqual([]);
    });

    it(`${c.name}: the role is detected as ${c.expected.role} without --role`, () => {
      const outcome = lintAll(c.dir);
      expect(outcome.report.role).toBe(c.expected.role);
      expect(outcome.report.roleSource).toBe("detected");
    });
  }
});

/** The examples the README's quick start lints. */
const EXAMPLES: { dir: string; role: Role; findings: ExpectedFinding[] }[] = [
  { dir: "examples/cluster-aws", role: "cluster", findings: [] },
  { dir: "examples/machine-aws", role: "machine", findings: [] },
  { dir: "examples/machinepool-aws", role: "machinepool", findings: [] },
];

describe("examples", () => {
  for (const ex of EXAMPLES) {
    it(`${ex.dir} is clean under every rule`, () => {
      const outcome = lintAll(path.join(ROOT, ex.dir));
      expect(outcome.report.role).toBe(ex.role);
      expect(project(outcome.report.findings)).toEqual(ex.findings);
    });
  }

  it("the clean examples are the realistic AWS modules: those cases are built from them, unchanged", () => {
    const pairs: [string, string][] = [
      ["examples/cluster-aws", "fixtures/realistic/aws-cluster"],
      ["examples/machine-aws", "fixtures/realistic/aws-machine"],
      ["examples/machinepool-aws", "fixtures/realistic/aws-machinepool"],
    ];
    for (const [example, fixture] of pairs) {
      const c = readCase(path.join(ROOT, fixture));
      expect({ base: c.base, remove: c.remove, edits: c.edits }, fixture).toEqual({ base: path.join(ROOT, example), remove: [], edits: [] });
      expect(readdirSync(path.join(ROOT, fixture)), fixture).toEqual(["expected.json"]);
    }
  });
});

/**
 * examples/broken-machinepool exists to show the rules off: every rule it
 * was written to break must report it once that rule is registered, and
 * nothing else may fire (anything else would be a false positive there).
 */
const BROKEN_SHOWS = [
  "syntax/one-line-block",
  "input/sensitive",
  "input/default",
  "input/reserved",
  "input/user-variable-default",
  "module/backend",
  "version/distro-suffix",
  "drift/non-idempotent",
  "output/provider-id-list-shape",
  "output/health-shape",
  "pool/autoscaling-ignore-changes",
  "pool/min-max-unpinned",
  "pool/replicas-output",
  "pool/node-labels-unused",
  "pool/bootstrap-replaces-instances",
  "pool/version-no-roll",
  "bootstrap/encoding",
];

describe("examples/broken-machinepool", () => {
  it("breaks exactly the rules it was written to break (those registered so far)", async () => {
    const { ALL_RULES } = await import("../rules/index.js");
    const registered = new Set(ALL_RULES.map((r) => r.id));
    const outcome = lintAll(path.join(ROOT, "examples/broken-machinepool"));
    expect(outcome.report.role).toBe("machinepool");
    const fired = [...new Set(outcome.report.findings.map((f) => f.ruleId))].sort();
    expect(fired).toEqual(BROKEN_SHOWS.filter((id) => registered.has(id)).sort());
  });
});

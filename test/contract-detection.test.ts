/**
 * Role detection on evidence only a CAPTF module has (issue 17, item 1):
 * contract inputs weigh more than outputs and common names; a role chosen
 * on too little evidence, or on a wrapper's re-exported outputs, is not
 * enough to lint a module nobody named. Every module shape the repository
 * ships is still detected with its role, on enough evidence.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { detectRole, identifyingInputs } from "../src/contract/roles.js";
import type { Role } from "../src/contract/roles-api.js";
import { describeDetection } from "../src/lint/engine.js";
import { lintModule } from "./helpers/lint.js";
import { loadModule } from "../src/terraform/load.js";
import { REPO, tree } from "./cli/helpers.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";

const cliFixture = (name: string): string => path.join(REPO, "fixtures", "cli", name);
const detect = (dir: string) => detectRole(loadModule(dir).root);

describe("detectRole: ordinary modules are not taken for role modules", () => {
  it("a GKE node-pool module with autoscaling and node_labels variables: machinepool on too little evidence", () => {
    expect(detect(cliFixture("gke-node-pool"))).toEqual({
      role: "machinepool",
      evidence: [
        'machinepool input "node_labels" (variables.tf:46, a common name)',
        'machinepool input "autoscaling" (variables.tf:52, a common name)',
      ],
      enough: false,
      weak: { kind: "weak" },
    });
  });

  it("an Aurora module with a replicas variable and an instances output: machinepool on too little evidence", () => {
    expect(detect(cliFixture("aurora-postgres"))).toEqual({
      role: "machinepool",
      evidence: ['machinepool input "replicas" (variables.tf:20, a common name)', 'machinepool output "instances" (outputs.tf:13)'],
      enough: false,
      weak: { kind: "weak" },
    });
  });

  it("a test wrapper calling ../.. and re-exporting its outputs is a wrapper, not a machine module", () => {
    expect(detect(cliFixture("test-wrapper"))).toEqual({
      role: "machine",
      evidence: ['machine output "addresses" (main.tf:28)', 'machine output "failure_domain" (main.tf:32)', 'machine output "interruptible" (main.tf:36)'],
      enough: false,
      weak: { kind: "wrapper", source: "../.." },
    });
  });

  it("the wrapper note needs a local module call: outputs alone are merely weak", () => {
    const dir = tree({ "outputs.tf": 'output "interruptible" {\n  value = false\n}\n', "main.tf": 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.8.1"\n}\n' });
    expect(detect(dir)).toEqual({ role: "machine", evidence: ['machine output "interruptible" (outputs.tf:1)'], enough: false, weak: { kind: "weak" } });
  });
});

describe("detectRole: what is enough", () => {
  it("the clean machine module: identifying inputs first, then reserved inputs, common names, outputs", () => {
    expect(detect(cliFixture("machine-clean"))).toEqual({
      role: "machine",
      evidence: [
        'machine input "machine_name" (variables.tf:24)',
        'machine input "bootstrap_data" (variables.tf:28)',
        'machine input "bootstrap_format" (variables.tf:33)',
        'reserved input "captf_contract" (variables.tf:3)',
        'reserved input "captf_cluster" (variables.tf:7)',
        'reserved input "captf_object" (variables.tf:11)',
        'reserved input "captf_cluster_outputs" (variables.tf:15)',
        'reserved input "captf_tags" (variables.tf:20)',
        'machine input "failure_domain" (variables.tf:37, a common name)',
        'machine input "control_plane" (variables.tf:47, a common name)',
        'machine output "addresses" (outputs.tf:5)',
        'machine output "failure_domain" (outputs.tf:12)',
        'machine output "interruptible" (outputs.tf:16)',
      ],
      enough: true,
    });
  });

  it("one reserved captf_* input is enough; so are two identifying inputs; one is not", () => {
    const reserved = tree({ "main.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\noutput "provider_id_list" {\n  value = []\n}\n' });
    expect(detect(reserved)).toEqual({ role: "machinepool", evidence: ['reserved input "captf_tags" (main.tf:1)', 'machinepool output "provider_id_list" (main.tf:5)'], enough: true });
    const two = tree({ "main.tf": 'variable "machine_name" {\n  type = string\n}\n\nvariable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}\n' });
    expect(detect(two)).toEqual({ role: "machine", evidence: ['machine input "machine_name" (main.tf:1)', 'machine input "bootstrap_data" (main.tf:5)'], enough: true });
    const one = tree({ "main.tf": 'variable "machine_name" {\n  type = string\n}\n' });
    expect(detect(one)).toEqual({ role: "machine", evidence: ['machine input "machine_name" (main.tf:1)'], enough: false, weak: { kind: "weak" } });
  });

  it("common names never add up to enough, however many", () => {
    const dir = tree({
      "variables.tf": ["replicas", "autoscaling", "node_labels", "failure_domains", "kubernetes_version"].map((n) => `variable "${n}" {}\n`).join("\n"),
      "outputs.tf": 'output "instances" {\n  value = []\n}\n\noutput "replicas" {\n  value = 0\n}\n',
    });
    const d = detect(moduleDirOf(dir));
    expect([d.role, d.role !== null && d.enough]).toEqual(["machinepool", false]);
  });

  it("an input weighs more than an output when choosing the role", () => {
    // machine_name (an input, 2 points) against instances (an output, 1 point): machine, not a tie.
    const dir = tree({ "main.tf": 'variable "machine_name" {\n  type = string\n}\n\noutput "instances" {\n  value = []\n}\n' });
    expect(detect(dir)).toEqual({ role: "machine", evidence: ['machine input "machine_name" (main.tf:1)'], enough: false, weak: { kind: "weak" } });
  });

  it("the identifying inputs of each role", () => {
    expect(Object.fromEntries((["cluster", "machine", "machinepool"] as const).map((r) => [r, identifyingInputs(r)]))).toEqual({
      cluster: ["control_plane_initialized", "cluster_network"],
      machine: ["machine_name", "bootstrap_data", "bootstrap_format"],
      machinepool: ["machinepool_name", "bootstrap_data", "bootstrap_format", "cluster_failure_domains"],
    });
  });
});

describe("lintModule: requireRoleEvidence", () => {
  it("a module found on too little evidence is a usage-error with noRole and a skip reason; named directly it is linted", () => {
    const found = lintModule(cliFixture("gke-node-pool"), { requireRoleEvidence: true, ruleSet: [] });
    expect(found).toEqual({
      kind: "usage-error",
      message:
        'not linted: too little evidence of a machinepool module: none of the reserved captf_* inputs and fewer than two of machinepool_name, bootstrap_data, bootstrap_format, cluster_failure_domains (found: machinepool input "node_labels" (variables.tf:46, a common name); machinepool input "autoscaling" (variables.tf:52, a common name)); pass --role cluster|machine|machinepool',
      evidence: ['machinepool input "node_labels" (variables.tf:46, a common name)', 'machinepool input "autoscaling" (variables.tf:52, a common name)'],
      noRole: true,
      skip: "too little evidence of a machinepool module: none of the reserved captf_* inputs and fewer than two of machinepool_name, bootstrap_data, bootstrap_format, cluster_failure_domains",
    });
    const named = lintModule(cliFixture("gke-node-pool"), { ruleSet: [] });
    expect(named.kind === "report" ? [named.report.role, named.report.roleSource] : named).toEqual(["machinepool", "detected"]);
    const wrapper = lintModule(cliFixture("test-wrapper"), { requireRoleEvidence: true, ruleSet: [] });
    expect(wrapper.kind === "usage-error" ? wrapper.skip : wrapper.kind).toBe('a wrapper of the local module "../.." that declares none of the contract\'s inputs');
    // A role set by --role or the config needs no evidence.
    const configured = lintModule(cliFixture("aurora-postgres"), { requireRoleEvidence: true, configRole: { role: "machinepool", origin: ".tfcapi-lint.hcl:1:8" }, ruleSet: [] });
    expect(configured.kind === "report" ? configured.report.roleEvidence : configured).toEqual(['role = "machinepool" (.tfcapi-lint.hcl:1:8)']);
  });

  it("a module with a file that fails to parse is linted on the role alone: what is missing may be in that file", () => {
    const dir = tree({ "variables.tf": 'variable "machine_name" {\n  type = string\n}\n', "broken.tf": 'resource "hcloud_server" "node" {\n  name = \n' });
    const out = lintModule(dir, { requireRoleEvidence: true, only: ["syntax/parse"] });
    expect(out.kind === "report" ? [out.report.role, out.report.findings.map((f) => `${f.ruleId} ${f.file}:${f.range.start.line}`)] : out).toEqual(["machine", ["syntax/parse broken.tf:2"]]);
    expect(describeDetection(dir)).toEqual({
      role: "machine",
      evidence: ['machine input "machine_name" (variables.tf:1)'],
      whenNamed: "lint",
      whenFound: "lint",
      summary: "machine on too little evidence, but a file fails to parse (it may hide the rest): linted both when named directly and when found by --recursive",
    });
  });

  it("no role at all, named directly: the error names the contract declarations it found", () => {
    const dir = tree({ "main.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\noutput "health" {\n  value = { state = "running", healthy = true }\n}\n' });
    expect(lintModule(dir, { ruleSet: [] })).toEqual({
      kind: "usage-error",
      message:
        'cannot tell which role the module implements: it declares none of the role-specific inputs or outputs (it declares only reserved input "captf_tags" (main.tf:1); contract output "health" (main.tf:5)); pass --role cluster|machine|machinepool',
      evidence: ['reserved input "captf_tags" (main.tf:1)', 'contract output "health" (main.tf:5)'],
      noRole: true,
      skip: "no CAPTF role detected",
    });
  });
});

/** Every directory under `dir` holding an expected.json (fixture cases). */
function cases(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (e === "expected.json") out.push(dir);
    else if (lstatSync(p).isDirectory() && e !== "node_modules" && e !== ".terraform") cases(p, out);
  }
  return out;
}

describe("every module shape the repository ships is still detected, on enough evidence", () => {
  it("fixture cases (with the role their expected.json names, when it names one)", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const dir of cases(path.join(REPO, "fixtures"))) {
      const rel = path.relative(REPO, dir);
      if (rel.startsWith(`fixtures${path.sep}cli`)) continue;
      const expected = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as { role?: Role };
      const d = detect(moduleDirOf(dir));
      checked++;
      if (d.role === null || !d.enough || (expected.role !== undefined && d.role !== expected.role)) wrong.push(`${rel}: ${d.role ?? "none"}${d.role ? ` enough=${d.enough}` : ""}`);
    }
    expect(checked).toBeGreaterThan(400);
    expect(wrong).toEqual([]);
  });

  it("realistic modules, skeletons and examples", () => {
    const shapes: [string, Role][] = [];
    for (const name of readdirSync(path.join(REPO, "fixtures", "realistic")).sort()) {
      shapes.push([`fixtures/realistic/${name}`, name.includes("machinepool") ? "machinepool" : name.includes("machine") ? "machine" : "cluster"]);
    }
    for (const role of ["cluster", "machine", "machinepool"] as const) shapes.push([`fixtures/skeletons/${role}`, role]);
    for (const [name, role] of [["cluster-aws", "cluster"], ["machine-aws", "machine"], ["machinepool-aws", "machinepool"], ["broken-machinepool", "machinepool"]] as const) shapes.push([`examples/${name}`, role]);
    expect(shapes.length).toBeGreaterThanOrEqual(18);
    const got = shapes.map(([rel]) => {
      expect(existsSync(path.join(REPO, rel)), rel).toBe(true);
      const d = detect(moduleDirOf(path.join(REPO, rel)));
      return [rel, d.role, d.role !== null && d.enough];
    });
    expect(got).toEqual(shapes.map(([rel, role]) => [rel, role, true]));
  });
});

import { describe, expect, it } from "vitest";
import { compareCodePoints } from "../../src/lint/engine.js";
import { lintModule } from "../helpers/lint.js";
import { CONTRACT, detectRole } from "../../src/contract/roles.js";
import { loadModule } from "../../src/terraform/load.js";
import { brief, DEFAULT_RULE, MODULE_RULE, tree, VARIABLE_RULE } from "./helpers.js";

const RULES = [DEFAULT_RULE, VARIABLE_RULE, MODULE_RULE];

describe("contract data", () => {
  it("lists each role's inputs and outputs", () => {
    expect(CONTRACT.inputs.machinepool.map((i) => i.name)).toEqual([
      "captf_contract", "captf_cluster", "captf_object", "captf_tags", "captf_cluster_outputs",
      "machinepool_name", "replicas", "bootstrap_data", "bootstrap_format", "failure_domains",
      "cluster_failure_domains", "kubernetes_version", "node_labels", "autoscaling",
    ]);
    expect(CONTRACT.inputs.cluster.map((i) => i.name)).not.toContain("captf_cluster_outputs");
    expect(CONTRACT.inputs.machine.find((i) => i.name === "bootstrap_data")).toEqual({ name: "bootstrap_data", type: "string", nullable: false, sensitive: true, defaultAllowed: false });
    expect(CONTRACT.inputs.cluster.find((i) => i.name === "control_plane_endpoint")).toEqual({
      name: "control_plane_endpoint", type: "object({host=string, port=number})", nullable: true, sensitive: false, defaultAllowed: false,
    });
    expect(CONTRACT.outputs.machine).toEqual(["provider_id", "addresses", "failure_domain", "interruptible", "health"]);
    expect(CONTRACT.healthStates).toEqual(["pending", "running", "degraded", "stopped", "terminated", "unknown"]);
  });
});

describe("role detection", () => {
  it("picks the role with the most distinctive declarations, with evidence", () => {
    const dir = tree({
      "variables.tf": 'variable "machinepool_name" {\n  type = string\n}\n\nvariable "replicas" {\n  type = number\n}\n',
      "outputs.tf": 'output "provider_id_list" {\n  value = []\n}\n',
    });
    expect(detectRole(loadModule(dir).root)).toEqual({
      role: "machinepool",
      evidence: [
        'machinepool input "machinepool_name" (variables.tf:1)',
        'machinepool input "replicas" (variables.tf:5, a common name)',
        'machinepool output "provider_id_list" (outputs.tf:1)',
      ],
      // One identifying input and no reserved one: too little to lint it when nobody named it.
      enough: false,
      weak: { kind: "weak" },
    });
  });

  it("reports a tie and an empty module as not detectable", () => {
    const tie = tree({ "main.tf": 'variable "machine_name" {\n  type = string\n}\n\nvariable "machinepool_name" {\n  type = string\n}\n' });
    expect(detectRole(loadModule(tie).root)).toEqual({
      role: null,
      reason: "ambiguous",
      candidates: ["machine", "machinepool"],
      evidence: ['machine input "machine_name" (main.tf:1)', 'machinepool input "machinepool_name" (main.tf:5)'],
    });
    const none = tree({ "main.tf": 'locals {\n  a = 1\n}\n' });
    expect(detectRole(loadModule(none).root)).toEqual({ role: null, reason: "none", candidates: [], evidence: [] });
  });
});

describe("lintModule", () => {
  it("sorts by file, line, column, rule id and applies severity settings", () => {
    const dir = tree({
      "b.tf": 'variable "z" {\n  default = 1\n}\n',
      "a.tf": 'variable "y" {\n  default = 2\n}\n',
    });
    const out = lintModule(dir, { role: "cluster", ruleSet: RULES, severities: new Map([["input/reserved", "info"], ["output/health", "off"]]) });
    if (out.kind !== "report") throw new Error(out.message);
    expect(brief(out.report.findings)).toEqual([
      "input/reserved info a.tf:1:1",
      "input/default warning a.tf:2:3",
      "input/reserved info b.tf:1:1",
      "input/default warning b.tf:2:3",
    ]);
    expect(out.report.summary).toEqual({ error: 0, warning: 2, info: 2 });
    expect(out.report.role).toBe("cluster");
    expect(out.report.roleSource).toBe("flag");
    expect(out.report.roleEvidence).toEqual(["--role cluster"]);
    expect(out.report.sources.get("a.tf")).toBe('variable "y" {\n  default = 2\n}\n');
  });

  it("--allow-warning turns warnings (never errors) into info", () => {
    const dir = tree({ "main.tf": 'variable "y" {\n  default = 2\n}\n' });
    const out = lintModule(dir, { role: "machine", ruleSet: RULES, allowWarnings: ["input/default", "input/reserved", "output/health"] });
    if (out.kind !== "report") throw new Error(out.message);
    expect(brief(out.report.findings)).toEqual(["output/health error :0:0", "input/reserved error main.tf:1:1", "input/default info main.tf:2:3"]);
  });

  it("skips declaration checks of a module with a file that failed to parse", () => {
    const dir = tree({ "main.tf": 'variable "y" {\n  default = 2\n}\n', "broken.tf": 'resource "x" "y" {\n  a = \n' });
    const out = lintModule(dir, { role: "machine", ruleSet: RULES, only: ["input/default", "input/reserved"] });
    if (out.kind !== "report") throw new Error(out.message);
    expect(brief(out.report.findings)).toEqual(["input/default warning main.tf:2:3"]);
  });

  it("uses the config role, then detection; fails with evidence otherwise", () => {
    const dir = tree({ "main.tf": 'variable "machine_name" {\n  type = string\n}\n' });
    const fromConfig = lintModule(dir, { configRole: { role: "cluster", origin: ".tfcapi-lint.hcl:1:8" }, ruleSet: [] });
    if (fromConfig.kind !== "report") throw new Error(fromConfig.message);
    expect([fromConfig.report.role, fromConfig.report.roleSource, fromConfig.report.roleEvidence]).toEqual(["cluster", "config", ['role = "cluster" (.tfcapi-lint.hcl:1:8)']]);
    const detected = lintModule(dir, { ruleSet: [] });
    if (detected.kind !== "report") throw new Error(detected.message);
    expect([detected.report.role, detected.report.roleSource]).toEqual(["machine", "detected"]);
    const none = lintModule(tree({ "main.tf": "locals {\n  a = 1\n}\n" }), { ruleSet: [] });
    expect(none).toEqual({
      kind: "usage-error",
      message: "cannot tell which role the module implements: it declares none of the role-specific inputs or outputs; pass --role cluster|machine|machinepool",
      evidence: [],
      noRole: true,
      skip: "no CAPTF role detected",
    });
  });

  it("drops findings in excluded files", () => {
    const dir = tree({ "main.tf": 'variable "a" {\n  default = 1\n}\n', "gen.tf": 'variable "b" {\n  default = 1\n}\n' });
    const out = lintModule(dir, { role: "machine", ruleSet: [DEFAULT_RULE], excludeFile: (f) => f === "gen.tf" });
    if (out.kind !== "report") throw new Error(out.message);
    expect(brief(out.report.findings)).toEqual(["input/default warning main.tf:2:3"]);
  });
});

describe("compareCodePoints", () => {
  it("orders by code point (UTF-8 byte order)", () => {
    const list = ["b", "a", "\u{1F600}", "\uFF21", "B", ""];
    expect([...list].sort(compareCodePoints)).toEqual(["", "B", "a", "b", "\uFF21", "\u{1F600}"]);
  });
});

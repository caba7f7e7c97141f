/**
 * A hand-built run report shared by the formatter tests: two modules, one
 * of them in a directory with a space; findings of every severity, a
 * module-level one, a suppressed one, a multi-line range, a tab-indented
 * line, and messages with `%`, CR/LF, `:` and `,`.
 */
import type { Range } from "../../src/hcl/ast.js";
import type { ModuleReport, RunReport } from "../../src/lint/result.js";
import type { Finding, RuleDefinition, Severity } from "../../src/lint/types.js";

export function rng(sl: number, sc: number, el: number, ec: number): Range {
  // Offsets are not used by the formatters; keep them plausible and distinct.
  return { start: { line: sl, column: sc, offset: sl * 100 + sc }, end: { line: el, column: ec, offset: el * 100 + ec } };
}

const MODULE_RANGE = rng(0, 0, 0, 0);

export function finding(
  ruleId: string,
  severity: Severity,
  file: string,
  range: Range,
  message: string,
  suppressed?: Finding["suppressed"],
): Finding {
  const f: Finding = { ruleId, severity, file, range, message };
  if (suppressed) f.suppressed = suppressed;
  return f;
}

function testRule(id: string, severity: Severity, roles: RuleDefinition["roles"], summary: string, tags?: string[]): RuleDefinition {
  return { id, severity, roles, summary, scope: "root", fixable: false, tags, check: () => {} };
}

export const TEST_RULES: RuleDefinition[] = [
  testRule("output/required", "error", ["cluster", "machine", "machinepool"], "Every output the role requires is declared", ["contract"]),
  testRule("output/health-shape", "error", ["cluster", "machine", "machinepool"], "health has the shape the controller reads"),
  testRule("output/provider-id-list-shape", "warning", ["machinepool"], "provider_id_list is sorted and lists every member"),
  testRule("input/sensitive", "warning", ["machine", "machinepool"], "bootstrap_data is marked sensitive", ["security"]),
  testRule("output/endpoint-never-set", "warning", ["cluster"], "control_plane_endpoint can be something other than null"),
];

export const POOL_OUTPUTS = [
  'output "provider_id_list" {',
  "  value = local.ids",
  "}",
  "",
  'output "health" {',
  '\tvalue = { state = "running", healthy = 1 }',
  "}",
  "",
].join("\n");

export const POOL_VARIABLES = [
  "# tfcapi-lint-ignore input/sensitive -- rendered into cloud-init, holds no secret",
  'variable "bootstrap_data" {',
  "  type = string",
  "}",
  "",
].join("\n");

export function poolModule(): ModuleReport {
  return {
    module: "modules/my pool",
    dir: "/work/repo/modules/my pool",
    contract: "v1alpha1",
    role: "machinepool",
    roleSource: "detected",
    roleEvidence: ["output provider_id_list", "variable desired_size"],
    fileSet: "terraform",
    findings: [
      finding("output/required", "error", "", MODULE_RANGE, 'output "replicas" is not declared'),
      finding(
        "output/provider-id-list-shape",
        "warning",
        "outputs.tf",
        rng(2, 11, 2, 20),
        "wrap the value in sort(): 100% of members, in a stable order",
      ),
      finding("output/health-shape", "error", "outputs.tf", rng(6, 31, 6, 42), "health.healthy must be a bool, got: number"),
      finding("input/sensitive", "warning", "variables.tf", rng(2, 1, 4, 2), "bootstrap_data is not sensitive", {
        justification: "rendered into cloud-init, holds no secret",
        file: "variables.tf",
        line: 1,
      }),
    ],
    summary: { error: 2, warning: 1, info: 0 },
    sources: new Map([
      ["outputs.tf", POOL_OUTPUTS],
      ["variables.tf", POOL_VARIABLES],
    ]),
  };
}

export function clusterModule(): ModuleReport {
  return {
    module: "./envs/prod",
    dir: "/work/repo/envs/prod",
    contract: "v1alpha1",
    role: "cluster",
    roleSource: "flag",
    roleEvidence: [],
    fileSet: "opentofu",
    findings: [
      finding("module/child-note", "info", "child/main.tf", rng(1, 1, 3, 2), "a note: child, here"),
      finding(
        "output/endpoint-never-set",
        "warning",
        "main.tofu",
        rng(2, 11, 2, 15),
        "control_plane_endpoint is always null\r\nset it from var.control_plane_endpoint (100%)",
      ),
    ],
    summary: { error: 0, warning: 1, info: 1 },
    sources: new Map([
      ["main.tofu", 'output "control_plane_endpoint" {\r\n  value = null\r\n}\r\n'],
      ["child/main.tf", 'resource "null_resource" "x" {\n  triggers = {}\n}\n'],
    ]),
  };
}

export function sampleRun(modules: ModuleReport[] = [poolModule(), clusterModule()]): RunReport {
  return {
    modules,
    rules: TEST_RULES,
    cwd: "/work/repo",
    repoRoot: "/work/repo",
    toolVersion: "1.2.3",
    failOn: "warning",
  };
}

export const PATH_LOCALS = ["locals {", "  ids = [for i in aws_instance.node : i.id]", "}", ""].join("\n");
export const PATH_MAIN = ['resource "aws_instance" "node" {', "  count = var.desired_size", "}", ""].join("\n");

/**
 * A pool whose provider_id_list finding followed the value through a local
 * to the resource it lists (Finding.related), and a module-level finding
 * with a hop in a child module.
 */
export function pathModule(): ModuleReport {
  const shape = finding("output/provider-id-list-shape", "warning", "outputs.tf", rng(2, 11, 2, 20), "wrap the value in sort()");
  shape.related = [
    { file: "locals.tf", range: rng(2, 9, 2, 45), message: "local.ids" },
    { file: "main.tf", range: rng(1, 1, 3, 2), message: "aws_instance.node\n(count)" },
  ];
  const required = finding("output/required", "error", "", MODULE_RANGE, 'output "replicas" is not declared');
  required.related = [{ file: "child/main.tf", range: rng(1, 1, 1, 9), message: "module child" }];
  return {
    homeFiles: { variable: "locals.tf", output: "outputs.tf", terraform: "main.tf", first: "locals.tf" },
    module: "modules/my pool",
    dir: "/work/repo/modules/my pool",
    contract: "v1alpha1",
    role: "machinepool",
    roleSource: "detected",
    roleEvidence: ["output provider_id_list"],
    fileSet: "terraform",
    findings: [required, shape],
    summary: { error: 1, warning: 1, info: 0 },
    sources: new Map([
      ["outputs.tf", POOL_OUTPUTS],
      ["locals.tf", PATH_LOCALS],
      ["main.tf", PATH_MAIN],
      ["child/main.tf", 'module "child" {\n  source = "./x"\n}\n'],
    ]),
  };
}

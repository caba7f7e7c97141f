/**
 * Issue 17, items 1 and 3, from outside (the built CLI): role detection
 * that never lints a stranger, and a --recursive run that never stops
 * early or goes silent on a tree that holds modules.
 *
 * The tree is a platform team's monorepo: a root with only versions.tf,
 * two ordinary modules whose names overlap the contract (a GKE node pool
 * with `autoscaling`, an Aurora database with `instances`), and a CAPTF
 * machine module with a test wrapper under test/basic calling `../..`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { describe, expect, it } from "vitest";
import { fixtureFiles, REPO, runCli, tree } from "./helpers.js";

const Ajv = AjvDraft04.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat("uri", (s: string) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(s) && URL.canParse(s));
ajv.addFormat("uri-reference", (s: string) => /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/.test(s));
const validSarif = ajv.compile(JSON.parse(readFileSync(path.join(REPO, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8")));

interface JsonDoc {
  module: string;
  role: string;
  roleSource: string;
  findings: { id: string }[];
  readErrors?: { file: string; message: string }[];
}
function docs(stdout: string): JsonDoc[] {
  const v = JSON.parse(stdout) as JsonDoc | JsonDoc[];
  return Array.isArray(v) ? v : [v];
}
interface Sarif {
  runs: {
    invocations: { executionSuccessful: boolean; toolExecutionNotifications?: { level: string; message: { text: string }; descriptor?: { id: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
  }[];
}

const SET_ROLE = "(set role in .tfcapi-lint.hcl or pass --role to lint it)";
const POOL_WEAK =
  "too little evidence of a machinepool module: none of the reserved captf_* inputs and fewer than two of machinepool_name, bootstrap_data, bootstrap_format, cluster_failure_domains";
const note = (dir: string, why: string): string => `tfcapi-lint: skipped ${dir}: ${why} ${SET_ROLE}\n`;
const ROOT_NOTE = note(".", "no CAPTF role detected");
const WRAPPER_NOTE = note("captf/machine/test/basic", `a wrapper of the local module "../.." that declares none of the contract's inputs`);
const DB_NOTE = note("modules/db", POOL_WEAK);
const POOL_NOTE = note("modules/pool", POOL_WEAK);

function monorepo(extra: Record<string, string> = {}): string {
  return tree({
    "versions.tf": 'terraform {\n  required_version = ">= 1.5.0"\n}\n',
    ...fixtureFiles("gke-node-pool", "modules/pool/"),
    ...fixtureFiles("aurora-postgres", "modules/db/"),
    ...fixtureFiles("machine-clean", "captf/machine/"),
    ...fixtureFiles("test-wrapper", "captf/machine/test/basic/"),
    ...extra,
  });
}

/** A module matching machine and machinepool equally (and a reserved input: a CAPTF module of unknown role). */
const AMBIGUOUS = {
  "amb/variables.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\nvariable "machine_name" {\n  type = string\n}\n\nvariable "machinepool_name" {\n  type = string\n}\n',
};
const AMBIGUOUS_MESSAGE =
  'amb: not linted: cannot tell which role the module implements: it matches machine and machinepool equally (machine input "machine_name" (variables.tf:5); machinepool input "machinepool_name" (variables.tf:9)); pass --role cluster|machine|machinepool (or set role in .tfcapi-lint.hcl)';

describe("--recursive over a monorepo lints only the CAPTF modules (item 1)", () => {
  it("ordinary modules, a test wrapper and a root with only versions.tf are skipped with a note; the machine module is linted", () => {
    const root = monorepo();
    const r = runCli(["-r", "-f", "json", "."], { cwd: root });
    expect(r.stderr).toBe(ROOT_NOTE + WRAPPER_NOTE + DB_NOTE + POOL_NOTE);
    expect(r.code).toBe(0);
    // The wrapper is not linted, so the module it calls is reported on its own, clean.
    expect(docs(r.stdout).map((d) => [d.module, d.role, d.roleSource, d.findings.length])).toEqual([["captf/machine", "machine", "detected", 0]]);
    // The same on worker threads and on the main thread alone.
    for (const jobs of ["1", "3"]) expect(runCli(["-r", "-f", "json", "--jobs", jobs, "."], { cwd: root })).toEqual(r);
  });

  it("the README's --recursive --format sarif -o lint.sarif . works on that layout (exit 0, file written)", () => {
    const root = monorepo();
    const r = runCli(["--recursive", "--format", "sarif", "-o", "lint.sarif", "."], { cwd: root });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ROOT_NOTE + WRAPPER_NOTE + DB_NOTE + POOL_NOTE]);
    const sarif = JSON.parse(readFileSync(path.join(root, "lint.sarif"), "utf8")) as Sarif;
    expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
    expect([sarif.runs[0]!.invocations[0]!.executionSuccessful, sarif.runs[0]!.results]).toEqual([true, []]);
  });

  it("module files named one by one (pre-commit) give the same result, with the same notes", () => {
    const root = monorepo();
    const files = ["captf/machine/main.tf", "captf/machine/test/basic/main.tf", "modules/db/outputs.tf", "modules/pool/variables.tf", "versions.tf"];
    const byNames = runCli(["-f", "json", ...files], { cwd: root });
    const recursive = runCli(["-f", "json", "-r", "."], { cwd: root });
    expect([byNames.code, byNames.stdout]).toEqual([recursive.code, recursive.stdout]);
    expect(byNames.stderr).toBe(WRAPPER_NOTE + DB_NOTE + POOL_NOTE + ROOT_NOTE);
  });

  it("a role set in the module's config lints an ordinary module anyway", () => {
    const root = monorepo({ "modules/pool/.tfcapi-lint.hcl": 'role = "machinepool"\n' });
    const r = runCli(["-r", "-f", "json", "."], { cwd: root });
    expect(r.stderr).toBe(ROOT_NOTE + WRAPPER_NOTE + DB_NOTE);
    expect(r.code).toBe(1);
    expect(docs(r.stdout).map((d) => [d.module, d.role, d.roleSource])).toEqual([
      ["captf/machine", "machine", "detected"],
      ["modules/pool", "machinepool", "config"],
    ]);
  });

  it("named directly, a module keeps today's behaviour: linted with the role detected, or an error naming what was found", () => {
    const root = monorepo({ "half/main.tf": 'variable "captf_tags" {\n  type = map(string)\n}\n\noutput "health" {\n  value = { state = "running", healthy = true }\n}\n' });
    const pool = runCli(["-f", "json", "modules/pool"], { cwd: root });
    expect([pool.code, pool.stderr]).toEqual([1, ""]);
    expect(docs(pool.stdout).map((d) => [d.module, d.role, d.roleSource])).toEqual([["modules/pool", "machinepool", "detected"]]);
    const half = runCli(["half"], { cwd: root });
    expect([half.code, half.stdout, half.stderr]).toEqual([
      3,
      "",
      'tfcapi-lint: half: cannot tell which role the module implements: it declares none of the role-specific inputs or outputs (it declares only reserved input "captf_tags" (main.tf:1); contract output "health" (main.tf:5)); pass --role cluster|machine|machinepool\nRun tfcapi-lint --help for usage.\n',
    ]);
  });

  it("--print-config says what detection makes of a module, in text and JSON", () => {
    const root = monorepo();
    const text = runCli(["--print-config", "modules/db"], { cwd: root });
    expect([text.code, text.stderr]).toEqual([0, ""]);
    expect(text.stdout.split("\n").slice(2, 5)).toEqual([
      "role = (detected from the module)            # default",
      `#   detection: machinepool when named directly; --recursive skips it: ${POOL_WEAK}`,
      '#   evidence: machinepool input "replicas" (variables.tf:20, a common name); machinepool output "instances" (outputs.tf:13)',
    ]);
    const json = runCli(["--print-config", "captf/machine/test/basic/main.tf", "--format", "json"], { cwd: root });
    expect((JSON.parse(json.stdout) as { detection: unknown }).detection).toEqual({
      role: "machine",
      evidence: ['machine output "addresses" (main.tf:28)', 'machine output "failure_domain" (main.tf:32)', 'machine output "interruptible" (main.tf:36)'],
      whenNamed: "lint",
      whenFound: "skip",
      summary: `machine when named directly; --recursive skips it: a wrapper of the local module "../.." that declares none of the contract's inputs`,
    });
    const none = runCli(["--print-config", "."], { cwd: root });
    expect(none.stdout.split("\n")[3]).toBe("#   detection: no role: it declares none of the role-specific inputs or outputs; named directly it is an error, --recursive skips it");
    // A role set in the config needs no detection, and none is shown.
    writeFileSync(path.join(root, "modules/db/.tfcapi-lint.hcl"), 'role = "machinepool"\n');
    expect(runCli(["--print-config", "modules/db"], { cwd: root }).stdout).not.toContain("detection");
  });
});

describe("--recursive never stops early or goes silent (item 3)", () => {
  it("one module of unknown role among many: reported (exit 3), every other module's results and every file still written", () => {
    const root = monorepo(AMBIGUOUS);
    const r = runCli(["-r", "-f", "sarif", "-o", "lint.sarif", "--also-write", "json=lint.json", "--also-write", "compact=lint.txt", "."], { cwd: root });
    expect([r.code, r.stdout]).toEqual([3, ""]);
    expect(r.stderr).toBe(ROOT_NOTE + WRAPPER_NOTE + DB_NOTE + POOL_NOTE + `tfcapi-lint: ${AMBIGUOUS_MESSAGE}\n`);
    const sarif = JSON.parse(readFileSync(path.join(root, "lint.sarif"), "utf8")) as Sarif;
    expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
    const inv = sarif.runs[0]!.invocations[0]!;
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications!.map((n) => [n.level, n.descriptor?.id, n.message.text, n.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["error", "role-error", AMBIGUOUS_MESSAGE, "amb/"],
    ]);
    expect(docs(readFileSync(path.join(root, "lint.json"), "utf8")).map((d) => [d.module, d.role, d.readErrors ?? []])).toEqual([
      ["captf/machine", "machine", []],
      ["amb", "", [{ file: "", message: AMBIGUOUS_MESSAGE }]],
    ]);
    expect(readFileSync(path.join(root, "lint.txt"), "utf8")).toBe(`amb:0:0: error: ${AMBIGUOUS_MESSAGE} [role-error]\n`);
    // Text: the module's section, then the one not linted, and a total that says why.
    const text = runCli(["-r", "."], { cwd: root });
    expect(text.code).toBe(3);
    expect(text.stdout.split("\n").slice(-4)).toEqual([`error  ${AMBIGUOUS_MESSAGE}  (not linted)`, "", "✖ not fully linted: 1 module of unknown role", ""]);
    expect(text.stdout.split("\n")[0]).toBe("module captf/machine");
  });

  it("the findings of the other modules still fail the run, and exit 3 still wins", () => {
    const root = monorepo({ ...AMBIGUOUS, ...fixtureFiles("machine-clean", "captf/machine/", (f, t) => (f === "outputs.tf" ? t.replace('output "interruptible" {\n  value = false\n}\n\n', "") : t)) });
    const r = runCli(["-r", "-f", "json", "."], { cwd: root });
    expect(r.code).toBe(3);
    expect(docs(r.stdout).map((d) => [d.module, d.findings.map((f) => f.id)])).toEqual([
      ["captf/machine", ["output/required"]],
      ["amb", []],
    ]);
  });

  it("a tree with no module file at all: said on stderr and in every format, exit 2", () => {
    const root = tree({ "docs/README.md": "# Platform\n" });
    const message = ".: no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory or below";
    const expected: Record<string, string> = {
      text: `error  ${message}  (not linted)\n\n✖ nothing linted: 1 read error\n`,
      compact: `.:0:0: error: ${message} [read-error]\n`,
      github: `::error title=tfcapi-lint read error::${message}\n`,
    };
    for (const format of ["text", "compact", "json", "sarif", "github", "checkstyle", "junit"]) {
      const r = runCli(["-r", "-f", format, "."], { cwd: root });
      expect([format, r.code, r.stderr]).toEqual([format, 2, `tfcapi-lint: ${message}\n`]);
      if (format in expected) expect(r.stdout.startsWith(expected[format]!), `${format}: ${r.stdout}`).toBe(true);
      if (format === "json") expect(docs(r.stdout).map((d) => [d.module, d.readErrors])).toEqual([[".", [{ file: "", message }]]]);
      if (format === "sarif") {
        const sarif = JSON.parse(r.stdout) as Sarif;
        expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
        expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications!.map((n) => n.message.text)).toEqual([message]);
      }
      if (format === "checkstyle" || format === "junit") expect(r.stdout).toContain(message);
    }
  });

  it("a tree whose modules are all ordinary ones: the notes, then that nothing was linted, exit 2", () => {
    const root = tree({ "versions.tf": 'terraform {\n  required_version = ">= 1.5.0"\n}\n', ...fixtureFiles("gke-node-pool", "modules/pool/") });
    const message =
      ".: no CAPTF role module in this directory or below (2 directories with module files, none showing enough evidence of a role); set role in .tfcapi-lint.hcl or pass --role to lint them";
    const r = runCli(["-r", "-f", "json", "."], { cwd: root });
    expect([r.code, r.stderr]).toEqual([2, ROOT_NOTE + POOL_NOTE + `tfcapi-lint: ${message}\n`]);
    expect(docs(r.stdout).map((d) => [d.module, d.readErrors])).toEqual([[".", [{ file: "", message }]]]);
    // Without --recursive, module files named one by one that are all skipped are not an error (pre-commit on a commit without CAPTF modules).
    const byNames = runCli(["-f", "json", "modules/pool/main.tf"], { cwd: root });
    expect([byNames.code, byNames.stdout, byNames.stderr]).toEqual([0, "[]\n", POOL_NOTE]);
  });

  it("a tree whose module files the config all excludes: a note, not an error (as for an excluded path named directly)", () => {
    const root = tree({ ".tfcapi-lint.hcl": 'exclude = ["legacy/**"]\n', ...fixtureFiles("machine-clean", "legacy/vm/") });
    const r = runCli(["-r", "-f", "json", "."], { cwd: root });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "[]\n", "tfcapi-lint: .: not linted: every module file in this directory or below is excluded by the config\n"]);
  });

  it("a path given twice, or inside another path given, is not said to hold nothing; one holding only ordinary modules is", () => {
    const root = monorepo();
    const r = runCli(["-r", "-f", "json", ".", "captf", "captf/machine", "."], { cwd: root });
    expect([r.code, r.stderr]).toEqual([0, ROOT_NOTE + WRAPPER_NOTE + DB_NOTE + POOL_NOTE]);
    expect(docs(r.stdout).map((d) => d.module)).toEqual(["captf/machine"]);
    const modules = runCli(["-r", "-f", "json", ".", "modules"], { cwd: root });
    const message =
      "modules: no CAPTF role module in this directory or below (2 directories with module files, none showing enough evidence of a role); set role in .tfcapi-lint.hcl or pass --role to lint them";
    expect([modules.code, modules.stderr]).toEqual([2, ROOT_NOTE + WRAPPER_NOTE + DB_NOTE + POOL_NOTE + `tfcapi-lint: ${message}\n`]);
    expect(docs(modules.stdout).map((d) => [d.module, d.readErrors ?? []])).toEqual([
      ["captf/machine", []],
      ["modules", [{ file: "", message }]],
    ]);
  });
});

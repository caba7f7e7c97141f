import { describe, expect, it } from "vitest";
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fixtureFiles, insensitiveBootstrap, noInterruptible, REPO, runCli, tree } from "./helpers.js";

const CLEAN = path.join(REPO, "fixtures", "cli", "machine-clean");

interface JsonDoc {
  module: string;
  role: string;
  roleSource: string;
  findings: { id: string; severity: string; file: string; line: number; column: number }[];
  summary: { error: number; warning: number; info: number };
  suppressed: unknown[];
}

function json(stdout: string): JsonDoc {
  return JSON.parse(stdout) as JsonDoc;
}

function ids(doc: JsonDoc): string[] {
  return doc.findings.map((f) => `${f.id} ${f.severity} ${f.file}:${f.line}:${f.column}`);
}

describe("exit codes", () => {
  it("0 for a clean module (role detected and reported)", () => {
    const r = runCli(["--format", "json", CLEAN]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const doc = json(r.stdout);
    expect(doc.module).toBe(CLEAN);
    expect(doc.role).toBe("machine");
    expect(doc.roleSource).toBe("detected");
    expect(ids(doc)).toEqual([]);
  });

  it("1 for error findings", () => {
    const dir = tree(fixtureFiles("machine-clean", "", noInterruptible));
    const r = runCli(["--json", "--role", "machine", "."], { cwd: dir });
    expect(r.code).toBe(1);
    const doc = json(r.stdout);
    expect(doc.module).toBe(".");
    expect(doc.roleSource).toBe("flag");
    expect(ids(doc)).toEqual(["output/required error :0:0"]);
  });

  it("warnings pass by default, fail with --strict, and --allow-warning turns them into info", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const plain = runCli(["--json", dir]);
    expect(plain.code).toBe(0);
    expect(ids(json(plain.stdout))).toEqual(["input/sensitive warning variables.tf:28:10"]);
    expect(runCli(["--json", "--strict", dir]).code).toBe(1);
    expect(runCli(["--json", "--max-warnings", "0", dir]).code).toBe(1);
    expect(runCli(["--json", "--max-warnings", "1", dir]).code).toBe(0);
    const allowed = runCli(["--json", "--strict", "--allow-warning", "input/sensitive", dir]);
    expect(allowed.code).toBe(0);
    expect(ids(json(allowed.stdout))).toEqual(["input/sensitive info variables.tf:28:10"]);
    const off = runCli(["--json", "--strict", "--rule", "input/sensitive=off", dir]);
    expect(off.code).toBe(0);
    expect(ids(json(off.stdout))).toEqual([]);
    const raised = runCli(["--json", "--rule", "input/sensitive=error", dir]);
    expect(raised.code).toBe(1);
    expect(ids(json(raised.stdout))).toEqual(["input/sensitive error variables.tf:28:10"]);
  });

  it("2 for a nonexistent path", () => {
    const r = runCli(["/nonexistent/tfcapi-lint/module"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: /nonexistent/tfcapi-lint/module: no such file or directory\n");
  });

  it("2 for a directory without module files", () => {
    const dir = tree({ "README.md": "# nothing here\n" });
    const r = runCli(["--role", "machine", "."], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: .: no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory\n");
  });

  it("2 for a binary module file", () => {
    const dir = tree({ ...fixtureFiles("machine-clean"), "blob.tf": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x00, 0x00]) });
    const r = runCli(["--json", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tfcapi-lint: .*blob\.tf contains a NUL byte at offset 4; .+\n$/);
  });

  it("3 for usage errors, each with one line and a pointer to --help", () => {
    const cases: [string[], string][] = [
      [["--frobnicate"], "unknown option --frobnicate"],
      [["--role", "pool", CLEAN], 'unknown role "pool" (use cluster, machine or machinepool)'],
      [["--contract", "v1beta1", CLEAN], 'unknown contract version "v1beta1" (known: v1alpha1)'],
      [["--rule", "input/nope=off", CLEAN], '--rule: unknown rule "input/nope" (run "tfcapi-lint rules" for the list)'],
      [["--rule", "input/default=loud", CLEAN], '--rule input/default: severity must be one of off, info, warning, error (got "loud")'],
      [["--format", "yaml", CLEAN], 'unknown format "yaml" (known: text, compact, json, sarif, github, checkstyle, junit)'],
      [["--role"], "option --role needs a value"],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 3, stderr: `tfcapi-lint: ${message}\nRun tfcapi-lint --help for usage.\n` });
      expect(r.stdout).toBe("");
    }
  });

  it("3 when the role cannot be detected", () => {
    const dir = tree({ "main.tf": 'variable "region" {\n  type    = string\n  default = "eu-central-1"\n}\n' });
    const r = runCli([dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("cannot tell which role the module implements");
    expect(r.stderr).toContain("pass --role cluster|machine|machinepool");
    expect(r.stderr.endsWith("Run tfcapi-lint --help for usage.\n")).toBe(true);
  });
});

describe("commands", () => {
  it("module <dir> is the reference form", () => {
    const r = runCli(["module", "--role", "machine", "--json", CLEAN]);
    expect(r.code).toBe(0);
    expect(json(r.stdout).roleSource).toBe("flag");
    expect(runCli(["module"]).code).toBe(3);
  });

  it("a file path lints its module once", () => {
    const r = runCli(["--json", path.join(CLEAN, "main.tf"), path.join(CLEAN, "outputs.tf"), CLEAN]);
    expect(r.code).toBe(0);
    const doc = json(r.stdout);
    expect(Array.isArray(doc)).toBe(false);
    expect(doc.module).toBe(CLEAN);
  });

  it("rules lists the catalogue (json and text)", () => {
    const r = runCli(["rules", "--format", "json"]);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { id: string; severity: string; roles: string[] }[];
    const byId = new Map(list.map((x) => [x.id, x]));
    expect(byId.get("lint/unused-ignore")).toMatchObject({ severity: "warning", roles: ["cluster", "machine", "machinepool"] });
    expect(byId.get("input/sensitive")).toMatchObject({ severity: "warning", roles: ["machine", "machinepool"] });
    const text = runCli(["rules"]);
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n").filter((l) => l.startsWith("lint/unknown-rule "))).toHaveLength(1);
  });

  it("explain prints the docs page; unknown rules are a usage error", () => {
    const r = runCli(["explain", "lint/expired-ignore"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(REPO, "rules", "lint", "expired-ignore.md"), "utf8"));
    const bad = runCli(["explain", "nope/nope"]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe('tfcapi-lint: unknown rule "nope/nope" (run "tfcapi-lint rules" for the list)\nRun tfcapi-lint --help for usage.\n');
  });

  it("version --json and --version", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
    const r = runCli(["version", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ name: "tfcapi-lint", version: pkg.version, contracts: ["v1alpha1"], node: process.version });
    const v = runCli(["--version"]);
    expect(v.stdout).toBe(`tfcapi-lint ${pkg.version} (contract v1alpha1)\n`);
  });

  it("--help prints usage", () => {
    const r = runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("Usage: tfcapi-lint [options] [paths...]\n")).toBe(true);
  });
});

describe("--stdin", () => {
  it("lints piped text in place of the named file, with the rest of the module from disk", () => {
    const dir = tree(fixtureFiles("machine-clean"));
    const outputs = readFileSync(path.join(dir, "outputs.tf"), "utf8");
    const r = runCli(["--json", "--stdin", "--stdin-filename", "outputs.tf"], { cwd: dir, input: noInterruptible("outputs.tf", outputs) });
    expect(r.code).toBe(1);
    expect(ids(json(r.stdout))).toEqual(["output/required error :0:0"]);
    const clean = runCli(["--json", "--stdin", "--stdin-filename", "outputs.tf"], { cwd: dir, input: outputs });
    expect(clean.code).toBe(0);
    expect(runCli(["--stdin"], { cwd: dir }).code).toBe(3);
  });
});

describe("--recursive", () => {
  it("lints every module directory and honours config excludes", () => {
    const root = tree({
      ".tfcapi-lint.hcl": 'exclude = ["examples/**"]\n',
      ...fixtureFiles("machine-clean", "modules/vm/"),
      ...fixtureFiles("machine-clean", "modules/broken/", noInterruptible),
      ...fixtureFiles("machine-clean", "examples/demo/", noInterruptible),
      ...fixtureFiles("machine-clean", "modules/vm/.terraform/modules/x/"),
      "node_modules/pkg/main.tf": "this is not terraform {",
    });
    const r = runCli(["--json", "--recursive", "."], { cwd: root });
    expect(r.code).toBe(1);
    const docs = JSON.parse(r.stdout) as JsonDoc[];
    expect(docs.map((d) => [d.module, ids(d)])).toEqual([
      ["modules/broken", ["output/required error :0:0"]],
      ["modules/vm", []],
    ]);
  });

  it("skips a module below the path that shows no CAPTF role, with a note; an ambiguous one is reported with the rest", () => {
    const root = tree({
      ...fixtureFiles("machine-clean", "modules/vm/"),
      "modules/network/main.tf": 'variable "cidr" {\n  type    = string\n  default = "10.0.0.0/16"\n}\n\noutput "cidr" {\n  value = var.cidr\n}\n',
    });
    const r = runCli(["--json", "--recursive", "."], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "tfcapi-lint: skipped modules/network: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n",
    );
    // One module left: the reference's single JSON document.
    expect((JSON.parse(r.stdout) as JsonDoc).module).toBe("modules/vm");
    // Named directly, the same module is a usage error.
    const direct = runCli(["modules/network"], { cwd: root });
    expect(direct.code).toBe(3);
    // As the top of a --recursive walk it is skipped too, and the walk found nothing to lint.
    const walked = runCli(["--recursive", "modules/network"], { cwd: root });
    expect([walked.code, walked.stderr]).toEqual([
      2,
      "tfcapi-lint: skipped modules/network: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n" +
        "tfcapi-lint: modules/network: no CAPTF role module in this directory or below (1 directory with module files, none showing enough evidence of a role); set role in .tfcapi-lint.hcl or pass --role to lint them\n",
    ]);
    // A module matching two roles equally is never skipped.
    writeFileSync(
      path.join(root, "modules/network/outputs.tf"),
      'output "exports" {\n  value = {}\n}\n\noutput "interruptible" {\n  value = false\n}\n',
    );
    const ambiguous = runCli(["--json", "--recursive", "."], { cwd: root });
    expect([ambiguous.code, ambiguous.stderr.includes("modules/network: not linted: cannot tell which role the module implements")]).toEqual([3, true]);
    expect((JSON.parse(ambiguous.stdout) as JsonDoc[]).map((d) => [d.module, d.role])).toEqual([["modules/vm", "machine"], ["modules/network", ""]]);
  });
});

describe("--fix", () => {
  it("rewrites files atomically; without --fix nothing is touched", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const file = path.join(dir, "variables.tf");
    chmodSync(file, 0o640);
    const before = readFileSync(file, "utf8");
    const plain = runCli(["--json", dir]);
    expect(plain.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);

    const dry = runCli(["--json", "--fix-dry-run", "--fix-unsafe", dir]);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(dry.stderr).toContain("+  sensitive = true\n");

    const fixed = runCli(["--json", "--strict", "--fix-unsafe", dir]);
    expect(fixed.code).toBe(0);
    expect(ids(json(fixed.stdout))).toEqual([]);
    const after = readFileSync(file, "utf8");
    expect(after).toBe(before.replace('variable "bootstrap_data" {\n  type = string\n}', 'variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}'));
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });
});

describe("--fix in passes", () => {
  it("applies overlapping fixes over several passes until nothing is left", () => {
    const dir = tree(fixtureFiles("machine-clean", "", (f, t) =>
      f === "variables.tf"
        ? t.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}', 'variable "bootstrap_data" { type = string sensitive = false }')
        : t,
    ));
    const before = runCli(["--json", dir]);
    expect(ids(json(before.stdout))).toEqual(["input/sensitive warning variables.tf:28:43", "syntax/one-line-block error variables.tf:28:43"]);
    const fixed = runCli(["--json", "--fix-unsafe", dir]);
    expect(fixed.code).toBe(0);
    expect(ids(json(fixed.stdout))).toEqual([]);
    expect(readFileSync(path.join(dir, "variables.tf"), "utf8")).toBe(readFileSync(path.join(CLEAN, "variables.tf"), "utf8"));
  });

  it("--fix-dry-run shows what every pass would write, and writes nothing", () => {
    const oneLine = 'variable "bootstrap_data" { type = string sensitive = false }';
    const dir = tree(fixtureFiles("machine-clean", "", (f, t) =>
      f === "variables.tf" ? t.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}', oneLine) : t,
    ));
    const before = readFileSync(path.join(dir, "variables.tf"), "utf8");
    const dry = runCli(["--format", "compact", "--fix-dry-run", "--fix-unsafe", "."], { cwd: dir });
    // The first pass alone would leave `sensitive = true` on one line (still two arguments): the second splits it.
    expect(dry.stderr).toBe(
      [
        "--- a/variables.tf",
        "+++ b/variables.tf",
        "@@ -25,7 +25,10 @@",
        "   type = string",
        " }",
        " ",
        `-${oneLine}`,
        '+variable "bootstrap_data" {',
        "+  type      = string",
        "+  sensitive = true",
        "+}",
        " ",
        ' variable "bootstrap_format" {',
        "   type = string",
        "tfcapi-lint: .: role machine (detected)",
        "",
      ].join("\n"),
    );
    expect(dry.code).toBe(1);
    expect(readFileSync(path.join(dir, "variables.tf"), "utf8")).toBe(before);
  });

  it("--fix-dry-run on --stdin shows every pass too", () => {
    const oneLine = 'variable "bootstrap_data" { type = string sensitive = false }';
    const dir = tree(fixtureFiles("machine-clean", "", (f, t) =>
      f === "variables.tf" ? t.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}', 'variable "bootstrap_data" {\n  type = string\n}') : t,
    ));
    const text = readFileSync(path.join(dir, "variables.tf"), "utf8").replace('variable "bootstrap_data" {\n  type = string\n}', oneLine);
    const dry = runCli(["--format", "compact", "--fix-dry-run", "--fix-unsafe", "--stdin", "--stdin-filename", "variables.tf"], { cwd: dir, input: text });
    expect(dry.stderr).toContain('+variable "bootstrap_data" {\n+  type      = string\n+  sensitive = true\n+}\n');
    expect(dry.code).toBe(1);
  });
});

describe("config through the CLI", () => {
  it("nearest config wins; CLI beats config; --print-config shows origins", () => {
    const root = tree({
      ".tfcapi-lint.hcl": 'fail_on = "warning"\n',
      ...fixtureFiles("machine-clean", "a/", insensitiveBootstrap),
      "b/.tfcapi-lint.hcl": 'rule "input/sensitive" {\n  severity = "off"\n}\n',
      ...fixtureFiles("machine-clean", "b/", insensitiveBootstrap),
    });
    expect(runCli(["--json", "a"], { cwd: root }).code).toBe(1);
    const b = runCli(["--json", "b"], { cwd: root });
    expect(b.code).toBe(0);
    expect(ids(json(b.stdout))).toEqual([]);
    const bCli = runCli(["--json", "--rule", "input/sensitive=error", "b"], { cwd: root });
    expect(bCli.code).toBe(1);
    expect(runCli(["--json", "--no-config", "a"], { cwd: root }).code).toBe(0);
    expect(runCli(["--json", "--config", "b/.tfcapi-lint.hcl", "a"], { cwd: root }).code).toBe(0);
    const printed = runCli(["--print-config", "b", "--strict"], { cwd: root });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(
      [
        "# effective tfcapi-lint config for b",
        `# config file: ${path.join(root, "b", ".tfcapi-lint.hcl")}`,
        "role = (detected from the module)            # default",
        "#   detection: machine, on enough evidence: linted both when named directly and when found by --recursive",
        '#   evidence: machine input "machine_name" (variables.tf:24); machine input "bootstrap_data" (variables.tf:28); machine input "bootstrap_format" (variables.tf:32); reserved input "captf_contract" (variables.tf:3); reserved input "captf_cluster" (variables.tf:7); reserved input "captf_object" (variables.tf:11); reserved input "captf_cluster_outputs" (variables.tf:15); reserved input "captf_tags" (variables.tf:20); machine input "failure_domain" (variables.tf:36, a common name); machine input "control_plane" (variables.tf:46, a common name); machine output "addresses" (outputs.tf:5); machine output "failure_domain" (outputs.tf:12); machine output "interruptible" (outputs.tf:16)',
        'fail_on = "warning"                          # --strict',
        "max_warnings = (no limit)                    # default",
        "exclude = []                                 # default",
        'rule "input/sensitive" { severity = "off" }  # b/.tfcapi-lint.hcl:2:14',
        "",
      ].join("\n"),
    );
  });

  it("config excludes also drop findings in excluded files; --print-config --json", () => {
    const root = tree({ ".tfcapi-lint.hcl": 'exclude = ["vm/variables.tf"]\n', ...fixtureFiles("machine-clean", "vm/", insensitiveBootstrap) });
    const r = runCli(["--json", "--strict", "vm"], { cwd: root });
    expect(r.code).toBe(0);
    expect(ids(json(r.stdout))).toEqual([]);
    const printed = runCli(["--print-config", "vm/main.tf", "--json"], { cwd: root });
    expect(JSON.parse(printed.stdout)).toEqual({
      path: "vm/main.tf",
      configFile: path.join(root, ".tfcapi-lint.hcl"),
      role: { value: null, origin: "default" },
      detection: {
        role: "machine",
        evidence: expect.arrayContaining(['machine input "machine_name" (variables.tf:24)', 'reserved input "captf_tags" (variables.tf:20)']) as unknown,
        whenNamed: "lint",
        whenFound: "lint",
        summary: "machine, on enough evidence: linted both when named directly and when found by --recursive",
      },
      fail_on: { value: "error", origin: "default" },
      max_warnings: { value: null, origin: "default" },
      exclude: { value: ["vm/variables.tf"], origin: ".tfcapi-lint.hcl:1:11" },
      rule: {},
    });
  });

  it("a config role is used and reported as from config", () => {
    const root = tree({ ".tfcapi-lint.hcl": 'role = "machine"\n', ...fixtureFiles("machine-clean") });
    const r = runCli(["--json", "."], { cwd: root });
    expect(r.code).toBe(0);
    expect(json(r.stdout).roleSource).toBe("config");
  });

  it("an invalid config exits 3 naming file:line:column", () => {
    const root = tree({ ".tfcapi-lint.hcl": 'role = "machine"\nfail_on = "sometimes"\n', ...fixtureFiles("machine-clean") });
    const r = runCli(["."], { cwd: root });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('tfcapi-lint: config error:\n.tfcapi-lint.hcl:2:11: fail_on must be one of "error", "warning", "info"\n');
  });
});

describe("inline config through the CLI", () => {
  it("suppressed findings do not fail; --no-inline-config brings them back", () => {
    const dir = tree(fixtureFiles("machine-clean", "", (f, t) =>
      f === "variables.tf"
        ? t.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}', 'variable "bootstrap_data" { # tfcapi-lint-ignore: input/sensitive -- masked by the runner\n  type = string\n}')
        : t,
    ));
    const r = runCli(["--json", "--strict", dir]);
    expect(r.code).toBe(0);
    const doc = json(r.stdout);
    expect(ids(doc)).toEqual([]);
    expect(doc.suppressed).toHaveLength(1);
    expect(runCli(["--json", "--strict", "--no-inline-config", dir]).code).toBe(1);
  });
});

describe("output options", () => {
  it("--quiet reports errors only; --output-file writes the report", () => {
    const dir = tree(fixtureFiles("machine-clean", "", (f, t) => insensitiveBootstrap(f, noInterruptible(f, t))));
    const all = runCli(["--json", dir]);
    expect(ids(json(all.stdout))).toEqual(["output/required error :0:0", "input/sensitive warning variables.tf:28:10"]);
    const quiet = runCli(["--json", "--quiet", dir]);
    expect(quiet.code).toBe(1);
    expect(ids(json(quiet.stdout))).toEqual(["output/required error :0:0"]);
    expect(json(quiet.stdout).summary).toEqual({ error: 1, warning: 0, info: 0 });
    const out = path.join(dir, "report.json");
    const written = runCli(["--format", "json", "--output-file", out, dir]);
    expect(written.stdout).toBe("");
    expect(ids(json(readFileSync(out, "utf8")))).toEqual(["output/required error :0:0", "input/sensitive warning variables.tf:28:10"]);
  });

  it("--fix-dry-run prints a diff and leaves files alone (also with --stdin)", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const diff = [
      "--- a/variables.tf",
      "+++ b/variables.tf",
      "@@ -26,7 +26,8 @@",
      " }",
      " ",
      ' variable "bootstrap_data" {',
      "-  type = string",
      "+  type      = string",
      "+  sensitive = true",
      " }",
      " ",
      ' variable "bootstrap_format" {',
      "",
    ].join("\n");
    const r = runCli(["--json", "--fix-dry-run", "--fix-unsafe", "."], { cwd: dir });
    expect(r.stderr).toBe(diff);
    const text = readFileSync(path.join(dir, "variables.tf"), "utf8");
    const piped = runCli(["--json", "--fix-dry-run", "--fix-unsafe", "--stdin", "--stdin-filename", "variables.tf"], { cwd: dir, input: text });
    expect(piped.stderr).toBe(diff);
    expect(readFileSync(path.join(dir, "variables.tf"), "utf8")).toBe(text);
    expect(runCli(["--fix", "--stdin", "--stdin-filename", "variables.tf"], { cwd: dir, input: text }).code).toBe(3);
  });

  it("--recursive does not loop on directory symlinks", () => {
    const root = tree(fixtureFiles("machine-clean", "modules/vm/"));
    symlinkSync(path.join(root, "modules"), path.join(root, "modules", "vm", "loop"));
    const r = runCli(["--json", "--recursive", "modules"], { cwd: root });
    expect(r.code).toBe(0);
    expect(json(r.stdout).module).toBe("modules/vm");
  });
});

describe("--recursive and nested local modules", () => {
  it("a directory loaded as a local child is reported with its parent, not on its own", () => {
    const root = tree({
      ...fixtureFiles("machine-clean", "vm/", (f, t) =>
        f === "main.tf" ? `${t}\nmodule "dns" {\n  source = "./modules/dns"\n\n  name = var.machine_name\n}\n` : t,
      ),
      "vm/modules/dns/main.tf": 'variable "name" {\n  type = string\n}\n\noutput "fqdn" {\n  value = "${var.name}.nodes.example.internal"\n}\n',
    });
    const r = runCli(["--json", "--recursive", "."], { cwd: root });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(json(r.stdout).module).toBe("vm");
  });
});

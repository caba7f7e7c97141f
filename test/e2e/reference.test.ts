/**
 * Compatibility with the Go tfcapi-lint, pinned through the CLI: the JSON
 * document, module-level findings, the sort order, exit codes,
 * --allow-warning, the two file sets, OpenTofu shadowing, nested modules,
 * escapes, cycles, and which checks run on children.
 */
import { describe, expect, it } from "vitest";
import { cpSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { briefs, copyFixture, fixtureFiles, parseDoc, REPO, runCli, tempDir, tree, writeTree, type JsonDoc } from "./helpers.js";

const REF_KEYS = ["module", "contract", "role", "findings", "summary"];
const REF_FINDING_KEYS = ["id", "severity", "file", "line", "message"];

const noInterruptible = (file: string, text: string): string =>
  file === "outputs.tf" ? text.replace('output "interruptible" {\n  value = false\n}\n\n', "") : text;

function recount(doc: JsonDoc): JsonDoc["summary"] {
  const s = { error: 0, warning: 0, info: 0 };
  for (const f of doc.findings) s[f.severity as keyof typeof s]++;
  return s;
}

describe("the JSON report", () => {
  it("module --role machinepool --strict --json: exact document (key order, 2-space indent, trailing newline)", () => {
    const root = copyFixture("pool-nested", "pool");
    const r = runCli(["module", "--role", "machinepool", "--strict", "--json", "pool"], { cwd: root });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        "{",
        '  "module": "pool",',
        '  "contract": "v1alpha1",',
        '  "role": "machinepool",',
        '  "findings": [',
        "    {",
        '      "id": "module/backend",',
        '      "severity": "error",',
        '      "file": "modules/node-labels/versions.tf",',
        '      "line": 5,',
        '      "message": "Remove the backend \\"s3\\" block: the controller\'s generated root stores state in its own backend, and a backend in a called module makes init fail.",',
        '      "column": 3,',
        '      "endLine": 5,',
        '      "endColumn": 15,',
        '      "ruleUrl": "https://github.com/captf-io/tfcapi-lint/blob/main/rules/module/backend.md"',
        "    }",
        "  ],",
        '  "summary": {',
        '    "error": 1,',
        '    "warning": 0,',
        '    "info": 0',
        "  },",
        '  "roleSource": "flag",',
        '  "fileSet": "terraform",',
        '  "suppressed": []',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("a report with many findings keeps the reference keys first, findings as an array, the summary recounted", () => {
    const root = tempDir();
    cpSync(path.join(REPO, "examples", "broken-machinepool"), path.join(root, "broken"), { recursive: true });
    const r = runCli(["module", "--role", "machinepool", "--strict", "--json", "./broken"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith("}\n")).toBe(true);
    const doc = parseDoc(r.stdout);
    expect(JSON.stringify(doc, null, 2) + "\n").toBe(r.stdout);
    expect(Object.keys(doc).slice(0, 5)).toEqual(REF_KEYS);
    expect(doc.module).toBe("./broken");
    expect(doc.contract).toBe("v1alpha1");
    expect(Array.isArray(doc.findings)).toBe(true);
    expect(doc.findings.length).toBeGreaterThan(5);
    for (const f of doc.findings) {
      expect(Object.keys(f).slice(0, 5)).toEqual(REF_FINDING_KEYS);
      expect(["error", "warning", "info"]).toContain(f.severity);
    }
    expect(Object.keys(doc.summary)).toEqual(["error", "warning", "info"]);
    expect(doc.summary).toEqual(recount(doc));
  });

  it("a clean module: findings is an empty array, exit 0", () => {
    const root = copyFixture("machine", "m");
    const r = runCli(["module", "--role", "machine", "--strict", "--json", "m"], { cwd: root });
    expect(r.code).toBe(0);
    const doc = parseDoc(r.stdout);
    expect(doc.findings).toEqual([]);
    expect(doc.summary).toEqual({ error: 0, warning: 0, info: 0 });
  });
});

describe("module-level findings", () => {
  it('have file "" and line 0 in JSON, "-" under the module path in text, path:0:0 in compact', () => {
    const dir = tree(fixtureFiles("machine", "", noInterruptible));
    const json = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    expect(json.code).toBe(1);
    const f = parseDoc(json.stdout).findings;
    expect(f.map((x) => [x.id, x.severity, x.file, x.line, x.column, x.endLine, x.endColumn])).toEqual([
      ["output/required", "error", "", 0, 0, 0, 0],
    ]);
    const text = runCli(["--role", "machine", "."], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n").slice(0, 4)).toEqual([
      ".",
      `  -  error  ${f[0]!.message}  output/required`,
      "",
      "✖ 1 problem (1 error, 0 warnings, 0 info)",
    ]);
    const compact = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    expect(compact.stdout).toBe(`.:0:0: error: ${f[0]!.message} [output/required]\n`);
  });
});

describe("sort order", () => {
  it("file (byte order), line, rule id, message: a lower column does not jump ahead of a lower rule id", () => {
    const files = fixtureFiles("machine", "", noInterruptible);
    files["variables.tf"] = files["variables.tf"]!.replace("  type      = string\n  sensitive = true\n", "  type = string\n");
    const dir = tree({
      ...files,
      // Upper case sorts before lower case in byte order.
      "Zones.tf": 'output "captf_zones" {\n  value = ["fsn1", "nbg1"]\n}\n',
      "extra.tf":
        'output "captf_b" { # tfcapi-lint-ignore: output/reserve -- typo in the rule id\n  value = 1\n}\n\noutput "captf_a" {\n  value = 2\n}\n',
    });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect(briefs(parseDoc(r.stdout))).toEqual([
      "output/required error :0:0",
      "output/reserved warning Zones.tf:1:1",
      "lint/unknown-rule warning extra.tf:1:20",
      "output/reserved warning extra.tf:1:1",
      "output/reserved warning extra.tf:5:1",
      "input/sensitive warning variables.tf:28:10",
    ]);
  });
});

describe("exit codes", () => {
  const dirWith = (edit: (f: string, t: string) => string | null = (_f, t) => t): string => tree(fixtureFiles("machine", "", edit));
  const noVersion = (f: string, t: string): string => (f === "versions.tf" ? t.replace('  required_version = ">= 1.6.0"\n\n', "") : t);
  const insensitive = (f: string, t: string): string => (f === "variables.tf" ? t.replace("  type      = string\n  sensitive = true\n", "  type = string\n") : t);

  it("0: no errors; info never fails, not even with --strict", () => {
    const dir = dirWith(noVersion);
    const r = runCli(["module", "--role", "machine", "--strict", "--json", "."], { cwd: dir });
    expect(briefs(parseDoc(r.stdout))).toEqual(["module/version info :0:0"]);
    expect(r.code).toBe(0);
  });

  it("0 with a warning, 1 with the same warning under --strict", () => {
    const dir = dirWith(insensitive);
    const plain = runCli(["module", "--role", "machine", "--json", "."], { cwd: dir });
    expect(briefs(parseDoc(plain.stdout))).toEqual(["input/sensitive warning variables.tf:28:10"]);
    expect(plain.code).toBe(0);
    expect(runCli(["module", "--role", "machine", "--strict", "--json", "."], { cwd: dir }).code).toBe(1);
  });

  it("1: at least one error", () => {
    const r = runCli(["module", "--role", "machine", "--json", "."], { cwd: dirWith(noInterruptible) });
    expect(r.code).toBe(1);
  });

  it("2: the module cannot be read", () => {
    const dir = dirWith();
    writeFileSync(path.join(dir, "blob.tf"), Buffer.from([0x00, 0x01, 0x02]));
    const r = runCli(["module", "--role", "machine", "."], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: blob.tf contains a NUL byte at offset 0; it looks like a binary file, not Terraform source\n");
    expect(runCli(["module", "--role", "machine", "missing"], { cwd: dir }).code).toBe(2);
  });

  it("3: usage errors (bad flag, unknown role, argument count, unknown contract), one line and a pointer to --help", () => {
    const dir = dirWith();
    const cases: [string[], string][] = [
      [["module", "--role", "machine", "--bogus", "."], "tfcapi-lint: unknown option --bogus"],
      [["module", "--role", "pool", "."], 'tfcapi-lint: unknown role "pool" (use cluster, machine or machinepool)'],
      [["module", "--role", "machine"], "tfcapi-lint: module takes exactly one directory (got 0)"],
      [["module", "--role", "machine", ".", "."], "tfcapi-lint: module takes exactly one directory (got 2)"],
      [["module", "--role", "machine", "--contract", "v1beta1", "."], 'tfcapi-lint: unknown contract version "v1beta1" (known: v1alpha1)'],
      [["module", "."], ""],
    ];
    for (const [args, line] of cases.slice(0, -1)) {
      const r = runCli(args, { cwd: dir });
      expect(r.code, args.join(" ")).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`${line}\nRun tfcapi-lint --help for usage.\n`);
    }
    // Unlike the Go linter, --role may be omitted: the role is detected.
    const detected = runCli(["module", "--json", "."], { cwd: dir });
    expect(detected.code).toBe(0);
    expect(parseDoc(detected.stdout).role).toBe("machine");
    // ... and an undetectable role is the usage error the reference gives for a missing --role.
    const none = tree({ "main.tf": 'resource "hcloud_server" "x" {\n  name = "x"\n}\n' });
    const r = runCli(["module", "."], { cwd: none });
    expect(r.code).toBe(3);
    expect(r.stderr.split("\n")[0]).toBe(
      "tfcapi-lint: .: cannot tell which role the module implements: it declares none of the role-specific inputs or outputs; pass --role cluster|machine|machinepool",
    );
  });
});

describe("--allow-warning", () => {
  it("turns the named rules' warnings into info (comma list, repeatable), never touches errors, recounts the summary", () => {
    const root = tempDir();
    cpSync(path.join(REPO, "examples", "broken-machinepool"), path.join(root, "b"), { recursive: true });
    const base = runCli(["module", "--role", "machinepool", "--strict", "--json", "b"], { cwd: root });
    const before = parseDoc(base.stdout);
    const count = (doc: JsonDoc, id: string, sev: string): number => doc.findings.filter((f) => f.id === id && f.severity === sev).length;
    expect(count(before, "input/sensitive", "warning")).toBe(1);
    expect(count(before, "pool/min-max-unpinned", "warning")).toBe(2);
    expect(count(before, "drift/non-idempotent", "warning")).toBe(1);
    expect(count(before, "module/backend", "error")).toBe(1);

    const r = runCli(
      [
        "module", "--role", "machinepool", "--strict", "--json",
        "--allow-warning", "input/sensitive,pool/min-max-unpinned",
        "--allow-warning=drift/non-idempotent",
        "--allow-warning", "module/backend",
        "b",
      ],
      { cwd: root },
    );
    expect(r.code).toBe(1);
    const after = parseDoc(r.stdout);
    expect(count(after, "input/sensitive", "info")).toBe(1);
    expect(count(after, "pool/min-max-unpinned", "info")).toBe(2);
    expect(count(after, "drift/non-idempotent", "info")).toBe(1);
    expect(count(after, "module/backend", "error")).toBe(1);
    expect(after.findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}`)).toEqual(before.findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}`));
    expect(after.summary).toEqual(recount(after));
    expect(after.summary).toEqual({ error: before.summary.error, warning: before.summary.warning - 4, info: before.summary.info + 4 });
  });

  it("with every warning allowed, --strict passes", () => {
    const dir = tree(fixtureFiles("machine", "", (f, t) => (f === "variables.tf" ? t.replace("  type      = string\n  sensitive = true\n", "  type = string\n") : t)));
    const r = runCli(["module", "--role", "machine", "--strict", "--json", "--allow-warning", "input/sensitive", "."], { cwd: dir });
    expect(r.code).toBe(0);
    expect(parseDoc(r.stdout).summary).toEqual({ error: 0, warning: 0, info: 1 });
  });
});

describe("file sets", () => {
  it("a.tf a.tofu b.tf c.tf.json c.tofu.json d.tf.json e.tofu f.tf: declarations from Terraform's set, expressions from OpenTofu's", () => {
    // Each file declares a backend (an expression check: OpenTofu's set when
    // any .tofu exists) and an output named after itself with the reserved
    // prefix (a declaration check: Terraform's set).
    const files: Record<string, string> = { ...fixtureFiles("machine") };
    for (const name of ["a.tf", "a.tofu", "b.tf", "c.tf.json", "c.tofu.json", "d.tf.json", "e.tofu", "f.tf"]) {
      const id = name.replace(/\./g, "_");
      files[name] = name.endsWith(".json")
        ? JSON.stringify({ terraform: { backend: { local: { path: `${id}.tfstate` } } }, output: { [`captf_${id}`]: { value: name } } }, null, 2) + "\n"
        : `terraform {\n  backend "local" {\n    path = "${id}.tfstate"\n  }\n}\n\noutput "captf_${id}" {\n  value = "${name}"\n}\n`;
    }
    const dir = tree(files);
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    expect(r.code).toBe(1);
    const doc = parseDoc(r.stdout);
    expect(doc.fileSet).toBe("opentofu");
    const filesOf = (id: string): string[] => [...new Set(doc.findings.filter((f) => f.id === id).map((f) => f.file))];
    expect(filesOf("module/backend")).toEqual(["a.tofu", "b.tf", "c.tofu.json", "d.tf.json", "e.tofu", "f.tf"]);
    expect(filesOf("output/reserved")).toEqual(["a.tf", "b.tf", "c.tf.json", "d.tf.json", "f.tf"]);
    // The differences are tofu-shadow's: a.tf/a.tofu, c.tf.json/c.tofu.json, e.tofu.
    expect(filesOf("module/tofu-shadow")).toEqual(["a.tf", "a.tofu", "c.tf.json", "c.tofu.json", "e.tofu"]);
    expect(doc.findings.every((f) => ["module/backend", "output/reserved", "module/tofu-shadow"].includes(f.id))).toBe(true);
  });

  it("a .tofu copy that drops an output gives only module/tofu-shadow, not output/required", () => {
    const root = copyFixture("pool-tofu", "pool");
    const r = runCli(["module", "--role", "machinepool", "--json", "pool"], { cwd: root });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const doc = parseDoc(r.stdout);
    expect(doc.fileSet).toBe("opentofu");
    expect(briefs(doc)).toEqual(["module/tofu-shadow warning outputs.tf:24:1"]);
    expect(doc.findings[0]!.message).toContain('output "replicas"');
    expect(runCli(["module", "--role", "machinepool", "--strict", "--json", "pool"], { cwd: root }).code).toBe(1);
  });

  it("a .tofu-only module is fully linted (declaration and expression checks)", () => {
    const root = copyFixture("machine-tofu", "m");
    const r = runCli(["module", "--role", "machine", "--json", "m"], { cwd: root });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const doc = parseDoc(r.stdout);
    expect(doc.fileSet).toBe("opentofu");
    expect(briefs(doc)).toEqual(["input/sensitive warning variables.tofu:28:10", "module/backend error versions.tofu:4:3"]);
  });
});

describe("nested local modules", () => {
  /** pool-nested plus a second child with every kind of child problem. */
  function nestedTree(): { root: string; mod: string } {
    const root = copyFixture("pool-nested", "pool");
    const mod = path.join(root, "pool");
    writeTree(root, { "outside/main.tf": 'output "x" {\n  value = 1\n}\n' });
    writeTree(mod, {
      "legacy.tf": 'module "legacy" {\n  source = "./modules/legacy"\n\n  name = local.name\n}\n',
      "modules/legacy/main.tf": [
        'variable "name" {\n  type = string\n}\n',
        "# A contract input with the wrong type: root-only checks ignore children.",
        'variable "captf_cluster" {\n  type = string\n}\n',
        'terraform {\n  cloud {\n    organization = "example"\n\n    workspaces {\n      name = "legacy"\n    }\n  }\n}\n',
        'provider "aws" {\n  region     = "eu-west-1"\n  access_key = "AKIAIOSFODNN7EXAMPLE"\n}\n',
        'variable "autoscaling" {\n  type = object({\n    enabled = bool\n    min     = number\n    max     = number\n  })\n}\n',
        'resource "aws_autoscaling_group" "extra" {\n  name             = var.name\n  min_size         = var.autoscaling.enabled ? var.autoscaling.min : 1\n  max_size         = var.autoscaling.enabled ? var.autoscaling.max : 1\n  desired_capacity = 1\n}\n',
        'module "shared" {\n  source = "../../../outside"\n}\n',
        'module "vendored" {\n  source = "./vendored"\n}\n',
        'module "missing" {\n  source = "./not-there"\n}\n',
        "# A call back up to the root: a cycle, skipped without a finding.",
        'module "back" {\n  source = "../.."\n}\n',
      ].join("\n"),
    });
    symlinkSync("../../../outside", path.join(mod, "modules", "legacy", "vendored"));
    return { root, mod };
  }

  it("child findings carry the child path; only backend/cloud/provider-config/source-escape/autoscaling run on children", () => {
    const { root } = nestedTree();
    const r = runCli(["module", "--role", "machinepool", "--json", "pool"], { cwd: root, timeoutMs: 20_000 });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const doc = parseDoc(r.stdout);
    // Every finding is in a child (the root is clean), and no root-only
    // contract check (inputs, outputs, version, tofu-shadow) ran there.
    expect(doc.findings.every((f) => f.file.startsWith("modules/"))).toBe(true);
    expect(doc.findings.filter((f) => /^(input|output)\//.test(f.id) || f.id === "module/version" || f.id === "module/tofu-shadow")).toEqual([]);
    // The reference's all-module checks (newer rules may add their own findings).
    const REF_ALL = ["module/backend", "module/cloud", "module/provider-config", "module/source-escape", "pool/autoscaling-ignore-changes"];
    expect(briefs({ ...doc, findings: doc.findings.filter((f) => REF_ALL.includes(f.id)) })).toEqual([
      "module/cloud error modules/legacy/main.tf:11:3",
      "module/provider-config warning modules/legacy/main.tf:22:3",
      "pool/autoscaling-ignore-changes warning modules/legacy/main.tf:33:1",
      "module/source-escape error modules/legacy/main.tf:41:3",
      "module/source-escape error modules/legacy/main.tf:45:3",
      "module/source-escape error modules/legacy/main.tf:49:3",
      "module/backend error modules/node-labels/versions.tf:5:3",
    ]);
    const msgs = doc.findings.filter((f) => f.id === "module/source-escape").map((f) => f.message);
    expect(msgs[0]).toBe('module "shared": source "../../../outside" leaves the root module directory; only what is inside it ships with the module');
    expect(msgs[1]).toBe(
      `module "vendored": source "./vendored" resolves to ${path.join(root, "outside")}, outside the root module directory; only what is inside it ships with the module`,
    );
    expect(msgs[2]).toBe('module "missing": source "./not-there" cannot be resolved (no such file or directory)');
  });

  it("a module file symlinked outside the root is module/source-escape; the same link inside is fine", () => {
    const root = copyFixture("machine", "m");
    writeTree(root, { "shared/labels.tf": 'locals {\n  common_labels = { team = "platform" }\n}\n' });
    symlinkSync("../shared/labels.tf", path.join(root, "m", "labels.tf"));
    const r = runCli(["module", "--role", "machine", "--json", "m"], { cwd: root });
    expect(r.code).toBe(1);
    const doc = parseDoc(r.stdout);
    expect(briefs(doc)).toEqual(["module/source-escape error labels.tf:0:0"]);
    expect(doc.findings[0]!.message).toBe(
      `module file labels.tf is a symbolic link to ${path.join(root, "shared", "labels.tf")}, outside the module directory; it would not ship with the module`,
    );
    // Linked to a file inside the module directory: an ordinary module file.
    const inside = copyFixture("machine", "m");
    writeTree(inside, { "m/shared/labels.tf": 'locals {\n  common_labels = { team = "platform" }\n}\n' });
    symlinkSync("shared/labels.tf", path.join(inside, "m", "labels.tf"));
    const ok = runCli(["module", "--role", "machine", "--json", "m"], { cwd: inside });
    expect(ok.code).toBe(0);
    expect(briefs(parseDoc(ok.stdout))).toEqual([]);
  });

  it("lexical escapes from the root and a root that calls itself", () => {
    const files = fixtureFiles("machine");
    files["main.tf"] += '\nmodule "up" {\n  source = "../sibling"\n}\n\nmodule "self" {\n  source = "./"\n}\n\nmodule "registry" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.0.0"\n}\n';
    const dir = tree({ ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`m/${k}`, v])), "sibling/main.tf": "" });
    const r = runCli(["module", "--role", "machine", "--json", "m"], { cwd: dir, timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    const doc = parseDoc(r.stdout);
    expect(briefs(doc)).toEqual(["module/source-escape error main.tf:19:3"]);
    expect(doc.findings[0]!.message).toBe('module "up": source "../sibling" leaves the root module directory; only what is inside it ships with the module');
  });
});

/**
 * What `terraform validate` rejects in the module model (duplicate
 * declarations, override files without a base) is reported as syntax/parse
 * errors at the exact place, once even when the file is in both file sets.
 */
import { describe, expect, it } from "vitest";
import { fixtureFiles, parseDoc, runCli, tree } from "./helpers.js";

function lint(dir: string, extra: string[] = []): { code: number | null; doc: ReturnType<typeof parseDoc> } {
  const r = runCli(["--role", "machine", "--json", ...extra, "."], { cwd: dir });
  expect(r.stderr).toBe("");
  return { code: r.code, doc: parseDoc(r.stdout) };
}

const view = (doc: ReturnType<typeof parseDoc>): string[][] =>
  doc.findings.map((f) => [f.id, f.severity, `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn}`, f.message]);

describe("duplicate declarations", () => {
  it("a variable and an output declared twice are syntax/parse errors at the second declaration's name", () => {
    const dir = tree({
      ...fixtureFiles("machine"),
      "zones.tf": 'variable "machine_name" {\n  type = string\n}\n\noutput "health" {\n  value = { state = "running", healthy = true }\n}\n',
    });
    const { code, doc } = lint(dir);
    expect(code).toBe(1);
    // Files are read in byte order: outputs.tf and variables.tf come before zones.tf.
    expect(view(doc)).toEqual([
      [
        "syntax/parse",
        "error",
        "zones.tf:1:10-1:24",
        'Duplicate variable: A variable named "machine_name" is already declared at variables.tf:24; names must be unique within a module. Rename or remove one of them.',
      ],
      [
        "syntax/parse",
        "error",
        "zones.tf:5:8-5:16",
        'Duplicate output value: An output value named "health" is already declared at outputs.tf:20; names must be unique within a module. Rename or remove one of them.',
      ],
    ]);
    // --rule syntax/parse=off silences them like any other parse finding.
    const off = lint(dir, ["--rule", "syntax/parse=off"]);
    expect(off.doc.findings.filter((f) => f.id === "syntax/parse")).toEqual([]);
  });

  it("a duplicate seen by both file sets is reported once; one only OpenTofu sees is reported too", () => {
    const dir = tree({
      ...fixtureFiles("machine"),
      // In both sets (no extra.tofu): the duplicate is in both models.
      "extra.tf": 'locals {\n  location = "nbg1"\n}\n',
      // Only in OpenTofu's set.
      "tofu.tofu": 'variable "control_plane" {\n  type = bool\n}\n',
    });
    const { code, doc } = lint(dir);
    expect(code).toBe(1);
    expect(doc.findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}`)).toEqual([
      "syntax/parse main.tf:2:3",
      // OpenTofu reads tofu.tofu before variables.tf: the second one is the duplicate.
      "syntax/parse variables.tf:47:10",
    ]);
    expect(doc.findings[1]!.message).toBe(
      'Duplicate variable: A variable named "control_plane" is already declared at tofu.tofu:1; names must be unique within a module. Rename or remove one of them.',
    );
    expect(doc.findings[0]!.message).toBe(
      'Duplicate local value: A local value named "location" is already declared at extra.tf:2; names must be unique within a module. Rename or remove one of them.',
    );
  });
});

describe("override files without a base", () => {
  it("overriding an output and a local that no ordinary file declares", () => {
    const dir = tree({
      ...fixtureFiles("machine"),
      "dev_override.tf": 'output "public_ip" {\n  value = hcloud_server.node.ipv4_address\n}\n\nlocals {\n  location = "hel1"\n  zone     = "eu-central"\n}\n',
    });
    const { code, doc } = lint(dir);
    expect(code).toBe(1);
    expect(view(doc)).toEqual([
      [
        "syntax/parse",
        "error",
        "dev_override.tf:1:8-1:19",
        'Missing base output value to override: dev_override.tf overrides the output value "public_ip", but no ordinary (non-override) file of the module declares it. Declare it in a regular file or remove the override.',
      ],
      [
        "syntax/parse",
        "error",
        "dev_override.tf:7:3-7:7",
        "Missing base local value definition to override: dev_override.tf overrides local.zone, but no ordinary (non-override) file of the module defines it. Define it in a regular file or remove the override.",
      ],
    ]);
  });

  it("in a local child module, with the child's path", () => {
    const files = fixtureFiles("machine");
    files["main.tf"] += '\nmodule "dns" {\n  source = "./modules/dns"\n\n  name = var.machine_name\n}\n';
    const dir = tree({
      ...files,
      "modules/dns/main.tf": 'variable "name" {\n  type = string\n}\n\nvariable "name" {\n  type = string\n}\n',
      "modules/dns/override.tf": 'resource "hcloud_rdns" "node" {\n  dns_ptr = "node.example.com"\n}\n',
    });
    const { code, doc } = lint(dir);
    expect(code).toBe(1);
    expect(doc.findings.map((f) => `${f.id} ${f.severity} ${f.file}:${f.line}:${f.column}`)).toEqual([
      "syntax/parse error modules/dns/main.tf:5:10",
      "syntax/parse error modules/dns/override.tf:1:24",
    ]);
  });
});

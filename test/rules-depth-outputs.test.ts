/**
 * Unit tests of the contract-depth output rules' helpers (credential names,
 * access paths) and of their behaviour on hostile input: exponential
 * chains of locals, self-referencing locals, and files that fail to parse.
 * The rules themselves are tested case by case in fixtures/output/.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { lintModule } from "./helpers/lint.js";
import { parseModuleFile as parseHcl } from "../src/terraform/parse.js";
import type { Role } from "../src/contract/roles-api.js";
import { accesses, isCredentialName } from "../rules/output/exports-secret.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function moduleDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-depth-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function lint(dir: string, role: Role, rule: string) {
  const outcome = lintModule(dir, { role, only: [rule], now: new Date("2026-01-01T00:00:00Z") });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome.report.findings.map((f) => ({
    ruleId: f.ruleId,
    file: f.file,
    line: f.range.start.line,
    column: f.range.start.column,
    endColumn: f.range.end.column,
    message: f.message,
  }));
}

describe("isCredentialName", () => {
  it.each([
    "password",
    "admin_password",
    "db-password",
    "ses_smtp_password_v4",
    "secret",
    "client_secret",
    "token",
    "join_token",
    "private_key",
    "private_key_pem",
    "private_key_openssh",
    "access_key",
    "secret_access_key",
    "api_key",
    "primary_access_key",
    "primary_connection_string",
    "secret_string",
    "kube_config_raw",
    "kubeconfig",
    "Passphrase",
  ])("%s is a credential", (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each([
    "public_key",
    "public_key_openssh",
    "key_name",
    "kms_key_id",
    "secret_arn",
    "secret_id",
    "token_ttl",
    "password_reset_required",
    "ssh_key_names",
    "api_target_group_arn",
    "kubeconfig_secret_name",
    "v4",
    "",
  ])("%s is not a credential", (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
});

describe("accesses", () => {
  function paths(src: string): string[] {
    const parsed = parseHcl(`x = ${src}\n`, "t.tf");
    const expr = parsed.file.body.attributes[0]!.expr;
    return accesses(expr).map((a) => a.names.join("."));
  }

  it("follows splats, indexes and relative traversals to the full attribute path", () => {
    expect(paths(`one(aws_iam_access_key.ccm[*].secret)`)).toEqual(["aws_iam_access_key.ccm.secret"]);
    expect(paths(`aws_iam_access_key.ccm[0].secret`)).toEqual(["aws_iam_access_key.ccm.secret"]);
    expect(paths(`data.kubernetes_secret.s.data["password"]`)).toEqual(["data.kubernetes_secret.s.data.password"]);
    expect(paths(`(random_password.db).result`)).toEqual(["random_password.db.result"]);
    expect(paths(`tls_private_key.ca[var.i].private_key_pem`)).toEqual(["tls_private_key.ca.private_key_pem", "var.i"]);
  });

  it("skips names bound by for expressions and the arguments of hashing functions", () => {
    expect(paths(`[for p in random_password.all : p.result]`)).toEqual(["random_password.all"]);
    expect(paths(`sha256(random_password.db.result)`)).toEqual([]);
    expect(paths(`{ n = length(random_password.db.result), id = aws_vpc.this.id }`)).toEqual(["aws_vpc.this.id"]);
  });
});

describe("hostile input", () => {
  const vars = `variable "flip" {\n  type    = bool\n  default = false\n}\n`;

  it("answers quickly when every local branches twice into the next (exponential alternatives)", () => {
    const n = 40;
    let locals = "locals {\n";
    for (let i = 0; i < n; i++) locals += `  l${i} = var.flip ? local.l${i + 1} : local.l${i + 1}\n`;
    locals += `  l${n} = { state = "ready", healthy = true }\n}\n`;
    const dir = moduleDir({
      "main.tf": vars + locals,
      "outputs.tf": `output "health" {\n  value = local.l0\n}\n`,
    });
    const started = Date.now();
    const findings = lint(dir, "machine", "output/health-shape");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: "output/health-shape", file: "main.tf", line: 6 + n, column: 19, endColumn: 26 });
    expect(findings[0]!.message).toContain('health.state "ready"');
    expect(findings[0]!.message).toContain("(via local.l0, local.l1, ... local.l40)");
  });

  it("answers quickly when lists double through concat of locals", () => {
    const n = 40;
    let locals = "locals {\n";
    for (let i = 0; i < n; i++) locals += `  d${i} = concat(local.d${i + 1}, local.d${i + 1})\n`;
    locals += `  d${n} = [{ name = "rack-1", control_plane = "yes" }]\n}\n`;
    const dir = moduleDir({
      "main.tf": locals,
      "outputs.tf": `output "failure_domains" {\n  value = local.d0\n}\n`,
    });
    const started = Date.now();
    const findings = lint(dir, "cluster", "output/failure-domains-shape");
    expect(Date.now() - started).toBeLessThan(5000);
    // The list really holds 2^40 copies of the entry: a duplicate name, a
    // bad control_plane and too many entries, each reported once.
    const positions = findings.map((f) => [f.file, f.line, f.column, f.endColumn]);
    expect(positions).toHaveLength(3);
    expect(positions).toEqual(
      expect.arrayContaining([
        ["main.tf", 2 + n, 19, 27],
        ["main.tf", 2 + n, 45, 50],
        ["outputs.tf", 2, 11, 19],
      ]),
    );
    const duplicate = findings.find((f) => f.column === 19)!;
    expect(duplicate.message).toContain('failure domain name "rack-1"');
    expect(duplicate.message).toContain("is already used (line 42)");
    expect(findings.find((f) => f.file === "outputs.tf")!.message).toMatch(/^failure_domains lists \d+ entries/);
  });

  it("stays silent on locals that refer to themselves", () => {
    const dir = moduleDir({
      "main.tf": `locals {\n  a = local.b\n  b = local.a\n  c = merge(local.c, { state = "running" })\n}\n`,
      "outputs.tf": `output "health" {\n  value = var.flip ? local.a : local.c\n}\n` + vars,
    });
    expect(lint(dir, "machine", "output/health-shape")).toEqual([]);
  });

  it("does not throw on a value that failed to parse", () => {
    const dir = moduleDir({
      "outputs.tf": `output "health" {\n  value = { state = , healthy = true }\n}\noutput "addresses" {\n  value = [{ type = "Internal" address = "x" }]\n}\n`,
    });
    for (const rule of ["output/health-shape", "output/addresses-shape", "output/failure-domain-input"]) {
      expect(() => lint(dir, "machine", rule)).not.toThrow();
    }
  });
});

/**
 * The path of a finding (Finding.related) through the built CLI: text "via"
 * lines, the JSON `related` array, SARIF relatedLocations and codeFlows, the
 * same on one thread and on worker threads (`--jobs 2`), and nothing extra
 * for findings without a path.
 */
import { describe, expect, it } from "vitest";
import { cpSync } from "node:fs";
import * as path from "node:path";
import { REPO, runCli, tempDir } from "./helpers.js";
import { moduleDirOf } from "../../scripts/fixture-modules.mjs";

/** Two modules whose findings carry paths: a chain of locals, and a child module fed by its caller. */
function corpus(): string {
  const root = tempDir();
  cpSync(moduleDirOf(path.join(REPO, "fixtures/version/distro-suffix/through-local-chain")), path.join(root, "pool"), { recursive: true });
  cpSync(moduleDirOf(path.join(REPO, "fixtures/bootstrap/encoding/child-module-double-encodes")), path.join(root, "lt"), { recursive: true });
  return root;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const DISTRO = [
  { file: "main.tf", line: 14, column: 19, endLine: 14, endColumn: 142, message: "local.image_name" },
  { file: "main.tf", line: 13, column: 19, endLine: 13, endColumn: 36, message: "local.image_version" },
  { file: "main.tf", line: 12, column: 19, endLine: 12, endColumn: 58, message: "local.k8s_version" },
  { file: "variables.tf", line: 60, column: 1, endLine: 60, endColumn: 30, message: "var.kubernetes_version (variable)" },
];
const ENCODING = [
  { file: "modules/launch-template/main.tf", line: 9, column: 1, endLine: 9, endColumn: 21, message: "var.user_data (variable)" },
  { file: "main.tf", line: 6, column: 17, endLine: 6, endColumn: 35, message: "module.launch_template.user_data" },
  { file: "variables.tf", line: 39, column: 1, endLine: 39, endColumn: 26, message: "var.bootstrap_data (variable)" },
];

describe("a finding's path through the CLI", () => {
  it("JSON: a related array on the findings that followed values, the same with --jobs 2", () => {
    const root = corpus();
    const args = ["--format", "json", "pool", "lt"];
    const one = runCli([...args, "--jobs", "1"], { cwd: root });
    const two = runCli([...args, "--jobs", "2"], { cwd: root });
    expect({ code: two.code, stdout: two.stdout, stderr: two.stderr }).toEqual({ code: one.code, stdout: one.stdout, stderr: one.stderr });
    expect(one.code).toBe(1);
    const [pool, lt] = JSON.parse(one.stdout) as Json[];
    const distro = pool.findings.filter((f: Json) => f.id === "version/distro-suffix");
    expect(distro.map((f: Json) => f.related)).toEqual([DISTRO]);
    const encoding = lt.findings.filter((f: Json) => f.id === "bootstrap/encoding");
    expect(encoding.map((f: Json) => f.related)).toEqual([ENCODING]);
    // Findings that followed nothing keep the reference shape.
    const others = [...pool.findings, ...lt.findings].filter((f: Json) => f.id !== "version/distro-suffix" && f.id !== "bootstrap/encoding");
    expect(others.length).toBeGreaterThan(0);
    for (const f of others) expect(Object.keys(f)).toEqual(["id", "severity", "file", "line", "message", "column", "endLine", "endColumn", "ruleUrl"]);
  });

  it("text: via lines under the frame, paths from the working directory, on one thread and on two", () => {
    const root = corpus();
    const one = runCli(["pool", "lt", "--jobs", "1"], { cwd: root });
    const two = runCli(["pool", "lt", "--jobs", "2"], { cwd: root });
    expect(two.stdout).toBe(one.stdout);
    const lines = one.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("  23:18  warning  local.image_name"));
    expect(lines.slice(at + 1, at + 7)).toEqual([
      '    23 |     values = ["${local.image_name}-*"]',
      "       |                  ^^^^^^^^^^^^^^^^",
      "    via pool/main.tf:14:19  local.image_name",
      "    via pool/main.tf:13:19  local.image_version",
      "    via pool/main.tf:12:19  local.k8s_version",
      "    via pool/variables.tf:60:1  var.kubernetes_version (variable)",
    ]);
    const enc = lines.findIndex((l) => l.startsWith("  23:28  error  aws_launch_template.this user_data takes base64"));
    expect(lines.slice(enc + 3, enc + 7)).toEqual([
      "    via lt/modules/launch-template/main.tf:9:1  var.user_data (variable)",
      "    via lt/main.tf:6:17  module.launch_template.user_data",
      "    via lt/variables.tf:39:1  var.bootstrap_data (variable)",
      "",
    ]);
    // Only findings with a path get via lines: 7 in all.
    expect(lines.filter((l) => l.startsWith("    via ")).length).toBe(7);
  });

  it("SARIF: relatedLocations and a codeFlows thread, repository-relative, the same with --jobs 2", () => {
    const root = corpus();
    const one = runCli(["--format", "sarif", "pool", "lt", "--jobs", "1"], { cwd: root });
    const two = runCli(["--format", "sarif", "pool", "lt", "--jobs", "2"], { cwd: root });
    expect(two.stdout).toBe(one.stdout);
    const results = JSON.parse(one.stdout).runs[0].results as Json[];
    const enc = results.find((r) => r.ruleId === "bootstrap/encoding");
    const loc = (uri: string, startLine: number, startColumn: number, endLine: number, endColumn: number) => ({
      artifactLocation: { uri, uriBaseId: "%SRCROOT%" },
      region: { startLine, startColumn, endLine, endColumn },
    });
    const hops = [
      loc("lt/modules/launch-template/main.tf", 9, 1, 9, 21),
      loc("lt/main.tf", 6, 17, 6, 35),
      loc("lt/variables.tf", 39, 1, 39, 26),
    ];
    expect(enc.relatedLocations).toEqual(hops.map((physicalLocation, i) => ({ id: i + 1, physicalLocation, message: { text: ENCODING[i]!.message } })));
    const thread = enc.codeFlows[0].threadFlows[0].locations.map((l: Json) => l.location.physicalLocation);
    expect(thread).toEqual([loc("lt/modules/launch-template/main.tf", 23, 28, 23, 55), ...hops]);
    expect(results.filter((r) => r.relatedLocations !== undefined).map((r) => r.ruleId)).toEqual(["version/distro-suffix", "bootstrap/encoding"]);
    expect(results.filter((r) => r.codeFlows !== undefined)).toHaveLength(2);
  });
});

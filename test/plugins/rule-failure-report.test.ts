/**
 * A plugin rule that throws is a failed rule in every format, not a file
 * that could not be read: text says "(rule failed)" and "1 rule failure",
 * the machine formats use the id rule-error, and JUnit fails the rule's own
 * test case. A real read error in the same run keeps read-error.
 */
import { describe, expect, it } from "vitest";
import { cpSync } from "node:fs";
import * as path from "node:path";
import { REPO, runCli, tempDir, writeTree } from "../e2e/helpers.js";

const THROWING = `
export default {
  name: "boom",
  rules: [
    { id: "boom/explodes", severity: "error", roles: ["machinepool"], summary: "Always throws", check() { throw new TypeError("cannot read the moon"); } },
  ],
};
`;
const MESSAGE = "pool: rule boom/explodes of plugin boom failed on .: cannot read the moon (report it to the plugin's authors)";

function repo(): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
  writeTree(root, { "lint/boom.mjs": THROWING, ".tfcapi-lint.hcl": 'plugins = ["./lint/boom.mjs"]\n' });
  return root;
}

describe("a rule that throws, in each format", () => {
  // A fresh repository per call (the e2e helpers remove temporary directories after each test).
  const lint = (args: string[]) => runCli([...args, "pool"], { cwd: repo() });

  it("text names it a rule failure, not an unread module", () => {
    const r = lint([]);
    expect(r.code).toBe(2);
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([`error  ${MESSAGE}  (rule failed)`, "", "✖ not fully linted: 1 rule failure"]);
    expect(r.stdout).not.toContain("read error");
    expect(r.stdout).not.toContain("(not linted)");
  });

  it("text counts a rule failure and a read error apart", () => {
    const r = runCli(["pool", "missing"], { cwd: repo() });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`error  ${MESSAGE}  (rule failed)\n`);
    expect(r.stdout).toContain("error  missing: no such file or directory  (not linted)\n");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("✖ not fully linted: 1 read error and 1 rule failure");
  });

  it("compact, checkstyle, github, JUnit and SARIF use the id rule-error", () => {
    expect(lint(["--format", "compact"]).stdout).toBe(`pool:0:0: error: ${MESSAGE} [rule-error]\n`);
    expect(lint(["--format", "checkstyle"]).stdout).toContain(`<error severity="error" message="${MESSAGE.replace("'", "&apos;")}" source="tfcapi-lint.rule-error"/>`);
    expect(lint(["--format", "github"]).stdout).toContain(`::error title=tfcapi-lint rule error::${MESSAGE}\n`);
    expect(lint(["--format", "junit"]).stdout).not.toContain("read-error");
    const sarif = JSON.parse(lint(["--format", "sarif"]).stdout) as { runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { descriptor: { id: string }; message: { text: string } }[] }[] }[] };
    const inv = sarif.runs[0]!.invocations[0]!;
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications.map((n) => [n.descriptor.id, n.message.text])).toEqual([["rule-error", MESSAGE]]);
  });

  it("JUnit fails the rule's own test case (never a passed one) and counts it as a failure", () => {
    const junit = lint(["--format", "junit"]).stdout;
    const escaped = MESSAGE.replace("'", "&apos;");
    expect(junit).toContain(
      `    <testcase name="boom/explodes" classname="pool" time="0">\n      <failure message="${escaped}" type="rule-error">${escaped}</failure>\n    </testcase>\n`,
    );
    expect(junit).not.toContain('<testcase name="boom/explodes" classname="pool" time="0"/>');
    expect(junit).not.toContain('name="rule-error"');
    // Every other rule of the role passes: one failure in the suite and the run, no errors.
    const suite = /<testsuite name="pool" tests="(\d+)" failures="(\d+)" errors="(\d+)"/.exec(junit)!;
    expect([suite[2], suite[3]]).toEqual(["1", "0"]);
    expect(junit).toMatch(new RegExp(`<testsuites name="tfcapi-lint" tests="${suite[1]}" failures="1" errors="0" time="0">`));
    expect(junit.match(/<failure /g)).toHaveLength(1);
  });

  it("JUnit keeps a read error in the same run as a case in error beside the failed rule", () => {
    const junit = runCli(["--format", "junit", "pool", "missing"], { cwd: repo() }).stdout;
    expect(junit).toContain('<testcase name="boom/explodes" classname="pool" time="0">\n      <failure ');
    expect(junit).toContain('<testcase name="read-error" classname="missing" time="0">\n      <error message="missing: no such file or directory" type="read-error">missing</error>');
    expect(junit).toMatch(/<testsuites name="tfcapi-lint" tests="\d+" failures="1" errors="1" time="0">/);
  });

  it("a real read error keeps read-error", () => {
    expect(runCli(["--format", "compact", "missing"], { cwd: repo() }).stdout).toBe("missing:0:0: error: missing: no such file or directory [read-error]\n");
  });
});

/**
 * Issue 17, item 5: the report says why a run fails when --quiet hides the
 * findings that fail it, in every format that has a place for it; and
 * --print-config --format json gives `role` the shape of every other key.
 */
import { describe, expect, it } from "vitest";
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { canDropPrivileges, fixtureFiles, insensitiveBootstrap, runCli, runUnprivileged, tree } from "./helpers.js";

const canDrop = canDropPrivileges("unsearchable directories and unreadable plugin files");

/** The clean machine module with one warning (input/sensitive at variables.tf:28:10). */
function oneWarning(): string {
  return tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
}

describe("--quiet hiding the findings that fail the run", () => {
  it("text: --strict -q says why it fails instead of \"no problems\"", () => {
    const dir = oneWarning();
    const r = runCli(["--strict", "-q", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe("✖ no problems shown, but 1 warning hidden by --quiet fails the run (--strict)");
    expect(r.stderr).toBe("");
    // Without --strict the hidden warning fails nothing: as before.
    const plain = runCli(["-q", "."], { cwd: dir });
    expect([plain.code, plain.stdout.split("\n")[0]]).toEqual([0, "✔ no problems"]);
  });

  it("text: fail_on from the config is named as it is written", () => {
    const dir = oneWarning();
    writeFileSync(path.join(dir, ".tfcapi-lint.hcl"), 'fail_on = "warning"\n');
    const r = runCli(["-q", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe('✖ no problems shown, but 1 warning hidden by --quiet fails the run (fail_on = "warning")');
  });

  it("JSON: the summary counts what was hidden and says why the run fails", () => {
    const dir = oneWarning();
    const r = runCli(["--strict", "-q", "-f", "json", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { summary: unknown }).summary).toEqual({
      error: 0,
      warning: 0,
      info: 0,
      hiddenByQuiet: { warning: 1, info: 0 },
      quietFailure: "1 warning hidden by --quiet fails the run (--strict)",
    });
    // Hidden but failing nothing: the summary is as before.
    const plain = runCli(["-q", "-f", "json", "."], { cwd: dir });
    expect(plain.code).toBe(0);
    expect((JSON.parse(plain.stdout) as { summary: unknown }).summary).toEqual({ error: 0, warning: 0, info: 0 });
    // Without -q the summary keeps the reference's three keys only.
    expect((JSON.parse(runCli(["--strict", "-f", "json", "."], { cwd: dir }).stdout) as { summary: unknown }).summary).toEqual({ error: 0, warning: 1, info: 0 });
  });

  it("JUnit: a failing hidden-by-quiet case, counted in the suite", () => {
    const dir = oneWarning();
    const r = runCli(["--strict", "-q", "-f", "junit", "."], { cwd: dir });
    expect(r.code).toBe(1);
    // One case per rule of the role (their number grows with the rules) plus the hidden-by-quiet one, which fails.
    const cases = r.stdout.split("<testcase ").length - 1;
    expect(r.stdout).toContain(`<testsuites name="tfcapi-lint" tests="${cases}" failures="1" errors="0" time="0">`);
    expect(r.stdout.split("<failure ").length - 1).toBe(1);
    expect(r.stdout).toContain(
      '    <testcase name="hidden-by-quiet" classname="." time="0">\n' +
        '      <failure message="1 warning hidden by --quiet fails the run (--strict)" type="warning">1 warning hidden by --quiet fails the run (--strict)</failure>\n' +
        "    </testcase>\n",
    );
  });

  it("github: an error annotation and the module line say why", () => {
    const dir = oneWarning();
    const r = runCli(["--strict", "-q", "-f", "github", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      "::error title=tfcapi-lint::.: 1 warning hidden by --quiet fails the run (--strict)\n" +
        "tfcapi-lint: . (role machine, detected): 0 errors, 0 warnings, 0 info; 1 warning hidden by --quiet fails the run (--strict)\n",
    );
  });

  it("github: the job summary says why too", () => {
    const dir = oneWarning();
    const summary = path.join(dir, "summary.md");
    const r = runCli(["--strict", "-q", "-f", "github", "."], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    expect(readFileSync(summary, "utf8")).toBe(
      "## tfcapi-lint\n\n### . (machine)\n\nNo problems shown, but 1 warning hidden by --quiet fails the run (--strict).\n\n0 errors, 0 warnings, 0 info.\n",
    );
  });

  it("compact: stdout keeps findings only, stderr says why", () => {
    const dir = oneWarning();
    const r = runCli(["--strict", "-q", "-f", "compact", "."], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", "tfcapi-lint: 1 warning hidden by --quiet fails the run (--strict)\n"]);
  });

  it("--max-warnings with -q: the module line and the limit line both say the warnings were hidden", () => {
    const dir = oneWarning();
    const r = runCli(["--max-warnings", "0", "-q", "."], { cwd: dir });
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("✖ no problems shown, but 1 warning hidden by --quiet counts toward --max-warnings 0");
    expect(lines.slice(-2)).toEqual(["✖ 1 warning (1 hidden by --quiet), more than --max-warnings 0", ""]);
    const junit = runCli(["--max-warnings", "0", "-q", "-f", "junit", "."], { cwd: dir });
    expect(junit.stdout).toContain('<testcase name="max-warnings" classname="tfcapi-lint" time="0">\n      <failure message="1 warning (1 hidden by --quiet), more than --max-warnings 0"');
  });
});

describe("--print-config --format json", () => {
  it("role is {value, origin} whether set or not", () => {
    const dir = oneWarning();
    const detected = runCli(["--print-config", ".", "--format", "json"], { cwd: dir });
    expect(detected.code).toBe(0);
    expect((JSON.parse(detected.stdout) as { role: unknown }).role).toEqual({ value: null, origin: "default" });
    const flag = runCli(["--print-config", ".", "--format", "json", "--role", "machine"], { cwd: dir });
    expect((JSON.parse(flag.stdout) as { role: unknown }).role).toEqual({ value: "machine", origin: "--role" });
    writeFileSync(path.join(dir, ".tfcapi-lint.hcl"), 'role = "machine"\n');
    const config = runCli(["--print-config", ".", "--format", "json"], { cwd: dir });
    expect((JSON.parse(config.stdout) as { role: unknown }).role).toEqual({ value: "machine", origin: ".tfcapi-lint.hcl:1:8" });
  });
});

describe("an unclosed heredoc", () => {
  it("keeps HashiCorp's subject (end of file) and names its opener, where the finding is shown", async () => {
    const { parseHcl } = await import("../../src/index.js");
    const d = parseHcl("a = <<EOT\nx\n", "main.tf").diagnostics;
    expect(d.map((x) => [x.summary, x.subject.start.line, x.subject.start.column, x.opener?.start.line, x.opener?.start.column, x.opener?.end.column])).toEqual([
      ["Unterminated template string", 3, 1, 1, 5, 10],
    ]);
    const dir = tree({ ...fixtureFiles("machine-clean"), "extra.tf": 'locals {\n  script = <<EOT\necho hi\n}\n' });
    const r = runCli(["-f", "compact", "."], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      "extra.tf:2:12: error: Unterminated template string: The heredoc opened with <<EOT is never closed; add a line holding only EOT where its text ends. [syntax/parse]\n",
    );
  });
});

describe("a directory that can be listed but not searched", () => {
  const UNSEARCHABLE =
    "cannot read directory m: permission denied (the directory can be listed but not searched, so none of its files can be opened; give it the x permission, e.g. chmod a+x)";
  (canDrop ? it : it.skip)("says so in every format, named directly or found by --recursive, instead of \"no module files\"", () => {
    const root = tree(fixtureFiles("machine-clean", "m/"));
    chmodSync(root, 0o755);
    chmodSync(path.join(root, "m"), 0o644);
    try {
      const text = runUnprivileged(["m"], root);
      expect([text.code, text.stdout, text.stderr]).toEqual([2, `error  ${UNSEARCHABLE}  (not linted)\n\n✖ nothing linted: 1 read error\n`, `tfcapi-lint: ${UNSEARCHABLE}\n`]);
      const json = runUnprivileged(["-f", "json", "m"], root);
      expect(json.code).toBe(2);
      expect((JSON.parse(json.stdout) as { readErrors: unknown }).readErrors).toEqual([{ file: "", message: UNSEARCHABLE }]);
      const walked = runUnprivileged(["-r", "-f", "compact", "."], root);
      expect([walked.code, walked.stdout]).toEqual([2, `m:0:0: error: ${UNSEARCHABLE} [read-error]\n`]);
    } finally {
      chmodSync(path.join(root, "m"), 0o755);
    }
  });
});

describe("no system text reaches the user", () => {
  it("a job summary that cannot be written says why in words", () => {
    const dir = tree(fixtureFiles("machine-clean"));
    const r = runCli(["-f", "github", "."], { cwd: dir, env: { GITHUB_STEP_SUMMARY: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`tfcapi-lint: cannot write the job summary to ${dir}: it is a directory\n`);
  });

  (canDrop ? it : it.skip)("a plugin file that cannot be opened: permission denied, naming it", () => {
    const root = tree({ ...fixtureFiles("machine-clean", "m/"), ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n', "lint/acme.mjs": "export default { name: 'acme', rules: [] };\n" });
    chmodSync(root, 0o755);
    chmodSync(path.join(root, "lint", "acme.mjs"), 0o000);
    const r = runUnprivileged(["m"], root);
    expect([r.code, r.stdout]).toEqual([3, ""]);
    expect(r.stderr).toBe(`tfcapi-lint: config error:\nplugin "./lint/acme.mjs" (.tfcapi-lint.hcl:1:12): cannot be loaded: permission denied (${path.join(root, "lint", "acme.mjs")})\n`);
  });
});

describe("schema on a module file that is a looping symbolic link (item 7)", () => {
  it("exits 2 naming the link, as lint reports module/source-escape", () => {
    const dir = tree(fixtureFiles("machine-clean"));
    symlinkSync("b.tf", path.join(dir, "a.tf"));
    symlinkSync("a.tf", path.join(dir, "b.tf"));
    const r = runCli(["schema", "--role", "machine", "."], { cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      "",
      "tfcapi-lint schema: cannot load the module in .: module file a.tf is a symbolic link that cannot be resolved (too many levels of symbolic links)\n",
    ]);
    const lint = runCli(["-f", "compact", "."], { cwd: dir });
    expect(lint.code).toBe(1);
    expect(lint.stdout).toBe(
      "a.tf:0:0: error: module file a.tf is a symbolic link that cannot be resolved (too many levels of symbolic links) [module/source-escape]\n" +
        "b.tf:0:0: error: module file b.tf is a symbolic link that cannot be resolved (too many levels of symbolic links) [module/source-escape]\n",
    );
  });

  it("a link to a file outside the module still gives the schema (it is read; lint says it would not ship)", () => {
    const dir = tree({ ...fixtureFiles("machine-clean", "m/"), "shared.tf": "# shared\n" });
    symlinkSync("../shared.tf", path.join(dir, "m", "shared.tf"));
    const r = runCli(["schema", "--role", "machine", "m"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});

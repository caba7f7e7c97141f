/**
 * Issue 9, CLI side: what the run cannot read is reported in every format,
 * --recursive walks honestly, module files named one by one (pre-commit)
 * give what --recursive gives, --quiet never decides the exit, option
 * parsing with util.parseArgs, excludes and config lookup, SARIF locations
 * for module-level findings, an unbuilt checkout.
 *
 * Unreadable directories: root ignores mode bits, so those tests run the
 * CLI as an unprivileged user (uid/gid 65534 through setpriv) when the
 * suite runs as root, on a tree under a directory that user can traverse.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, canDropPrivileges, fixtureFiles, insensitiveBootstrap, noInterruptible, REPO, runCli, runUnprivileged, tree, type CliResult } from "./helpers.js";

// The official SARIF 2.1.0 schema (as test/report/sarif.test.ts uses it).
const Ajv = AjvDraft04.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat("uri", (s: string) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(s) && URL.canParse(s));
ajv.addFormat("uri-reference", (s: string) => /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/.test(s));
const validSarif = ajv.compile(JSON.parse(readFileSync(path.join(REPO, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8")));


/** A tree the unprivileged user can reach (mode 755 all the way), removed after the test. */
const open: string[] = [];
afterEach(() => {
  while (open.length > 0) {
    const dir = open.pop()!;
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});
function openTree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-trust-")));
  open.push(root);
  chmodSync(root, 0o755);
  mkdirSync(path.join(root, ".git"));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    mkdirSync(path.dirname(abs), { recursive: true, mode: 0o755 });
    writeFileSync(abs, content, { mode: 0o644 });
  }
  return root;
}

/** Unreadable-directory tests need setpriv when running as root; in CI its absence is a failure. */
const itUnreadable = canDropPrivileges("unreadable directories") ? it : it.skip;

interface JsonDoc {
  module: string;
  role: string;
  findings: { id: string; severity: string; file: string; line: number; column: number }[];
  readErrors?: { file: string; message: string }[];
}

function docs(stdout: string): JsonDoc[] {
  const v = JSON.parse(stdout) as JsonDoc | JsonDoc[];
  return Array.isArray(v) ? v : [v];
}

interface Sarif {
  runs: {
    invocations: { executionSuccessful: boolean; toolExecutionNotifications?: { level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
  }[];
}

describe("--recursive walks honestly (item 4)", () => {
  itUnreadable("an unreadable directory (mode 000 or 711) is an error naming it, exit 2, in every format", () => {
    const root = openTree({ ...fixtureFiles("machine-clean", "good/"), ...fixtureFiles("machine-clean", "half/m/"), "locked/main.tf": "# never read\n" });
    chmodSync(path.join(root, "locked"), 0o000);
    chmodSync(path.join(root, "half"), 0o711);
    const text = runUnprivileged(["-r", "."], root);
    expect(text.code).toBe(2);
    expect(text.stderr).toBe("tfcapi-lint: permission denied: half\ntfcapi-lint: permission denied: locked\n");
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe("module good");
    expect(lines.slice(-5)).toEqual([
      "error  permission denied: half  (not linted)",
      "error  permission denied: locked  (not linted)",
      "",
      "✖ not fully linted: 2 read errors",
      "",
    ]);

    const json = runUnprivileged(["-r", "-f", "json", "."], root);
    expect(json.code).toBe(2);
    expect(docs(json.stdout).map((d) => [d.module, d.role, d.readErrors ?? []])).toEqual([
      ["good", "machine", []],
      ["half", "", [{ file: "", message: "permission denied: half" }]],
      ["locked", "", [{ file: "", message: "permission denied: locked" }]],
    ]);

    const sarif = JSON.parse(runUnprivileged(["-r", "-f", "sarif", "."], root).stdout) as Sarif;
    expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
    const inv = sarif.runs[0]!.invocations[0]!;
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications!.map((n) => [n.level, n.message.text, n.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["error", "permission denied: half", "half/"],
      ["error", "permission denied: locked", "locked/"],
    ]);

    const junit = runUnprivileged(["-r", "-f", "junit", "."], root);
    expect(junit.code).toBe(2);
    expect(junit.stdout).toMatch(/^<testsuites name="tfcapi-lint" tests="\d+" failures="0" errors="2" time="0">$/m);
    expect(junit.stdout).toContain(
      '  <testsuite name="locked" tests="1" failures="0" errors="1" skipped="0" time="0">\n    <testcase name="read-error" classname="locked" time="0">\n      <error message="permission denied: locked" type="read-error">locked</error>\n',
    );

    const checkstyle = runUnprivileged(["-r", "-f", "checkstyle", "."], root);
    expect(checkstyle.stdout).toContain('  <file name="locked">\n    <error severity="error" message="permission denied: locked" source="tfcapi-lint.read-error"/>\n  </file>\n');

    const github = runUnprivileged(["-r", "-f", "github", "."], root);
    expect(github.stdout.split("\n").slice(0, 2)).toEqual([
      "::error title=tfcapi-lint read error::permission denied: half",
      "::error title=tfcapi-lint read error::permission denied: locked",
    ]);

    const compact = runUnprivileged(["-r", "-f", "compact", "."], root);
    expect(compact.code).toBe(2);
    expect(compact.stdout).toBe("half:0:0: error: permission denied: half [read-error]\nlocked:0:0: error: permission denied: locked [read-error]\n");
  });

  itUnreadable("a module below a 711 directory, named directly, is linted; one below a 000 directory is named", () => {
    const root = openTree({ ...fixtureFiles("machine-clean", "half/m/"), ...fixtureFiles("machine-clean", "locked/m/") });
    chmodSync(path.join(root, "half"), 0o711);
    chmodSync(path.join(root, "locked"), 0o000);
    const through = runUnprivileged(["-r", "-f", "compact", "half/m"], root);
    expect([through.code, through.stdout, through.stderr]).toEqual([0, "", "tfcapi-lint: half/m: role machine (detected)\n"]);
    const under = runUnprivileged(["-r", "locked/m"], root);
    expect(under.code).toBe(2);
    expect(under.stderr).toBe("tfcapi-lint: permission denied: locked/m\n");
  });

  it("does not follow directory symlinks out of the paths (ln -s / rootlink) and visits each directory once", () => {
    const root = tree(fixtureFiles("machine-clean", "modules/vm/"));
    symlinkSync("/", path.join(root, "rootlink"));
    symlinkSync(path.join(root, "modules", "vm"), path.join(root, "alias"));
    symlinkSync(".", path.join(root, "modules", "loop"));
    const started = Date.now();
    const r = runCli(["-r", "-f", "json", ".", "modules", "modules/vm"], { cwd: root });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(docs(r.stdout).map((d) => d.module)).toEqual(["modules/vm"]);
  });
});

describe("module files named one by one, as pre-commit passes them (item 5)", () => {
  const files = (): Record<string, string> => ({
    ...fixtureFiles("machine-clean", "modules/vm/", (f, t) =>
      f === "main.tf" ? `${t}\nmodule "dns" {\n  source = "./modules/dns"\n\n  name = var.machine_name\n}\n` : insensitiveBootstrap(f, t),
    ),
    "modules/vm/modules/dns/main.tf": 'variable "name" {\n  type = string\n}\n\noutput "fqdn" {\n  value = "${var.name}.nodes.example.internal"\n}\n',
    "others/net/main.tf": 'variable "cidr" {\n  type = string\n}\n',
  });

  it("a staged file of a local child module is linted through the module calling it; the same result as -r", () => {
    const root = tree(files());
    const byNames = runCli(["-f", "json", "modules/vm/modules/dns/main.tf", "modules/vm/main.tf", "others/net/main.tf"], { cwd: root });
    const recursive = runCli(["-f", "json", "-r", "."], { cwd: root });
    expect(byNames).toEqual(recursive);
    expect(byNames.code).toBe(0);
    expect(byNames.stderr).toBe("tfcapi-lint: skipped others/net: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n");
    expect(docs(byNames.stdout).map((d) => [d.module, d.findings.map((f) => `${f.id} ${f.file}:${f.line}`)])).toEqual([
      ["modules/vm", ["input/sensitive variables.tf:28"]],
    ]);
  });

  it("only the child's file staged: its caller above is linted (not exit 3)", () => {
    const root = tree(files());
    const r = runCli(["-f", "json", "modules/vm/modules/dns/main.tf"], { cwd: root });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(docs(r.stdout).map((d) => d.module)).toEqual(["modules/vm"]);
    // Text and exit code agree with -r over the module.
    expect(runCli(["modules/vm/modules/dns/main.tf"], { cwd: root })).toEqual(runCli(["-r", "modules/vm"], { cwd: root }));
  });
});

describe("module files named one by one: a module above them that does not call them", () => {
  it("is neither reported nor fixed", () => {
    const root = tree({ ...fixtureFiles("machine-clean", "", insensitiveBootstrap), "tools/net/main.tf": 'variable "cidr" {\n  type = string\n}\n' });
    const before = readFileSync(path.join(root, "variables.tf"), "utf8");
    const r = runCli(["--fix", "-f", "json", "tools/net/main.tf"], { cwd: root });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "[]\n", "tfcapi-lint: skipped tools/net: no CAPTF role detected (set role in .tfcapi-lint.hcl or pass --role to lint it)\n"]);
    expect(readFileSync(path.join(root, "variables.tf"), "utf8")).toBe(before);
  });
});

describe("--quiet hides, never decides (item 6)", () => {
  it("--strict -q and fail_on = \"warning\" with -q fail on a warning", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const strict = runCli(["--strict", "-q", "."], { cwd: dir });
    expect([strict.code, strict.stdout.split("\n")[0]]).toEqual([1, "✖ no problems shown, but 1 warning hidden by --quiet fails the run (--strict)"]);
    writeFileSync(path.join(dir, ".tfcapi-lint.hcl"), 'fail_on = "warning"\n');
    expect(runCli(["-q", "."], { cwd: dir }).code).toBe(1);
    expect(runCli(["-q", "-f", "json", "."], { cwd: dir }).code).toBe(1);
  });

  it("more warnings than --max-warnings is said in text and JUnit, also under -q", () => {
    const dir = tree(fixtureFiles("machine-clean", "", insensitiveBootstrap));
    const text = runCli(["--max-warnings", "0", "-q", "."], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n").slice(-2)).toEqual(["✖ 1 warning (1 hidden by --quiet), more than --max-warnings 0", ""]);
    const junit = runCli(["--max-warnings", "0", "-f", "junit", "."], { cwd: dir });
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain(
      '  <testsuite name="tfcapi-lint" tests="1" failures="1" errors="0" skipped="0" time="0">\n    <testcase name="max-warnings" classname="tfcapi-lint" time="0">\n      <failure message="1 warning, more than --max-warnings 0" type="warning">1 warning, more than --max-warnings 0</failure>\n',
    );
    writeFileSync(path.join(dir, ".tfcapi-lint.hcl"), "max_warnings = 0\n");
    expect(runCli(["."], { cwd: dir }).stdout.split("\n").slice(-2)).toEqual(["✖ 1 warning, more than max_warnings 0", ""]);
  });
});

describe("read errors appear in every report (item 7)", () => {
  itUnreadable("an unreadable module file: named in text (never 'no problems'), JSON, SARIF, JUnit, checkstyle, github", () => {
    const root = openTree(fixtureFiles("machine-clean", "nox/"));
    chmodSync(path.join(root, "nox", "main.tf"), 0o000);
    const text = runUnprivileged(["nox"], root);
    expect(text.code).toBe(2);
    expect(text.stderr).toBe("tfcapi-lint: permission denied: nox/main.tf\n");
    expect(text.stdout).not.toContain("no problems");
    expect(text.stdout).toContain("error  permission denied: nox/main.tf  (not linted)\n");
    const json = docs(runUnprivileged(["-f", "json", "nox"], root).stdout);
    expect(json.map((d) => [d.module, d.readErrors])).toEqual([["nox", [{ file: "main.tf", message: "permission denied: nox/main.tf" }]]]);
    const sarif = JSON.parse(runUnprivileged(["-f", "sarif", "nox"], root).stdout) as Sarif;
    expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
    expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications!.map((n) => n.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual(["nox/main.tf"]);
    expect(runUnprivileged(["-f", "junit", "nox"], root).stdout).toMatch(/<testsuites name="tfcapi-lint" tests="\d+" failures="\d+" errors="1" time="0">/);
    expect(runUnprivileged(["-f", "checkstyle", "nox"], root).stdout).toContain('<file name="nox/main.tf">\n    <error severity="error" message="permission denied: nox/main.tf" source="tfcapi-lint.read-error"/>');
    expect(runUnprivileged(["-f", "github", "nox"], root).stdout).toContain("::error file=nox/main.tf,title=tfcapi-lint read error::permission denied: nox/main.tf\n");
  });

  it("--stdin text that is binary or not UTF-8 is a read error (exit 2), not a lint of garbage", () => {
    const dir = tree(fixtureFiles("machine-clean"));
    const run = (input: Buffer, format: string): CliResult => {
      const r = spawnSync(process.execPath, [BIN, "--stdin", "--stdin-filename", "main.tf", "-f", format], { cwd: dir, input, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    const binary = run(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]), "json");
    expect(binary.code).toBe(2);
    expect(binary.stderr).toBe("tfcapi-lint: main.tf contains a NUL byte at offset 4; it looks like a binary file, not Terraform source (the text read from --stdin)\n");
    expect(docs(binary.stdout).map((d) => [d.module, d.findings.length, d.readErrors?.[0]?.message])).toEqual([
      ["main.tf", 0, "main.tf contains a NUL byte at offset 4; it looks like a binary file, not Terraform source (the text read from --stdin)"],
    ]);
    const latin1 = run(Buffer.from('locals {\n  site = "K\xf6ln"\n}\n', "latin1"), "sarif");
    expect(latin1.code).toBe(2);
    const sarif = JSON.parse(latin1.stdout) as Sarif;
    expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
    expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications!.map((n) => [n.message.text, n.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["main.tf is not valid UTF-8 (byte offset 20); save it as UTF-8 (the text read from --stdin)", "main.tf"],
    ]);
    expect(sarif.runs[0]!.results).toEqual([]);
  });

  it("a --stdin-filename that is not a module file, or is a directory, is a read error", () => {
    const dir = tree({ ...fixtureFiles("machine-clean"), "sub/README.md": "# x\n" });
    const readme = runCli(["--stdin", "--stdin-filename", "README.md"], { cwd: dir, input: 'variable "x" {}\n' });
    expect([readme.code, readme.stderr]).toEqual([2, "tfcapi-lint: --stdin-filename README.md is not a module file name (.tf, .tf.json, .tofu, .tofu.json); nothing was linted\n"]);
    expect(readme.stdout).toContain("✖ nothing linted: 1 read error");
    const sub = runCli(["--stdin", "--stdin-filename", "sub", "-f", "json"], { cwd: dir, input: "" });
    expect(sub.code).toBe(2);
    expect(docs(sub.stdout).map((d) => [d.module, d.readErrors])).toEqual([["sub", [{ file: "", message: "--stdin-filename sub is a directory, not a module file; nothing was linted" }]]]);
  });
});

describe("option parsing (item 11)", () => {
  const usage = (args: string[], cwd = REPO): [number, string] => {
    const r = runCli(args, { cwd });
    return [r.code, r.stderr];
  };
  const err = (message: string): [number, string] => [3, `tfcapi-lint: ${message}\nRun tfcapi-lint --help for usage.\n`];

  it("a missing value does not swallow the next argument; values are checked as in the config file", () => {
    expect(usage(["--allow-warning", "examples/broken-machinepool"])).toEqual(err('--allow-warning: unknown rule "examples/broken-machinepool" (run "tfcapi-lint rules" for the list)'));
    expect(usage(["--allow-warning", "foo/bar", "examples/machinepool-aws"])).toEqual(err('--allow-warning: unknown rule "foo/bar" (run "tfcapi-lint rules" for the list)'));
    expect(usage(["--rule", "foo/bar=off", "examples/machinepool-aws"])).toEqual(err('--rule: unknown rule "foo/bar" (run "tfcapi-lint rules" for the list)'));
    expect(usage(["--max-warnings", "-5", "examples/machinepool-aws"])).toEqual(err('--max-warnings must be 0 or more (got "-5"), as max_warnings in the config file'));
    expect(usage(["--role", "--strict", "examples/machinepool-aws"])).toEqual(err('option --role needs a value, but the next argument is an option (write --role=VALUE for a value starting with "-")'));
    const dir = tree({ ...fixtureFiles("machine-clean"), ".tfcapi-lint.hcl": "max_warnings = -5\n" });
    expect(usage(["."], dir)).toEqual([3, "tfcapi-lint: config error:\n.tfcapi-lint.hcl:1:16: max_warnings must be 0 or more\n"]);
  });

  it("explain honours --format json; module takes one directory, not a file", () => {
    const r = runCli(["explain", "input/sensitive", "--format", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { id: string; severity: string; markdown: string };
    expect([doc.id, doc.severity, doc.markdown]).toEqual(["input/sensitive", "warning", runCli(["explain", "input/sensitive"]).stdout]);
    expect(usage(["explain", "input/sensitive", "--format", "sarif"])).toEqual(err('explain supports --format text or json, not "sarif"'));
    expect(usage(["module", "fixtures/cli/machine-clean/main.tf"])).toEqual(
      err("module takes a module directory, and fixtures/cli/machine-clean/main.tf is not one (to lint the module of a file: tfcapi-lint fixtures/cli/machine-clean/main.tf)"),
    );
  });
});

describe("I/O messages (item 12)", () => {
  itUnreadable("a mode-000 directory is named as itself; a 711 one is 'permission denied', not 'no module files'", () => {
    const root = openTree({ ...fixtureFiles("machine-clean", "nox/"), ...fixtureFiles("machine-clean", "half/") });
    chmodSync(path.join(root, "nox"), 0o000);
    chmodSync(path.join(root, "half"), 0o711);
    expect([runUnprivileged(["nox"], root).code, runUnprivileged(["nox"], root).stderr]).toEqual([2, "tfcapi-lint: permission denied: nox\n"]);
    expect(runUnprivileged(["half"], root).stderr).toBe("tfcapi-lint: permission denied: half\n");
    const inside = runUnprivileged(["."], path.join(root, "half"));
    expect(inside.stderr).toBe("tfcapi-lint: permission denied: .\n");
  });

  it("a config file that is a directory", () => {
    const dir = tree({ ...fixtureFiles("machine-clean"), "x/keep": "" });
    const r = runCli(["--config", "x", "."], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([3, "tfcapi-lint: config error:\ncannot read config file x: is a directory\n"]);
  });

  it("an ignore comment whose reason lacks -- gives one warning saying to put it after --", () => {
    const dir = tree(
      fixtureFiles("machine-clean", "", (f, t) =>
        insensitiveBootstrap(f, f === "variables.tf" ? t.replace('variable "bootstrap_data" {', '# tfcapi-lint-ignore: input/sensitive the controller reads it in plain text\nvariable "bootstrap_data" {') : t),
      ),
    );
    const r = runCli(["-f", "json", "."], { cwd: dir });
    expect(r.code).toBe(0);
    expect(docs(r.stdout)[0]!.findings.map((f) => `${f.id} ${f.file}:${f.line}:${f.column}`)).toEqual(["lint/unknown-rule variables.tf:28:1"]);
    const doc = JSON.parse(r.stdout) as { findings: { message: string }[]; suppressed: { id: string; justification: string }[] };
    expect(doc.findings[0]!.message).toBe(
      '"the controller reads it in plain text" is read as rule IDs; put the reason after "--": tfcapi-lint-ignore: input/sensitive -- the controller reads it in plain text',
    );
    expect(doc.suppressed.map((s) => [s.id, s.justification])).toEqual([["input/sensitive", "the controller reads it in plain text"]]);
  });
});

describe("excludes and config lookup (item 13)", () => {
  it("a path named directly that matches exclude says it is excluded", () => {
    const root = tree({ ".tfcapi-lint.hcl": 'exclude = ["legacy/**"]\n', ...fixtureFiles("machine-clean", "legacy/vm/", noInterruptible) });
    const file = runCli(["legacy/vm/outputs.tf"], { cwd: root });
    expect([file.code, file.stdout, file.stderr]).toEqual([0, "", `tfcapi-lint: legacy/vm/outputs.tf: not linted: excluded by the pattern "legacy/**" in ${path.join(root, ".tfcapi-lint.hcl")}\n`]);
    const dir = runCli(["-r", "legacy/vm"], { cwd: root });
    expect([dir.code, dir.stderr]).toEqual([0, `tfcapi-lint: legacy/vm: not linted: excluded by the pattern "legacy/**" in ${path.join(root, ".tfcapi-lint.hcl")}\n`]);
  });

  it("absolute exclude patterns work inside the config's directory and are an error outside it", () => {
    const root = tree(fixtureFiles("machine-clean", "legacy/vm/", noInterruptible));
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), `exclude = ["${path.join(root, "legacy")}"]\n`);
    expect(runCli(["-r", "-f", "json", "."], { cwd: root }).stdout).toBe("[]\n");
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), 'exclude = ["/elsewhere/legacy"]\n');
    const r = runCli(["-r", "."], { cwd: root });
    expect([r.code, r.stderr]).toEqual([3, `tfcapi-lint: config error:\n.tfcapi-lint.hcl:1:12: exclude pattern "/elsewhere/legacy" is an absolute path outside ${root}; patterns are relative to the directory of the config file\n`]);
  });

  it("outside a git repository the lookup stops at the working (or home) directory, never wandering to /", () => {
    const outer = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-nogit-")));
    open.push(outer);
    // A stray config above the working directory must not apply.
    writeFileSync(path.join(outer, ".tfcapi-lint.hcl"), 'rule "input/sensitive" {\n  severity = "error"\n}\n');
    const work = path.join(outer, "work");
    mkdirSync(work);
    for (const [f, t] of Object.entries(fixtureFiles("machine-clean", "", insensitiveBootstrap))) writeFileSync(path.join(work, f), t);
    const r = runCli(["-f", "compact", "."], { cwd: work, env: { HOME: path.join(outer, "home") } });
    expect([r.code, r.stdout]).toEqual([0, "variables.tf:28:10: warning: Variable \"bootstrap_data\" carries the node's bootstrap secret (join token): mark it sensitive = true so plans and logs do not print it. [input/sensitive]\n"]);
    // From the directory holding it (or with HOME there), it applies.
    expect(runCli(["-f", "compact", "work"], { cwd: outer, env: { HOME: "/nonexistent" } }).code).toBe(1);
    expect(runCli(["-f", "compact", "."], { cwd: work, env: { HOME: outer } }).code).toBe(1);
  });
});

describe("SARIF module-level findings point at a file (item 14)", () => {
  it("a missing output is located in the outputs file, a missing input in the variables file", () => {
    const dir = tree(
      fixtureFiles("machine-clean", "", (f, t) => {
        if (f === "variables.tf") return t.replace(/variable "bootstrap_data" \{[^}]*\}\n\n?/, "");
        return noInterruptible(f, t);
      }),
    );
    const r = runCli(["-f", "sarif", "."], { cwd: dir });
    const results = (JSON.parse(r.stdout) as Sarif).runs[0]!.results;
    expect(results.map((x) => [x.ruleId, x.locations[0]!.physicalLocation.artifactLocation.uri, x.locations[0]!.physicalLocation.region.startLine])).toEqual([
      ["input/required", "variables.tf", 1],
      ["output/required", "outputs.tf", 1],
    ]);
  });

  it("without a conventional file: the file holding most declarations of the kind", () => {
    const dir = tree(
      fixtureFiles("machine-clean", "", (f, t) => {
        if (f === "outputs.tf") return null;
        if (f === "main.tf") return `${t}\n${noInterruptible("outputs.tf", fixtureFiles("machine-clean")["outputs.tf"]!)}`;
        return t;
      }),
    );
    const r = runCli(["-f", "sarif", "."], { cwd: dir });
    const results = (JSON.parse(r.stdout) as Sarif).runs[0]!.results;
    expect(results.map((x) => [x.ruleId, x.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([["output/required", "main.tf"]]);
  });
});

describe("an unbuilt checkout (item 15)", () => {
  it("prints how to build and exits 2, no stack trace", () => {
    const clone = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-unbuilt-")));
    open.push(clone);
    mkdirSync(path.join(clone, "bin"));
    copyFileSync(BIN, path.join(clone, "bin", "tfcapi-lint.js"));
    copyFileSync(path.join(REPO, "bin", "package.json"), path.join(clone, "bin", "package.json"));
    const r = spawnSync(process.execPath, [path.join(clone, "bin", "tfcapi-lint.js"), "examples/machinepool-aws"], { cwd: clone, encoding: "utf8" });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      "",
      `tfcapi-lint: this checkout is not built (dist/cli-loader.cjs is missing).\nBuild it first, in ${clone}: npm ci && npm run build\n`,
    ]);
  });
});

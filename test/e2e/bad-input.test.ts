/**
 * Bad input through the real CLI: every case asserts the exact exit code and
 * the exact first line of the output, and that no stack trace leaks.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  BIN,
  briefs,
  E2E,
  fixtureFiles,
  firstLine,
  hasStackTrace,
  parseDoc,
  REPO,
  runCli,
  tree,
  type CliResult,
} from "./helpers.js";

const MACHINE = (): Record<string, string> => fixtureFiles("machine");

function noCrash(r: CliResult): void {
  expect(r.timedOut).toBe(false);
  expect(r.signal).toBe(null);
  expect(hasStackTrace(r.stdout), r.stdout).toBe(false);
  expect(hasStackTrace(r.stderr), r.stderr).toBe(false);
}

describe("paths that cannot be linted", () => {
  it("a nonexistent path: exit 2, one line naming it", () => {
    const dir = tree(MACHINE());
    const r = runCli(["--role", "machine", "no/such/module"], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    // The report says so too (never an empty or clean report).
    expect(r.stdout).toBe("error  no/such/module: no such file or directory  (not linted)\n\n✖ nothing linted: 1 read error\n");
    expect(r.stderr).toBe("tfcapi-lint: no/such/module: no such file or directory\n");
  });

  it("a regular file that is not a module file (README.md): exit 2, even inside a module directory", () => {
    const dir = tree({ ...MACHINE(), "README.md": "# machine module\n" });
    const r = runCli(["--role", "machine", "README.md"], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("error  README.md: not a module directory or module file (.tf, .tf.json, .tofu, .tofu.json)  (not linted)\n\n✖ nothing linted: 1 read error\n");
    expect(r.stderr).toBe("tfcapi-lint: README.md: not a module directory or module file (.tf, .tf.json, .tofu, .tofu.json)\n");
    // A module file names its module.
    const ok = runCli(["--role", "machine", "--format", "compact", "main.tf"], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("");
  });

  it("a directory without module files: exit 2 with a clear message", () => {
    const dir = tree({ "docs/README.md": "# nothing to lint\n", "docs/terraform.tfvars": 'region = "eu-west-1"\n' });
    const r = runCli(["--role", "machine", "docs"], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("error  docs: no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory  (not linted)\n\n✖ nothing linted: 1 read error\n");
    expect(r.stderr).toBe("tfcapi-lint: docs: no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory\n");
  });

  it("a directory named x.tf is skipped by design (not a file)", () => {
    const dir = tree(MACHINE());
    mkdirSync(path.join(dir, "network.tf"));
    writeFileSync(path.join(dir, "network.tf", "README"), "a directory, not a file\n");
    const r = runCli(["--role", "machine", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(firstLine(r.stdout)).toBe("✔ no problems");
  });

  it("--output-file into a nonexistent directory: exit 2, says which directory", () => {
    const dir = tree(MACHINE());
    const r = runCli(["--role", "machine", "--json", "-o", "reports/lint.json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("tfcapi-lint: cannot write the report to reports/lint.json: directory reports does not exist\n");
  });
});

describe("the reader goes away", () => {
  it("stdout closed early (| head): no EPIPE stack trace, the exit code is the lint result", () => {
    const dir = tree({});
    const errFile = path.join(dir, "stderr.txt");
    // Over 200 KB of SARIF: far more than a pipe buffer holds.
    const script = `"${process.execPath}" "${BIN}" --role machinepool --recursive --format sarif examples 2>"${errFile}" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const out = execFileSync("bash", ["-c", script], { cwd: REPO, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(readFileSync(errFile, "utf8")).toBe("");
    expect(out).toBe("1\n");
  });
});

describe("the report file never replaces user files by accident", () => {
  it("--output-file naming a module file is refused before anything runs (exit 3)", () => {
    const dir = tree(MACHINE());
    const r = runCli(["--role", "machine", "-o", "main.tf", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(3);
    expect(firstLine(r.stderr)).toBe("tfcapi-lint: --output-file main.tf: refusing to write the report over a module file name (.tf, .tf.json, .tofu, .tofu.json)");
    expect(readFileSync(path.join(dir, "main.tf"), "utf8")).toBe(MACHINE()["main.tf"]);
  });

  it("--output-file naming a directory: exit 2", () => {
    const dir = tree({ ...MACHINE(), "reports/.keep": "" });
    const r = runCli(["--role", "machine", "--json", "-o", "reports", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: cannot write the report to reports: it is a directory\n");
  });
});

describe("module files that cannot be read", () => {
  it("a module file symlinked to a dangling target is module/source-escape (never opened)", () => {
    const dir = tree(MACHINE());
    symlinkSync(path.join(dir, "gone", "network.tf"), path.join(dir, "network.tf"));
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const doc = parseDoc(r.stdout);
    expect(briefs(doc)).toEqual(["module/source-escape error network.tf:0:0"]);
    expect(doc.findings[0]!.message).toBe("module file network.tf is a symbolic link that cannot be resolved (no such file or directory)");
    // An editor lock symlink that dangles is not even looked at.
    symlinkSync("root@host.1234:1700000000", path.join(dir, ".#main.tf"));
    symlinkSync("root@host.1234:1700000000", path.join(dir, "#main.tf#"));
    const again = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    expect(briefs(parseDoc(again.stdout))).toEqual(["module/source-escape error network.tf:0:0"]);
  });

  it("a FIFO named x.tf is reported, never opened (no hang): exit 2", () => {
    const dir = tree(MACHINE());
    execFileSync("mkfifo", [path.join(dir, "pipe.tf")]);
    const r = runCli(["--role", "machine", "."], { cwd: dir, timeoutMs: 15_000 });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: pipe.tf is not a regular file\n");
    // Never "no problems" beside a file that was not read.
    expect(r.stdout.split("\n").slice(0, 3)).toEqual(["error  pipe.tf is not a regular file  (not linted)", "", "✖ not fully linted: 1 read error"]);
  });

  it("a binary file named main.tf: exit 2 naming the file and the NUL byte", () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(64, 0x41)]);
    const dir = tree({ ...MACHINE(), "main.tf": elf });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: main.tf contains a NUL byte at offset 7; it looks like a binary file, not Terraform source\n");
    // The rest of the module is still reported (stdout stays valid JSON).
    expect(parseDoc(r.stdout).role).toBe("machine");
  });

  it("invalid UTF-8: exit 2 with the byte offset", () => {
    const latin1 = Buffer.from('locals {\n  site = "K\xf6ln"\n}\n', "latin1");
    const dir = tree({ ...MACHINE(), "site.tf": latin1 });
    const r = runCli(["--role", "machine", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: site.tf is not valid UTF-8 (byte offset 20); save it as UTF-8\n");
  });

  it("a file name that is not valid UTF-8: exit 2 saying so (not 'no such file')", () => {
    const dir = tree(MACHINE());
    writeFileSync(Buffer.from(path.join(dir, "caf\xe9.tf"), "latin1"), 'output "x" {\n  value = 1\n}\n');
    const r = runCli(["--role", "machine", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tfcapi-lint: cannot read caf\ufffd.tf: the file name is not valid UTF-8; rename the file\n");
  });

  it("an empty .tf file is an empty file, not an error", () => {
    const dir = tree({ ...MACHINE(), "empty.tf": "" });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(briefs(parseDoc(r.stdout))).toEqual([]);
  });

  it("a module of one empty .tf file is linted: every contract declaration is missing", () => {
    const dir = tree({ "main.tf": "" });
    const r = runCli(["--role", "machine", "--format", "compact", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(1);
    // Compact keeps stdout for findings; the role note goes to stderr.
    expect(r.stderr).toBe("tfcapi-lint: .: role machine (from --role)\n");
    const rules = r.stdout.trimEnd().split("\n").map((l) => `${l.slice(0, l.indexOf(" "))} ${/\[([^\]]+)\]$/.exec(l)![1]}`);
    expect(new Set(rules)).toEqual(
      new Set([".:0:0: input/required", ".:0:0: input/tags-declared", ".:0:0: module/version", ".:0:0: output/health", ".:0:0: output/required"]),
    );
    expect(rules.filter((x) => x.endsWith("input/required"))).toHaveLength(10);
    expect(rules.filter((x) => x.endsWith("output/required"))).toHaveLength(4);
  });

  it("a .tf.json that is not JSON is syntax/parse (exit 1), the rest of the module still linted", () => {
    const dir = tree({ ...MACHINE(), "extra.tf.json": "resource aws_instance x {}\n", "blank.tf.json": "\n\n" });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const doc = parseDoc(r.stdout);
    expect(briefs(doc)).toEqual([
      "syntax/parse error blank.tf.json:3:1",
      "syntax/parse error extra.tf.json:1:1",
      "syntax/parse error extra.tf.json:1:10",
    ]);
    expect(doc.findings[0]!.message.split(":")[0]).toBe("Missing value");
  });

  it("--stdin with no data lints an empty buffer in place of the file", () => {
    const dir = tree(MACHINE());
    const r = runCli(["--role", "machine", "--json", "--stdin", "--stdin-filename", "outputs.tf"], { cwd: dir, input: "" });
    noCrash(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const doc = parseDoc(r.stdout);
    expect(doc.module).toBe(".");
    expect([...new Set(doc.findings.map((f) => `${f.id} ${f.file}:${f.line}`))]).toEqual([
      "output/health :0",
      "output/required :0",
    ]);
    // The file on disk was not used and is untouched.
    expect(readFileSync(path.join(dir, "outputs.tf"), "utf8")).toBe(MACHINE()["outputs.tf"]);
  });
});

describe("encodings and line endings", () => {
  const insensitive = (text: string): string => text.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}\n', "");

  it("a UTF-8 BOM is skipped: columns on line 1 are the same as without it", () => {
    const files = fixtureFiles("machine", "", (f, t) => (f === "variables.tf" ? insensitive(t) : t));
    const dir = tree({ ...files, "bootstrap.tf": '\ufeffvariable "bootstrap_data" {\n  type = string\n}\n' });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(0);
    const doc = parseDoc(r.stdout);
    expect(doc.findings.map((f) => [f.id, f.file, f.line, f.column, f.endLine, f.endColumn])).toEqual([
      ["input/sensitive", "bootstrap.tf", 1, 10, 1, 26],
    ]);
    // --fix keeps the BOM.
    const fixed = runCli(["--role", "machine", "--fix-unsafe", "."], { cwd: dir });
    expect(fixed.code).toBe(0);
    expect(readFileSync(path.join(dir, "bootstrap.tf"), "utf8")).toBe('\ufeffvariable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}\n');
  });

  it("CRLF files: positions are right and --fix keeps CRLF line endings (bytes)", () => {
    const files = fixtureFiles("machine", "", (f, t) => (f === "variables.tf" ? insensitive(t) : t));
    const crlf = '# The join token.\r\n\r\nvariable "bootstrap_data" {\r\n  type = string\r\n}\r\n\r\nvariable "bootstrap_format" {\r\n  type = string\r\n}\r\n';
    files["variables.tf"] = files["variables.tf"]!.replace('variable "bootstrap_format" {\n  type = string\n}\n', "");
    const dir = tree({ ...files, "bootstrap.tf": crlf });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.code).toBe(0);
    expect(parseDoc(r.stdout).findings.map((f) => [f.id, f.file, f.line, f.column, f.endLine, f.endColumn])).toEqual([
      ["input/sensitive", "bootstrap.tf", 3, 10, 3, 26],
    ]);
    const fixed = runCli(["--role", "machine", "--fix-unsafe", "."], { cwd: dir });
    expect(fixed.code).toBe(0);
    expect(firstLine(fixed.stdout)).toBe("✔ no problems");
    const bytes = readFileSync(path.join(dir, "bootstrap.tf"));
    expect(bytes.toString("latin1")).toBe(
      '# The join token.\r\n\r\nvariable "bootstrap_data" {\r\n  type      = string\r\n  sensitive = true\r\n}\r\n\r\nvariable "bootstrap_format" {\r\n  type = string\r\n}\r\n',
    );
    // Every line break is CRLF: no bare LF was introduced.
    expect(bytes.toString("latin1").replace(/\r\n/g, "").includes("\n")).toBe(false);
  });
});

describe("hostile sizes and shapes", () => {
  it("a 20 MB module file completes without a crash", () => {
    // Realistic bulk: many small resources plus a very large heredoc (a
    // vendored cloud-init script), about 20 MB in all.
    let text = "";
    for (let i = 0; i < 4000; i++) {
      text += `resource "hcloud_firewall" "rule_${i}" {\n  name   = "rule-${i}"\n  labels = var.captf_tags\n\n  rule {\n    direction  = "in"\n    protocol   = "tcp"\n    port       = "${1000 + i}"\n    source_ips = ["10.0.0.0/8"]\n  }\n}\n\n`;
    }
    const line = "# cloud-init: write_files and runcmd entries for the node image, kept verbatim\n";
    const bulk = line.repeat(Math.ceil((20 * 1024 * 1024 - text.length) / line.length));
    text += `locals {\n  vendored_script = <<-EOT\n${bulk}  EOT\n}\n`;
    expect(text.length).toBeGreaterThanOrEqual(20 * 1024 * 1024);
    const dir = tree({ ...MACHINE(), "bulk.tf": text });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir, timeoutMs: 110_000 });
    noCrash(r);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(briefs(parseDoc(r.stdout))).toEqual([]);
  }, 120_000);

  it("10,000-deep nesting lints like any module (no limit, no crash); native and JSON", () => {
    const n = 10_000;
    const dir = tree({
      ...MACHINE(),
      "deep.tf": `locals {\n  matrix = ${"[".repeat(n)}${"]".repeat(n)}\n  paren  = ${"(".repeat(n)}1${")".repeat(n)}\n}\n`,
      "blocks.tf": "nested {\n".repeat(n) + "}\n".repeat(n),
      "deep.tf.json": `{"locals": {"x": ${"[".repeat(n)}${"]".repeat(n)}}}`,
    });
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir });
    noCrash(r);
    expect(r.stderr).toBe("");
    expect(briefs(parseDoc(r.stdout))).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("symlink loops in the module directory are module/source-escape, never followed forever", () => {
    const dir = tree(MACHINE());
    symlinkSync("self.tf", path.join(dir, "self.tf"));
    symlinkSync("ping.tf", path.join(dir, "pong.tf"));
    symlinkSync("pong.tf", path.join(dir, "ping.tf"));
    symlinkSync(".", path.join(dir, "here"));
    symlinkSync("..", path.join(dir, "up"));
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir, timeoutMs: 15_000 });
    noCrash(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const doc = parseDoc(r.stdout);
    expect(briefs(doc)).toEqual([
      "module/source-escape error ping.tf:0:0",
      "module/source-escape error pong.tf:0:0",
      "module/source-escape error self.tf:0:0",
    ]);
    expect(doc.findings[2]!.message).toBe("module file self.tf is a symbolic link that cannot be resolved (too many levels of symbolic links)");
  });

  it("--recursive over directory symlink loops lints each module once and terminates", () => {
    const dir = tree({ ...fixtureFiles("machine", "modules/machine/") });
    symlinkSync("..", path.join(dir, "modules", "machine", "parent"));
    symlinkSync("../modules", path.join(dir, "modules", "machine", "again"));
    symlinkSync("machine", path.join(dir, "modules", "alias"));
    symlinkSync(".", path.join(dir, "loop"));
    const r = runCli(["--role", "machine", "--recursive", "--json", "."], { cwd: dir, timeoutMs: 15_000 });
    noCrash(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const doc = parseDoc(r.stdout);
    expect(Array.isArray(doc)).toBe(false);
    // Links to directories are not followed: the module is named by its own path.
    expect(doc.module).toBe("modules/machine");
    expect(briefs(doc)).toEqual([]);
  });

  it("a child module whose source loops back through a symlink is loaded once", () => {
    const files = MACHINE();
    files["main.tf"] += '\nmodule "again" {\n  source = "./sub/parent"\n}\n';
    const dir = tree({ ...files, "sub/main.tf": 'module "up" {\n  source = "../"\n}\n' });
    symlinkSync("..", path.join(dir, "sub", "parent"));
    const r = runCli(["--role", "machine", "--json", "."], { cwd: dir, timeoutMs: 15_000 });
    noCrash(r);
    expect(r.code).toBe(0);
    expect(briefs(parseDoc(r.stdout))).toEqual([]);
  });
});

describe("the temporary files of these tests", () => {
  it("fixture modules stay regular files only (no leftovers from a previous run)", () => {
    const e2e = E2E;
    for (const name of readdirSync(e2e)) {
      for (const f of readdirSync(path.join(e2e, name))) {
        const st = statSync(path.join(e2e, name, f));
        expect(st.isFile() || st.isDirectory(), `${name}/${f}`).toBe(true);
        expect(f.includes(".tfcapi-lint-"), `${name}/${f}`).toBe(false);
      }
    }
  });
});

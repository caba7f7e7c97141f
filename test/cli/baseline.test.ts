/**
 * The baseline, from outside: the built CLI on a small realistic machine
 * module (examples/machine-aws with six known findings written into it),
 * with exact outputs, exit codes and baseline file contents.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tree } from "./helpers.js";
import { edit, indebted } from "../helpers/indebted-module.js";

const FILE = ".tfcapi-lint-baseline.json";

function entry(rule: string, subject: string, count: number, extra: Record<string, string> = {}): string {
  const lines = [`      "module": "mod"`, `      "rule": "${rule}"`, `      "subject": "${subject}"`, `      "count": ${count}`, ...Object.entries(extra).map(([k, v]) => `      "${k}": "${v}"`)];
  return `    {\n${lines.join(",\n")}\n    }`;
}

const ALL_ENTRIES = [
  entry("drift/non-idempotent", "resource.aws_instance.this", 2),
  entry("input/sensitive", "variable.bootstrap_data", 1),
  entry("input/user-variable-default", "variable.key_name", 1),
  entry("input/user-variable-default", "variable.ssh_cidr", 1),
  entry("output/required", "output.interruptible", 1),
];
const baselineText = (entries: string[]): string => `{\n  "version": 1,\n  "entries": [\n${entries.join(",\n")}\n  ]\n}\n`;

const KEY_NAME = 'mod/variables.tf:107:10: warning: User variable "key_name" has no default, so every object that does not set it fails to apply: add a default (default = null if there is no sensible value). [input/user-variable-default]';
const INTERRUPTIBLE = 'mod:0:0: error: The machine contract requires output "interruptible", which is not declared; add an output "interruptible" block [output/required]';
const ROLE_NOTE = "tfcapi-lint: mod: role machine (detected)\n";

/** A tree with the module and its baseline written by --update-baseline. */
function adopted(extra: Record<string, string> = {}): string {
  const root = tree({ ...indebted(), ...extra });
  const r = runCli(["--update-baseline", "mod", "-f", "compact"], { cwd: root });
  expect(r).toEqual({ code: 0, stdout: "", stderr: `${ROLE_NOTE}tfcapi-lint: wrote baseline ${FILE} (5 entries)\n` });
  return root;
}

const baselineOf = (root: string, name = FILE): string => readFileSync(path.join(root, name), "utf8");

describe("adopting a baseline", () => {
  it("without a baseline the module fails on its six findings", () => {
    const root = tree(indebted());
    const r = runCli(["mod", "-f", "compact"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(6);
  });

  it("--update-baseline writes every error and warning, sorted, keyed by subject and never by line", () => {
    const root = adopted();
    expect(baselineOf(root)).toBe(baselineText(ALL_ENTRIES));
    // The file is used automatically: nothing new, exit 0, the count said.
    const r = runCli(["mod"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("✔ no problems (6 findings in the baseline)");
    // --strict and --max-warnings 0 count new findings only.
    expect(runCli(["mod", "--strict", "--max-warnings", "0", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
  });

  it("writes the same bytes again, and says the file is unchanged", () => {
    const root = adopted();
    const before = baselineOf(root);
    const r = runCli(["--update-baseline", "mod", "-f", "compact"], { cwd: root });
    expect(r).toEqual({ code: 0, stdout: "", stderr: `${ROLE_NOTE}tfcapi-lint: unchanged: baseline ${FILE} (5 entries)\n` });
    expect(baselineOf(root)).toBe(before);
  });

  it("--no-baseline ignores the file, and its outputs are those of a run without one, byte for byte", () => {
    const root = adopted();
    const bare = tree(indebted());
    for (const format of ["text", "json", "sarif", "compact", "checkstyle", "junit", "github"]) {
      const withFlag = runCli(["mod", "--no-baseline", "-f", format], { cwd: root });
      const without = runCli(["mod", "-f", format], { cwd: bare });
      expect(withFlag.code).toBe(1);
      expect(withFlag.stdout.split(root).join("ROOT")).toBe(without.stdout.split(bare).join("ROOT"));
    }
  });
});

describe("what keeps a finding matched", () => {
  it("edits elsewhere in the files, reordered blocks and a new file keep every match", () => {
    const root = adopted();
    const files = indebted();
    // Lines above everything, a variable moved to the top, the outputs reordered, a new file.
    let variables = files["mod/variables.tf"]!;
    variables = edit(variables, '\nvariable "key_name" {\n  type = string\n}\n', "\n");
    variables = `# Inputs.\n\nvariable "key_name" {\n  type = string\n}\n\n${variables}`;
    const outputs = files["mod/outputs.tf"]!;
    const health = outputs.slice(outputs.indexOf('output "health"'));
    writeFileSync(path.join(root, "mod/variables.tf"), variables);
    writeFileSync(path.join(root, "mod/outputs.tf"), health + "\n" + outputs.slice(0, outputs.indexOf('output "health"')));
    writeFileSync(path.join(root, "mod/main.tf"), "# Machine resources.\n\n\n" + files["mod/main.tf"]!);
    writeFileSync(path.join(root, "mod/extra.tf"), 'locals {\n  owner = "platform"\n}\n');
    expect(runCli(["mod", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
  });

  it("renaming the subject makes its finding new, and the old entry is reported with the command that prunes it", () => {
    const root = adopted();
    const variables = edit(indebted()["mod/variables.tf"]!, 'variable "key_name"', 'variable "key_pair_name"');
    writeFileSync(path.join(root, "mod/variables.tf"), variables);
    const r = runCli(["mod", "-f", "compact"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(KEY_NAME.replace('"key_name"', '"key_pair_name"') + "\n");
    expect(r.stderr).toBe(
      ROLE_NOTE +
        "tfcapi-lint: baseline: 1 entry matches fewer findings than its count (fixed or renamed); drop it with: tfcapi-lint --prune-baseline mod\n" +
        `tfcapi-lint:   ${FILE}: mod input/user-variable-default variable.key_name (count 1, matched 0)\n`,
    );
    // A new warning fails under --strict, --max-warnings 0 and fail_on = "warning".
    expect(runCli(["mod", "--strict", "-f", "compact"], { cwd: root }).code).toBe(1);
    expect(runCli(["mod", "--max-warnings", "0", "-f", "compact"], { cwd: root }).code).toBe(1);
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), 'fail_on = "warning"\n');
    expect(runCli(["mod", "-f", "compact"], { cwd: root }).code).toBe(1);
  });

  it("fail_on = \"warning\" does not count baselined warnings", () => {
    const root = adopted({ ".tfcapi-lint.hcl": 'fail_on = "warning"\nmax_warnings = 0\n' });
    expect(runCli(["mod", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
  });

  it("a subject with more findings than its count has the extra ones as new: the last in report order", () => {
    const root = adopted();
    const main = edit(indebted()["mod/main.tf"]!, "  tags = merge(local.tags, { Created = timestamp() })\n", '  tags = merge(local.tags, { Created = timestamp() })\n  volume_tags = { Stamp = timestamp() }\n');
    writeFileSync(path.join(root, "mod/main.tf"), main);
    const r = runCli(["mod", "-f", "compact"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'mod/main.tf:72:27: warning: timestamp() gives aws_instance.this "volume_tags.Stamp" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add volume_tags to lifecycle ignore_changes. [drift/non-idempotent]\n',
    );
  });

  it("an error that is not in the baseline fails the run; the baselined ones do not", () => {
    const root = adopted();
    writeFileSync(path.join(root, "mod/outputs.tf"), edit(indebted()["mod/outputs.tf"]!, 'output "failure_domain"', 'output "zone"'));
    const r = runCli(["mod", "-f", "compact"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'mod:0:0: error: The machine contract requires output "failure_domain", which is not declared; add an output "failure_domain" block [output/required]\n',
    );
  });
});

describe("expiry, reasons and pruning", () => {
  it("an expired entry no longer suppresses, and is reported", () => {
    const root = tree(indebted());
    const entries = [...ALL_ENTRIES];
    entries[4] = entry("output/required", "output.interruptible", 1, { reason: "added in the next release", expires: "2020-01-31" });
    writeFileSync(path.join(root, FILE), baselineText(entries));
    const r = runCli(["mod", "-f", "compact"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(INTERRUPTIBLE + "\n");
    expect(r.stderr).toBe(
      ROLE_NOTE +
        `tfcapi-lint: baseline ${FILE}: the entry for output/required on output.interruptible in mod expired on 2020-01-31: its 1 finding counts again; fix it, or give the entry a later "expires" date\n`,
    );
    // Until the day is over it still holds.
    entries[4] = entry("output/required", "output.interruptible", 1, { expires: "2999-12-31" });
    writeFileSync(path.join(root, FILE), baselineText(entries));
    expect(runCli(["mod", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
  });

  it("--update-baseline keeps the reason and expiry of entries that still match, and drops the rest", () => {
    const root = tree(indebted());
    const entries = [...ALL_ENTRIES];
    entries[1] = entry("input/sensitive", "variable.bootstrap_data", 1, { reason: "the secret store lands in Q3", expires: "2999-06-30" });
    entries[2] = entry("input/user-variable-default", "variable.key_name", 1, { reason: "renamed soon" });
    writeFileSync(path.join(root, FILE), baselineText(entries));
    writeFileSync(path.join(root, "mod/variables.tf"), edit(indebted()["mod/variables.tf"]!, 'variable "key_name"', 'variable "key_pair_name"'));
    const r = runCli(["--update-baseline", "mod", "-f", "compact"], { cwd: root });
    expect(r).toEqual({ code: 0, stdout: "", stderr: `${ROLE_NOTE}tfcapi-lint: wrote baseline ${FILE} (5 entries)\n` });
    expect(baselineOf(root)).toBe(
      baselineText([
        ALL_ENTRIES[0]!,
        entries[1]!,
        entry("input/user-variable-default", "variable.key_pair_name", 1),
        entry("input/user-variable-default", "variable.ssh_cidr", 1),
        ALL_ENTRIES[4]!,
      ]),
    );
  });

  it("--prune-baseline drops entries that match nothing and lowers counts to what they match", () => {
    const root = adopted();
    const variables = edit(indebted()["mod/variables.tf"]!, 'variable "ssh_cidr" {\n  type = string\n}', 'variable "ssh_cidr" {\n  type    = string\n  default = null\n}');
    writeFileSync(path.join(root, "mod/variables.tf"), variables);
    writeFileSync(path.join(root, "mod/main.tf"), edit(indebted()["mod/main.tf"]!, "  tags = merge(local.tags, { Created = timestamp() })\n", "  tags = local.tags\n"));
    const r = runCli(["--prune-baseline", "mod", "-f", "compact"], { cwd: root });
    expect(r).toEqual({ code: 0, stdout: "", stderr: `${ROLE_NOTE}tfcapi-lint: wrote baseline ${FILE} (4 entries)\n` });
    expect(baselineOf(root)).toBe(baselineText([entry("drift/non-idempotent", "resource.aws_instance.this", 1), ALL_ENTRIES[1]!, ALL_ENTRIES[2]!, ALL_ENTRIES[4]!]));
  });

  it("entries of modules the run did not lint are kept by update and prune alike", () => {
    const root = adopted();
    const other = entry("input/sensitive", "variable.bootstrap_data", 1).replace('"module": "mod"', '"module": "other"');
    writeFileSync(path.join(root, FILE), baselineText([...ALL_ENTRIES, other]));
    expect(runCli(["--prune-baseline", "mod", "-f", "compact"], { cwd: root }).code).toBe(0);
    expect(baselineOf(root)).toBe(baselineText([...ALL_ENTRIES, other]));
    expect(runCli(["--update-baseline", "mod", "-f", "compact"], { cwd: root }).code).toBe(0);
    expect(baselineOf(root)).toBe(baselineText([...ALL_ENTRIES, other]));
  });
});

describe("info findings", () => {
  it("are recorded by --update-baseline only where they fail the run (fail_on = \"info\")", () => {
    const root = tree(indebted());
    const info = ["--rule", "input/sensitive=info"];
    expect(runCli(["--update-baseline", ...info, "mod", "-f", "compact"], { cwd: root }).stderr).toContain(`wrote baseline ${FILE} (4 entries)`);
    expect(baselineOf(root)).toBe(baselineText(ALL_ENTRIES.filter((e) => !e.includes("input/sensitive"))));
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), 'fail_on = "info"\n');
    expect(runCli(["mod", ...info, "-f", "compact"], { cwd: root }).code).toBe(1);
    expect(runCli(["--update-baseline", ...info, "mod", "-f", "compact"], { cwd: root }).stderr).toContain(`wrote baseline ${FILE} (5 entries)`);
    expect(baselineOf(root)).toBe(baselineText(ALL_ENTRIES));
    expect(runCli(["mod", ...info, "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
  });
});

describe("several modules", () => {
  it("--recursive on worker threads: subjects cross the threads, each module keyed by its directory", () => {
    const one = indebted();
    const files: Record<string, string> = {};
    for (const [rel, text] of Object.entries(one)) {
      files[rel.replace("mod/", "pools/a/")] = text;
      files[rel.replace("mod/", "pools/b/")] = text;
    }
    const root = tree(files);
    const made = runCli(["--update-baseline", "--recursive", "--jobs", "2", "pools", "-f", "compact"], { cwd: root });
    expect(made.code).toBe(0);
    expect(made.stderr).toContain(`tfcapi-lint: wrote baseline ${FILE} (10 entries)\n`);
    const under = (dir: string) => ALL_ENTRIES.map((e) => e.replace('"module": "mod"', `"module": "${dir}"`));
    expect(baselineOf(root)).toBe(baselineText([...under("pools/a"), ...under("pools/b")]));
    const again = runCli(["--recursive", "--jobs", "2", "pools"], { cwd: root });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("✔ no problems in 2 modules (12 findings in the baseline)\n");
  });
});

describe("merging", () => {
  it("two branches that each add entries merge without conflict, into what --update-baseline writes on the merged tree", () => {
    const one = indebted();
    const files: Record<string, string> = {};
    for (const [rel, text] of Object.entries(one)) {
      files[rel.replace("mod/", "pools/a/")] = text;
      files[rel.replace("mod/", "pools/b/")] = text;
    }
    const root = tree(files);
    rmSync(path.join(root, ".git"), { recursive: true });
    const git = (...args: string[]) => {
      const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: root, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    git("init", "-q", "-b", "main");
    expect(runCli(["--update-baseline", "-r", "pools", "-f", "compact"], { cwd: root }).code).toBe(0);
    git("add", "-A");
    git("commit", "-q", "-m", "adopt");
    const addVariable = (dir: string, name: string) => {
      const file = path.join(root, dir, "variables.tf");
      writeFileSync(file, readFileSync(file, "utf8") + `\nvariable "${name}" {\n  type = string\n}\n`);
    };
    git("checkout", "-q", "-b", "left");
    addVariable("pools/a", "extra_a");
    expect(runCli(["--update-baseline", "-r", "pools", "-f", "compact"], { cwd: root }).code).toBe(0);
    git("commit", "-q", "-am", "left");
    git("checkout", "-q", "main");
    git("checkout", "-q", "-b", "right");
    addVariable("pools/b", "extra_b");
    expect(runCli(["--update-baseline", "-r", "pools", "-f", "compact"], { cwd: root }).code).toBe(0);
    git("commit", "-q", "-am", "right");
    git("merge", "-q", "--no-edit", "left");
    const merged = baselineOf(root);
    expect(merged).toContain('"subject": "variable.extra_a"');
    expect(merged).toContain('"subject": "variable.extra_b"');
    const again = runCli(["--update-baseline", "-r", "pools", "-f", "compact"], { cwd: root });
    expect(again.stderr).toContain(`unchanged: baseline ${FILE} (12 entries)`);
    expect(baselineOf(root)).toBe(merged);
  });
});

describe("a module that could not be read whole", () => {
  it("keeps its entries on --update-baseline and --prune-baseline: its findings are not all known", () => {
    const root = adopted();
    writeFileSync(path.join(root, "mod/variables.tf"), edit(indebted()["mod/variables.tf"]!, 'variable "key_name"', 'variable "key_pair_name"'));
    writeFileSync(path.join(root, "mod/broken.tf"), Buffer.from([0x6c, 0x6f, 0xff, 0xfe, 0x0a]));
    for (const flag of ["--update-baseline", "--prune-baseline"]) {
      const r = runCli([flag, "mod", "-f", "compact"], { cwd: root });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`tfcapi-lint: unchanged: baseline ${FILE} (5 entries)\n`);
      expect(baselineOf(root)).toBe(baselineText(ALL_ENTRIES));
    }
  });
});

describe("which baseline file", () => {
  it("--baseline FILE, and the config's baseline setting relative to the config file", () => {
    const root = tree(indebted());
    const r = runCli(["--update-baseline", "--baseline", "ci/known.json", "mod", "-f", "compact"], { cwd: root });
    expect(r.stderr).toBe(`${ROLE_NOTE}tfcapi-lint: wrote baseline ci/known.json (5 entries)\n`);
    expect(baselineOf(root, "ci/known.json")).toBe(baselineText(ALL_ENTRIES.map((e) => e.replace('"module": "mod"', '"module": "../mod"'))));
    // Without the flag the default file does not exist: the findings are new.
    expect(runCli(["mod", "-f", "compact"], { cwd: root }).code).toBe(1);
    writeFileSync(path.join(root, ".tfcapi-lint.hcl"), 'baseline = "ci/known.json"\n');
    expect(runCli(["mod", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: "", stderr: ROLE_NOTE });
    expect(runCli(["."], { cwd: path.join(root, "mod") }).stdout.split("\n")[0]).toBe("✔ no problems (6 findings in the baseline)");
  });

  it("a named file that does not exist, a corrupt file and a bad entry are clear errors (exit 2)", () => {
    const root = tree(indebted());
    expect(runCli(["--baseline", "nope.json", "mod"], { cwd: root })).toEqual({
      code: 2,
      stdout: "",
      stderr: "tfcapi-lint: baseline nope.json: no such file (create it with --update-baseline, or pass --no-baseline)\n",
    });
    writeFileSync(path.join(root, FILE), '{"version": 1, "entries": [');
    const corrupt = runCli(["mod"], { cwd: root });
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toMatch(/^tfcapi-lint: baseline \.tfcapi-lint-baseline\.json is not valid JSON \(.+\); fix it, or write it again with --update-baseline\n$/);
    writeFileSync(path.join(root, FILE), '{"version": 1, "entries": [{"module": "mod", "rule": "input/sensitive", "subject": "variable.x", "count": 0}]}');
    expect(runCli(["mod"], { cwd: root })).toEqual({
      code: 2,
      stdout: "",
      stderr: `tfcapi-lint: baseline ${FILE}: entries[0].count must be a whole number of 1 or more; fix it, or write it again with --update-baseline\n`,
    });
    writeFileSync(path.join(root, FILE), '{"version": 2, "entries": []}');
    expect(runCli(["mod"], { cwd: root }).stderr).toBe(`tfcapi-lint: baseline ${FILE}: "version" must be 1, got 2; fix it, or write it again with --update-baseline\n`);
    writeFileSync(path.join(root, FILE), '{"version": 1, "entries": [{"module": "mod", "rule": "input/sensitive", "subject": "variable.x", "count": 1, "expires": "2026-02-30"}]}');
    expect(runCli(["mod"], { cwd: root }).stderr).toBe(`tfcapi-lint: baseline ${FILE}: entries[0].expires must be a YYYY-MM-DD date; fix it, or write it again with --update-baseline\n`);
  });

  it("conflicting flags are usage errors (exit 3)", () => {
    const root = tree(indebted());
    expect(runCli(["--no-baseline", "--update-baseline", "mod"], { cwd: root })).toEqual({ code: 3, stdout: "", stderr: expect.stringContaining("--no-baseline conflicts with --update-baseline") });
    expect(runCli(["--update-baseline", "--prune-baseline", "mod"], { cwd: root }).code).toBe(3);
  });
});

describe("every format with a baseline in use", () => {
  /** The adopted module with key_name renamed: one new warning, five baselined findings, one unmatched entry. */
  function renamed(): string {
    const root = adopted();
    writeFileSync(path.join(root, "mod/variables.tf"), edit(indebted()["mod/variables.tf"]!, 'variable "key_name"', 'variable "key_pair_name"'));
    return root;
  }
  const NEW = KEY_NAME.replace('"key_name"', '"key_pair_name"');
  const UNMATCHED_NOTES =
    "tfcapi-lint: baseline: 1 entry matches fewer findings than its count (fixed or renamed); drop it with: tfcapi-lint --prune-baseline mod\n" +
    `tfcapi-lint:   ${FILE}: mod input/user-variable-default variable.key_name (count 1, matched 0)\n`;

  it("text: the new finding, the count in the baseline, and the unmatched entry with the prune command", () => {
    const r = runCli(["mod"], { cwd: renamed() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("mod/variables.tf");
    expect(lines.filter((l) => l.includes("[") || l.includes("warning  ")).length).toBe(1);
    expect(lines.slice(-2)).toEqual([
      "baseline: 1 entry matches fewer findings than its count (fixed or renamed); drop it with: tfcapi-lint --prune-baseline mod",
      `  ${FILE}: mod input/user-variable-default variable.key_name (count 1, matched 0)`,
    ]);
    expect(lines).toContain("✖ 1 problem (0 errors, 1 warning, 0 info), 5 findings in the baseline");
  });

  it("json: findings holds the new one only; baselined and baseline are keys of their own", () => {
    const r = runCli(["mod", "-f", "json"], { cwd: renamed() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.findings.map((f: { id: string; line: number }) => `${f.id}@${f.line}`)).toEqual(["input/user-variable-default@107"]);
    expect(doc.summary).toEqual({ error: 0, warning: 1, info: 0 });
    expect(doc.baselined.map((f: { id: string; file: string; line: number }) => `${f.id}@${f.file}:${f.line}`)).toEqual([
      "output/required@:0",
      "drift/non-idempotent@main.tf:68",
      "drift/non-idempotent@main.tf:71",
      "input/sensitive@variables.tf:37",
      "input/user-variable-default@variables.tf:111",
    ]);
    expect(doc.baseline).toEqual({
      file: FILE,
      expired: [],
      unmatched: [{ rule: "input/user-variable-default", subject: "variable.key_name", count: 1, matched: 0 }],
      pruneCommand: "tfcapi-lint --prune-baseline mod",
    });
    // The subject never shows in a finding.
    expect(r.stdout).not.toContain('"subject": "resource');
  });

  it("sarif: every result has a baselineState; baselined ones an external suppression; entries that match nothing are notifications", () => {
    const r = runCli(["mod", "-f", "sarif"], { cwd: renamed() });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout).runs[0];
    expect(run.results.map((x: { ruleId: string; baselineState: string; suppressions?: unknown }) => [x.ruleId, x.baselineState, x.suppressions ?? null])).toEqual([
      ["output/required", "unchanged", [{ kind: "external" }]],
      ["drift/non-idempotent", "unchanged", [{ kind: "external" }]],
      ["drift/non-idempotent", "unchanged", [{ kind: "external" }]],
      ["input/sensitive", "unchanged", [{ kind: "external" }]],
      ["input/user-variable-default", "new", null],
      ["input/user-variable-default", "unchanged", [{ kind: "external" }]],
    ]);
    expect(run.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: "note",
            message: { text: `baseline ${FILE}: the entry for input/user-variable-default on variable.key_name in mod matches 0 of its 1 findings; drop it with: tfcapi-lint --prune-baseline mod` },
            descriptor: { id: "baseline-unmatched" },
          },
        ],
      },
    ]);
  });

  it("sarif: an entry's reason is the justification of the suppressions it makes", () => {
    const root = renamed();
    const doc = JSON.parse(baselineOf(root)) as { entries: { rule: string; reason?: string }[] };
    for (const e of doc.entries) if (e.rule === "drift/non-idempotent") e.reason = "timestamps are tracked in TICKET-12";
    writeFileSync(path.join(root, FILE), JSON.stringify(doc, null, 2) + "\n");
    const r = runCli(["mod", "-f", "sarif"], { cwd: root });
    expect(r.code).toBe(0);
    const results = JSON.parse(r.stdout).runs[0].results as { ruleId: string; suppressions?: unknown }[];
    expect(results.map((x) => [x.ruleId, x.suppressions ?? null])).toEqual([
      ["output/required", [{ kind: "external" }]],
      ["drift/non-idempotent", [{ kind: "external", justification: "timestamps are tracked in TICKET-12" }]],
      ["drift/non-idempotent", [{ kind: "external", justification: "timestamps are tracked in TICKET-12" }]],
      ["input/sensitive", [{ kind: "external" }]],
      ["input/user-variable-default", null],
      ["input/user-variable-default", [{ kind: "external" }]],
    ]);
  });

  it("compact, checkstyle, junit and github show the new finding only; the entries go to stderr", () => {
    const root = renamed();
    expect(runCli(["mod", "-f", "compact"], { cwd: root })).toEqual({ code: 0, stdout: NEW + "\n", stderr: ROLE_NOTE + UNMATCHED_NOTES });
    for (const format of ["checkstyle", "junit"]) {
      const r = runCli(["mod", "-f", format], { cwd: root });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(UNMATCHED_NOTES);
      expect(r.stdout).toContain("key_pair_name");
      expect(r.stdout).not.toContain("mark it sensitive");
      expect(r.stdout).not.toContain("timestamp()");
    }
    const summary = path.join(root, "summary.md");
    const gh = runCli(["mod", "-f", "github"], { cwd: root, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(gh.code).toBe(0);
    expect(gh.stdout).toBe(
      "::warning file=mod/variables.tf,line=107,col=10,endLine=107,endColumn=25,title=input/user-variable-default::User variable \"key_pair_name\" has no default, so every object that does not set it fails to apply: add a default (default = null if there is no sensible value).\n" +
        "tfcapi-lint: mod (role machine, detected): 0 errors, 1 warning, 0 info, 5 findings in the baseline\n",
    );
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("0 errors, 1 warning, 0 info; 5 findings in the baseline.\n");
    expect(md).toContain("- .tfcapi-lint-baseline.json: mod input/user-variable-default variable.key\\_name (count 1, matched 0)\n");
  });
});

describe("--print-config shows the baseline file a run would use", () => {
  const row = (text: string): string | undefined => text.split("\n").find((l) => l.startsWith("baseline"));

  it("none when no file is named and the default one does not exist; the default file once it does", () => {
    const root = tree(indebted());
    const before = runCli(["--print-config", "mod"], { cwd: root });
    expect(before.code).toBe(0);
    expect(row(before.stdout)).toBeUndefined();
    expect(JSON.parse(runCli(["--print-config", "mod", "-f", "json"], { cwd: root }).stdout).baseline).toBeUndefined();
    writeFileSync(path.join(root, FILE), '{"version": 1, "entries": []}\n');
    expect(row(runCli(["--print-config", "mod"], { cwd: root }).stdout)).toBe(`${`baseline = "${FILE}"`.padEnd(44)} # default`);
  });

  it("the config's baseline with its position, --baseline over it, and --no-baseline", () => {
    const root = tree({ ...indebted(), ".tfcapi-lint.hcl": 'baseline = "ci/known.json"\n' });
    expect(row(runCli(["--print-config", "mod"], { cwd: root }).stdout)).toBe(`${'baseline = "ci/known.json"'.padEnd(44)} # .tfcapi-lint.hcl:1:12`);
    expect(row(runCli(["--print-config", "mod", "--baseline", "other.json"], { cwd: root }).stdout)).toBe(`${'baseline = "other.json"'.padEnd(44)} # --baseline`);
    expect(row(runCli(["--print-config", "mod", "--no-baseline"], { cwd: root }).stdout)).toBe(`${"baseline = (none)".padEnd(44)} # --no-baseline`);
    expect(JSON.parse(runCli(["--print-config", "mod", "-f", "json"], { cwd: root }).stdout).baseline).toEqual({ value: "ci/known.json", origin: ".tfcapi-lint.hcl:1:12" });
  });
});

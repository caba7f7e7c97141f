/**
 * Fix kinds through the built CLI: `--fix` applies the safe fixes and says
 * how many unsafe ones it left and how to apply them; `--fix-unsafe` applies
 * both; `--fix-dry-run` shows the safe ones (with `--fix-unsafe`, every one).
 * Exact stdout, stderr, exit codes and file contents before and after.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { REPO, runCli, tree } from "./helpers.js";

const EXAMPLE = path.join(REPO, "examples", "machinepool-aws");

const SENSITIVE_BOOTSTRAP = 'variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}';
const PLAIN_BOOTSTRAP = 'variable "bootstrap_data" {\n  type = string\n}';
const SORTED_IDS = 'value = sort([for member in local.members : "aws:///${member.zone}/${member.id}"])';
const UNSORTED_IDS = 'value = [for member in local.members : "aws:///${member.zone}/${member.id}"]';
const LIFECYCLE =
  "  lifecycle {\n    # The cloud (or the cluster autoscaler's policies) owns the desired\n    # count when autoscaling is enabled.\n    ignore_changes = [desired_capacity]\n  }\n";
/** What --fix-unsafe writes where the lifecycle block was taken out. */
const ADDED_LIFECYCLE = "  lifecycle {\n    ignore_changes = [desired_capacity]\n  }\n";

/** main.tf after --fix-unsafe: the example's own lifecycle block, less its comment. */
const WITH_ADDED_LIFECYCLE = (): string => replaced(read(EXAMPLE, "main.tf"), LIFECYCLE, ADDED_LIFECYCLE);

function replaced(text: string, from: string, to: string): string {
  expect(text.split(from).length, `"${from.slice(0, 40)}" occurs once`).toBe(2);
  return text.replace(from, to);
}

/**
 * examples/machinepool-aws with one safe fix (provider_id_list not sorted)
 * and two unsafe ones (bootstrap_data not sensitive, no ignore_changes on
 * the group's desired count).
 */
function poolFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(EXAMPLE)) files[name] = readFileSync(path.join(EXAMPLE, name), "utf8");
  files["variables.tf"] = replaced(files["variables.tf"]!, SENSITIVE_BOOTSTRAP, PLAIN_BOOTSTRAP);
  files["outputs.tf"] = replaced(files["outputs.tf"]!, SORTED_IDS, UNSORTED_IDS);
  files["main.tf"] = replaced(files["main.tf"]!, LIFECYCLE, "");
  return files;
}

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), "utf8");

const GROUP =
  "main.tf:82:1: warning: aws_autoscaling_group.pool reads var.autoscaling, but Terraform still manages desired_capacity, so every cloud-side scale shows as drift and the next apply resets it; add desired_capacity to lifecycle { ignore_changes } or set it to null while var.autoscaling.enabled is true [pool/autoscaling-ignore-changes]\n";
const IDS =
  "outputs.tf:21:11: warning: provider_id_list is not sorted, so its order can change between refreshes: a for expression keeps the source order; wrap it in sort() [output/provider-id-list-shape]\n";
const BOOTSTRAP =
  'variables.tf:40:10: warning: Variable "bootstrap_data" carries the node\'s bootstrap secret (join token): mark it sensitive = true so plans and logs do not print it. [input/sensitive]\n';
const ROLE = "tfcapi-lint: .: role machinepool (detected)\n";

const SAFE_DIFF = [
  "--- a/outputs.tf",
  "+++ b/outputs.tf",
  "@@ -18,7 +18,7 @@",
  " }",
  " ",
  ' output "provider_id_list" {',
  `-  ${UNSORTED_IDS}`,
  `+  ${SORTED_IDS}`,
  " }",
  " ",
  ' output "replicas" {',
  "",
].join("\n");

const UNSAFE_DIFFS = {
  main: ["--- a/main.tf", "+++ b/main.tf", "@@ -141,6 +141,9 @@", "     }", "   }", " ", "+  lifecycle {", "+    ignore_changes = [desired_capacity]", "+  }", " }", " ", " # Every member that has not been terminated, whatever its health: CAPI", ""].join("\n"),
  variables: [
    "--- a/variables.tf",
    "+++ b/variables.tf",
    "@@ -38,7 +38,8 @@",
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
  ].join("\n"),
};

const LEFT = "tfcapi-lint: 2 unsafe fixes left (they change the plan): review them with --fix-dry-run --fix-unsafe, then apply them with --fix-unsafe\n";

describe("--fix applies safe fixes only; --fix-unsafe applies both", () => {
  it("the text summary counts safe and unsafe fixes apart", () => {
    const dir = tree(poolFiles());
    const r = runCli(["."], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").find((l) => l.startsWith("✖"))).toBe("✖ 3 problems (0 errors, 3 warnings, 0 info), 1 fixable with --fix, 2 with --fix-unsafe");
  });

  it("--fix writes the safe fix, leaves the unsafe ones and says how to apply them; --fix-unsafe then writes them", () => {
    const files = poolFiles();
    const dir = tree(files);
    const fixed = runCli(["--fix", "-f", "compact", "."], { cwd: dir });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toBe(GROUP + BOOTSTRAP);
    expect(fixed.stderr).toBe(`${ROLE}tfcapi-lint: fixed 1 problem in 1 file\n${LEFT}`);
    expect(read(dir, "outputs.tf")).toBe(replaced(files["outputs.tf"]!, UNSORTED_IDS, SORTED_IDS));
    expect(read(dir, "variables.tf")).toBe(files["variables.tf"]);
    expect(read(dir, "main.tf")).toBe(files["main.tf"]);

    // Again: nothing safe is left, the same two unsafe fixes are.
    const again = runCli(["--fix", "."], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n").find((l) => l.startsWith("✖"))).toBe("✖ 2 problems (0 errors, 2 warnings, 0 info), 2 fixable with --fix-unsafe");
    expect(again.stderr).toBe(`tfcapi-lint: fixed 0 problems in 0 files\n${LEFT}`);

    const unsafe = runCli(["--fix-unsafe", "-f", "compact", "."], { cwd: dir });
    expect(unsafe.code).toBe(0);
    expect(unsafe.stdout).toBe("");
    expect(unsafe.stderr).toBe(`${ROLE}tfcapi-lint: fixed 2 problems in 2 files\n`);
    expect(read(dir, "variables.tf")).toBe(replaced(files["variables.tf"]!, PLAIN_BOOTSTRAP, SENSITIVE_BOOTSTRAP));
    expect(read(dir, "main.tf")).toBe(WITH_ADDED_LIFECYCLE());
  });

  it("--fix-unsafe alone applies both kinds in one run", () => {
    const files = poolFiles();
    const dir = tree(files);
    const r = runCli(["--fix-unsafe", "-f", "compact", "."], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${ROLE}tfcapi-lint: fixed 3 problems in 3 files\n`);
    expect(read(dir, "outputs.tf")).toBe(replaced(files["outputs.tf"]!, UNSORTED_IDS, SORTED_IDS));
    expect(read(dir, "variables.tf")).toBe(replaced(files["variables.tf"]!, PLAIN_BOOTSTRAP, SENSITIVE_BOOTSTRAP));
    expect(read(dir, "main.tf")).toBe(WITH_ADDED_LIFECYCLE());
  });

  it("--fix-dry-run shows the safe fixes and says how many unsafe ones it did not show; with --fix-unsafe it shows them all", () => {
    const files = poolFiles();
    const dir = tree(files);
    const dry = runCli(["--fix-dry-run", "-f", "compact", "."], { cwd: dir });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(GROUP + IDS + BOOTSTRAP);
    expect(dry.stderr).toBe(`${SAFE_DIFF}${ROLE}tfcapi-lint: 2 unsafe fixes not shown (they change the plan): add --fix-unsafe to show them\n`);

    const all = runCli(["--fix-dry-run", "--fix-unsafe", "-f", "compact", "."], { cwd: dir });
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(GROUP + IDS + BOOTSTRAP);
    expect(all.stderr).toBe(`${UNSAFE_DIFFS.main}${SAFE_DIFF}${UNSAFE_DIFFS.variables}${ROLE}`);
    // Nothing was written.
    for (const [name, text] of Object.entries(files)) expect(read(dir, name), name).toBe(text);
  });

  it("one unsafe fix left is said in the singular; a run with none left says nothing about them", () => {
    const files = poolFiles();
    files["main.tf"] = readFileSync(path.join(EXAMPLE, "main.tf"), "utf8");
    const dir = tree(files);
    const r = runCli(["--fix", "-f", "compact", "."], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(BOOTSTRAP);
    expect(r.stderr).toBe(
      `${ROLE}tfcapi-lint: fixed 1 problem in 1 file\ntfcapi-lint: 1 unsafe fix left (it changes the plan): review it with --fix-dry-run --fix-unsafe, then apply it with --fix-unsafe\n`,
    );
    const dry = runCli(["--fix-dry-run", "-f", "compact", "."], { cwd: dir });
    expect(dry.stderr).toBe(`${ROLE}tfcapi-lint: 1 unsafe fix not shown (it changes the plan): add --fix-unsafe to show it\n`);
    // A suppressed finding's unsafe fix is not counted.
    const ignored = tree({ ...files, "variables.tf": files["variables.tf"]!.replace(PLAIN_BOOTSTRAP, `# tfcapi-lint-ignore: input/sensitive -- tested elsewhere\n${PLAIN_BOOTSTRAP}`) });
    const quiet = runCli(["--fix", "-f", "compact", "."], { cwd: ignored });
    expect(quiet.stderr).toBe(`${ROLE}tfcapi-lint: fixed 1 problem in 1 file\n`);
    expect(quiet.stdout).toBe("");
  });

  it("--recursive counts the unsafe fixes left over every module, the same on one thread and on workers", () => {
    const files = poolFiles();
    const twice: Record<string, string> = {};
    for (const [name, text] of Object.entries(files)) {
      twice[`a/${name}`] = text;
      twice[`b/${name}`] = text;
    }
    for (const jobs of ["1", "2"]) {
      const dir = tree(twice);
      const r = runCli(["--recursive", "--fix", "--jobs", jobs, "-f", "compact", "."], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe([GROUP, BOOTSTRAP].map((l) => `a/${l}`).join("") + [GROUP, BOOTSTRAP].map((l) => `b/${l}`).join(""));
      expect(r.stderr).toBe(
        "tfcapi-lint: a: role machinepool (detected)\ntfcapi-lint: b: role machinepool (detected)\n" +
          "tfcapi-lint: fixed 2 problems in 2 files\n" +
          "tfcapi-lint: 4 unsafe fixes left (they change the plan): review them with --fix-dry-run --fix-unsafe, then apply them with --fix-unsafe\n",
      );
      for (const m of ["a", "b"]) expect(read(dir, `${m}/outputs.tf`)).toBe(replaced(files["outputs.tf"]!, UNSORTED_IDS, SORTED_IDS));
    }
  });

  it("--fix-unsafe cannot write --stdin text; with --fix-dry-run it shows the unsafe fix of the text", () => {
    const files = poolFiles();
    const dir = tree(files);
    const stdin = ["--stdin", "--stdin-filename", "variables.tf"];
    const bad = runCli(["--fix-unsafe", ...stdin], { cwd: dir, input: files["variables.tf"]! });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe("tfcapi-lint: --fix-unsafe cannot write text read from --stdin; use --fix-dry-run --fix-unsafe\nRun tfcapi-lint --help for usage.\n");
    const shown = runCli(["--fix-dry-run", "--fix-unsafe", "-f", "compact", ...stdin], { cwd: dir, input: files["variables.tf"]! });
    expect(shown.stderr).toBe(`${UNSAFE_DIFFS.main}${SAFE_DIFF}${UNSAFE_DIFFS.variables}${ROLE}`);
    expect(runCli(["--fix", "--fix-dry-run", "--fix-unsafe", "."], { cwd: dir }).code).toBe(3);
  });
});

describe("fix kinds in rules, explain and SARIF", () => {
  it("rules shows each rule's fix kind (text and json)", () => {
    const text = runCli(["rules"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toMatch(/^RULE +SEVERITY ROLES {17}FIX {5}SUMMARY$/);
    const fixOf = (id: string): string => lines.find((l) => l.startsWith(`${id} `))!.slice(lines[0]!.indexOf("FIX"), lines[0]!.indexOf("SUMMARY")).trim();
    expect(fixOf("syntax/one-line-block")).toBe("safe");
    expect(fixOf("output/provider-id-list-shape")).toBe("safe");
    expect(fixOf("input/sensitive")).toBe("unsafe");
    expect(fixOf("pool/autoscaling-ignore-changes")).toBe("unsafe");
    expect(fixOf("input/default")).toBe("");
    const json = JSON.parse(runCli(["rules", "--format", "json"]).stdout) as { id: string; fixable: boolean; fixKinds: string[] }[];
    const byId = new Map(json.map((r) => [r.id, [r.fixable, r.fixKinds]]));
    expect(byId.get("input/sensitive")).toEqual([true, ["unsafe"]]);
    expect(byId.get("syntax/one-line-block")).toEqual([true, ["safe"]]);
    expect(byId.get("input/default")).toEqual([false, []]);
  });

  it("explain shows the fix kind: the docs page states it", () => {
    const r = runCli(["explain", "input/sensitive"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(REPO, "rules", "input", "sensitive.md"), "utf8"));
    expect(r.stdout).toContain("\nFix kind: unsafe. `--fix` leaves it; `--fix-unsafe` applies it");
    expect(runCli(["explain", "syntax/one-line-block"]).stdout).toContain("\nFix kind: safe. `--fix` applies it");
    const json = JSON.parse(runCli(["explain", "pool/autoscaling-ignore-changes", "--format", "json"]).stdout) as { fixKinds: string[] };
    expect(json.fixKinds).toEqual(["unsafe"]);
  });

  it("SARIF carries a rule's fix kinds and each fix's kind", () => {
    const dir = tree(poolFiles());
    const r = runCli(["-f", "sarif", "."], { cwd: dir });
    expect(r.code).toBe(0);
    const run = (JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string; properties: Record<string, unknown> }[] } }; results: { ruleId: string; fixes?: { properties: unknown }[] }[] }[] }).runs[0]!;
    const rules = new Map(run.tool.driver.rules.map((x) => [x.id, x.properties.fixKinds]));
    expect(rules.get("input/sensitive")).toEqual(["unsafe"]);
    expect(rules.get("output/provider-id-list-shape")).toEqual(["safe"]);
    expect(rules.has("input/default") ? rules.get("input/default") : undefined).toBeUndefined();
    expect(run.results.map((x) => [x.ruleId, x.fixes?.map((f) => f.properties)])).toEqual([
      ["pool/autoscaling-ignore-changes", [{ kind: "unsafe" }]],
      ["output/provider-id-list-shape", [{ kind: "safe" }]],
      ["input/sensitive", [{ kind: "unsafe" }]],
    ]);
  });
});

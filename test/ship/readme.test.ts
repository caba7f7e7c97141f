/**
 * README.md stays true: the rule tables are the rule definitions, the option
 * table is the CLI's option list, the formats and action inputs are the real
 * ones, the quick-start commands work, and the config example is valid.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ALL_RULES } from "../../rules/index.js";
import { META_RULES } from "../../src/lint/engine-rules.js";
import { HELP } from "../../src/cli/args.js";
import { FORMAT_NAMES } from "../../src/report/index.js";
import * as api from "../../src/index.js";
import { lintModule } from "../helpers/lint.js";
import { currentRuleSection, renderRuleSection } from "../../scripts/readme-rules.mjs";
import { parseYaml, type Yaml } from "./mini-yaml.js";
import { cleanup, ensureBuilt, ROOT, runCli, tempDir } from "./helpers.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The rows of the Markdown table that follows `heading` (first cell of each row). */
function tableAfter(heading: string): string[][] {
  const start = README.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const lines = README.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("| "));
  const rows: string[][] = [];
  for (let i = first + 2; i < lines.length && lines[i]!.startsWith("|"); i++) {
    rows.push(lines[i]!.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}

/** The fenced code blocks of the README with their info string. */
function codeBlocks(): { lang: string; body: string }[] {
  const out: { lang: string; body: string }[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(README); m; m = re.exec(README)) out.push({ lang: m[1]!, body: m[2]! });
  return out;
}

describe("README.md", () => {
  let tmp: string | undefined;
  afterAll(() => cleanup(tmp));

  it("has the rule tables generated from the rule definitions (node scripts/gen-readme.mjs)", () => {
    expect(currentRuleSection(README), "README.md rule tables are stale: run node scripts/gen-readme.mjs").toBe(
      renderRuleSection(ALL_RULES, META_RULES),
    );
  });

  it("links every rule to its documentation page, which exists", () => {
    const linked = [...README.matchAll(/\[`([a-z0-9/-]+)`\]\(rules\/([a-z0-9/-]+)\.md\)/g)].map((m) => [m[1], m[2]]);
    expect(linked.map(([id]) => id)).toEqual(expect.arrayContaining([...ALL_RULES, ...META_RULES].map((r) => r.id)));
    for (const [id, page] of linked) {
      expect(page, id).toBe(id);
      expect(existsSync(path.join(ROOT, "rules", `${page}.md`)), `rules/${page}.md (documentation page of ${id})`).toBe(true);
    }
  });

  it("documents exactly the CLI's options", () => {
    const fromHelp = new Set([...HELP.matchAll(/(?:^|[\s,])(--?[a-z][a-z-]*)/gm)].map((m) => m[1]!));
    const documented = new Set(tableAfter("### Options").flatMap((row) => [...row[0]!.matchAll(/`(--?[a-z][a-z-]*)/g)].map((m) => m[1]!)));
    expect([...documented].sort()).toEqual([...fromHelp].sort());
  });

  it("lists exactly the output formats", () => {
    expect(tableAfter("## Output formats").map((row) => row[0]!.replace(/`/g, ""))).toEqual([...FORMAT_NAMES]);
  });

  it("lists the four exit codes", () => {
    expect(tableAfter("## Exit codes").map((row) => row[0])).toEqual(["0", "1", "2", "3"]);
  });

  it("lists exactly the action's inputs", () => {
    const action = parseYaml(readFileSync(path.join(ROOT, "action.yml"), "utf8")) as { [k: string]: Yaml };
    const inputs = Object.keys(action.inputs as object);
    expect(tableAfter("### GitHub Action").map((row) => row[0]!.replace(/`/g, ""))).toEqual(inputs);
  });

  it("shows library functions that the package exports", () => {
    for (const name of ["parseHcl", "hclOutline", "lintModule", "ALL_RULES", "defineRule"]) {
      expect(README, name).toContain(name);
      expect(name in api, name).toBe(true);
    }
  });

  it("gives set-up commands that work: the clean example passes, the broken one fails", () => {
    ensureBuilt();
    expect(README).toContain("npm ci && npm run build && node bin/tfcapi-lint.js examples/machinepool-aws\nnpm test\n");
    const clean = runCli(["examples/machinepool-aws"]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^✔ no problems$/m);
    const broken = runCli(["examples/broken-machinepool"]);
    expect(broken.code).toBe(1);
  });

  it("has a configuration example the CLI accepts", () => {
    ensureBuilt();
    const hcl = codeBlocks().find((b) => b.lang === "hcl" && b.body.startsWith("# .tfcapi-lint.hcl"))!;
    tmp = tempDir("readme");
    mkdirSync(path.join(tmp, ".git"));
    mkdirSync(path.join(tmp, "pool"));
    writeFileSync(path.join(tmp, ".tfcapi-lint.hcl"), hcl.body);
    const r = runCli(["--print-config", "pool"], { cwd: tmp });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^role = "machinepool" +# .*\.tfcapi-lint\.hcl:2:/m);
    expect(r.stdout).toMatch(/^fail_on = "warning" /m);
  });

  it("has an ignore-comment example that suppresses what it says, where it says", () => {
    const hcl = codeBlocks().find((b) => b.lang === "hcl" && b.body.startsWith("# tfcapi-lint-ignore: "))!;
    const [blockComment] = hcl.body.split("\n");
    const lineComment = /# tfcapi-lint-ignore: drift\/non-idempotent .*$/m.exec(hcl.body)![0];
    const dir = tempDir("readme-ignore");
    try {
      cpSync(path.join(ROOT, "examples", "broken-machinepool"), dir, { recursive: true });
      mkdirSync(path.join(dir, ".git"));
      const main = readFileSync(path.join(dir, "main.tf"), "utf8");
      const edited = main
        .replace('resource "aws_autoscaling_group" "pool" {', `${blockComment}\nresource "aws_autoscaling_group" "pool" {`)
        .replace("value               = timestamp()", `value               = timestamp() ${lineComment}`);
      expect(edited).not.toBe(main);
      writeFileSync(path.join(dir, "main.tf"), edited);
      const before = lintModule(path.join(ROOT, "examples", "broken-machinepool"), { now: new Date("2026-06-01T00:00:00Z") });
      const after = lintModule(dir, { now: new Date("2026-06-01T00:00:00Z") });
      if (before.kind !== "report" || after.kind !== "report") throw new Error("lint failed");
      const active = (r: typeof after) => r.report.findings.filter((f) => !f.suppressed).map((f) => f.ruleId);
      const silenced = ["pool/autoscaling-ignore-changes", "drift/non-idempotent"];
      for (const id of silenced) expect(active(before), id).toContain(id);
      expect(active(after)).toEqual(active(before).filter((id) => !silenced.includes(id)));
      expect(after.report.findings.filter((f) => f.suppressed).map((f) => [f.ruleId, f.suppressed!.justification])).toEqual([
        ["pool/autoscaling-ignore-changes", "an external autoscaler owns this group"],
        ["drift/non-idempotent", "dropped in v2"],
      ]);
    } finally {
      cleanup(dir);
    }
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  escapeData,
  escapeProperty,
  formatGithub,
  markdownCell,
  stepSummaryMarkdown,
  writeStepSummary,
} from "../../src/report/github.js";
import { clusterModule, finding, poolModule, rng, sampleRun } from "./sample.js";

const URL = "https://github.com/captf-io/tfcapi-lint/blob/main/rules/";

describe("github formatter", () => {
  it("prints errors, then warnings, then notices, escaped, with module summaries", () => {
    const out = formatGithub(sampleRun(), { color: false, env: {} });
    expect(out).toBe(
      [
        '::error title=output/required::modules/my pool: output "replicas" is not declared',
        "::error file=modules/my pool/outputs.tf,line=6,col=31,endLine=6,endColumn=42,title=output/health-shape::health.healthy must be a bool, got: number",
        "::warning file=modules/my pool/outputs.tf,line=2,col=11,endLine=2,endColumn=20,title=output/provider-id-list-shape::wrap the value in sort(): 100%25 of members, in a stable order",
        "::warning file=envs/prod/main.tofu,line=2,col=11,endLine=2,endColumn=15,title=output/endpoint-never-set::control_plane_endpoint is always null%0D%0Aset it from var.control_plane_endpoint (100%25)",
        "::notice file=envs/prod/child/main.tf,line=1,col=1,endLine=3,endColumn=2,title=module/child-note::a note: child, here",
        "tfcapi-lint: modules/my pool (role machinepool, detected): 2 errors, 1 warning, 0 info, 1 suppressed",
        "tfcapi-lint: envs/prod (role cluster, from --role): 0 errors, 1 warning, 1 info",
        "",
      ].join("\n"),
    );
  });

  it("makes paths relative to GITHUB_WORKSPACE when set", () => {
    const run = sampleRun([clusterModule()]);
    run.cwd = "/work/repo/envs/prod";
    const inWorkspace = formatGithub(run, { color: false, env: { GITHUB_WORKSPACE: "/work" } });
    expect(inWorkspace.split("\n")[0]).toBe(
      "::warning file=repo/envs/prod/main.tofu,line=2,col=11,endLine=2,endColumn=15,title=output/endpoint-never-set::control_plane_endpoint is always null%0D%0Aset it from var.control_plane_endpoint (100%25)",
    );
    const fromCwd = formatGithub(run, { color: false, env: {} });
    expect(fromCwd.split("\n")[0]).toContain("::warning file=main.tofu,line=2,");
    expect(fromCwd.split("\n")[1]).toContain("::notice file=child/main.tf,line=1,");
  });

  it("escapes data and property values like the actions toolkit", () => {
    expect(escapeData("100% done\r\nnext: a, b")).toBe("100%25 done%0D%0Anext: a, b");
    expect(escapeProperty("a:b,c%d\ne")).toBe("a%3Ab%2Cc%25d%0Ae");
    expect(escapeData("%0A")).toBe("%250A");
    const mod = poolModule();
    mod.dir = "/work/repo/odd,dir:1";
    mod.findings = [finding("output/required", "error", "x%y.tf", rng(3, 2, 3, 9), "line one\nline two: a, b")];
    const out = formatGithub(sampleRun([mod]), { color: false, env: {} });
    expect(out.split("\n")[0]).toBe(
      "::error file=odd%2Cdir%3A1/x%25y.tf,line=3,col=2,endLine=3,endColumn=9,title=output/required::line one%0Aline two: a, b",
    );
  });

  it("annotates at most 10 of each type and says how many were left out", () => {
    const mod = poolModule();
    const errors = Array.from({ length: 13 }, (_, i) =>
      finding("output/health-shape", "error", "outputs.tf", rng(i + 1, 1, i + 1, 2), `error ${i + 1}`),
    );
    const warnings = Array.from({ length: 11 }, (_, i) =>
      finding("output/provider-id-list-shape", "warning", "outputs.tf", rng(i + 1, 3, i + 1, 4), `warning ${i + 1}`),
    );
    const notices = Array.from({ length: 4 }, (_, i) =>
      finding("module/child-note", "info", "outputs.tf", rng(i + 1, 5, i + 1, 6), `note ${i + 1}`),
    );
    // Interleaved as the engine's sort would leave them: errors must still come first.
    mod.findings = [...notices, ...warnings, ...errors];
    mod.summary = { error: 13, warning: 11, info: 4 };
    const lines = formatGithub(sampleRun([mod]), { color: false, env: {} }).trimEnd().split("\n");
    expect(lines).toHaveLength(10 + 10 + 4 + 2 + 1);
    expect(lines.slice(0, 10).every((l) => l.startsWith("::error "))).toBe(true);
    expect(lines[0]).toMatch(/::error 1$/);
    expect(lines[9]).toMatch(/::error 10$/);
    expect(lines.slice(10, 20).every((l) => l.startsWith("::warning "))).toBe(true);
    expect(lines.slice(20, 24).every((l) => l.startsWith("::notice "))).toBe(true);
    expect(lines.slice(24)).toEqual([
      "tfcapi-lint: 3 more errors not annotated (GitHub shows 10 per step); see the job summary or another format for the full list",
      "tfcapi-lint: 1 more warning not annotated (GitHub shows 10 per step); see the job summary or another format for the full list",
      "tfcapi-lint: modules/my pool (role machinepool, detected): 13 errors, 11 warnings, 4 info",
    ]);
  });

  it("does not read GITHUB_STEP_SUMMARY or write anything itself", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-gh-"));
    try {
      const file = path.join(dir, "summary.md");
      writeFileSync(file, "");
      formatGithub(sampleRun(), { color: false, env: { GITHUB_STEP_SUMMARY: file } });
      expect(readFileSync(file, "utf8")).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("github step summary", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("renders every finding in a Markdown table per module", () => {
    expect(stepSummaryMarkdown(sampleRun(), { GITHUB_WORKSPACE: "/work/repo" })).toBe(
      [
        "## tfcapi-lint",
        "",
        "### modules/my pool (machinepool)",
        "",
        "| Severity | Rule | Location | Message |",
        "| --- | --- | --- | --- |",
        `| error | [output/required](${URL}output/required.md) | modules/my pool (module) | output "replicas" is not declared |`,
        `| warning | [output/provider-id-list-shape](${URL}output/provider-id-list-shape.md) | modules/my pool/outputs.tf:2:11 | wrap the value in sort(): 100% of members, in a stable order |`,
        `| error | [output/health-shape](${URL}output/health-shape.md) | modules/my pool/outputs.tf:6:31 | health.healthy must be a bool, got: number |`,
        "",
        "2 errors, 1 warning, 0 info, 1 suppressed.",
        "",
        "### envs/prod (cluster)",
        "",
        "| Severity | Rule | Location | Message |",
        "| --- | --- | --- | --- |",
        `| info | [module/child-note](${URL}module/child-note.md) | envs/prod/child/main.tf:1:1 | a note: child, here |`,
        `| warning | [output/endpoint-never-set](${URL}output/endpoint-never-set.md) | envs/prod/main.tofu:2:11 | control\\_plane\\_endpoint is always null<br>set it from var.control\\_plane\\_endpoint (100%) |`,
        "",
        "0 errors, 1 warning, 1 info.",
        "",
      ].join("\n"),
    );
  });

  it("escapes table cells", () => {
    expect(markdownCell("a|b <c> `d` *e* [f] &g")).toBe("a\\|b \\<c\\> \\`d\\` \\*e\\* \\[f\\] \\&g");
    expect(markdownCell("x\r\ny\nz")).toBe("x<br>y<br>z");
  });

  it("says so when a module is clean", () => {
    const mod = clusterModule();
    mod.findings = [];
    mod.summary = { error: 0, warning: 0, info: 0 };
    expect(stepSummaryMarkdown(sampleRun([mod]), {})).toBe(
      ["## tfcapi-lint", "", "### envs/prod (cluster)", "", "No problems.", "", "0 errors, 0 warnings, 0 info.", ""].join("\n"),
    );
  });

  it("appends the summary to the GITHUB_STEP_SUMMARY file, with all findings beyond the annotation cap", () => {
    dir = mkdtempSync(path.join(tmpdir(), "tfcapi-gh-"));
    const file = path.join(dir, "step_summary.md");
    writeFileSync(file, "previous step\n");
    const mod = poolModule();
    mod.findings = Array.from({ length: 12 }, (_, i) =>
      finding("output/health-shape", "error", "outputs.tf", rng(i + 1, 1, i + 1, 2), `error ${i + 1}`),
    );
    mod.summary = { error: 12, warning: 0, info: 0 };
    const run = sampleRun([mod]);
    const env = { GITHUB_STEP_SUMMARY: file, GITHUB_WORKSPACE: "/work/repo" };
    expect(writeStepSummary(run, env)).toEqual({ path: file });
    const content = readFileSync(file, "utf8");
    expect(content).toBe("previous step\n" + stepSummaryMarkdown(run, env));
    expect(content.split("\n").filter((l) => l.startsWith("| error |"))).toHaveLength(12);
    expect(content).toContain("| modules/my pool/outputs.tf:12:1 | error 12 |");
  });

  it("does nothing without GITHUB_STEP_SUMMARY and reports a failed write instead of throwing", () => {
    expect(writeStepSummary(sampleRun(), {})).toBeNull();
    dir = mkdtempSync(path.join(tmpdir(), "tfcapi-gh-"));
    const target = path.join(dir, "no-such-dir", "summary.md");
    const result = writeStepSummary(sampleRun(), { GITHUB_STEP_SUMMARY: target });
    expect(result?.path).toBe(target);
    // In words, not the system's "ENOENT: no such file or directory, open ...".
    expect(result?.error).toBe("its directory does not exist");
  });
});

describe("github step summary size limit", () => {
  it("stops listing rows before the budget and counts the rest", () => {
    const mod = poolModule();
    mod.findings = Array.from({ length: 400 }, (_, i) =>
      finding("output/health-shape", "error", "outputs.tf", rng(i + 1, 1, i + 1, 2), `error ${i + 1} ${"x".repeat(200)}`),
    );
    mod.summary = { error: 400, warning: 0, info: 0 };
    const budget = 16 * 1024 + 40 * 1024;
    const md = stepSummaryMarkdown(sampleRun([mod, clusterModule()]), {}, budget);
    expect(Buffer.byteLength(md, "utf8")).toBeLessThanOrEqual(budget);
    const rows = md.split("\n").filter((l) => l.startsWith("| error |"));
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(400);
    expect(rows[rows.length - 1]).toContain(`| error ${rows.length} x`);
    expect(md).toContain(`\n${400 - rows.length} more findings not listed: the job summary is limited to 1 MiB.\n\n400 errors, 0 warnings, 0 info.\n`);
    // Once full, later modules list no rows but still get their heading and counts.
    expect(md.endsWith("### envs/prod (cluster)\n\n2 more findings not listed: the job summary is limited to 1 MiB.\n\n0 errors, 1 warning, 1 info.\n")).toBe(true);
  });

  it("counts what the step already wrote against the limit", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-gh-"));
    try {
      const file = path.join(dir, "summary.md");
      writeFileSync(file, "y".repeat(1024 * 1024 - 17 * 1024));
      const mod = poolModule();
      mod.findings = Array.from({ length: 50 }, (_, i) =>
        finding("output/health-shape", "error", "outputs.tf", rng(i + 1, 1, i + 1, 2), `error ${i + 1} ${"x".repeat(100)}`),
      );
      writeStepSummary(sampleRun([mod]), { GITHUB_STEP_SUMMARY: file });
      const added = readFileSync(file, "utf8").slice(1024 * 1024 - 17 * 1024);
      expect(added.split("\n").filter((l) => l.startsWith("| error |")).length).toBeLessThan(10);
      expect(added).toContain("more findings not listed");
      expect(readFileSync(file).length).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Every built-in rule is complete: a docs page next to its file
 * (`rules/<id>.md`), at least one failing fixture (a case under
 * `fixtures/<id>/` whose expected findings include one of the rule) and at
 * least one passing fixture (a case of that folder that runs the rule and
 * expects no finding of it). Adding a rule without them fails here. A
 * fixable rule declares its fix kinds (fixKinds), and its docs page states
 * the same kinds in a `Fix kind: ...` line; a rule without fixes has none.
 */
import { describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_RULES } from "../rules/index.js";
import { FIX_KIND_LINE } from "../src/cli/commands.js";
import type { RuleDefinition } from "../src/lint/types.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface CaseFile {
  rules?: string[] | "all";
  findings?: { ruleId?: string }[];
  info?: { ruleId?: string }[];
}

/** The case folders (with an expected.json) under `dir`, sorted. */
function caseDirs(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir).sort()) {
    const p = path.join(dir, entry);
    if (entry === "expected.json") out.push(dir);
    else if (lstatSync(p).isDirectory() && entry !== "node_modules" && entry !== ".terraform") caseDirs(p, out);
  }
  return out;
}

/** What the fixtures of one rule show: cases where it reports, and cases where it runs and stays silent. */
function fixtureCoverage(fixturesDir: string, id: string): { failing: string[]; passing: string[] } {
  const failing: string[] = [];
  const passing: string[] = [];
  for (const dir of caseDirs(path.join(fixturesDir, ...id.split("/")))) {
    const c = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as CaseFile;
    const runs = c.rules === undefined || c.rules === "all" || c.rules.includes(id);
    if (!runs) continue;
    const rel = path.relative(fixturesDir, dir).split(path.sep).join("/");
    if ([...(c.findings ?? []), ...(c.info ?? [])].some((f) => f.ruleId === id)) failing.push(rel);
    else passing.push(rel);
  }
  return { failing, passing };
}

/** What is wrong between a rule's declared fix kinds and what its docs page states; null when they agree. */
function fixKindProblem(rule: Pick<RuleDefinition, "id" | "fixable" | "fixKinds">, page: string): string | null {
  const stated = FIX_KIND_LINE.exec(page)?.[1] ?? null;
  if (!rule.fixable) return stated === null ? null : `${rule.id}: its page states "Fix kind: ${stated}" but the rule has no fix`;
  if (rule.fixKinds === undefined || rule.fixKinds.length === 0) return `${rule.id}: fixable but declares no fixKinds`;
  const declared = rule.fixKinds.join(" and ");
  if (stated === null) return `${rule.id}: its page does not state its fix kind (a line "Fix kind: ${declared}")`;
  return stated === declared ? null : `${rule.id}: its page states "Fix kind: ${stated}" but the rule declares ${declared}`;
}

describe("the rule catalogue", () => {
  it("lists each built-in rule once, each with a provenance", () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ALL_RULES.filter((r) => !["syntax", "reference", "contract-depth", "control-plane"].includes(r.provenance ?? "")).map((r) => r.id)).toEqual([]);
  });

  it("every built-in rule has a docs page next to its file", () => {
    expect(ALL_RULES.filter((r) => !existsSync(path.join(ROOT, "rules", `${r.id}.md`))).map((r) => r.id)).toEqual([]);
  });

  it("every fixable rule declares its fix kinds and its docs page states the same ones", () => {
    const problems = ALL_RULES.map((r) => fixKindProblem(r, readFileSync(path.join(ROOT, "rules", `${r.id}.md`), "utf8"))).filter((p) => p !== null);
    expect(problems).toEqual([]);
    expect(ALL_RULES.filter((r) => r.fixable).map((r) => [r.id, r.fixKinds])).toEqual([
      ["syntax/one-line-block", ["safe"]],
      ["input/sensitive", ["unsafe"]],
      ["output/provider-id-list-shape", ["safe"]],
      ["pool/autoscaling-ignore-changes", ["unsafe"]],
    ]);
  });

  it("tells a page that states the wrong fix kind, or none, from one that agrees", () => {
    const safe = { id: "x/safe", fixable: true, fixKinds: ["safe"] as const };
    expect(fixKindProblem(safe, "# x/safe\n\nFix kind: safe. It only moves text.\n")).toBeNull();
    expect(fixKindProblem(safe, "# x/safe\n\nFix kind: unsafe. It changes the plan.\n")).toBe('x/safe: its page states "Fix kind: unsafe" but the rule declares safe');
    expect(fixKindProblem(safe, "# x/safe\n\nThe fix is safe.\n")).toBe('x/safe: its page does not state its fix kind (a line "Fix kind: safe")');
    expect(fixKindProblem({ id: "x/both", fixable: true, fixKinds: ["safe", "unsafe"] }, "Fix kinds: safe and unsafe (...)\n")).toBeNull();
    expect(fixKindProblem({ id: "x/undeclared", fixable: true }, "Fix kind: unsafe.\n")).toBe("x/undeclared: fixable but declares no fixKinds");
    expect(fixKindProblem({ id: "x/none", fixable: false }, "Fix kind: safe.\n")).toBe('x/none: its page states "Fix kind: safe" but the rule has no fix');
    expect(fixKindProblem({ id: "x/none", fixable: false }, "# x/none\n")).toBeNull();
  });

  it("every built-in rule has a failing and a passing fixture", () => {
    const fixtures = path.join(ROOT, "fixtures");
    const lacking = ALL_RULES.flatMap((r) => {
      const { failing, passing } = fixtureCoverage(fixtures, r.id);
      return [...(failing.length === 0 ? [`${r.id}: no failing fixture`] : []), ...(passing.length === 0 ? [`${r.id}: no passing fixture`] : [])];
    });
    expect(lacking).toEqual([]);
  });

  it("tells a rule without a failing or passing fixture from one with both", () => {
    const tmp = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-catalogue-"));
    try {
      const write = (rel: string, c: CaseFile): void => {
        mkdirSync(path.join(tmp, rel), { recursive: true });
        writeFileSync(path.join(tmp, rel, "expected.json"), JSON.stringify(c));
      };
      write("input/a/clean", { findings: [] });
      write("input/a/other-rule", { rules: ["input/b"], findings: [{ ruleId: "input/b" }] });
      write("input/b/bad", { findings: [{ ruleId: "input/b" }] });
      write("input/b/nested/ok", { rules: "all", info: [{ ruleId: "input/c" }], findings: [] });
      expect(fixtureCoverage(tmp, "input/a")).toEqual({ failing: [], passing: ["input/a/clean"] });
      expect(fixtureCoverage(tmp, "input/b")).toEqual({ failing: ["input/b/bad"], passing: ["input/b/nested/ok"] });
      expect(fixtureCoverage(tmp, "input/c")).toEqual({ failing: [], passing: [] });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

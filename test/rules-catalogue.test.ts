/**
 * Every built-in rule is complete: a docs page next to its file
 * (`rules/<id>.md`), at least one failing fixture (a case under
 * `fixtures/<id>/` whose expected findings include one of the rule) and at
 * least one passing fixture (a case of that folder that runs the rule and
 * expects no finding of it). Adding a rule without them fails here.
 */
import { describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_RULES } from "../rules/index.js";

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

describe("the rule catalogue", () => {
  it("lists each built-in rule once, each with a provenance", () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ALL_RULES.filter((r) => !["syntax", "reference", "contract-depth", "control-plane"].includes(r.provenance ?? "")).map((r) => r.id)).toEqual([]);
  });

  it("every built-in rule has a docs page next to its file", () => {
    expect(ALL_RULES.filter((r) => !existsSync(path.join(ROOT, "rules", `${r.id}.md`))).map((r) => r.id)).toEqual([]);
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

/**
 * The generic fixture runner: every `fixtures/**\/expected.json` is one case.
 * The case directory is linted with the role and rules the file names
 * (default rules: the one named by the folder path `fixtures/<prefix>/<name>/`)
 * and the findings must match exactly, in the engine's order.
 *
 * `"rules": "all"` runs every rule; an optional `"info"` list holds the
 * info-severity findings separately (then `findings` holds the others).
 * A finding's `related` (the hops its rule followed) is compared when the
 * expected finding lists it, as `message` is.
 * The clock is fixed at 2026-01-01 so `exp:` dates in ignore comments give
 * the same result on every day.
 *
 * A case either holds its whole module or names a `base` module and only
 * what it changes (scripts/fixture-modules.mjs builds the module in a
 * temporary folder; file paths in findings are relative to the module, so
 * they read as they would in the case folder).
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import { BUILTIN_CATALOGUE } from "../src/catalogue.js";
import type { Role } from "../src/contract/roles-api.js";
import type { Finding } from "../src/lint/types.js";
import type { ExpectedFinding } from "./helpers/expected.js";
import { toFixtureFinding } from "../src/testing.js";
import { findCaseDirs, FixtureError, moduleDir, readCase } from "../scripts/fixture-modules.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURES = path.join(ROOT, "fixtures");


interface Expected {
  role?: Role;
  /** Rule ids to run, or "all" for every rule (default: the folder's rule). */
  rules?: string[] | "all";
  findings: ExpectedFinding[];
  /**
   * Optional: when present, info-severity findings are compared with this
   * list and `findings` holds only the error/warning ones.
   */
  info?: ExpectedFinding[];
}

/** The rule a case folder is about: `fixtures/<prefix>/<name>/...` -> `<prefix>/<name>`. */
function defaultRuleOf(relCaseDir: string): string {
  const parts = relCaseDir.split(path.sep);
  return `${parts[0]}/${parts[1]}`;
}

/** Folders under fixtures/ that are not `<group>/<rule>/<case>` rule fixtures. */
const OTHER_LAYOUTS = new Set(["bases", "cli", "e2e", "hcl", "realistic", "schema", "skeletons", "terraform"]);

/**
 * The rule fixture folders, `fixtures/<group>/<rule>/<case>/`, whether or not
 * they hold an expected.json (one without it is a mistake, not a skipped case).
 */
function ruleCaseFolders(): string[] {
  const out: string[] = [];
  const dirs = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
  for (const group of dirs(FIXTURES).filter((g) => !OTHER_LAYOUTS.has(g))) {
    for (const rule of dirs(path.join(FIXTURES, group))) {
      for (const c of dirs(path.join(FIXTURES, group, rule))) out.push(path.join(FIXTURES, group, rule, c));
    }
  }
  return out;
}

const cases = findCaseDirs(FIXTURES).filter((d) => !path.relative(FIXTURES, d).startsWith(`cli${path.sep}`));

describe("fixture case folders", () => {
  it("every rule fixture folder is a case: it has an expected.json", () => {
    const folders = ruleCaseFolders();
    expect(folders.length).toBeGreaterThan(500);
    expect(folders.filter((c) => !existsSync(path.join(c, "expected.json")))).toEqual([]);
    // Each is run below (as are the realistic modules and skeletons).
    expect(folders.filter((c) => !cases.includes(c))).toEqual([]);
  });

  it("fixtures/bases holds modules, not cases, and each is the base of some case", () => {
    const bases = readdirSync(path.join(FIXTURES, "bases"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(FIXTURES, "bases", e.name));
    expect(bases.length).toBeGreaterThan(0);
    expect(bases.filter((b) => existsSync(path.join(b, "expected.json")))).toEqual([]);
    const used = new Set(cases.map((c) => readCase(c).base));
    expect(bases.filter((b) => !used.has(b))).toEqual([]);
  });

  it("every case reads and its module builds (a base that exists, edits that apply)", () => {
    const failures: string[] = [];
    for (const dir of cases) {
      try {
        moduleDir(dir);
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
    expect(failures).toEqual([]);
  });

  describe("the runner rejects a broken case", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "fixture-cases-"));
    const write = (rel: string, text: string): string => {
      const file = path.join(scratch, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      return path.dirname(file);
    };
    const rejects = (dir: string): string => {
      try {
        moduleDir(dir);
      } catch (e) {
        expect(e).toBeInstanceOf(FixtureError);
        return (e as Error).message.replace(`${path.relative(ROOT, scratch).split(path.sep).join("/")}/`, "");
      }
      throw new Error(`${dir}: accepted`);
    };

    it("a case folder without expected.json", () => {
      const dir = write("no-expected/main.tf", "locals {}\n");
      expect(rejects(dir)).toBe("no-expected: a case folder needs an expected.json (the findings it must give)");
    });

    it("a base that does not exist", () => {
      const dir = write("missing-base/expected.json", JSON.stringify({ base: "examples/no-such-module", findings: [] }));
      expect(rejects(dir)).toBe('missing-base/expected.json: base "examples/no-such-module" does not exist (name a module folder relative to the repository root)');
    });

    it("an edit whose text is not in the file, or is there twice", () => {
      const base = "examples/machinepool-aws";
      const absent = write("edit-absent/expected.json", JSON.stringify({ base, edits: [{ file: "main.tf", find: "no such text anywhere", replace: "" }], findings: [] }));
      expect(rejects(absent)).toBe("edit-absent/expected.json: edit 1 does not find its text in main.tf");
      const twice = write("edit-twice/expected.json", JSON.stringify({ base, edits: [{ file: "main.tf", find: "resource", replace: "" }], findings: [] }));
      expect(rejects(twice)).toBe('edit-twice/expected.json: edit 1 finds its text more than once in main.tf; make "find" longer');
    });

    it("a base that has a base itself, and a removal the base cannot give", () => {
      const chained = write("chained/expected.json", JSON.stringify({ base: "fixtures/realistic/aws-machinepool", findings: [] }));
      expect(readCase(path.join(ROOT, "fixtures/realistic/aws-machinepool")).base).toBe(path.join(ROOT, "examples/machinepool-aws"));
      expect(rejects(chained)).toBe('chained/expected.json: base "fixtures/realistic/aws-machinepool" has a base itself; name a standalone module instead');
      const gone = write("remove-missing/expected.json", JSON.stringify({ base: "examples/machinepool-aws", remove: ["nope.tf"], findings: [] }));
      expect(rejects(gone)).toBe("remove-missing/expected.json: \"remove\" names nope.tf, which base examples/machinepool-aws does not have");
    });

    it("builds a good case: base files, minus removals, plus overlays, then edits", () => {
      const dir = write(
        "good/expected.json",
        JSON.stringify({ base: "examples/machinepool-aws", remove: ["userdata.tf"], edits: [{ file: "extra.tf", find: "a = 1", replace: "a = 2" }], findings: [] }),
      );
      write("good/extra.tf", "locals {\n  a = 1\n}\n");
      const built = moduleDir(dir);
      expect(readdirSync(built).sort()).toEqual(["extra.tf", "main.tf", "outputs.tf", "variables.tf", "versions.tf"]);
      expect(readFileSync(path.join(built, "extra.tf"), "utf8")).toBe("locals {\n  a = 2\n}\n");
      expect(readFileSync(path.join(built, "main.tf"), "utf8")).toBe(readFileSync(path.join(ROOT, "examples/machinepool-aws/main.tf"), "utf8"));
      expect(moduleDir(dir)).toBe(built);
      rmSync(scratch, { recursive: true, force: true });
    });
  });
});

describe("fixtures", () => {

  for (const dir of cases) {
    const rel = path.relative(FIXTURES, dir);
    it(rel.split(path.sep).join("/"), () => {
      const expected = readCase(dir).expected as unknown as Expected;
      const rules = expected.rules === "all" ? null : (expected.rules ?? [defaultRuleOf(rel)]);
      // A misspelt rule id would silently run nothing.
      expect((rules ?? []).filter((id) => !BUILTIN_CATALOGUE.isKnown(id))).toEqual([]);
      const outcome = lintModule(moduleDir(dir), {
        ...(expected.role ? { role: expected.role } : {}),
        ...(rules ? { only: rules } : {}),
        now: new Date("2026-01-01T00:00:00Z"),
      });
      if (outcome.kind !== "report") throw new Error(`lint failed: ${outcome.message}`);
      const view = (list: readonly Finding[], shape: readonly ExpectedFinding[]): ExpectedFinding[] =>
        list.map((f, i) => {
          const { message, related, ...rest } = toFixtureFinding(f);
          return {
            ...rest,
            ...(shape[i]?.message !== undefined ? { message } : {}),
            ...(shape[i]?.related !== undefined ? { related: related ?? [] } : {}),
          };
        });
      const normal = (list: readonly ExpectedFinding[]): ExpectedFinding[] =>
        list.map((w) => ({
          ruleId: w.ruleId,
          severity: w.severity,
          file: w.file,
          line: w.line,
          column: w.column,
          endLine: w.endLine,
          endColumn: w.endColumn,
          ...(w.message !== undefined ? { message: w.message } : {}),
          ...(w.related !== undefined ? { related: w.related.map((r) => ({ file: r.file, line: r.line, column: r.column, message: r.message })) } : {}),
        }));
      const all = outcome.report.findings;
      if (expected.info) {
        const infos = all.filter((f) => f.severity === "info");
        const rest = all.filter((f) => f.severity !== "info");
        expect({ findings: view(rest, expected.findings), info: view(infos, expected.info) }).toEqual({
          findings: normal(expected.findings),
          info: normal(expected.info),
        });
        return;
      }
      const got = view(all, expected.findings);
      const want = normal(expected.findings);
      expect(got).toEqual(want);
    });
  }
});

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
 */
import { describe, expect, it } from "vitest";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import { knownRules } from "../src/config/known-rules.js";
import type { Role } from "../src/contract/roles-api.js";
import type { Finding } from "../src/lint/types.js";
import type { ExpectedFinding } from "./helpers/expected.js";
import { toFixtureFinding } from "../src/testing.js";

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

function findCases(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir).sort()) {
    const p = path.join(dir, entry);
    if (entry === "expected.json") out.push(dir);
    else if (lstatSync(p).isDirectory() && entry !== "node_modules" && entry !== ".terraform") findCases(p, out);
  }
  return out;
}

/** The rule a case folder is about: `fixtures/<prefix>/<name>/...` -> `<prefix>/<name>`. */
function defaultRuleOf(relCaseDir: string): string {
  const parts = relCaseDir.split(path.sep);
  return `${parts[0]}/${parts[1]}`;
}

const cases = findCases(FIXTURES, []).filter((d) => !path.relative(FIXTURES, d).startsWith(`cli${path.sep}`));

describe("fixtures", () => {
  it("every case has an expected.json", () => {
    expect(cases.filter((c) => !existsSync(path.join(c, "expected.json")))).toEqual([]);
  });

  for (const dir of cases) {
    const rel = path.relative(FIXTURES, dir);
    it(rel.split(path.sep).join("/"), () => {
      const expected = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as Expected;
      const rules = expected.rules === "all" ? null : (expected.rules ?? [defaultRuleOf(rel)]);
      // A misspelt rule id would silently run nothing.
      expect((rules ?? []).filter((id) => !knownRules().isKnown(id))).toEqual([]);
      const outcome = lintModule(dir, {
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

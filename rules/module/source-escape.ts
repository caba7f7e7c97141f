import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import type { LoadProblem, ModuleUnit } from "../../src/terraform/module-types.js";

const MODULE_FILE = /\.(tf|tofu)(\.json)?$/;

/** The directory (relative to the root) a load problem is about. */
function problemDir(problem: LoadProblem): string {
  const file = problem.file;
  if (!MODULE_FILE.test(file)) return file;
  const slash = file.lastIndexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

export function belongsTo(problem: LoadProblem, unit: ModuleUnit): boolean {
  return problemDir(problem) === unit.relDir;
}

export default defineRule({
  id: "module/source-escape",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "Local module sources and module files stay inside the module directory",
  scope: "all",
  fixable: false,
  tags: ["module", "packaging"],
  check(ctx) {
    for (const problem of ctx.load.problems) {
      if (problem.kind !== "source-escape" || !belongsTo(problem, ctx.unit)) continue;
      ctx.report({
        message: problem.message,
        ...(problem.file ? { file: problem.file } : {}),
        ...(problem.range ? { range: problem.range } : {}),
      });
    }
  },
});

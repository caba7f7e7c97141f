import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { variableUsage } from "../../src/analysis/usage.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "input/tags-unused",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "captf_tags is applied to the module's resources, not just declared",
  scope: "root",
  fixable: false,
  // A file that failed to parse may hold the missing use or twin declaration.
  declarationCheck: true,
  tags: ["contract", "inputs", "tagging"],
  check(ctx) {
    const variable = ctx.expressions.variables.get("captf_tags");
    if (!variable) return;
    const usage = variableUsage(ctx.unit, "captf_tags");
    if (usage.used) return;
    const calls = usage.passedTo.map((c) => `module "${c.name}"`);
    const only = calls.length > 0 ? ` (it only reaches ${calls.join(", ")}, which ${calls.length > 1 ? "do" : "does"} not apply it)` : "";
    ctx.report({
      message: `captf_tags is never applied${only}: merge it into the tags or labels of every resource that supports them, e.g. tags = merge(var.captf_tags, { Name = ... }).`,
      file: variable.file.path,
      range: blockNameRange(variable.block),
    });
  },
});

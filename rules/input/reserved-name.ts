import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "input/reserved-name",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "No user variable is named like a module meta-argument (source, count, for_each, ...)",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs", "naming"],
  check(ctx) {
    const reserved = new Set(ctx.contract.reservedVariableNames);
    for (const variable of ctx.declarations.variables.values()) {
      if (!reserved.has(variable.name)) continue;
      ctx.report({
        message: `Variable "${variable.name}" has the name of a module meta-argument, which the controller cannot pass as a user variable: rename it (e.g. "${variable.name}_value").`,
        file: variable.file.path,
        range: blockNameRange(variable.block),
      });
    }
  },
});

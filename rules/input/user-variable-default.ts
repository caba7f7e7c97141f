import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "input/user-variable-default",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "Every user variable (not a contract input, not captf_*) has a default",
  scope: "root",
  fixable: false,
  tags: ["inputs", "user-variables"],
  check(ctx) {
    const prefix = ctx.contract.reservedPrefix;
    const contractNames = new Set(ctx.contract.inputs[ctx.role].map((i) => i.name));
    for (const variable of ctx.declarations.variables.values()) {
      if (contractNames.has(variable.name) || variable.name.startsWith(prefix)) continue;
      if (variable.defaultAttr) continue;
      ctx.report({
        message: `User variable "${variable.name}" has no default, so every object that does not set it fails to apply: add a default (default = null if there is no sensible value).`,
        file: variable.file.path,
        range: blockNameRange(variable.block),
      });
    }
  },
});

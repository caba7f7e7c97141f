import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "input/reserved",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "No variable uses the reserved captf_ prefix unless it is a contract input of the role",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs", "naming"],
  check(ctx) {
    const prefix = ctx.contract.reservedPrefix;
    const contractNames = new Set(ctx.contract.inputs[ctx.role].map((i) => i.name));
    for (const variable of ctx.declarations.variables.values()) {
      if (!variable.name.startsWith(prefix) || contractNames.has(variable.name)) continue;
      const range = blockNameRange(variable.block);
      if (ctx.role === "cluster" && variable.name === "captf_cluster_outputs") {
        if (variable.defaultAttr) continue;
        ctx.report({
          message:
            'The cluster role is never passed "captf_cluster_outputs": give it a default (default = null) or remove the variable, otherwise validate fails.',
          file: variable.file.path,
          range,
        });
        continue;
      }
      ctx.report({
        message: `Variable "${variable.name}" uses the reserved "${prefix}" prefix but is not a ${ctx.role} contract input: rename it without the prefix.`,
        file: variable.file.path,
        range,
      });
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module-builder.js";

export default defineRule({
  id: "input/default",
  provenance: "reference",
  severity: "warning",
  roles: ROLES,
  summary: "Non-nullable contract inputs are declared without a default",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs"],
  check(ctx) {
    for (const input of ctx.contract.inputs[ctx.role]) {
      if (input.nullable || input.defaultAllowed) continue;
      const variable = ctx.declarations.variables.get(input.name);
      if (!variable?.defaultAttr) continue;
      ctx.report({
        message: `Contract input "${input.name}" is always set by the controller and is never null: remove its default, which would only hide a missing value.`,
        file: fileOf(variable, variable.defaultAttr).path,
        range: variable.defaultAttr.range,
      });
    }
  },
});

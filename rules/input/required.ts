import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";

/** `captf_tags` has its own rule (input/tags-declared). */
const OWN_RULE = new Set(["captf_tags"]);

export default defineRule({
  id: "input/required",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "Every contract input of the role is declared as a variable",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs"],
  declarationCheck: true,
  check(ctx) {
    for (const input of ctx.contract.inputs[ctx.role]) {
      if (OWN_RULE.has(input.name)) continue;
      if (ctx.declarations.variables.has(input.name)) continue;
      ctx.report({
        message: `Contract input "${input.name}" is not declared: add variable "${input.name}" { type = ${input.type} } (the controller always passes it to the ${ctx.role} module).`,
        subject: `variable.${input.name}`,
      });
    }
  },
});

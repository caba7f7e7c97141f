import { defineRule } from "../../src/lint/types.js";

/** Outputs with a rule of their own (so a missing one is reported once). */
const OWN_RULE = new Set(["health", "provider_id_list"]);

export default defineRule({
  id: "output/required",
  provenance: "reference",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "Every output the role's contract requires is declared",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs"],
  declarationCheck: true,
  check(ctx) {
    for (const name of ctx.contract.outputs[ctx.role]) {
      if (OWN_RULE.has(name)) continue;
      if (ctx.declarations.outputs.has(name)) continue;
      ctx.report({
        message: `The ${ctx.role} contract requires output "${name}", which is not declared; add an output "${name}" block`,
        subject: `output.${name}`,
      });
    }
  },
});

import { defineRule } from "../../src/lint/types.js";

export default defineRule({
  id: "output/health",
  provenance: "reference",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "The health output is declared",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "health"],
  declarationCheck: true,
  check(ctx) {
    if (ctx.declarations.outputs.has("health")) return;
    ctx.report({
      message:
        'Output "health" is not declared; add one whose value is an object with state and healthy (e.g. { state = "running", healthy = true })',
      subject: "output.health",
    });
  },
});

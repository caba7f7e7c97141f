import { defineRule } from "../../src/lint/types.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "output/reserved",
  provenance: "reference",
  severity: "warning",
  roles: ["cluster", "machine", "machinepool"],
  summary: "No output uses the controller's reserved captf_ prefix",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "naming"],
  check(ctx) {
    const prefix = ctx.contract.reservedPrefix;
    for (const output of ctx.declarations.outputs.values()) {
      if (!output.name.startsWith(prefix)) continue;
      ctx.report({
        message: `Output "${output.name}" uses the reserved ${prefix} prefix; rename it (names starting with ${prefix} belong to the controller)`,
        file: output.file.path,
        range: blockHeaderRange(output.block),
      });
    }
  },
});

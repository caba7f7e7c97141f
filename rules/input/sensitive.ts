import { insertAttributeFix, replaceFix } from "../../src/lint/fix-builders.js";
import { defineRule } from "../../src/lint/types.js";
import type { Fix } from "../../src/lint/types.js";
import type { Variable } from "../../src/terraform/module-types.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "input/sensitive",
  provenance: "reference",
  severity: "warning",
  roles: ["machine", "machinepool"],
  summary: "bootstrap_data is declared with sensitive = true",
  scope: "root",
  fixable: true,
  // Unsafe: the sensitive mark changes the plan (see the docs page, "How to fix").
  fixKinds: ["unsafe"],
  tags: ["contract", "inputs", "security"],
  check(ctx) {
    for (const input of ctx.contract.inputs[ctx.role]) {
      if (!input.sensitive) continue;
      const variable = ctx.declarations.variables.get(input.name);
      if (!variable || variable.sensitive) continue;
      const attr = variable.sensitiveAttr;
      ctx.report({
        message: `Variable "${input.name}" carries the node's bootstrap secret (join token): mark it sensitive = true so plans and logs do not print it.`,
        file: attr ? fileOf(variable, attr).path : variable.file.path,
        range: attr ? attr.range : blockNameRange(variable.block),
        fix: sensitiveFix(variable),
      });
    }
  },
});

function sensitiveFix(variable: Variable): Fix | undefined {
  const description = `Mark variable "${variable.name}" sensitive`;
  const attr = variable.sensitiveAttr;
  // `sensitive = false` (or a non-constant value): set it to true in place.
  if (attr) return replaceFix(fileOf(variable, attr), attr.expr, "true", description, "unsafe");
  return insertAttributeFix(variable.file, variable.block, "sensitive", "true", description, "unsafe");
}

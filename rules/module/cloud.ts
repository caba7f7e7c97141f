import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "module/cloud",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "No terraform block declares a cloud block (the generated root owns state)",
  scope: "all",
  fixable: false,
  tags: ["module", "state"],
  check(ctx) {
    for (const settings of ctx.expressions.terraformBlocks) {
      for (const cloud of settings.clouds) {
        ctx.report({
          message:
            "Remove the cloud block: the controller's generated root keeps state in its own backend; HCP Terraform settings belong in a root module, never in a called one.",
          file: fileOf(settings, cloud).path,
          range: blockHeaderRange(cloud, fileOf(settings, cloud).hcl.syntax),
        });
      }
    }
  },
});

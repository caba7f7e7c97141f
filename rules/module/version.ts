import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";

export default defineRule({
  id: "module/version",
  provenance: "reference",
  severity: "info",
  roles: ROLES,
  summary: "The module states the Terraform/OpenTofu versions it supports (required_version)",
  scope: "root",
  fixable: false,
  tags: ["module", "versions"],
  declarationCheck: true,
  check(ctx) {
    if (ctx.declarations.terraformBlocks.some((t) => t.requiredVersion !== null)) return;
    ctx.report({
      message:
        'No terraform block sets required_version: add terraform { required_version = ">= 1.6" } (or the range you test) so an image with an unsupported runtime fails early.',
      subject: "terraform",
    });
  },
});

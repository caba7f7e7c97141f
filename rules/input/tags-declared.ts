import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";

export default defineRule({
  id: "input/tags-declared",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "The module declares the captf_tags input",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs", "tagging"],
  declarationCheck: true,
  check(ctx) {
    if (ctx.declarations.variables.has("captf_tags")) return;
    ctx.report({
      message:
        'Variable "captf_tags" is not declared: add variable "captf_tags" { type = map(string) } and apply it to every taggable resource.',
      subject: "variable.captf_tags",
    });
  },
});

import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import { blockHeaderRange } from "../../src/hcl/blocks.js";

export default defineRule({
  id: "module/backend",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "No terraform block declares a backend (the generated root owns state)",
  scope: "all",
  fixable: false,
  tags: ["module", "state"],
  check(ctx) {
    for (const settings of ctx.expressions.terraformBlocks) {
      for (const backend of settings.backends) {
        const kind = backend.labels[0] ?? "";
        ctx.report({
          message: `Remove the backend${kind ? ` "${kind}"` : ""} block: the controller's generated root stores state in its own backend, and a backend in a called module makes init fail.`,
          file: fileOf(settings, backend).path,
          range: blockHeaderRange(backend, fileOf(settings, backend).hcl.syntax),
        });
      }
    }
  },
});

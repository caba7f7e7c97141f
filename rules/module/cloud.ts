import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { reportStateBlocks } from "../shared/state-blocks.js";

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
    reportStateBlocks(
      ctx,
      "clouds",
      () =>
        "Remove the cloud block: the controller's generated root keeps state in its own backend; HCP Terraform settings belong in a root module, never in a called one.",
    );
  },
});

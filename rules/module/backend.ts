import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { reportStateBlocks } from "../shared/state-blocks.js";

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
    reportStateBlocks(ctx, "backends", (backend) => {
      const kind = backend.labels[0] ?? "";
      return `Remove the backend${kind ? ` "${kind}"` : ""} block: the controller's generated root stores state in its own backend, and a backend in a called module makes init fail.`;
    });
  },
});

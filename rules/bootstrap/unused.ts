import { defineRule } from "../../src/lint/types.js";
import { reportUnreferencedVariable } from "../shared/unreferenced-inputs.js";

export default defineRule({
  id: "bootstrap/unused",
  provenance: "contract-depth",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "bootstrap_data is passed to the instances (it is declared and referenced)",
  scope: "root",
  fixable: false,
  tags: ["contract", "bootstrap"],
  check(ctx) {
    reportUnreferencedVariable(
      ctx,
      "bootstrap_data",
      () =>
        "bootstrap_data is declared but never used, so no instance can join the cluster; pass it to the instance's user-data argument (unchanged where the argument takes base64, base64decode(...) where it takes plain text)",
    );
  },
});

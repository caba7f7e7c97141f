import { defineRule } from "../../src/lint/types.js";
import { reportUnreferencedVariable } from "../shared/unreferenced-inputs.js";

export default defineRule({
  id: "pool/node-labels-unused",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["machinepool"],
  summary: "node_labels is rendered into the kubelet registration (not just declared)",
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "labels"],
  check(ctx) {
    reportUnreferencedVariable(
      ctx,
      "node_labels",
      () =>
        "node_labels is declared but never used: pool members have no Machine objects, so the labels are silently dropped; render them into the kubelet registration (e.g. --node-labels in a cloud-config part next to the bootstrap data)",
    );
  },
});

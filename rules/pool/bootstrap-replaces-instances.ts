import { defineRule } from "../../src/lint/types.js";
import { derivedFrom } from "../_lib/pool-derived.js";

const BOOTSTRAP = "var.bootstrap_data";

export default defineRule({
  id: "pool/bootstrap-replaces-instances",
  severity: "error",
  roles: ["machinepool"],
  summary: "No replace_triggered_by depends on bootstrap data (the token rotates; instances must not be replaced)",
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "bootstrap", "lifecycle"],
  check(ctx) {
    const module = ctx.expressions;
    if (!module.variables.has("bootstrap_data")) return;
    for (const r of module.resources.values()) {
      for (const trigger of r.lifecycle.replaceTriggeredBy) {
        const found = derivedFrom(ctx.graph, trigger, BOOTSTRAP);
        if (!found) continue;
        const [first, ...rest] = found.chain;
        const middle = rest.slice(0, -1);
        const what =
          rest.length === 0
            ? "references var.bootstrap_data"
            : `references ${first}, which carries var.bootstrap_data${middle.length > 0 ? ` (via ${middle.join(" -> ")})` : ""}`;
        ctx.report({
          message: `replace_triggered_by of ${r.address} ${what}: the bootstrap token rotates every few minutes, so every rotation would replace ${r.address}; let bootstrap changes update the launch configuration in place and trigger replacement only on what must roll the instances (image, Kubernetes version)`,
          file: r.file.path,
          range: trigger.range,
        });
      }
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import { carries, carrierText } from "../../src/analysis/carriers.js";

export default defineRule({
  id: "pool/bootstrap-replaces-instances",
  provenance: "contract-depth",
  severity: "error",
  roles: ["machinepool"],
  summary: "No replace_triggered_by depends on bootstrap data (the token rotates; instances must not be replaced)",
  // Local child modules too (a group defined in ./modules/group).
  scope: "all",
  fixable: false,
  tags: ["contract", "machinepool", "bootstrap", "lifecycle"],
  check(ctx) {
    const module = ctx.expressions;
    for (const r of module.resources.values()) {
      for (const trigger of r.lifecycle.replaceTriggeredBy) {
        const found = carries(ctx, trigger, "bootstrap_data", r);
        if (!found) continue;
        const data = carrierText("bootstrap_data", found.carrier);
        const [first, ...rest] = found.derivation.chain;
        const middle = rest.slice(0, -1);
        const what =
          rest.length === 0
            ? `references ${data}`
            : `references ${first}, which carries ${data}${middle.length > 0 ? ` (via ${middle.join(" -> ")})` : ""}`;
        ctx.report({
          related: found.related,
          message: `replace_triggered_by of ${r.address} ${what}: the bootstrap token rotates every few minutes, so every rotation would replace ${r.address}; let bootstrap changes update the launch configuration in place and trigger replacement only on what must roll the instances (image, Kubernetes version)`,
          file: r.file.path,
          range: trigger.range,
        });
      }
    }
  },
});

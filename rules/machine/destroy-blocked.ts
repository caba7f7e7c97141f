import { defineRule } from "../../src/lint/types.js";
import { constantValue } from "../../src/hcl/walk.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import { chainHops } from "../../src/analysis/paths.js";
import { mayBeTrue } from "../../src/analysis/api-lb.js";

export default defineRule({
  id: "machine/destroy-blocked",
  provenance: "control-plane",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "A resource has lifecycle { prevent_destroy = true }: every Machine deletion, rollout and remediation fails",
  // A protected resource in a child module blocks the destroy just the same.
  scope: "all",
  fixable: false,
  tags: ["contract", "machine", "lifecycle"],
  check(ctx) {
    const module = ctx.expressions;
    for (const r of module.resources.values()) {
      const attr = r.lifecycle.preventDestroyAttr;
      if (!attr) continue;
      const file = fileOf(r, attr);
      if (!mayBeTrue(module, { expr: attr.expr, file, via: [] })) continue;
      // A value built from locals or variables: the first of them, followed.
      // Only that chain is spelled out (all of them would cost the square of a long chain of locals).
      const deps = ctx.graph.dependencies(attr.expr);
      const first = deps.keys().next();
      const related = chainHops(module, first.done ? null : (deps.get(first.value) ?? null));
      const what = ctx.role === "machinepool" ? "the MachinePool" : "the Machine";
      const c = constantValue(attr.expr);
      const how = c.known && c.value === true ? "is" : "may be";
      ctx.report({
        message: `${r.address} ${how} protected by lifecycle { prevent_destroy = true }: deleting, rolling out or remediating ${what} destroys or replaces it, Terraform refuses every time and the controller's Job retries forever; remove prevent_destroy`,
        file,
        range: attr.expr.range,
        ...(related.length > 0 ? { related } : {}),
      });
    }
  },
});

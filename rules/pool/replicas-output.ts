import { fileOf } from "../../src/terraform/module-builder.js";
import { defineRule } from "../../src/lint/types.js";
import { traversalPath, viaText } from "../../src/analysis/references.js";
import { unwrap } from "../../src/hcl/walk.js";
import { joinHops, localHops, variableHop } from "../../src/analysis/paths.js";

export default defineRule({
  id: "pool/replicas-output",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["machinepool"],
  summary: "With autoscaling, the replicas output reads the group's current desired capacity back",
  scope: "root",
  fixable: false,
  tags: ["contract", "machinepool", "autoscaling"],
  check(ctx) {
    if (!ctx.graph.isReferenced("var.autoscaling")) return;
    const output = ctx.expressions.outputs.get("replicas");
    if (!output?.value) return;
    const resolved = ctx.graph.resolveLocals(output.value);
    const target = unwrap(resolved.expr);
    if (traversalPath(target) !== "var.replicas") return;
    ctx.report({
      message: `The replicas output is just var.replicas${viaText(resolved.via)}, but the module supports autoscaling: report the group's current desired capacity read back from the scaling group (e.g. aws_autoscaling_group.<name>.desired_capacity), or the autoscaler's changes never reach the MachinePool`,
      file: output.valueAttr ? fileOf(output, output.valueAttr).path : output.file.path,
      range: output.value.range,
      related: joinHops(localHops(ctx.expressions, resolved.via), [variableHop(ctx.expressions, "replicas")]),
    });
  },
});

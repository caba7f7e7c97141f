import { defineRule } from "../../src/lint/types.js";
import { outputValueSite } from "../shared/output-shapes.js";

export default defineRule({
  id: "output/endpoint-ignores-input",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["cluster"],
  summary: "control_plane_endpoint honours var.control_plane_endpoint",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "endpoint"],
  check(ctx) {
    const value = outputValueSite(ctx, "control_plane_endpoint");
    if (!value) return;
    // Locals are followed; resources are not: an output that reads a load
    // balancer whose count depends on the input still breaks (or stays
    // half-set) when the input is given.
    if (ctx.graph.reaches(value.expr, "var.control_plane_endpoint") !== null) return;
    const locals = [...ctx.graph.dependencies(value.expr).keys()].filter((a) => a.startsWith("local.")).sort();
    const followed = locals.length === 0 ? "" : ` (neither directly nor through ${locals.length > 3 ? `${locals.slice(0, 3).join(", ")} and ${locals.length - 3} more locals` : locals.join(", ")})`;
    ctx.report({
      file: value.file.path,
      range: value.expr.range,
      message: `control_plane_endpoint never uses var.control_plane_endpoint${followed}; a non-null input means the endpoint already exists, so return it in that case (var.control_plane_endpoint != null ? var.control_plane_endpoint : <the module's own endpoint>)`,
    });
  },
});

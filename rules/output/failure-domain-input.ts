import { defineRule } from "../../src/lint/types.js";
import { outputValueSite } from "../shared/output-shapes.js";

export default defineRule({
  id: "output/failure-domain-input",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["machine"],
  summary: "The failure_domain output follows var.failure_domain",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "failure-domains"],
  check(ctx) {
    const value = outputValueSite(ctx, "failure_domain");
    if (!value) return;
    // Through locals, resources, data sources and module calls: reading the
    // zone back from an instance placed by var.failure_domain is the usual form.
    if (ctx.graph.reaches(value.expr, "var.failure_domain", { throughResources: true }) !== null) return;
    const followed = [...ctx.graph.dependencies(value.expr, { throughResources: true }).keys()]
      .filter((a) => !a.startsWith("var.") && !a.startsWith("each.") && !a.startsWith("count.") && !a.startsWith("path.") && !a.startsWith("terraform."))
      .sort();
    const through =
      followed.length === 0
        ? ""
        : ` (neither directly nor through ${followed.length > 3 ? `${followed.slice(0, 3).join(", ")} and ${followed.length - 3} more` : followed.join(", ")})`;
    ctx.report({
      file: value.file.path,
      range: value.expr.range,
      message: `failure_domain never depends on var.failure_domain${through}; place the machine in var.failure_domain when it is set and report that zone, or the Machine is flagged FailureDomainMismatch`,
    });
  },
});

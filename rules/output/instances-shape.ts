import { viaText } from "../../src/analysis/references.js";
import { defineRule } from "../../src/lint/types.js";
import {
  HEALTH_STATES,
  ShapeReporter,
  caseHint,
  checkAddressList,
  listObjectViews,
  reportMissingAttrs,
  outputValueSite,
  quoteList,
  subject,
} from "../shared/output-shapes.js";
import { describeLiteral, literalAlternatives } from "../../src/analysis/values.js";

export default defineRule({
  id: "output/instances-shape",
  provenance: "contract-depth",
  severity: "error",
  roles: ["machinepool"],
  summary: "instances entries have a provider_id, a state from the health enum and valid addresses",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "machinepool"],
  check(ctx) {
    const value = outputValueSite(ctx.expressions.outputs.get("instances"));
    if (!value) return;
    const module = ctx.expressions;
    const out = new ShapeReporter(ctx);
    const example = '{ provider_id = "aws:///eu-west-1a/i-0abc", state = "running" }';
    for (const view of listObjectViews(module, value, "instances", `[${example}] or []`, example, out)) {
      reportMissingAttrs(out, view, ["provider_id"], subject("instance object", view), "every instance needs the provider ID its Node registers with");
      const state = view.attrs.get("state");
      if (state) {
        for (const alt of literalAlternatives(module, state)) {
          if (alt.kind === "null") continue;
          if (alt.kind === "string" && (alt.value === undefined || HEALTH_STATES.includes(alt.value as string))) continue;
          const hint = typeof alt.value === "string" ? caseHint(alt.value, HEALTH_STATES) : "";
          out.report(
            alt,
            alt.expr.range,
            `instance state ${describeLiteral(alt)}${viaText(alt.via, 4)} is not a health state${hint}; use one of ${quoteList(HEALTH_STATES)} (or leave state out)`,
          );
        }
      }
      const addresses = view.attrs.get("addresses");
      if (addresses) checkAddressList(module, addresses, "instances[*].addresses", out);
    }
  },
});

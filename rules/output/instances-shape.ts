import { defineRule } from "../../src/lint/types.js";
import {
  HEALTH_STATES,
  ShapeReporter,
  checkAddressList,
  checkEnumAttr,
  listObjectViews,
  reportMissingAttrs,
  outputValueSite,
  quoteList,
  subject,
} from "../shared/output-shapes.js";

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
    const value = outputValueSite(ctx, "instances");
    if (!value) return;
    const module = ctx.expressions;
    const out = new ShapeReporter(ctx);
    const example = '{ provider_id = "aws:///eu-west-1a/i-0abc", state = "running" }';
    for (const view of listObjectViews(module, value, "instances", `[${example}] or []`, example, out)) {
      reportMissingAttrs(out, view, ["provider_id"], subject("instance object", view), "every instance needs the provider ID its Node registers with");
      checkEnumAttr(module, view.attrs.get("state"), HEALTH_STATES, { nullable: true }, out, (literal, via, hint) =>
        `instance state ${literal}${via} is not a health state${hint}; use one of ${quoteList(HEALTH_STATES)} (or leave state out)`);
      const addresses = view.attrs.get("addresses");
      if (addresses) checkAddressList(module, addresses, "instances[*].addresses", out);
    }
  },
});

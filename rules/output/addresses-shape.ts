import { defineRule } from "../../src/lint/types.js";
import { ShapeReporter, checkAddressList, outputValueSite } from "../shared/output-shapes.js";

export default defineRule({
  id: "output/addresses-shape",
  provenance: "contract-depth",
  severity: "error",
  roles: ["machine"],
  summary: "addresses entries have a type from the Kubernetes address types and an address",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "addresses"],
  check(ctx) {
    const value = outputValueSite(ctx, "addresses");
    if (!value) return;
    checkAddressList(ctx.expressions, value, "addresses", new ShapeReporter(ctx));
  },
});

import { viaText } from "../../src/analysis/references.js";
import { defineRule } from "../../src/lint/types.js";
import {
  HEALTH_STATES,
  ShapeReporter,
  checkBoolAttr,
  checkEnumAttr,
  objectValueViews,
  reportMissingAttrs,
  outputValueSite,
  quoteList,
} from "../shared/output-shapes.js";
import { describeLiteral, listElements, literalAlternatives } from "../../src/analysis/values.js";

export default defineRule({
  id: "output/health-shape",
  provenance: "contract-depth",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "health is an object with state (from the health enum) and healthy (a bool)",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "health"],
  check(ctx) {
    const value = outputValueSite(ctx, "health");
    if (!value) return;
    const module = ctx.expressions;
    const out = new ShapeReporter(ctx);
    for (const view of objectValueViews(module, value, "health", '{ state = "running", healthy = true }', out)) {
      reportMissingAttrs(out, view, ["state", "healthy"], "health", 'the controller rejects a health object without state and healthy (e.g. { state = "running", healthy = true })');

      checkEnumAttr(module, view.attrs.get("state"), HEALTH_STATES, { nullable: false }, out, (literal, via, hint) =>
        `health.state ${literal}${via} is not a health state${hint}; use one of ${quoteList(HEALTH_STATES)}`);
      checkBoolAttr(module, view.attrs.get("healthy"), "health.healthy", { nullable: false }, out);

      const message = view.attrs.get("message");
      if (message) {
        for (const alt of literalAlternatives(module, message)) {
          if (alt.kind === "string" || alt.kind === "null") continue;
          out.report(
            alt,
            alt.expr.range,
            `health.message is ${describeLiteral(alt)}${viaText(alt.via, 4)}; it must be a string or null (wrap numbers in a template: "\${...}")`,
          );
        }
      }

      const reasons = view.attrs.get("reasons");
      if (reasons) {
        for (const alt of literalAlternatives(module, reasons)) {
          if (alt.kind === "null") continue;
          if (alt.kind !== "list") {
            out.report(alt, alt.expr.range, `health.reasons is ${describeLiteral(alt)}${viaText(alt.via, 4)}; it must be a list of strings (e.g. ["WaitingForCapacity"]) or []`);
            continue;
          }
          for (const el of listElements(module, alt)) {
            for (const e of literalAlternatives(module, el.site)) {
              if (e.kind === "string" || e.kind === "null") continue;
              out.report(e, e.expr.range, `health.reasons holds ${describeLiteral(e)}${viaText(e.via, 4)}; every reason must be a string`);
            }
          }
        }
      }
    }
  },
});

import { viaText } from "../../src/analysis/references.js";
import { defineRule } from "../../src/lint/types.js";
import {
  ShapeReporter,
  checkBoolAttr,
  listObjectViews,
  reportMissingAttrs,
  outputValueSite,
  subject,
} from "../shared/output-shapes.js";
import {
  certainLists,
  certainObject,
  charLength,
  classify,
  describeLiteral,
  literalAlternatives,
  resolveStrict,
} from "../../src/analysis/values.js";
import { objectKeyName } from "../../src/hcl/walk.js";

/** Cluster API caps Cluster.status.failureDomains at 100 entries. */
const MAX_DOMAINS = 100;
const MAX_NAME = 256;

export default defineRule({
  id: "output/failure-domains-shape",
  provenance: "contract-depth",
  severity: "error",
  roles: ["cluster"],
  summary: "failure_domains entries have a valid, unique name and a bool control_plane",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "failure-domains"],
  check(ctx) {
    const value = outputValueSite(ctx, "failure_domains");
    if (!value) return;
    const module = ctx.expressions;
    const out = new ShapeReporter(ctx);
    const example = "{ name = \"eu-west-1a\", control_plane = true }";
    for (const view of listObjectViews(module, value, "failure_domains", `[${example}] or []`, example, out)) {
      reportMissingAttrs(out, view, ["name"], subject("failure domain", view), "every failure domain needs a name of 1-256 characters (e.g. the zone)");
      const name = view.attrs.get("name");
      if (name) {
        for (const alt of literalAlternatives(module, name)) {
          const where = viaText(alt.via, 4);
          if (alt.kind === "string") {
            if (typeof alt.value !== "string") continue;
            const n = charLength(alt.value);
            if (n === 0) out.report(alt, alt.expr.range, `failure domain name is empty${where}; names must be 1-256 characters`);
            else if (n > MAX_NAME) out.report(alt, alt.expr.range, `failure domain name is ${n} characters long${where}; names must be 1-256 characters`);
          } else {
            out.report(alt, alt.expr.range, `failure domain name is ${describeLiteral(alt)}${where}; it must be a string of 1-256 characters`);
          }
        }
      }
      checkBoolAttr(module, view.attrs.get("control_plane"), "failure domain control_plane", { nullable: true }, out);
    }

    // Entries present on every evaluation: count and duplicate names.
    for (const all of certainLists(module, value)) {
      const list = all.filter((el) => classify(resolveStrict(module, el).expr).kind !== "null");
      if (list.length > MAX_DOMAINS) {
        out.report(
          value,
          value.expr.range,
          `failure_domains lists ${list.length} entries${viaText(list[0]!.via, 4)}; Cluster API accepts at most ${MAX_DOMAINS}`,
        );
      }
      const seen = new Map<string, { line: number; path: string }>();
      for (const el of list) {
        const obj = certainObject(module, el);
        // A computed key could be "name" too: only fully literal objects count.
        if (!obj || obj.obj.items.some((i) => objectKeyName(i) === null)) continue;
        const item = [...obj.obj.items].reverse().find((i) => objectKeyName(i) === "name");
        if (!item) continue;
        const nameSite = resolveStrict(module, { expr: item.value, file: obj.site.file, via: obj.site.via });
        const c = classify(nameSite.expr);
        if (c.kind !== "string" || typeof c.value !== "string") continue;
        const first = seen.get(c.value);
        if (first === undefined) {
          seen.set(c.value, { line: nameSite.expr.range.start.line, path: nameSite.file.path });
          continue;
        }
        const at = first.path === nameSite.file.path ? `line ${first.line}` : `${first.path}:${first.line}`;
        out.report(
          nameSite,
          nameSite.expr.range,
          `failure domain name ${JSON.stringify(c.value)}${viaText(nameSite.via, 4)} is already used (${at}); names must be unique`,
        );
      }
    }
  },
});

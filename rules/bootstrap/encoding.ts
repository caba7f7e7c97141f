import type { Attribute, Expression } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";
import { userDataArguments, type UserDataArgument } from "../../src/contract/providers.js";
import { attributesAt } from "../_lib/outputs-autoscaling.js";
import { fileOfAttribute, viaText } from "../_lib/outputs-expr.js";
import { encodingLeaves, mapEntry } from "../_lib/pool-encoding.js";

function argumentText(arg: UserDataArgument): string {
  const path = arg.path.join(".");
  return arg.key ? `${path}["${arg.key}"]` : path;
}

export default defineRule({
  id: "bootstrap/encoding",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "bootstrap_data (base64) reaches user-data arguments in the encoding they expect",
  scope: "root",
  fixable: false,
  tags: ["contract", "bootstrap"],
  check(ctx) {
    const module = ctx.expressions;
    if (!module.variables.has("bootstrap_data")) return;
    const graph = ctx.graph;
    for (const r of [...module.resources.values(), ...module.dataSources.values()]) {
      for (const arg of userDataArguments(r.type)) {
        for (const attr of attributesAt(r.body, arg.path)) {
          const sites: { value: Expression; via: string[] }[] = [];
          if (arg.key) {
            const entry = mapEntry(graph, attr.expr, arg.key);
            if (entry) sites.push(entry);
          } else sites.push({ value: attr.expr, via: [] });
          for (const site of sites) check(site.value, site.via, attr);
        }
        function check(value: Expression, via: string[], attr: Attribute): void {
          const leaves = encodingLeaves(graph, value);
          const bad = leaves.find((l) => (arg.encoding === "base64" ? l.state === "double" : l.state === "raw"));
          if (!bad) return;
          const where = `${r.address} ${argumentText(arg)}`;
          const branch = bad.branched ? " in one branch" : "";
          const chain = viaText([...via, ...bad.via]);
          const message =
            arg.encoding === "base64"
              ? `${where} takes base64, but var.bootstrap_data (already base64) is wrapped in ${bad.encoder ?? "base64encode"}(...)${branch}${chain}: the instance gets its bootstrap payload still encoded and never joins; pass var.bootstrap_data unchanged`
              : `${where} takes plain text, but var.bootstrap_data is passed unchanged${branch}${chain}: the instance gets base64 text instead of its bootstrap payload and never joins; use base64decode(var.bootstrap_data) or the argument's base64 variant`;
          ctx.report({ message, file: fileOfAttribute(r, attr).path, range: value.range });
        }
      }
    }
  },
});

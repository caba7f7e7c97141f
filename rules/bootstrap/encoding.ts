import type { Attribute, Expression } from "../../src/hcl/ast.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import type { Resource } from "../../src/terraform/model.js";
import { userDataArguments, type UserDataArgument } from "../../src/contract/providers.js";
import { attributesAt } from "../_lib/outputs-autoscaling.js";
import { bootstrapVariables, encodingLeaves, mapEntry, type EncodingLeaf } from "../_lib/pool-encoding.js";
import { fileOfAttribute, viaText } from "../../src/analysis/references.js";

function argumentText(arg: UserDataArgument): string {
  const path = arg.path.join(".");
  return arg.key ? `${path}["${arg.key}"]` : path;
}

/** The values an argument stores (for map arguments, the value under the table's key). */
function argumentSites(ctx: RuleContext, attr: Attribute, arg: UserDataArgument): { value: Expression; via: string[] }[] {
  if (!arg.key) return [{ value: attr.expr, via: [] }];
  const entry = mapEntry(ctx.graph, attr.expr, arg.key);
  return entry ? [entry] : [];
}

function isWrong(leaf: EncodingLeaf, arg: UserDataArgument): boolean {
  return arg.encoding === "base64" ? leaf.state === "double" : leaf.state === "raw";
}

function message(r: Resource, arg: UserDataArgument, source: string, leaf: EncodingLeaf, via: string[]): string {
  const where = `${r.address} ${argumentText(arg)}`;
  const what = source === "bootstrap_data" ? "var.bootstrap_data" : `var.${source} (the bootstrap data, passed in by the calling module)`;
  const branch = leaf.branched ? " in one branch" : "";
  const chain = viaText([...via, ...leaf.via]);
  if (arg.encoding === "base64") {
    return `${where} takes base64, but ${what} is already base64 and is wrapped in ${leaf.encoder ?? "base64encode"}(...)${branch}${chain}: the instance gets its bootstrap payload still encoded and never joins; pass it unchanged`;
  }
  return `${where} takes plain text, but ${what} is passed unchanged${branch}${chain}: the instance gets base64 text instead of its bootstrap payload and never joins; use base64decode(var.${source}) or the argument's base64 variant`;
}

export default defineRule({
  id: "bootstrap/encoding",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "bootstrap_data (base64) reaches user-data arguments in the encoding they expect",
  // Local child modules too: the bootstrap data often reaches the launch
  // template through a module argument.
  scope: "all",
  fixable: false,
  tags: ["contract", "bootstrap"],
  check(ctx) {
    const module = ctx.expressions;
    const sources = bootstrapVariables(ctx.load, ctx.unit, (m) => ctx.graphOf(m));
    if (sources.length === 0) return;
    for (const r of [...module.resources.values(), ...module.dataSources.values()]) {
      for (const arg of userDataArguments(r.type)) {
        for (const attr of attributesAt(r.body, arg.path)) {
          for (const site of argumentSites(ctx, attr, arg)) {
            for (const source of sources) {
              const bad = encodingLeaves(ctx.graph, site.value, `var.${source}`).find((l) => isWrong(l, arg));
              if (!bad) continue;
              ctx.report({ message: message(r, arg, source, bad, site.via), file: fileOfAttribute(r, attr).path, range: site.value.range });
              break;
            }
          }
        }
      }
    }
  },
});

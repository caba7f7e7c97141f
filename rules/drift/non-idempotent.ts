import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf } from "../../src/terraform/module.js";
import type { ModuleUnit, Resource, SourceFile } from "../../src/terraform/model.js";
import { Scanner, VOLATILE, uncoveredHits } from "../_lib/inputs-volatile.js";
import type { Hit } from "../_lib/inputs-volatile.js";

export default defineRule({
  id: "drift/non-idempotent",
  severity: "warning",
  roles: ROLES,
  summary: "Resource arguments do not call timestamp(), uuid(), bcrypt() or plantimestamp() outside ignore_changes",
  scope: "all",
  fixable: false,
  tags: ["drift", "idempotency"],
  check(ctx) {
    // Every finding starts at a call of a VOLATILE function in this module:
    // skip the scan when no file spells one of their names (cheap; most
    // modules call none of them).
    if (!ctx.unit.allFiles.some(mayCallVolatile)) return;
    const scanner = new Scanner(ctx.expressions);
    const seen = new Set<string>();
    const report = (file: string, hit: Hit, message: string): void => {
      const at = `${file}:${hit.range.start.offset}`;
      if (seen.has(at)) return;
      seen.add(at);
      ctx.report({ message, file, range: hit.range });
    };

    for (const resource of ctx.expressions.resources.values()) {
      for (const hit of uncoveredHits(scanner, resource)) {
        report(fileOf(resource, hit.node).path, hit, resourceMessage(resource, hit));
      }
    }

    // A volatile value passed to a local nested module that puts it in a
    // resource there: reported at the call, where the value is made.
    for (const call of ctx.expressions.moduleCalls.values()) {
      const child = call.isLocal ? ctx.unit.children.find((c) => c.call.name === call.name) : undefined;
      if (!child) continue;
      for (const [argName, attr] of call.args) {
        const hits: Hit[] = [];
        scanner.expr(attr.expr, [argName], true, hits);
        if (hits.length === 0) continue;
        const target = volatileUse(child.unit, argName, new Set());
        if (!target) continue;
        for (const hit of hits) {
          report(fileOf(call, hit.node).path, hit, moduleMessage(call.name, argName, target, hit));
        }
      }
    }
  },
});

const VOLATILE_NAMES = Object.keys(VOLATILE);

/** Whether the file's text may hold a volatile call (JSON strings may spell names with \u escapes). */
function mayCallVolatile(file: SourceFile): boolean {
  const text = file.hcl.text;
  if (file.hcl.syntax === "json" && text.includes("\\u")) return true;
  return VOLATILE_NAMES.some((name) => text.includes(name));
}

/** The resource (`modules/x` `aws_s3_object.marker`) where `unit` puts its variable `name` outside ignore_changes. */
function volatileUse(unit: ModuleUnit, name: string, visiting: Set<string>): string | null {
  const key = `${unit.dir}\u0000${name}`;
  if (visiting.has(key)) return null;
  visiting.add(key);
  const scanner = new Scanner(unit.expressions, new Set([name]));
  for (const resource of unit.expressions.resources.values()) {
    if (uncoveredHits(scanner, resource).length > 0) return `${resource.address} in ${unit.relDir}`;
  }
  for (const call of unit.expressions.moduleCalls.values()) {
    const child = call.isLocal ? unit.children.find((c) => c.call.name === call.name) : undefined;
    if (!child) continue;
    for (const [argName, attr] of call.args) {
      const hits: Hit[] = [];
      scanner.expr(attr.expr, [argName], true, hits);
      if (hits.length === 0) continue;
      const found = volatileUse(child.unit, argName, visiting);
      if (found) return found;
    }
  }
  return null;
}

function via(hit: Hit): string {
  return hit.via ? ` (through local.${hit.via})` : "";
}

function resourceMessage(resource: Resource, hit: Hit): string {
  const arg = hit.path.join(".");
  return `${hit.fn}()${via(hit)} gives ${resource.address} "${arg}" a new value on every plan, so drift checks always fire: use ${VOLATILE[hit.fn]} instead, or add ${hit.path[0]} to lifecycle ignore_changes.`;
}

function moduleMessage(callName: string, argName: string, target: string, hit: Hit): string {
  return `${hit.fn}()${via(hit)} is passed to module "${callName}" as "${argName}" and reaches ${target}, which then changes on every plan, so drift checks always fire: use ${VOLATILE[hit.fn]} instead.`;
}

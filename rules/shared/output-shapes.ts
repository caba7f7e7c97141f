/**
 * Shared pieces of the output rules: an output's value site, the contract's
 * enums, a de-duplicating reporter (one object reached twice, e.g. from both
 * branches of a conditional through the same local, is reported once), the
 * steps every output/*-shape rule takes (the value's kind, its object views,
 * missing attributes, enum and bool attributes), and the address-object
 * checks used by output/addresses-shape and output/instances-shape.
 */
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Range } from "../../src/hcl/ast.js";
import type { RuleContext } from "../../src/lint/types.js";
import type { Module } from "../../src/terraform/module-types.js";
import {
  alternatives,
  classify,
  describeLiteral,
  listElements,
  literalAlternatives,
  objectViews,
  type Element,
  type ObjectView,
  type Site,
} from "../../src/analysis/values.js";
import { viaText } from "../../src/analysis/references.js";

/** `health.state` and `instances[*].state`, in the contract's order. */
export const HEALTH_STATES: readonly string[] = ["pending", "running", "degraded", "stopped", "terminated", "unknown"];

/** Kubernetes `MachineAddressType` values. */
export const ADDRESS_TYPES: readonly string[] = ["Hostname", "ExternalIP", "InternalIP", "ExternalDNS", "InternalDNS"];

const ADDRESS_OBJECT = '{ type = "InternalIP", address = ... }';
const ADDRESS_EXAMPLE = `[${ADDRESS_OBJECT}] or []`;

/** A closest-match hint for an enum value written with the wrong case: `Running` -> `running`. */
export function caseHint(value: string, allowed: readonly string[]): string {
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  return match ? ` (did you mean "${match}"?)` : "";
}

export function quoteList(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(", ");
}

/** Collects findings and reports each (file, range, message) once. */
export class ShapeReporter {
  private readonly seen = new Set<string>();
  constructor(private readonly ctx: RuleContext) {}

  report(site: Pick<Site, "file">, range: Range, message: string): void {
    const key = `${site.file.path}|${range.start.offset}|${range.end.offset}|${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.ctx.report({ file: site.file.path, range, message });
  }
}

/** The value of the module's output `name` as a Site, or null when there is no such output or it has no value. */
export function outputValueSite(ctx: Pick<RuleContext, "expressions">, name: string): Site | null {
  const output = ctx.expressions.outputs.get(name);
  if (!output || !output.value || !output.valueAttr || output.value.kind === "Invalid") return null;
  return { expr: output.value, file: fileOf(output, output.valueAttr), via: [] };
}

/** "an address object" / "each address object built by this for expression" (message subjects). */
export function subject(noun: string, view: ObjectView): string {
  return view.fromFor ? `each ${noun} built by this for expression` : `this ${noun}`;
}

/** Missing attributes of a complete object view, in the order given. */
export function missingAttrs(view: ObjectView, names: readonly string[]): string[] {
  if (!view.complete) return [];
  return names.filter((n) => !view.attrs.has(n));
}

function andList(names: readonly string[]): string {
  const q = names.map((n) => `"${n}"`);
  return q.length <= 1 ? q.join("") : `${q.slice(0, -1).join(", ")} and ${q[q.length - 1]}`;
}

export function lacksText(names: readonly string[]): string {
  return `has no ${andList(names)} attribute${names.length > 1 ? "s" : ""}`;
}

/**
 * Report the attributes of `names` that a complete object view lacks, as
 * `<what><via> has no "a" and "b" attributes; <advice>` on the object.
 */
export function reportMissingAttrs(out: ShapeReporter, view: ObjectView, names: readonly string[], what: string, advice: string): void {
  const missing = missingAttrs(view, names);
  if (missing.length > 0) out.report(view.site, view.range, `${what}${viaText(view.site.via, 4)} ${lacksText(missing)}; ${advice}`);
}

/**
 * Check every address object `listSite` (a list of addresses) may hold:
 * `type` and `address` present, a literal `type` from the address-type enum.
 * `where` names the list in messages ("addresses", "instances[*].addresses").
 */
export function checkAddressList(module: Module, listSite: Site, where: string, out: ShapeReporter): void {
  for (const view of listObjectViews(module, listSite, where, ADDRESS_EXAMPLE, ADDRESS_OBJECT, out)) checkAddressObject(module, view, where, out);
}

/**
 * A list of objects (`failure_domains`, `instances`, an `addresses` list):
 * report a value that is certainly not a list and entries that are
 * certainly not objects, then give every object an entry may be, entry by
 * entry, for the caller's attribute checks. `what` names the list in
 * messages; `listExample` and `example` show a good list and a good entry.
 */
export function listObjectViews(module: Module, listSite: Site, what: string, listExample: string, example: string, out: ShapeReporter): ObjectView[] {
  checkValueKind(module, listSite, "list", what, listExample, out);
  const elements = listElements(module, listSite);
  checkElementKinds(module, elements, what, example, out);
  return elements.flatMap((el) => objectViews(module, el.site, el.fromFor));
}

export function checkAddressObject(module: Module, view: ObjectView, where: string, out: ShapeReporter): void {
  reportMissingAttrs(out, view, ["type", "address"], `${subject("address object", view)} in ${where}`, `every address needs a type (${ADDRESS_TYPES.join(", ")}) and an address`);
  checkEnumAttr(module, view.attrs.get("type"), ADDRESS_TYPES, { nullable: false }, out, (literal, via, hint) =>
    `address type ${literal} in ${where}${via} is not a Kubernetes address type${hint}; use one of ${ADDRESS_TYPES.join(", ")}`);
}

/**
 * Report the literal alternatives of an enum attribute (`site`, when the
 * object has it) that are not one of `allowed`: a string whose value is not
 * known passes, and null passes only when `nullable`. `message` words the
 * finding from the literal's description, the via text and a wrong-case hint.
 */
export function checkEnumAttr(
  module: Module,
  site: Site | undefined,
  allowed: readonly string[],
  { nullable }: { nullable: boolean },
  out: ShapeReporter,
  message: (literal: string, via: string, hint: string) => string,
): void {
  if (!site) return;
  for (const alt of literalAlternatives(module, site)) {
    if (nullable && alt.kind === "null") continue;
    if (alt.kind === "string" && (alt.value === undefined || allowed.includes(alt.value as string))) continue;
    const hint = typeof alt.value === "string" ? caseHint(alt.value, allowed) : "";
    out.report(alt, alt.expr.range, message(describeLiteral(alt), viaText(alt.via, 4), hint));
  }
}

/**
 * Report the literal alternatives of a bool attribute (`site`, when the
 * object has it) that are not bools (null too unless `nullable`), with a
 * hint for a quoted "true" or "false". `what` names it in messages
 * ("health.healthy").
 */
export function checkBoolAttr(module: Module, site: Site | undefined, what: string, { nullable }: { nullable: boolean }, out: ShapeReporter): void {
  if (!site) return;
  for (const alt of literalAlternatives(module, site)) {
    if (alt.kind === "bool" || (nullable && alt.kind === "null")) continue;
    const hint = alt.kind === "string" && (alt.value === "true" || alt.value === "false") ? ` (write ${alt.value} without quotes)` : "";
    out.report(alt, alt.expr.range, `${what} is ${describeLiteral(alt)}${viaText(alt.via, 4)}, not a bool${hint}; the controller rejects it`);
  }
}

/**
 * An object output (`health`, `control_plane_endpoint`): report a value
 * that is certainly not an object, then give every object it may be for the
 * caller's attribute checks. `what` names it in messages; `example` shows a
 * good value.
 */
export function objectValueViews(module: Module, site: Site, what: string, example: string, out: ShapeReporter): ObjectView[] {
  checkValueKind(module, site, "object", what, example, out);
  return objectViews(module, site);
}

/**
 * Report the literal alternatives of `site` whose type is certainly not
 * `expected` (null is always allowed: "not known yet"). `what` names the
 * value in messages ("health", "failure_domains").
 */
export function checkValueKind(module: Module, site: Site, expected: "object" | "list", what: string, example: string, out: ShapeReporter): void {
  for (const alt of alternatives(module, site)) {
    const c = classify(alt.expr);
    if (c.kind === "unknown" || c.kind === "null" || c.kind === expected) continue;
    out.report(
      alt,
      alt.expr.range,
      `${what} is ${describeLiteral(c)}${viaText(alt.via, 4)}, not ${expected === "object" ? "an object" : "a list"}; the controller rejects it (expected ${example})`,
    );
  }
}

/** Report list elements that are certainly not objects (`["eu-west-1a"]` where objects are expected). */
export function checkElementKinds(module: Module, elements: readonly Element[], what: string, example: string, out: ShapeReporter): void {
  for (const el of elements) {
    for (const alt of alternatives(module, el.site)) {
      const c = classify(alt.expr);
      if (c.kind === "unknown" || c.kind === "null" || c.kind === "object") continue;
      out.report(
        alt,
        alt.expr.range,
        `${what} entry is ${describeLiteral(c)}${viaText(alt.via, 4)}, not an object; each entry must be an object like ${example}`,
      );
    }
  }
}

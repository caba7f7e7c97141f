/**
 * `output/provider-id-format`: the providerID a machine (or each pool
 * member) publishes must have the exact shape the cloud controller manager
 * writes on the Node, or Cluster API never links the Machine to its Node.
 * The shapes and the instance attributes come from
 * src/contract/cloud/instances.ts.
 */
import type { Expression, FunctionCall, ScopeTraversal, TemplatePart } from "../../src/hcl/ast.js";
import { constantValue, exprText, unwrap } from "../../src/hcl/walk.js";
import { defineRule, type RuleContext } from "../../src/lint/types.js";
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Module } from "../../src/terraform/module-types.js";
import { alternatives, listElements, objectViews, resolveStrict, type Binding, type Site } from "../../src/analysis/values.js";
import { joinHops, localHops, outputHop, siteHops, type Hop } from "../../src/analysis/paths.js";
import { formatAsTemplate } from "../../src/analysis/iteration.js";
import {
  instanceType,
  providerIdScheme,
  type InstanceType,
  type ProviderIdPart,
  type ProviderIdScheme,
  type ProviderIdSegment,
} from "../../src/contract/cloud/instances.js";

/** Functions whose result holds the strings of their arguments. */
const THROUGH = new Set(["sort", "distinct", "keys", "values", "tolist", "toset", "concat", "compact", "flatten", "one", "try", "coalesce", "coalescelist", "nonsensitive", "sensitive"]);

/**
 * How many nested interpolations, calls, lists and `for`s the candidates and
 * their pieces are followed through. It bounds the recursion (any input depth
 * is safe on the main thread) and the work per level (`alternatives`,
 * `resolveStrict`); deeper text is "wild" or no candidate: nothing is checked.
 */
const MAX_DEPTH = 40;

/** An attribute of a known instance resource: `aws_instance.this.id`, `i.name` over `google_compute_instance.n`. */
interface InstanceAttr {
  row: InstanceType;
  /** `aws_instance.this` (or `data.aws_instance.x`). */
  address: string;
  attr: string;
  /** The reference as written. */
  text: string;
}

/** What one interpolation stands for. */
type Piece =
  | { kind: "lit"; text: string }
  | { kind: "hole"; attr: InstanceAttr | null }
  /** Any number (at least one) of whole segments: the rest of an Azure resource id. */
  | { kind: "multi" }
  /** Text of unknown shape (a function result, a conditional): it may hold slashes, so nothing is checked. */
  | { kind: "wild" };

/** A providerID candidate: a string template (or literal, or `format`) the value reaches. */
interface Candidate {
  site: Site;
  pieces: Piece[] | null;
  /** Set when the candidate is directly an instance attribute (no scheme at all). */
  bare: InstanceAttr | null;
  /** Locals followed inside its interpolations (`"aws:///${local.node_path}"`). */
  spliced: string[];
}

// ------------------------------------------------------------ references

/** `T.N`, `T.N[k]`, `T.N[*]`, `data.T.N...` -> the resource address and its type, or null. */
function resourceOf(module: Module, e: Expression): { row: InstanceType; address: string; rest: ScopeTraversal["traversal"] } | null {
  // Through splats and values()/tolist()/toset() in a loop, so any depth of them is followed on the main thread.
  let x = unwrap(e);
  for (;;) {
    if (x.kind === "Splat") x = unwrap(x.source);
    else if (x.kind === "FunctionCall" && !x.expandFinal && x.args.length === 1 && (x.name === "values" || x.name === "tolist" || x.name === "toset")) x = unwrap(x.args[0]!);
    else break;
  }
  if (x.kind !== "ScopeTraversal") return null;
  const [root, ...steps] = x.traversal;
  if (root?.kind !== "TraverseRoot") return null;
  const data = root.name === "data";
  const type = data ? (steps[0]?.kind === "TraverseAttr" ? steps[0].name : null) : root.name;
  const nameStep = data ? steps[1] : steps[0];
  if (type === null || nameStep?.kind !== "TraverseAttr") return null;
  const row = instanceType(type, data);
  if (!row) return null;
  const address = `${data ? "data." : ""}${type}.${nameStep.name}`;
  const declared = data ? module.dataSources.has(address) : module.resources.has(address);
  if (!declared) return null;
  return { row, address, rest: steps.slice(data ? 2 : 1) };
}

/** The first attribute name after optional index/splat steps. */
function firstAttr(rest: ScopeTraversal["traversal"]): string | null {
  for (const s of rest) {
    if (s.kind === "TraverseAttr") return s.name;
    if (s.kind !== "TraverseIndex" && s.kind !== "TraverseSplat") return null;
  }
  return null;
}

/** The instance attribute `e` reads, directly or through a `for` variable over an instance resource. */
function instanceAttrOf(module: Module, site: Site, e: Expression): InstanceAttr | null {
  const x = unwrap(e);
  const text = exprText(site.file.hcl, x);
  if (x.kind === "ScopeTraversal") {
    const root = x.traversal[0];
    if (root?.kind === "TraverseRoot" && site.scope?.has(root.name)) {
      const binding = site.scope.get(root.name);
      if (!binding || x.traversal.length !== 2 || x.traversal[1]!.kind !== "TraverseAttr") return null;
      const coll = resolveStrict(module, binding.collection);
      const r = resourceOf(module, coll.expr);
      if (!r || r.rest.length > 0 && firstAttr(r.rest) !== null) return null;
      return { row: r.row, address: r.address, attr: x.traversal[1].name, text };
    }
    const r = resourceOf(module, x);
    if (r) {
      const attr = firstAttr(r.rest);
      return attr === null ? null : { row: r.row, address: r.address, attr, text };
    }
    return null;
  }
  if (x.kind === "Splat") {
    const r = resourceOf(module, x.source);
    const each = x.each;
    if (r && r.rest.length === 0 && each.kind === "RelativeTraversal" && each.traversal[0]?.kind === "TraverseAttr") {
      return { row: r.row, address: r.address, attr: each.traversal[0].name, text };
    }
  }
  return null;
}

/** `azurerm_*.<name>.id`: an Azure resource id, whose text starts `/subscriptions/`. */
function isAzureId(e: Expression): boolean {
  const x = unwrap(e);
  if (x.kind !== "ScopeTraversal") return false;
  const [root, ...steps] = x.traversal;
  if (root?.kind !== "TraverseRoot") return false;
  const type = root.name === "data" ? (steps[0]?.kind === "TraverseAttr" ? steps[0].name : "") : root.name;
  const rest = root.name === "data" ? steps.slice(2) : steps.slice(1);
  return type.startsWith("azurerm_") && firstAttr(rest) === "id" && rest.filter((s) => s.kind === "TraverseAttr").length === 1;
}

/** Single-valued functions that add no text of their own: the pieces are their argument's. */
const TRANSPARENT = new Set(["tostring", "nonsensitive", "sensitive", "one"]);
/** Functions that return one of their arguments. */
const PICK = new Set(["try", "coalesce"]);

/** What an interpolated expression contributes to the providerID text. */
function piecesOfInterp(module: Module, site: Site, e: Expression, depth: number, spliced: string[]): Piece[] {
  const here: Site = { ...site, expr: e };
  const strict = site.scope && site.scope.size > 0 ? { ...here, expr: unwrap(e) } : resolveStrict(module, here);
  for (const v of strict.via.slice(site.via.length)) if (!spliced.includes(v)) spliced.push(v);
  const c = constantValue(strict.expr);
  if (c.known && (typeof c.value === "string" || typeof c.value === "number")) return [{ kind: "lit", text: String(c.value) }];
  const x = strict.expr;
  if (depth > MAX_DEPTH) return [{ kind: "wild" }];
  // A template held in a local (`local.zone_and_id = "${zone}/${id}"`) is spliced in.
  if (x.kind === "Template") return piecesOfTemplate(module, strict, x.parts, depth + 1, spliced) ?? [{ kind: "wild" }];
  if (x.kind === "FunctionCall") {
    if (!x.expandFinal && x.name === "format" && x.args.length > 0) return piecesOfFormat(module, strict, x, depth + 1, spliced) ?? [{ kind: "wild" }];
    if (!x.expandFinal && TRANSPARENT.has(x.name) && x.args.length === 1) return piecesOfInterp(module, strict, x.args[0]!, depth + 1, spliced);
    if (!x.expandFinal && PICK.has(x.name) && x.args.length > 0) {
      // One segment when every argument is one (`try(aws_instance.n[0].id, "")`): the first argument's.
      const each = x.args.map((a) => piecesOfInterp(module, strict, a, depth + 1, spliced));
      const single = (ps: Piece[]): boolean => ps.length === 1 && (ps[0]!.kind === "hole" || (ps[0]!.kind === "lit" && !ps[0]!.text.includes("/")));
      if (each.every((ps) => single(ps) || (ps.length === 1 && ps[0]!.kind === "lit" && ps[0]!.text === ""))) return each[0]!;
    }
    return [{ kind: "wild" }];
  }
  if (x.kind !== "ScopeTraversal" && x.kind !== "RelativeTraversal" && x.kind !== "Index" && x.kind !== "Splat") return [{ kind: "wild" }];
  const attr = instanceAttrOf(module, strict, strict.expr);
  if (attr && attr.row.resourcePath === attr.attr) {
    // A VM's id: /subscriptions/<s>/resourceGroups/<g>/providers/Microsoft.Compute/virtualMachines/<name>.
    const h: Piece = { kind: "hole", attr: null };
    const name: Piece = { kind: "hole", attr: { ...attr, attr: attr.row.parts.instance ?? attr.attr } };
    return [
      { kind: "lit", text: "/subscriptions/" }, h,
      { kind: "lit", text: "/resourceGroups/" }, h,
      { kind: "lit", text: "/providers/Microsoft.Compute/virtualMachines/" }, name,
    ];
  }
  if (attr) return [{ kind: "hole", attr }];
  if (isAzureId(strict.expr)) return [{ kind: "lit", text: "/subscriptions/" }, { kind: "multi" }];
  return [{ kind: "hole", attr: null }];
}

/** Appends one by one (a template may hold more pieces than a call takes arguments). */
function appendAll<T>(out: T[], more: readonly T[]): void {
  for (const x of more) out.push(x);
}

function piecesOfTemplate(module: Module, site: Site, parts: readonly TemplatePart[], depth: number, spliced: string[]): Piece[] | null {
  const out: Piece[] = [];
  for (const p of parts) {
    if (p.kind === "TemplateLiteral") out.push({ kind: "lit", text: p.value });
    else if (p.kind === "TemplateInterp") appendAll(out, piecesOfInterp(module, site, p.expr, depth, spliced));
    else return null;
  }
  return out;
}

/**
 * `format("aws:///%s/%s", a, b)` with a constant format: the pieces of the
 * template it stands for (`formatAsTemplate`: `%s`, `%d`, `%v` take the
 * arguments in order, and every argument is taken).
 */
function piecesOfFormat(module: Module, site: Site, call: FunctionCall, depth: number, spliced: string[]): Piece[] | null {
  const f = constantValue(resolveStrict(module, { ...site, expr: call.args[0]! }).expr);
  if (!f.known || typeof f.value !== "string") return null;
  const t = formatAsTemplate(call, f.value);
  return t === null ? null : piecesOfTemplate(module, site, t.parts, depth, spliced);
}

// ------------------------------------------------------------ candidates

/** Every string the value may be (or hold, for lists), as providerID candidates. */
function collect(module: Module, site: Site, out: Candidate[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const alt of alternatives(module, site, { scalar: true })) {
    const e = alt.expr;
    switch (e.kind) {
      case "Template": {
        const spliced: string[] = [];
        out.push({ site: alt, pieces: piecesOfTemplate(module, alt, e.parts, 0, spliced), bare: null, spliced });
        break;
      }
      case "LiteralValue":
        if (e.type === "string") out.push({ site: alt, pieces: [{ kind: "lit", text: String(e.value) }], bare: null, spliced: [] });
        break;
      case "TupleCons":
        for (const x of e.exprs) collect(module, { ...alt, expr: x }, out, depth + 1);
        break;
      case "For": {
        const scope = new Map<string, Binding | null>(alt.scope ?? []);
        if (e.keyVar) scope.set(e.keyVar, null);
        scope.set(e.valVar, { collection: { ...alt, expr: e.collection }, name: e.valVar, condition: e.condition });
        const inner: Site = { ...alt, scope };
        if (e.keyExpr) collect(module, { ...inner, expr: e.keyExpr }, out, depth + 1);
        collect(module, { ...inner, expr: e.valExpr }, out, depth + 1);
        break;
      }
      case "FunctionCall":
        if (e.expandFinal) break;
        if (e.name === "format" && e.args.length > 0) {
          const spliced: string[] = [];
          out.push({ site: alt, pieces: piecesOfFormat(module, alt, e, 0, spliced), bare: null, spliced });
        } else if (THROUGH.has(e.name)) {
          for (const a of e.args) collect(module, { ...alt, expr: a }, out, depth + 1);
        }
        break;
      case "ScopeTraversal":
      case "Splat": {
        const attr = instanceAttrOf(module, alt, e);
        if (attr) out.push({ site: alt, pieces: null, bare: attr, spliced: [] });
        break;
      }
      default:
        break;
    }
  }
}

// ------------------------------------------------------------ matching

/** A candidate split on `/`: each segment a list of pieces, or a `multi` segment. */
type Segment = { multi: true } | { multi: false; pieces: Piece[] };

function segmentsOf(pieces: readonly Piece[]): Segment[] {
  const out: Segment[] = [];
  let cur: Piece[] = [];
  for (const p of pieces) {
    if (p.kind === "multi") {
      if (cur.length > 0) out.push({ multi: false, pieces: cur });
      out.push({ multi: true });
      cur = [];
      continue;
    }
    if (p.kind !== "lit") {
      cur.push(p);
      continue;
    }
    const parts = p.text.split("/");
    parts.forEach((text, i) => {
      if (i > 0) {
        out.push({ multi: false, pieces: cur });
        cur = [];
      }
      if (text) cur.push({ kind: "lit", text });
    });
  }
  out.push({ multi: false, pieces: cur });
  // A multi segment swallows the (empty) segment the `/` before the next literal opened.
  return out.filter((s, i) => !(s.multi === false && s.pieces.length === 0 && out[i - 1]?.multi === true));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Can this segment be the pattern segment? `fold`: literals compare without case (Azure). */
function segmentFits(seg: Extract<Segment, { multi: false }>, pat: ProviderIdSegment, fold: boolean): boolean {
  const allLit = seg.pieces.every((p) => p.kind === "lit");
  const text = seg.pieces.map((p) => (p.kind === "lit" ? p.text : "")).join("");
  if ("literal" in pat) {
    if (allLit) return fold ? text.toLowerCase() === pat.literal.toLowerCase() : text === pat.literal;
    const re = new RegExp(`^${seg.pieces.map((p) => (p.kind === "lit" ? escapeRegExp(p.text) : "[^/]*")).join("")}$`, fold ? "i" : "");
    return re.test(pat.literal);
  }
  return allLit ? text.length > 0 : true;
}

/** Each way the candidate's segments line up with the shape: the part each single-hole segment fills. */
function alignments(segs: readonly Segment[], pat: readonly ProviderIdSegment[], fold: boolean): { part: ProviderIdPart; attr: InstanceAttr }[][] {
  const out: { part: ProviderIdPart; attr: InstanceAttr }[][] = [];
  const go = (i: number, j: number, acc: { part: ProviderIdPart; attr: InstanceAttr }[]): void => {
    if (out.length > 16) return;
    if (i === segs.length) {
      if (j === pat.length) out.push(acc);
      return;
    }
    const seg = segs[i]!;
    if (seg.multi) {
      for (let k = j + 1; k <= pat.length; k++) go(i + 1, k, acc);
      return;
    }
    if (j >= pat.length || !segmentFits(seg, pat[j]!, fold)) return;
    const p = pat[j]!;
    const only = seg.pieces.length === 1 ? seg.pieces[0]! : null;
    const next = "part" in p && only?.kind === "hole" && only.attr ? [...acc, { part: p.part, attr: only.attr }] : acc;
    go(i + 1, j + 1, next);
  };
  go(0, 0, []);
  return out;
}

type Verdict = { ok: true } | { ok: false; kind: "shape" } | { ok: false; kind: "attr"; attr: InstanceAttr; want: string };

function judge(scheme: ProviderIdScheme, pieces: readonly Piece[]): Verdict {
  // Text of unknown shape may supply any slashes and segments.
  if (pieces.some((p) => p.kind === "wild")) return { ok: true };
  const segs = segmentsOf(pieces);
  let wrong: Verdict | null = null;
  // Azure resource paths are compared without case (the provider ID's case is not checked).
  const fold = scheme.cloud === "azure";
  for (const shape of scheme.shapes) {
    for (const fill of alignments(segs, shape.segments, fold)) {
      const bad = fill.find((f) => f.part === "instance" && f.attr.row.parts.instance !== undefined && f.attr.attr !== f.attr.row.parts.instance);
      if (!bad) return { ok: true };
      wrong ??= { ok: false, kind: "attr", attr: bad.attr, want: bad.attr.row.parts.instance! };
    }
  }
  return wrong ?? { ok: false, kind: "shape" };
}

/** The scheme named by the candidate's leading literal (`aws` in `aws:///...`), or null. */
function schemeOf(pieces: readonly Piece[]): string | null {
  const first = pieces[0];
  if (!first || first.kind !== "lit") return null;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(first.text);
  return m ? m[1]! : null;
}

// ------------------------------------------------------------ reporting

interface Target {
  /** What the message calls the value (`provider_id`, `provider_id_list`, `instances[*].provider_id`). */
  label: string;
  site: Site;
  /** The output's value, the first hop when the candidate is reached through locals. */
  origin: Hop | null;
}

function targetsOf(ctx: RuleContext): Target[] {
  const m = ctx.expressions;
  const out: Target[] = [];
  const add = (name: string, label: string, pick?: (site: Site) => Site[]): void => {
    const o = m.outputs.get(name);
    if (!o?.value || !o.valueAttr) return;
    const file = fileOf(o, o.valueAttr);
    const site: Site = { expr: o.value, file, via: [] };
    const origin = outputHop(o);
    for (const s of pick ? pick(site) : [site]) out.push({ label, site: s, origin });
  };
  if (ctx.role === "machine") add("provider_id", "provider_id");
  if (ctx.role === "machinepool") {
    add("provider_id_list", "provider_id_list");
    add("instances", "instances[*].provider_id", (site) => {
      const values: Site[] = [];
      for (const el of listElements(m, site)) {
        for (const view of objectViews(m, el.site, el.fromFor)) {
          const v = view.attrs.get("provider_id");
          if (v) values.push(v);
        }
      }
      return values;
    });
  }
  return out;
}

export default defineRule({
  id: "output/provider-id-format",
  provenance: "control-plane",
  severity: "error",
  roles: ["machine", "machinepool"],
  summary: "Provider IDs have the exact shape the cloud's controller manager writes on the Node (aws:///ZONE/ID, gce://PROJECT/ZONE/NAME, ...)",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "control-plane"],
  check(ctx) {
    const m = ctx.expressions;
    const seen = new Set<string>();
    for (const target of targetsOf(ctx)) {
      const candidates: Candidate[] = [];
      collect(m, target.site, candidates, 0);
      for (const c of candidates) {
        const expr = c.site.expr;
        const key = `${c.site.file.path}:${expr.range.start.offset}`;
        if (seen.has(key)) continue;
        const text = exprText(c.site.file.hcl, expr);
        let message: string | null = null;
        if (c.bare) {
          const row = c.bare.row;
          const scheme = schemeFor(row);
          if (scheme) {
            message = `${target.label} is ${c.bare.text}, a bare instance attribute with no scheme; the Node's providerID is ${scheme.display}, so Cluster API never matches this Machine to its Node: build the full providerID string`;
          }
        } else if (c.pieces) {
          const name = schemeOf(c.pieces);
          const scheme = name === null ? undefined : providerIdScheme(name);
          if (scheme) {
            const verdict = judge(scheme, c.pieces);
            if (!verdict.ok && verdict.kind === "shape") {
              message = `${target.label} ${text} does not have the ${name}:// providerID shape ${scheme.display}; the Node carries exactly that string, so Cluster API never matches this Machine to its Node: fix the slashes and segments`;
            } else if (!verdict.ok && verdict.kind === "attr") {
              const a = verdict.attr;
              const full = `${a.address}.${a.attr}`;
              const written = a.text === full ? a.text : `${a.text} (${full})`;
              const suggest = a.text.endsWith(`.${a.attr}`) ? `${a.text.slice(0, -a.attr.length)}${verdict.want}` : `${a.address}.${verdict.want}`;
              message = `${target.label} puts ${written} in the instance segment of ${scheme.display}; the Node carries the instance's ${verdict.want} there, not its ${a.attr}, so Cluster API never matches them: use ${suggest}`;
            }
          }
        }
        if (message === null) continue;
        seen.add(key);
        const hops = joinHops(c.site.via.length === 0 ? [] : [target.origin], siteHops(m, c.site), localHops(m, c.spliced));
        ctx.report({ message, file: c.site.file, range: expr.range, ...(hops.length > 0 ? { related: hops } : {}) });
      }
    }
  },
});

/** The first scheme of the instance row's cloud (for messages about a bare attribute). */
function schemeFor(row: InstanceType): ProviderIdScheme | undefined {
  const names: Record<InstanceType["cloud"], string> = { aws: "aws", gcp: "gce", openstack: "openstack", oci: "oci", azure: "azure" };
  return providerIdScheme(names[row.cloud]);
}

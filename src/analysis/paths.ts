/**
 * The path of a finding (Finding.related): the hops a rule followed from the
 * node it reports to the value's origin, each as the file, the exact range
 * of what was followed and a short label. Rules hand what the analysis gave
 * them (a dependency chain, the locals of a values Site, a variable, a
 * resource argument) to these builders and pass the result to
 * `ctx.report({ related })`; the formats show it (SARIF relatedLocations and
 * codeFlows, LSP relatedInformation, text "via" lines, JSON `related`).
 *
 * What a hop points at:
 * - a local: its value expression, labelled `local.user_data`;
 * - a variable: its declaration header (`variable "bootstrap_data"`),
 *   labelled `var.bootstrap_data (variable)`;
 * - a resource, data source or module call passed through: the argument
 *   holding the next reference (`aws_launch_template.pool.user_data`), or,
 *   where the path ends, its declaration header;
 * - `each.*` / `count.index`: the `for_each` / `count` expression of the
 *   resource the reference is in; one instance's `for_each` entry, or one
 *   entry of a local map, where the map is written (`forEachEntryHop`,
 *   `mapEntryHop`).
 * A step that names nothing in the module (an undeclared local, `path.*`)
 * adds no hop. Hops are never repeated.
 */
import type { Attribute, Block, Body, Expression, Range } from "../hcl/ast.js";
import { objectKeyName } from "../hcl/walk.js";
import type { ChainStep } from "../terraform/graph-api.js";
import type { Declared, Module, ModuleCall, Output, Resource, SourceFile } from "../terraform/module-types.js";
import { fileOf } from "../terraform/module-builder.js";
import { resolveStrict, type Site } from "./values.js";

/** One hop, as `ctx.report({ related })` takes it. */
export interface Hop {
  file: SourceFile;
  range: Range;
  message: string;
}

/** A declaration's header: from its type keyword to the end of its last label. */
export function headerRange(block: Block): Range {
  const last = block.labelRanges[block.labelRanges.length - 1];
  return { start: block.typeRange.start, end: (last ?? block.typeRange).end };
}

/** `local.x` (or `x`): its value expression. */
export function localHop(module: Module, name: string): Hop | null {
  const bare = name.startsWith("local.") ? name.slice(6) : name;
  const local = module.locals.get(bare);
  if (!local) return null;
  return { file: local.file, range: local.value.range, message: `local.${bare}` };
}

/** The locals a values Site followed (`site.via`, outermost first). */
export function localHops(module: Module, via: readonly string[]): Hop[] {
  return via.map((name) => localHop(module, name)).filter((h): h is Hop => h !== null);
}

/** `var.x` (or `x`): its declaration header. */
export function variableHop(module: Module, name: string): Hop | null {
  const bare = name.startsWith("var.") ? name.slice(4) : name;
  const v = module.variables.get(bare);
  if (!v) return null;
  return { file: v.file, range: headerRange(v.block), message: `var.${bare} (variable)` };
}

/** A declaration (resource, data source, module call, output): its header, labelled with `label`. */
export function declarationHop(decl: Declared, label: string): Hop {
  return { file: decl.file, range: headerRange(decl.block), message: label };
}

/** A resource (or data source): its header, labelled with its address. */
export function resourceHop(resource: Resource): Hop {
  return declarationHop(resource, resource.address);
}

/**
 * An argument of a resource (or of a nested block, `health_check.port`):
 * its expression, labelled `aws_lb_target_group.api.health_check.port`.
 * `attr` is the attribute node; `path` its path in the resource, defaulting
 * to the attribute's name (pass it for arguments of nested blocks).
 */
export function argumentHop(resource: Resource, attr: Attribute, path: string = attr.name): Hop {
  return { file: fileOf(resource, attr), range: attr.expr.range, message: `${resource.address}.${path}` };
}

/** An argument of a module call: its expression, labelled `module.net.subnet_ids`. */
export function moduleArgumentHop(call: ModuleCall, name: string): Hop | null {
  const attr = call.args.get(name);
  if (!attr) return null;
  return { file: fileOf(call, attr), range: attr.expr.range, message: `module.${call.name}.${name}` };
}

/** An output's value expression, labelled `output.provider_id_list`. */
export function outputHop(output: Output): Hop | null {
  if (!output.valueAttr || !output.value) return null;
  return { file: fileOf(output, output.valueAttr), range: output.value.range, message: `output.${output.name}` };
}

/** The `for_each` / `count` expression of a resource or module call, labelled `aws_instance.node for_each`. */
export function iterationHop(decl: Resource | ModuleCall, kind: "for_each" | "count"): Hop | null {
  const attr = kind === "for_each" ? decl.forEach : decl.count;
  if (!attr) return null;
  const label = "address" in decl ? decl.address : `module.${decl.name}`;
  return { file: fileOf(decl, attr), range: attr.expr.range, message: `${label} ${kind}` };
}

/**
 * The entry under `key` of the map or object `expr` certainly is (through
 * parentheses and locals): its value expression, with the locals passed.
 */
function entryOf(module: Module, file: SourceFile, expr: Expression, key: string): { hop: Range; file: SourceFile; via: string[] } | null {
  const s = resolveStrict(module, { expr, file, via: [] });
  if (s.expr.kind !== "ObjectCons") return null;
  // The last item with the key wins, as in Terraform.
  for (let i = s.expr.items.length - 1; i >= 0; i--) {
    const item = s.expr.items[i]!;
    if (objectKeyName(item) === key) return { hop: item.value.range, file: s.file, via: [...s.via] };
  }
  return null;
}

/**
 * The entry `key` of a local map (`local.api_ports["kube_apiserver"]`): the
 * entry's value, labelled so; null when the local is not certainly a map
 * literal holding that key.
 */
export function mapEntryHop(module: Module, localName: string, key: string): Hop | null {
  const bare = localName.startsWith("local.") ? localName.slice(6) : localName;
  const local = module.locals.get(bare);
  if (!local) return null;
  const entry = entryOf(module, local.file, local.value, key);
  if (!entry) return null;
  return { file: entry.file, range: entry.hop, message: `local.${bare}[${JSON.stringify(key)}]` };
}

/**
 * The `for_each` entry of one instance (`each.key` = `key`) of a resource or
 * module call: the entry's value where the map is written (in the
 * `for_each` itself or in the local it names), labelled
 * `aws_lb_listener.api["https"] (for_each entry)`; null when the entry
 * cannot be told for certain.
 */
export function forEachEntryHop(module: Module, decl: Resource | ModuleCall, key: string): Hop | null {
  if (!decl.forEach) return null;
  const entry = entryOf(module, fileOf(decl, decl.forEach), decl.forEach.expr, key);
  if (!entry) return null;
  const label = "address" in decl ? decl.address : `module.${decl.name}`;
  return { file: entry.file, range: entry.hop, message: `${label}[${JSON.stringify(key)}] (for_each entry)` };
}

/**
 * What a values Site followed (see values.ts), as hops: its `trail` when the
 * analysis kept one (iteration: locals, `for_each`/`count` expressions,
 * entries, other instances' arguments, each already a hop), else the locals
 * of its `via`.
 */
export function siteHops(module: Module, site: Pick<Site, "via"> & { trail?: readonly Hop[] }): Hop[] {
  if (site.trail && site.trail.length > 0) return joinHops(site.trail);
  return localHops(module, site.via);
}

function contains(outer: Range, inner: Range): boolean {
  return outer.start.offset <= inner.start.offset && inner.end.offset <= outer.end.offset;
}

/** The attribute of `body` (or of a nested block) whose expression holds `range`, with its path. */
function attributeHolding(body: Body, range: Range, prefix: string): { attr: Attribute; path: string } | null {
  // Depth first, a body's attributes before its blocks; blocks nest without
  // limit: an explicit stack of (body, path prefix, next block).
  const stack: { body: Body; prefix: string; i: number }[] = [{ body, prefix, i: -1 }];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i < 0) {
      for (const a of f.body.attributes) if (contains(a.expr.range, range)) return { attr: a, path: f.prefix + a.name };
      f.i = 0;
    }
    if (f.i >= f.body.blocks.length) {
      stack.pop();
      continue;
    }
    const b = f.body.blocks[f.i++]!;
    if (!contains(b.range, range)) continue;
    // `dynamic "x" { content { ... } }` names the block it makes.
    const name = b.type === "dynamic" ? (b.labels[0] ?? b.type) : b.type;
    stack.push({ body: b.body, prefix: b.type === "content" ? f.prefix : `${f.prefix}${name}.`, i: -1 });
  }
  return null;
}

/**
 * The argument of a resource or module call whose expression holds `range`
 * (a reference found in it), labelled with its path
 * (`aws_autoscaling_group.pool.max_size`); null when none does.
 */
export function holdingArgumentHop(decl: Resource | ModuleCall, range: Range): Hop | null {
  const body = "address" in decl ? decl.body : decl.block.body;
  const held = attributeHolding(body, range, "");
  if (!held) return null;
  if ("address" in decl) return argumentHop(decl, held.attr, held.path);
  return { file: fileOf(decl, held.attr), range: held.attr.expr.range, message: `module.${decl.name}.${held.path}` };
}

/** The hop of a resource, data source or module call on a path: the argument holding `next`, else its header. */
function objectHop(module: Module, address: string, next: Range | null): Hop | null {
  if (address.startsWith("module.")) {
    const call = module.moduleCalls.get(address.slice(7));
    if (!call) return null;
    const held = next ? attributeHolding(call.block.body, next, "") : null;
    if (held) return { file: fileOf(call, held.attr), range: held.attr.expr.range, message: `module.${call.name}.${held.path}` };
    return declarationHop(call, address);
  }
  const r = module.resources.get(address) ?? module.dataSources.get(address);
  if (!r) return null;
  const held = next ? attributeHolding(r.body, next, "") : null;
  if (held) return argumentHop(r, held.attr, held.path);
  return resourceHop(r);
}

/**
 * The hops of a dependency chain (`graph.dependencies(expr).get(address)`,
 * `graph.reaches(expr, target)`): each step's object where it is defined.
 * `owner` is the resource (or module call) the chain's expression belongs
 * to, for `each.*` and `count.index` in it; later iteration references
 * belong to the last resource the chain passed through.
 */
export function chainHops(module: Module, chain: readonly ChainStep[] | null, owner?: Resource | ModuleCall): Hop[] {
  const out: Hop[] = [];
  let holder: Resource | ModuleCall | undefined = owner;
  (chain ?? []).forEach((step, i) => {
    const next = chain![i + 1]?.range ?? null;
    const a = step.address;
    let hop: Hop | null = null;
    if (a.startsWith("local.")) hop = localHop(module, a);
    else if (a.startsWith("var.")) hop = variableHop(module, a);
    else if (a.startsWith("each.")) hop = holder ? iterationHop(holder, "for_each") : null;
    else if (a.startsWith("count.")) hop = holder ? iterationHop(holder, "count") : null;
    else if (a.startsWith("module.") || module.resources.has(a) || module.dataSources.has(a)) {
      hop = objectHop(module, a, next);
      holder = a.startsWith("module.") ? module.moduleCalls.get(a.slice(7)) : (module.resources.get(a) ?? module.dataSources.get(a));
    }
    if (hop) out.push(hop);
  });
  return joinHops(out);
}

/** Hop lists joined in order, each hop (same file, range and label) once. */
export function joinHops(...lists: readonly (readonly (Hop | null | undefined)[])[]): Hop[] {
  const seen = new Set<string>();
  const out: Hop[] = [];
  for (const list of lists) {
    for (const h of list) {
      if (!h) continue;
      const key = `${h.file.path}\u0000${h.range.start.offset}\u0000${h.range.end.offset}\u0000${h.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(h);
    }
  }
  return out;
}

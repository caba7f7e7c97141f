/**
 * Build the Terraform module model (module-types.ts) from a list of parsed files:
 * variables, outputs, locals, resources and data sources, providers, module
 * calls and terraform settings, with override files merged in the way
 * Terraform merges them (module-override.ts).
 *
 * Native and JSON syntax are handled alike. In JSON syntax a nested block
 * may arrive as an attribute holding an object (or a list of objects); the
 * helpers here (`blocksOf`, `findArgument`) look through both shapes.
 */
import type { Attribute, Block, Body, Expression, Range } from "../hcl/ast.js";
import type {
  Declared,
  FileSetName,
  Lifecycle,
  Local,
  Module,
  ModuleCall,
  Output,
  ProviderConfig,
  Resource,
  SourceFile,
  TerraformSettings,
  Variable,
} from "./module-types.js";
import { constBool, constString, exprText, objectKeyName, pushChildren, traversalText, unwrap } from "../hcl/walk.js";
import { findAttr } from "../hcl/blocks.js";
import { copyNode } from "../hcl/nodes.js";
import { rangeBetween } from "../hcl/source.js";
import { applyOverrides, type DeclarationBuilder } from "./module-override.js";
import { labelRange } from "./module-types.js";

export { findAttr } from "../hcl/blocks.js";
export { labelRange, modelDiagnostic } from "./module-types.js";

/** Module-call arguments that are meta-arguments, not module inputs. */
export const MODULE_META_ARGUMENTS = new Set(["source", "version", "count", "for_each", "depends_on", "providers"]);

export interface BuildInfo {
  dir: string;
  relDir: string;
  fileSet: FileSetName;
}

/** Build the model of one file set of a module directory. */
export function buildModule(files: SourceFile[], info: BuildInfo): Module {
  const mod: Module = {
    dir: info.dir,
    relDir: info.relDir,
    fileSet: info.fileSet,
    files,
    variables: new Map(),
    outputs: new Map(),
    locals: new Map(),
    resources: new Map(),
    dataSources: new Map(),
    providers: [],
    moduleCalls: new Map(),
    terraformBlocks: [],
    diagnostics: [],
  };
  for (const file of files) {
    if (!file.isOverride) addFile(mod, file);
  }
  const overrides = files.filter((f) => f.isOverride);
  if (overrides.length) applyOverrides(mod, overrides, DECLARATION_BUILDER);
  return mod;
}

/** The builders below, handed to the override merge (module-override.ts). */
const DECLARATION_BUILDER: DeclarationBuilder = {
  variable: buildVariable,
  output: buildOutput,
  local: buildLocal,
  resource: buildResource,
  provider: buildProvider,
  moduleCall: buildModuleCall,
  terraform: buildTerraform,
};

function addFile(mod: Module, file: SourceFile): void {
  for (const block of file.hcl.body.blocks) {
    switch (block.type) {
      case "variable":
        if (block.labels.length === 1) addUnique(mod, mod.variables, block.labels[0]!, buildVariable(file, block), "variable");
        break;
      case "output":
        if (block.labels.length === 1) addUnique(mod, mod.outputs, block.labels[0]!, buildOutput(file, block), "output value");
        break;
      case "locals":
        for (const attr of block.body.attributes) {
          const local = buildLocal(file, attr);
          const prev = mod.locals.get(attr.name);
          if (prev) duplicate(mod, "local value", attr.name, file, attr.nameRange, prev.file, prev.attr.nameRange);
          else mod.locals.set(attr.name, local);
        }
        break;
      case "resource":
      case "data":
        if (block.labels.length === 2) {
          const r = buildResource(file, block);
          const map = r.mode === "managed" ? mod.resources : mod.dataSources;
          addUnique(mod, map, r.address, r, r.mode === "managed" ? "resource" : "data source");
        }
        break;
      case "provider":
        if (block.labels.length === 1) {
          const p = buildProvider(file, block);
          const prev = mod.providers.find((x) => x.name === p.name && x.alias === p.alias);
          if (prev) {
            const what = p.alias ? `${p.name}.${p.alias}` : p.name;
            duplicate(mod, "provider configuration", what, file, labelRange(block), prev.file, labelRange(prev.block));
          } else mod.providers.push(p);
        }
        break;
      case "module":
        if (block.labels.length === 1) addUnique(mod, mod.moduleCalls, block.labels[0]!, buildModuleCall(file, block), "module call");
        break;
      case "terraform":
        mod.terraformBlocks.push(buildTerraform(file, block));
        break;
    }
  }
}

function addUnique<T extends Declared>(mod: Module, map: Map<string, T>, key: string, decl: T, what: string): void {
  const prev = map.get(key);
  if (prev) {
    duplicate(mod, what, key, decl.file, labelRange(decl.block), prev.file, labelRange(prev.block));
    return;
  }
  map.set(key, decl);
}

function duplicate(
  mod: Module,
  what: string,
  name: string,
  file: SourceFile,
  subject: Range,
  prevFile: SourceFile,
  prevRange: Range,
): void {
  mod.diagnostics.push({
    severity: "error",
    summary: `Duplicate ${what}`,
    detail: `${/^[aeiou]/.test(what) ? "An" : "A"} ${what} named "${name}" is already declared at ${prevFile.path}:${prevRange.start.line}; names must be unique within a module. Rename or remove one of them.`,
    subject,
    code: "duplicate-declaration",
    file: file.path,
  });
}

// ------------------------------------------------------------- declarations

/** Where a declaration comes from: its file, its block, and the block's range. */
function declared(file: SourceFile, block: Block): Declared {
  return { file, block, range: block.range };
}

export function buildVariable(file: SourceFile, block: Block): Variable {
  const body = block.body;
  const typeAttr = findAttr(body, "type");
  const nullableAttr = findAttr(body, "nullable");
  const sensitiveAttr = findAttr(body, "sensitive");
  return {
    ...declared(file, block),
    name: block.labels[0]!,
    typeExpr: typeAttr ? typeAttr.expr : null,
    typeText: typeAttr ? typeSourceText(file, typeAttr.expr) : null,
    defaultAttr: findAttr(body, "default"),
    nullable: constBool(nullableAttr?.expr) ?? true,
    nullableAttr,
    sensitive: constBool(sensitiveAttr?.expr) ?? false,
    sensitiveAttr,
    validations: blocksOf(body, "validation"),
  };
}

/** The type expression as written; for a JSON string, the string's content. */
function typeSourceText(file: SourceFile, expr: Expression): string {
  if (expr.kind === "Template" && expr.form === "json") {
    return expr.jsonValue ?? constString(expr) ?? exprText(file.hcl, expr);
  }
  return exprText(file.hcl, expr);
}

export function buildOutput(file: SourceFile, block: Block): Output {
  const valueAttr = findAttr(block.body, "value");
  const sensitiveAttr = findAttr(block.body, "sensitive");
  return {
    ...declared(file, block),
    name: block.labels[0]!,
    valueAttr,
    value: valueAttr ? valueAttr.expr : null,
    sensitive: constBool(sensitiveAttr?.expr) ?? false,
    sensitiveAttr,
    preconditions: blocksOf(block.body, "precondition"),
  };
}

export function buildLocal(file: SourceFile, attr: Attribute): Local {
  return { name: attr.name, attr, value: attr.expr, file, range: attr.range };
}

export function buildResource(file: SourceFile, block: Block): Resource {
  const mode = block.type === "data" ? "data" : "managed";
  const [type, name] = block.labels as [string, string];
  const body = block.body;
  return {
    ...declared(file, block),
    mode,
    type,
    name,
    address: mode === "data" ? `data.${type}.${name}` : `${type}.${name}`,
    count: findAttr(body, "count"),
    forEach: findAttr(body, "for_each"),
    dependsOn: findAttr(body, "depends_on"),
    providerAttr: findAttr(body, "provider"),
    lifecycle: buildLifecycle(blocksOf(body, "lifecycle")[0] ?? null),
    body,
  };
}

/** The lifecycle of a declaration without a lifecycle block: one shared, frozen value. */
const NO_LIFECYCLE: Lifecycle = Object.freeze({
  block: null,
  ignoreChanges: Object.freeze([]) as unknown as Lifecycle["ignoreChanges"],
  ignoreChangesAttr: null,
  replaceTriggeredBy: Object.freeze([]) as unknown as Expression[],
  replaceTriggeredByAttr: null,
  preventDestroy: null,
  preventDestroyAttr: null,
  createBeforeDestroy: null,
  preconditions: Object.freeze([]) as unknown as Block[],
  postconditions: Object.freeze([]) as unknown as Block[],
});

export function buildLifecycle(block: Block | null): Lifecycle {
  if (block === null) return NO_LIFECYCLE;
  const body = block.body;
  const ignoreAttr = findAttr(body, "ignore_changes");
  const rtbAttr = findAttr(body, "replace_triggered_by");
  const pdAttr = findAttr(body, "prevent_destroy");
  const cbdAttr = findAttr(body, "create_before_destroy");
  let replaceTriggeredBy: Expression[] = [];
  if (rtbAttr) {
    const e = unwrap(rtbAttr.expr);
    replaceTriggeredBy = e.kind === "TupleCons" ? e.exprs : [rtbAttr.expr];
  }
  return {
    block,
    ignoreChanges: ignoreAttr ? ignoreChangesPaths(ignoreAttr.expr) : [],
    ignoreChangesAttr: ignoreAttr,
    replaceTriggeredBy,
    replaceTriggeredByAttr: rtbAttr,
    preventDestroy: constBool(pdAttr?.expr),
    preventDestroyAttr: pdAttr,
    createBeforeDestroy: constBool(cbdAttr?.expr),
    preconditions: blocksOf(body, "precondition"),
    postconditions: blocksOf(body, "postcondition"),
  };
}

/**
 * `ignore_changes = all`, `[a, b.c, d[0].e]`; quoted entries (legacy, and
 * the JSON form) are taken by their string value.
 */
export function ignoreChangesPaths(expr: Expression): "all" | { path: string; range: Range }[] {
  const e = unwrap(expr);
  if (isKeyword(e, "all")) return "all";
  const items = e.kind === "TupleCons" ? e.exprs : [e];
  const out: { path: string; range: Range }[] = [];
  for (const item of items) {
    const x = unwrap(item);
    if (x.kind === "ScopeTraversal") {
      out.push({ path: traversalText(x.traversal), range: x.range });
    } else {
      const s = constString(x);
      if (s !== null) {
        if (s === "all" || s === "*") return "all";
        out.push({ path: s, range: x.range });
      }
    }
  }
  return out;
}

function isKeyword(e: Expression, word: string): boolean {
  if (e.kind === "ScopeTraversal") {
    return e.traversal.length === 1 && e.traversal[0]!.kind === "TraverseRoot" && e.traversal[0]!.name === word;
  }
  return e.kind === "Template" && e.form === "json" && constString(e) === word;
}

export function buildProvider(file: SourceFile, block: Block): ProviderConfig {
  const aliasAttr = findAttr(block.body, "alias");
  return {
    ...declared(file, block),
    name: block.labels[0]!,
    alias: aliasAttr ? constString(aliasAttr.expr) : null,
    body: block.body,
  };
}

/** Terraform's local-path module sources. */
export function isLocalSource(source: string): boolean {
  return source === "." || source === ".." || source.startsWith("./") || source.startsWith("../");
}

export function buildModuleCall(file: SourceFile, block: Block): ModuleCall {
  const body = block.body;
  const sourceAttr = findAttr(body, "source");
  const source = sourceAttr ? constString(sourceAttr.expr) : null;
  const args = new Map<string, Attribute>();
  for (const a of body.attributes) if (!MODULE_META_ARGUMENTS.has(a.name)) args.set(a.name, a);
  return {
    ...declared(file, block),
    name: block.labels[0]!,
    sourceAttr,
    source,
    isLocal: source !== null && isLocalSource(source),
    args,
    count: findAttr(body, "count"),
    forEach: findAttr(body, "for_each"),
  };
}

export function buildTerraform(file: SourceFile, block: Block): TerraformSettings {
  return {
    ...declared(file, block),
    requiredVersion: findAttr(block.body, "required_version"),
    requiredProviders: blocksOf(block.body, "required_providers"),
    backends: block.body.blocks.filter((b) => b.type === "backend"),
    clouds: blocksOf(block.body, "cloud"),
  };
}

// ------------------------------------------------------- nested structures

/**
 * Blocks of `type` in `body`. In JSON syntax a label-less nested block can
 * arrive as an attribute holding an object or a list of objects; those are
 * turned into equivalent blocks (attributes from the object's items).
 */
export function blocksOf(body: Body, type: string): Block[] {
  const out = body.blocks.filter((b) => b.type === type);
  for (const a of body.attributes) {
    if (a.name !== type) continue;
    const e = unwrap(a.expr);
    const objs = e.kind === "ObjectCons" ? [e] : e.kind === "TupleCons" ? e.exprs.map(unwrap) : [];
    for (const o of objs) if (o.kind === "ObjectCons") out.push(objectAsBlock(a, o));
  }
  return out;
}

const synthesized = new WeakMap<Expression, Block>();

function objectAsBlock(attr: Attribute, obj: Extract<Expression, { kind: "ObjectCons" }>): Block {
  const cached = synthesized.get(obj);
  if (cached) return cached;
  const attributes: Attribute[] = [];
  const blocks: Block[] = [];
  for (const item of obj.items) {
    const name = objectKeyName(item);
    if (name === null) continue;
    attributes.push({ kind: "Attribute", name, nameRange: item.key.range, expr: item.value, range: item.range });
  }
  const open = { start: obj.range.start, end: obj.range.start };
  const close = { start: obj.range.end, end: obj.range.end };
  const block: Block = {
    kind: "Block",
    type: attr.name,
    typeRange: attr.nameRange,
    labels: [],
    labelRanges: [],
    openBraceRange: open,
    closeBraceRange: close,
    body: { kind: "Body", attributes, blocks, range: obj.range },
    range: rangeBetween(attr.range, obj.range),
    singleLine: false,
  };
  synthesized.set(obj, block);
  return block;
}

/** What `findArgument` found: an attribute, or an item of an object value. */
export interface ArgumentMatch {
  /** The attribute when the last step named one (native blocks, JSON top level). */
  attr: Attribute | null;
  /** The argument's value. */
  expr: Expression;
  /** The whole `name = value` range. */
  range: Range;
  /** The range of the argument's name (attribute name or object key). */
  nameRange: Range;
  /** `dynamic` blocks passed through on the way (their values are per iteration). */
  viaDynamic: boolean;
}

/**
 * Find nested arguments by path, e.g. `["scaling_config", "desired_size"]`,
 * through nested blocks (including `dynamic "x" { content { ... } }`) and
 * object/tuple-valued attributes alike (JSON syntax, or `x = { ... }`).
 * A numeric step (`"0"`) selects the n-th block or tuple element (a single
 * object counts as a one-element list, as a JSON-syntax block does).
 * Returns every match in source order.
 */
export function findArguments(body: Body, path: readonly string[]): ArgumentMatch[] {
  const out: ArgumentMatch[] = [];
  if (path.length === 0) return out;
  searchBody(body, path, 0, false, out);
  return out;
}

/** The first match of `findArguments`, or null. */
export function findArgument(body: Body, path: readonly string[]): ArgumentMatch | null {
  return findArguments(body, path)[0] ?? null;
}

function searchBody(body: Body, path: readonly string[], i: number, dyn: boolean, out: ArgumentMatch[]): void {
  const step = path[i]!;
  const last = i === path.length - 1;
  for (const a of body.attributes) {
    if (a.name !== step) continue;
    if (last) out.push({ attr: a, expr: a.expr, range: a.range, nameRange: a.nameRange, viaDynamic: dyn });
    else searchValue(a.expr, path, i + 1, dyn, out);
  }
  if (last) return;
  const nested = body.blocks.filter((b) => b.type === step);
  const next = path[i + 1]!;
  if (/^\d+$/.test(next)) {
    const b = nested[Number(next)];
    if (b) {
      if (i + 1 === path.length - 1) return;
      searchBody(b.body, path, i + 2, dyn, out);
    }
  } else {
    for (const b of nested) searchBody(b.body, path, i + 1, dyn, out);
  }
  for (const b of body.blocks) {
    if (b.type !== "dynamic" || b.labels[0] !== step) continue;
    for (const c of b.body.blocks) {
      if (c.type === "content") searchBody(c.body, path, /^\d+$/.test(next) ? i + 2 : i + 1, true, out);
    }
    for (const c of blocksOf(copyNode(b.body, { blocks: [] }), "content")) {
      searchBody(c.body, path, /^\d+$/.test(next) ? i + 2 : i + 1, true, out);
    }
  }
}

/**
 * The matches of `path` from step `i` inside a value, in source order.
 * Tuples nest without limit (a name step looks into every element at the
 * same step): an explicit stack of (value, step), popped in source order.
 */
function searchValue(expr: Expression, path: readonly string[], i: number, dyn: boolean, out: ArgumentMatch[]): void {
  const exprs: Expression[] = [expr];
  const steps: number[] = [i];
  while (exprs.length > 0) {
    const x = exprs.pop()!;
    const j = steps.pop()!;
    if (j >= path.length) continue;
    const e = unwrap(x);
    const step = path[j]!;
    const last = j === path.length - 1;
    if (e.kind === "TupleCons") {
      if (/^\d+$/.test(step)) {
        const el = e.exprs[Number(step)];
        if (el && !last) exprs.push(el), steps.push(j + 1);
        continue;
      }
      for (let k = e.exprs.length - 1; k >= 0; k--) exprs.push(e.exprs[k]!), steps.push(j);
      continue;
    }
    if (e.kind !== "ObjectCons") continue;
    if (step === "0" && !last) {
      // A single nested block written as an object (JSON syntax): `[0]` is itself.
      exprs.push(e), steps.push(j + 1);
      continue;
    }
    if (last) {
      for (const item of e.items) {
        if (objectKeyName(item) === step) out.push({ attr: null, expr: item.value, range: item.range, nameRange: item.key.range, viaDynamic: dyn });
      }
      continue;
    }
    for (let k = e.items.length - 1; k >= 0; k--) {
      const item = e.items[k]!;
      if (objectKeyName(item) === step) exprs.push(item.value), steps.push(j + 1);
    }
  }
}

/**
 * The file a node of a declaration came from: the declaration's own file,
 * or the override file whose block supplied it (after override merging).
 */
export function fileOf(decl: Declared, node: object): SourceFile {
  if (!decl.overriddenBy) return decl.file;
  for (let k = decl.overriddenBy.length - 1; k >= 0; k--) {
    const o = decl.overriddenBy[k]!;
    if (blockContains(o.block, node)) return o.file;
  }
  return decl.file;
}

function blockContains(top: Block, node: object): boolean {
  // Blocks and expressions nest without limit: explicit stacks.
  const blocks: Block[] = [top];
  const stack: Expression[] = [];
  while (blocks.length > 0) {
    const block = blocks.pop()!;
    if (block === node || block.body === node) return true;
    for (const a of block.body.attributes) {
      if (a === node || a.expr === node) return true;
      stack.length = 0;
      stack.push(a.expr);
      while (stack.length > 0) {
        const x = stack.pop()!;
        if (x === node) return true;
        pushChildren(x, stack, false);
      }
    }
    for (const b of block.body.blocks) blocks.push(b);
  }
  return false;
}


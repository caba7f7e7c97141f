/**
 * Terraform override files (`override.tf`, `*_override.tf`, and the
 * `.tf.json`/`.tofu`/`.tofu.json` forms): merged into the declarations they
 * override, after every ordinary file, in file-name order.
 *
 * Merging follows Terraform: an attribute in the override replaces the one
 * of the same name; nested blocks are replaced by type (all base blocks of
 * a type give way to the override's blocks of that type; a `dynamic "x"`
 * block counts as type `x`); a resource's `lifecycle` block is merged
 * argument by argument; locals are replaced one name at a time; in
 * `terraform` blocks `required_version`, the backend/cloud choice and
 * individual `required_providers` entries are replaced. Overriding
 * something that has no base declaration is an error, as in Terraform.
 *
 * Merged declarations keep the base block's file and ranges; attributes
 * supplied by an override keep their own ranges (use `fileOf` to find the
 * file they are in). `overriddenBy` lists the override blocks applied.
 */
import type { Block, Body } from "../hcl/ast.js";
import type { Attribute } from "../hcl/ast.js";
import {
  labelRange,
  modelDiagnostic,
  type Declared,
  type Local,
  type Module,
  type ModuleCall,
  type Output,
  type ProviderConfig,
  type Resource,
  type SourceFile,
  type TerraformSettings,
  type Variable,
} from "./module-types.js";
import { constString } from "../hcl/walk.js";
import { findAttr } from "../hcl/blocks.js";
import { copyNode } from "../hcl/nodes.js";

/**
 * How the module builder (module-builder.ts) turns a block into a declaration. The
 * builder hands itself in when it applies overrides, so merging re-reads a
 * merged block exactly as an ordinary one without importing the builder.
 */
export interface DeclarationBuilder {
  variable(file: SourceFile, block: Block): Variable;
  output(file: SourceFile, block: Block): Output;
  local(file: SourceFile, attr: Attribute): Local;
  resource(file: SourceFile, block: Block): Resource;
  provider(file: SourceFile, block: Block): ProviderConfig;
  moduleCall(file: SourceFile, block: Block): ModuleCall;
  terraform(file: SourceFile, block: Block): TerraformSettings;
}

export function applyOverrides(mod: Module, overrides: SourceFile[], build: DeclarationBuilder): void {
  for (const file of overrides) {
    for (const block of file.hcl.body.blocks) overrideBlock(mod, file, block, build);
  }
}

function overrideBlock(mod: Module, file: SourceFile, block: Block, build: DeclarationBuilder): void {
  const name = block.labels[0] ?? "";
  switch (block.type) {
    case "variable": {
      if (block.labels.length !== 1) return;
      return overrideIn(mod, mod.variables, name, "variable", file, block, NO_NESTED_MERGE, (base, merged) => {
        const v = build.variable(base.file, merged);
        // The type's source text is that of the file the type comes from.
        v.typeText = findAttr(block.body, "type") ? build.variable(file, block).typeText : base.typeText;
        return v;
      });
    }
    case "output":
      if (block.labels.length !== 1) return;
      return overrideIn(mod, mod.outputs, name, "output value", file, block, NO_NESTED_MERGE, (base, merged) => build.output(base.file, merged));
    case "locals":
      for (const attr of block.body.attributes) {
        if (!mod.locals.has(attr.name)) {
          mod.diagnostics.push(
            modelDiagnostic(
              file,
              attr.nameRange,
              "Missing base local value definition to override",
              `${file.name} overrides local.${attr.name}, but no ordinary (non-override) file of the module defines it. Define it in a regular file or remove the override.`,
              "override-without-base",
            ),
          );
          continue;
        }
        mod.locals.set(attr.name, build.local(file, attr));
      }
      return;
    case "resource":
    case "data": {
      if (block.labels.length !== 2) return;
      const address = block.type === "data" ? `data.${block.labels[0]}.${block.labels[1]}` : `${block.labels[0]}.${block.labels[1]}`;
      const map = block.type === "data" ? mod.dataSources : mod.resources;
      const what = block.type === "data" ? "data source" : "resource";
      return overrideIn(mod, map, address, what, file, block, LIFECYCLE_MERGE, (base, merged) => build.resource(base.file, merged));
    }
    case "provider": {
      if (block.labels.length !== 1) return;
      const aliasAttr = findAttr(block.body, "alias");
      const alias = aliasAttr ? constString(aliasAttr.expr) : null;
      const idx = mod.providers.findIndex((p) => p.name === name && p.alias === alias);
      if (idx < 0) return missingBase(mod, file, block, "provider configuration", alias ? `${name}.${alias}` : name);
      const base = mod.providers[idx]!;
      const p = build.provider(base.file, mergeBlocks(base.block, block, NO_NESTED_MERGE));
      mod.providers[idx] = withOverride(p, base, file, block);
      return;
    }
    case "module":
      if (block.labels.length !== 1) return;
      return overrideIn(mod, mod.moduleCalls, name, "module call", file, block, NO_NESTED_MERGE, (base, merged) => build.moduleCall(base.file, merged));
    case "terraform":
      overrideTerraform(mod, file, block, build);
      return;
  }
}

/**
 * Merge an override block into the declaration `key` of `map`: the base's
 * block merged with the override's is read again by `rebuild` (in the base's
 * file), and the override is recorded on the result. An override without a
 * base is reported instead.
 */
function overrideIn<T extends Declared>(
  mod: Module,
  map: Map<string, T>,
  key: string,
  what: string,
  file: SourceFile,
  block: Block,
  mergeNested: ReadonlySet<string>,
  rebuild: (base: T, merged: Block) => T,
): void {
  const base = map.get(key);
  if (!base) return missingBase(mod, file, block, what, key);
  map.set(key, withOverride(rebuild(base, mergeBlocks(base.block, block, mergeNested)), base, file, block));
}

function withOverride<T extends Declared>(decl: T, base: T, file: SourceFile, block: Block): T {
  decl.overriddenBy = [...(base.overriddenBy ?? []), { file, block }];
  return decl;
}

function missingBase(mod: Module, file: SourceFile, block: Block, what: string, name: string): void {
  mod.diagnostics.push(
    modelDiagnostic(
      file,
      labelRange(block),
      `Missing base ${what} to override`,
      `${file.name} overrides the ${what} "${name}", but no ordinary (non-override) file of the module declares it. Declare it in a regular file or remove the override.`,
      "override-without-base",
    ),
  );
}

const NO_NESTED_MERGE: ReadonlySet<string> = new Set();
const LIFECYCLE_MERGE: ReadonlySet<string> = new Set(["lifecycle"]);

/** The type a nested block stands for when merging (`dynamic "x"` is an `x`). */
function blockKey(b: Block): string {
  return b.type === "dynamic" && b.labels.length > 0 ? b.labels[0]! : b.type;
}

/**
 * Merge `over` into `base`: attributes replace by name (in place; new ones
 * appended), nested blocks replace by type, except types in `mergeNested`,
 * which are merged the same way recursively.
 */
export function mergeBlocks(base: Block, over: Block, mergeNested: ReadonlySet<string>): Block {
  return copyNode(base, { body: mergeBodies(base.body, over.body, mergeNested) });
}

function mergeBodies(base: Body, over: Body, mergeNested: ReadonlySet<string>): Body {
  const overAttrs = new Map(over.attributes.map((a) => [a.name, a]));
  const attributes = base.attributes.map((a) => overAttrs.get(a.name) ?? a);
  const baseNames = new Set(base.attributes.map((a) => a.name));
  for (const a of over.attributes) if (!baseNames.has(a.name)) attributes.push(a);

  const overKeys = new Set(over.blocks.map(blockKey));
  const blocks: Block[] = [];
  const merged = new Set<string>();
  for (const b of base.blocks) {
    const key = blockKey(b);
    if (!overKeys.has(key)) {
      blocks.push(b);
    } else if (mergeNested.has(key) && b.type === key && !merged.has(key)) {
      const o = over.blocks.find((x) => x.type === key)!;
      blocks.push(mergeBlocks(b, o, NO_NESTED_MERGE));
      merged.add(key);
    }
  }
  for (const o of over.blocks) {
    const key = blockKey(o);
    if (merged.has(key) && o.type === key) continue;
    blocks.push(o);
  }
  return copyNode(base, { attributes, blocks });
}

function overrideTerraform(mod: Module, file: SourceFile, block: Block, build: DeclarationBuilder): void {
  const over = build.terraform(file, block);
  const replacesBackend = over.backends.length > 0 || over.clouds.length > 0;
  const overridden = new Set<string>();
  for (const rp of over.requiredProviders) for (const a of rp.body.attributes) overridden.add(a.name);
  mod.terraformBlocks = mod.terraformBlocks.map((t): TerraformSettings => {
    const next: TerraformSettings = { ...t };
    if (over.requiredVersion) next.requiredVersion = null;
    if (replacesBackend) {
      next.backends = [];
      next.clouds = [];
    }
    if (overridden.size) {
      next.requiredProviders = t.requiredProviders.map((rp) => ({
        ...rp,
        body: copyNode(rp.body, { attributes: rp.body.attributes.filter((a) => !overridden.has(a.name)) }),
      }));
    }
    return next;
  });
  mod.terraformBlocks.push(over);
}

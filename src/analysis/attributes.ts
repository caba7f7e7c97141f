/**
 * Which resource attribute is managed or ignored: the attributes at a path
 * inside a body (nested blocks and `dynamic` content included), attributes
 * found by name, and whether `lifecycle { ignore_changes }` covers a path.
 */
import type { Attribute, Body } from "../hcl/ast.js";
import type { Resource } from "../terraform/module-types.js";
import { parseAttributePath, pathCovers, type PathStep } from "../terraform/attribute-path.js";

/**
 * The attributes at `names` inside a resource body: `["scaling_config",
 * "desired_size"]` finds `desired_size` in every `scaling_config` block,
 * including the `content` of a `dynamic "scaling_config"` block.
 */
export function attributesAt(body: Body, names: readonly string[]): Attribute[] {
  if (names.length === 0) return [];
  if (names.length === 1) return body.attributes.filter((a) => a.name === names[0]);
  const out: Attribute[] = [];
  for (const block of body.blocks) {
    if (block.type === names[0]) out.push(...attributesAt(block.body, names.slice(1)));
    else if (block.type === "dynamic" && block.labels[0] === names[0]) {
      for (const content of block.body.blocks) {
        if (content.type === "content") out.push(...attributesAt(content.body, names.slice(1)));
      }
    }
  }
  return out;
}

const META_BLOCKS = new Set(["lifecycle", "provisioner", "connection", "precondition", "postcondition"]);

/**
 * Attributes with one of `names` anywhere in the body (nested blocks too,
 * not meta-argument blocks), with their paths in `ignore_changes` form.
 */
export function findNamedAttributes(body: Body, names: readonly string[], prefix = ""): { path: string; steps: string[]; attr: Attribute }[] {
  const out: { path: string; steps: string[]; attr: Attribute }[] = [];
  // Blocks nest without limit: an explicit stack of bodies with their path
  // text and the chain of steps to them (made into a list only for a match).
  const stack: { b: Body; pathText: string; chain: StepChain | null }[] = [{ b: body, pathText: prefix, chain: null }];
  while (stack.length > 0) {
    const { b, pathText, chain } = stack.pop()!;
    for (const a of b.attributes) {
      if (names.includes(a.name)) out.push({ path: pathText + a.name, steps: [...stepsOf(chain), a.name], attr: a });
    }
    const next: { b: Body; pathText: string; chain: StepChain | null }[] = [];
    for (const block of b.blocks) {
      if (META_BLOCKS.has(block.type)) continue;
      if (block.type === "dynamic") {
        const name = block.labels[0];
        if (!name) continue;
        for (const content of block.body.blocks) {
          if (content.type === "content") next.push({ b: content.body, pathText: `${pathText}${name}[0].`, chain: { step: name, parent: chain } });
        }
      } else {
        next.push({ b: block.body, pathText: `${pathText}${block.type}[0].`, chain: { step: block.type, parent: chain } });
      }
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return out;
}

/** The steps to a nested body, innermost last, as links to the steps around it. */
interface StepChain {
  readonly step: string;
  readonly parent: StepChain | null;
}

function stepsOf(chain: StepChain | null): string[] {
  const out: string[] = [];
  for (let c = chain; c !== null; c = c.parent) out.push(c.step);
  return out.reverse();
}

/** Does the resource's `ignore_changes` cover the attribute at `steps`? */
export function isIgnored(resource: Resource, steps: PathStep[]): boolean {
  const ic = resource.lifecycle.ignoreChanges;
  if (ic === "all") return true;
  return ic.some((entry) => {
    const listed = parseAttributePath(entry.path);
    return listed !== null && pathCovers(listed, steps);
  });
}

/** `tags["Created"]`, `root_block_device[0].tags` -> name/key segments without numeric indices. */
export function parseIgnorePath(text: string): string[] {
  const segs: string[] = [];
  const re = /([A-Za-z_][A-Za-z0-9_-]*)|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*\d+\s*\]|\[\s*\*\s*\]/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) segs.push(m[1]);
    else if (m[2] !== undefined) segs.push(m[2]);
  }
  return segs;
}

export function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > path.length) return false;
  return prefix.every((s, i) => path[i] === s);
}

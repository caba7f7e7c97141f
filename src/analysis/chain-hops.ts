/**
 * A dependency chain (graph.ts) as the hops of a finding's path
 * (`Finding.related`): each step is a reference written inside the previous
 * node's expression, so its file is the file of that node (the start file
 * for the first step).
 */
import type { Range } from "../hcl/ast.js";
import type { ChainStep } from "../terraform/graph-api.js";
import type { Module, SourceFile } from "../terraform/model.js";

export interface Hop {
  file: SourceFile;
  range: Range;
  message: string;
}

/** The file the expression of the node at `address` is written in, if known. */
function nodeFile(module: Module, address: string): SourceFile | null {
  if (address.startsWith("local.")) return module.locals.get(address.slice("local.".length))?.file ?? null;
  const r = module.resources.get(address) ?? module.dataSources.get(address);
  if (r) return r.file;
  if (address.startsWith("module.")) return module.moduleCalls.get(address.slice("module.".length))?.file ?? null;
  return null;
}

/**
 * The hops of `chain`, whose first step is referenced in `startFile`. Each
 * hop is labelled with the address it reaches (`local.api_port`,
 * `var.control_plane_initialized`), or by `label` when given. Stops at a
 * step whose file cannot be told.
 */
export function chainHops(module: Module, startFile: SourceFile, chain: readonly ChainStep[], label?: (step: ChainStep) => string): Hop[] {
  const out: Hop[] = [];
  let file: SourceFile | null = startFile;
  for (const step of chain) {
    if (!file) break;
    out.push({ file, range: step.range, message: label ? label(step) : step.address });
    file = nodeFile(module, step.address);
  }
  return out;
}

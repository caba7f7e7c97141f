import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Range } from "../../src/hcl/ast.js";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/terraform");

export function fixture(...parts: string[]): string {
  return path.join(FIXTURES, ...parts);
}

/** `line:column-line:column` of a range (end exclusive). */
export function at(r: Range | null | undefined): string | null {
  if (!r) return null;
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

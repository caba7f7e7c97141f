import { existsSync } from "node:fs";
import * as path from "node:path";

/**
 * The repository `dir` is in: the nearest directory at or above it holding
 * `.git`, or null outside a repository. Config lookup, module search and the
 * report's paths all stop there.
 */
export function repositoryRootOf(dir: string, exists: (p: string) => boolean = existsSync): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (exists(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return null;
  }
}

/**
 * Which bundle this code runs from. The worker pool starts its threads from
 * the same bundle, and the cache key holds a hash of it.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The bundle this code runs from, when it is `name` (cli.cjs, image.cjs),
 * else undefined: from the sources (tests importing src/) no worker can load
 * the code, so the work stays on the main thread.
 */
export function bundleFile(name: string): string | undefined {
  let file: string;
  try {
    file = fileURLToPath(import.meta.url);
  } catch {
    return undefined;
  }
  return path.basename(file) === name ? file : undefined;
}

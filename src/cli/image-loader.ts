/**
 * Loads the image command only when it runs. In the built CLI it is its own
 * bundle, dist/image.cjs, required next to dist/cli.cjs (scripts/build.mjs
 * defines __TFCAPI_IMAGE_BUNDLE__ and drops the other branch), so `module`
 * start-up never reads the tar, gzip and zstd code; from source (tests) it is
 * a plain dynamic import.
 */
import { createRequire } from "node:module";
import type { CliArgs } from "./args.js";
import type { Io } from "./io.js";

declare const __TFCAPI_IMAGE_BUNDLE__: boolean | undefined;

export interface ImageCommand {
  runImage(args: CliArgs, io: Io): Promise<number>;
}

export async function loadImageCommand(): Promise<ImageCommand> {
  if (typeof __TFCAPI_IMAGE_BUNDLE__ !== "undefined" && __TFCAPI_IMAGE_BUNDLE__) {
    return createRequire(import.meta.url)("./image.cjs") as ImageCommand;
  }
  return import("./image-command.js");
}

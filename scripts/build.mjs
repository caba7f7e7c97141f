// Builds the package: one bundled ESM file for the CLI (fast start: no module
// resolution at run time), one for the library API, and type declarations.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
// Regenerate the precompiled config-file validator (committed; see the script).
execFileSync(process.execPath, ["scripts/gen-config-validator.mjs"], { stdio: "inherit" });
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
};
await build({ ...common, entryPoints: { cli: "src/cli.ts", index: "src/index.ts" }, outdir: "dist", splitting: true, chunkNames: "chunks/[name]-[hash]" });
execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });

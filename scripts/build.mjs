// Builds the package: the CLI, the library API, and type declarations.
//
// The CLI starts on every save and commit, so its start-up is what counts:
//  - dist/cli.cjs is the whole CLI as one script: no module resolution and
//    no chunks to load at run time, and modules that only some runs need
//    (other output formats) are evaluated only when used;
//  - dist/cli-loader.cjs, what bin/tfcapi-lint.js (CommonJS) requires, is a
//    small loader that compiles cli.cjs with V8's code cache dist/cli.cache when the cache fits
//    the running Node (V8 checks its version and flags; otherwise it compiles
//    the source as usual, just without the head start);
//  - dist/cli.cache is made here after a training run over examples/, so it
//    holds the bytecode of the functions a lint run calls too (V8 compiles
//    functions lazily: without the cache every start compiles them again).
//    The training is the run that starts most often, one module linted with
//    the text format (clean, and with findings), and nothing else: every
//    function in the cache costs every start to load, and a cache trained
//    on --recursive and the json and compact formats as well made a
//    one-module run ~8% slower (in instructions) than this one. Other runs
//    compile what they need beyond it, once per process.
// dist/cli.js exposes the same loader to ES modules; dist/index.js is the
// library API as one ESM file. dist/lsp.cjs is the language server
// (`tfcapi-lint lsp`, with vscode-languageserver): a bundle of its own that
// the CLI requires only for that command, so other runs never read it.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";

const LOADER = `// Loads the bundled CLI (cli.cjs) with V8's code cache (cli.cache; see scripts/build.mjs).
// CommonJS on purpose: the CLI starts without Node's ES module loader, whose
// builtin facades (node:fs pulls in streams) and fs/promises cost ~15 ms.
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");
const { Script } = require("node:vm");

const file = path.join(__dirname, "cli.cjs");
let cachedData;
try {
  cachedData = readFileSync(path.join(__dirname, "cli.cache"));
} catch {
  // no cache: compile from source
}
const source = readFileSync(file, "utf8");
const script = new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", {
  filename: file,
  ...(cachedData ? { cachedData } : {}),
});
const cjs = { exports: {} };
script.runInThisContext()(cjs.exports, require, cjs, file, __dirname);

exports.main = cjs.exports.main;
/** For the worker threads that lint modules (src/cli/worker-pool.ts). */
exports.lintWorkerRequest = cjs.exports.lintWorkerRequest;
/** Whether V8 used the code cache (false when it did not fit this Node). */
exports.codeCacheUsed = cachedData !== undefined && script.cachedDataRejected === false;
/** The code cache as of now, including functions compiled so far (the build's training run writes it). */
exports.createCodeCache = () => script.createCachedData();
`;

// dist/cli.js: the same for ES module importers (tests, the training run).
const ESM_LOADER = `import { createRequire } from "node:module";

const loader = createRequire(import.meta.url)("./cli-loader.cjs");
export const main = loader.main;
export const codeCacheUsed = loader.codeCacheUsed;
export function createCodeCache() {
  return loader.createCodeCache();
}
`;

// Runs in a child process with no Node flags (V8 rejects a cache made under
// other flags), with its stdout on /dev/null: the runs use the CLI's own
// input and output (src/cli/main.ts defaultIo, the writes to file descriptors 1 and
// 2), so the cache holds those functions too, as a real start calls them.
const TRAIN = `
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
const cli = await import(pathToFileURL(path.resolve("dist/cli.js")).href);
const runs = [["examples/machinepool-aws"], ["examples/broken-machinepool"]];
for (let i = 0; i < 2; i++) for (const args of runs) await cli.main(args);
writeFileSync("dist/cli.cache", cli.createCodeCache());
`;

rmSync("dist", { recursive: true, force: true });
// Regenerate the precompiled config-file validator (committed; see the script).
execFileSync(process.execPath, ["scripts/gen-config-validator.mjs"], { stdio: "inherit" });
// import.meta.url of a bundle, computed on first use (most runs never ask).
const CLI_BANNER = 'var __cli = { get url() { const url = require("node:url").pathToFileURL(__filename).href; Object.defineProperty(this, "url", { value: url }); return url; } };';
// picocolors works out at import time whether to colour by default, reading
// process.stdout.isTTY: touching process.stdout loads Node's stream modules
// (~5 ms of every start). The CLI passes its own decision to createColors()
// (src/cli/report.ts useColor), so the bundled copy skips that probe. The build
// fails if a picocolors release changes the line.
const PICOCOLORS_WITHOUT_STDOUT = {
  name: "picocolors-without-stdout",
  setup(b) {
    b.onLoad({ filter: /[\\/]picocolors[\\/]picocolors\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const probe = "((p.stdout || {}).isTTY && env.TERM !== \"dumb\")";
      if (!source.includes(probe)) throw new Error(`${args.path}: the stdout probe to drop was not found; check scripts/build.mjs PICOCOLORS_WITHOUT_STDOUT`);
      return { contents: source.replace(probe, "false"), loader: "js" };
    });
  },
};
// `import * as path from "node:path"` in a CommonJS bundle becomes
// __toESM(require("node:path")): a copy of the module's properties as
// getters, made again in each of the 15 files that import it that way (and
// ~100 properties for node:fs): ~1 ms of every start. Here node:path and
// node:fs are small ES modules of the module's own functions instead,
// evaluated once; the bundle calls the functions directly. Properties that
// are getters (fs.promises, which loads another module) are left out, and a
// use of one fails the build (logOverride below).
const BUILTINS_AS_ES_MODULES = {
  name: "builtins-as-es-modules",
  setup(b) {
    b.onResolve({ filter: /^node:(path|fs)$/ }, (args) => (args.kind === "import-statement" ? { path: args.path, namespace: "builtin-esm" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "builtin-esm" }, (args) => {
      // Listed by a fresh process: here some lazy getters have already turned into values.
      const list = `const m = require(${JSON.stringify(args.path)}); console.log(JSON.stringify(Object.keys(m).filter((k) => "value" in Object.getOwnPropertyDescriptor(m, k))));`;
      const names = JSON.parse(execFileSync(process.execPath, ["-e", list], { encoding: "utf8" })).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== "default");
      const contents = [`const m = require(${JSON.stringify(args.path)});`, "export default m;", ...names.map((k) => `export const ${k} = m.${k};`)].join("\n");
      return { contents, loader: "js" };
    });
  },
};
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
};
await build({ ...common, format: "esm", entryPoints: { index: "src/index.ts", testing: "src/testing.ts" }, outdir: "dist", define: { __CLI_BUNDLE__: "false" } });
await build({
  ...common,
  format: "cjs",
  entryPoints: { cli: "src/cli/main.ts" },
  // Less source to read and hash on every start.
  minifyWhitespace: true,
  minifySyntax: true,
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  // The CLI finds its package root (rule docs, version) from its own URL,
  // worked out only when asked for (__cli.url, see CLI_BANNER).
  define: { "import.meta.url": "__cli.url", __CLI_BUNDLE__: "true", __TFCAPI_IMAGE_BUNDLE__: "true" },
  plugins: [
    {
      // The loader's import of the image command from source is dead code here
      // (it requires dist/image.cjs instead): keep the image code out of cli.cjs.
      name: "image-command-elsewhere",
      setup(b) {
        b.onResolve({ filter: /\/image-command\.js$/ }, () => ({ path: "image-command", namespace: "elsewhere" }));
        b.onLoad({ filter: /.*/, namespace: "elsewhere" }, () => ({ contents: "export {};", loader: "js" }));
      },
    },
    {
      // The sources call createRequire(import.meta.url) where they load a
      // module only when needed (node:worker_threads, node:v8, the image and
      // lsp bundles). In cli.cjs that is the loader's own require (same
      // directory); the real node:module, which loads part of Node's ES module
      // loader (~1 ms), is required only for another URL.
      name: "create-require-of-the-bundle",
      setup(b) {
        b.onResolve({ filter: /^node:module$/ }, (args) => (args.kind === "import-statement" ? { path: "node-module", namespace: "cli-shim" } : undefined));
        b.onLoad({ filter: /^node-module$/, namespace: "cli-shim" }, () => ({
          contents: 'export function createRequire(url) { return url === __cli.url ? require : require("node:module").createRequire(url); }',
          loader: "js",
        }));
      },
    },
    PICOCOLORS_WITHOUT_STDOUT,
    BUILTINS_AS_ES_MODULES,
  ],
  // A name that BUILTINS_AS_ES_MODULES does not export must fail the build, not be undefined.
  logOverride: { "import-is-undefined": "error" },
  banner: { js: CLI_BANNER },
});
// Commands with heavy code are bundles of their own, required by cli.cjs only
// when they run: `image` (tar, gzip, zstd, the registry client; see
// src/cli/image-loader.ts) and `lsp` (vscode-languageserver; src/cli/lsp.ts).
for (const [name, entry] of [["image", "src/cli/image-command.ts"], ["lsp", "src/lsp/server.ts"]]) {
  await build({
    ...common,
    format: "cjs",
    entryPoints: { [name]: entry },
    minifyWhitespace: true,
    minifySyntax: true,
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    define: { "import.meta.url": "__cli.url" },
    banner: { js: CLI_BANNER },
  });
}
if (/vscode-languageserver|vscode-jsonrpc/.test(readFileSync("dist/cli.cjs", "utf8"))) throw new Error("dist/cli.cjs contains the language server; it belongs in dist/lsp.cjs only");
for (const marker of ["tar-stream", "fzstd", "ImageFs"]) {
  if (readFileSync("dist/cli.cjs", "utf8").includes(marker)) throw new Error(`dist/cli.cjs contains image code (${marker}): it belongs in dist/image.cjs`);
}
// The loader runs cli.cjs as a plain script: a real import() there would fail.
if (/\bimport\(/.test(readFileSync("dist/cli.cjs", "utf8"))) throw new Error("dist/cli.cjs contains a dynamic import()");
writeFileSync("dist/cli-loader.cjs", LOADER);
// Plugins are ES modules: the CLI bundle imports them through this file.
writeFileSync("dist/esm-import.cjs", '"use strict";\n// Imports an ES module for dist/cli.cjs, which runs as a vm script without import().\nmodule.exports = (url) => import(url);\n');
writeFileSync("dist/cli.js", ESM_LOADER);
const trainEnv = { ...process.env, NO_COLOR: "1" };
for (const k of ["NODE_OPTIONS", "FORCE_COLOR", "GITHUB_STEP_SUMMARY", "GITHUB_ACTIONS", "TFCAPI_LINT_DEBUG"]) delete trainEnv[k];
execFileSync(process.execPath, ["--input-type=module", "-e", TRAIN], { stdio: ["ignore", "ignore", "inherit"], env: trainEnv });
execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });

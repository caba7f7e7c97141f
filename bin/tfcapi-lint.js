#!/usr/bin/env node
// CommonJS (see bin/package.json): the CLI starts without the ES module loader.
"use strict";
const path = require("node:path");

const loaderPath = path.join(__dirname, "..", "dist", "cli-loader.cjs");
let loader;
try {
  loader = require(loaderPath);
} catch (err) {
  // A clone that was never built has no dist/: say how to build instead of
  // printing Node's MODULE_NOT_FOUND stack.
  if (err && err.code === "MODULE_NOT_FOUND" && String(err.message).includes(loaderPath)) {
    process.stderr.write(
      `tfcapi-lint: this checkout is not built (${path.join("dist", "cli-loader.cjs")} is missing).\n` +
        `Build it first, in ${path.dirname(__dirname)}: npm ci && npm run build\n`,
    );
    process.exitCode = 2;
    return;
  }
  throw err;
}

loader.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`tfcapi-lint: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);

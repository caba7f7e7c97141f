#!/usr/bin/env node
// CommonJS (see bin/package.json): the CLI starts without the ES module loader.
"use strict";
const { main } = require("../dist/cli-loader.cjs");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`tfcapi-lint: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);

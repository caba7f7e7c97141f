// Rewrites the rule tables of README.md (between <!-- rules:start --> and
// <!-- rules:end -->) from the built-in rule catalogue (src/catalogue.ts, from rules/index.ts) and
// the engine's suppression rules (src/lint/engine-rules.ts), bundled on the
// fly with esbuild, so no build is needed first.
//
//   node scripts/gen-readme.mjs           # rewrite README.md
//   node scripts/gen-readme.mjs --check   # exit 1 when it is out of date
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderRuleSection, replaceRuleSection } from "./readme-rules.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tmp = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-readme-"));
let rules;
try {
  const out = path.join(tmp, "rules.mjs");
  await build({
    stdin: {
      contents: 'export { BUILTIN_CATALOGUE } from "./src/catalogue.ts";\nexport { META_RULES } from "./src/lint/engine-rules.ts";\n',
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: out,
    logLevel: "error",
  });
  rules = await import(pathToFileURL(out).href);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const file = path.join(root, "README.md");
const before = readFileSync(file, "utf8");
const after = replaceRuleSection(before, renderRuleSection(rules.BUILTIN_CATALOGUE.indexRules, rules.META_RULES));
if (process.argv.includes("--check")) {
  if (before !== after) {
    process.stderr.write("README.md rule tables are out of date: run node scripts/gen-readme.mjs\n");
    process.exit(1);
  }
} else if (before !== after) {
  writeFileSync(file, after);
  process.stdout.write("README.md: rule tables updated\n");
}

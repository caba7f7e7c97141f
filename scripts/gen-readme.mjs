// Rewrites the rule tables of README.md (between <!-- rules:start --> and
// <!-- rules:end -->) from the rule definitions of the build.
//
//   npm run build && node scripts/gen-readme.mjs          # rewrite
//   npm run build && node scripts/gen-readme.mjs --check  # exit 1 when stale
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as path from "node:path";
import { renderRuleSection, replaceRuleSection } from "./readme-rules.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { ALL_RULES, META_RULES } = await import(path.join(root, "dist", "index.js"));
const file = path.join(root, "README.md");
const before = readFileSync(file, "utf8");
const after = replaceRuleSection(before, renderRuleSection(ALL_RULES, META_RULES));
if (process.argv.includes("--check")) {
  if (before !== after) {
    process.stderr.write("README.md rule tables are out of date: run npm run build && node scripts/gen-readme.mjs\n");
    process.exit(1);
  }
} else if (before !== after) {
  writeFileSync(file, after);
  process.stdout.write("README.md: rule tables updated\n");
}

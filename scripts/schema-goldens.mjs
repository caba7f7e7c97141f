// Compare `tfcapi-lint schema` with a folder of goldens made by the Go linter
// (development aid, run by hand after `npm run build`):
//
//   node scripts/schema-goldens.mjs path/to/schema-goldens
//
// Each sub-folder is a module with expected.stdout and expected.exit; the
// role of each comes from the folder's README.md table (| `folder` | role |).
// Prints OK or DIFF per folder and exits 1 when any differs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { main } from "../dist/cli.js";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node scripts/schema-goldens.mjs GOLDENS_DIR");
  process.exit(3);
}
const roles = new Map();
for (const m of readFileSync(path.join(dir, "README.md"), "utf8").matchAll(/^\| `([^`]+)` \| (cluster|machine|machinepool) \|/gm)) roles.set(m[1], m[2]);
let bad = 0;
for (const name of readdirSync(dir).sort()) {
  const folder = path.join(dir, name);
  if (!existsSync(path.join(folder, "expected.stdout"))) continue;
  const role = roles.get(name);
  if (!role) {
    console.log(`${name}: no role in README.md, skipped`);
    continue;
  }
  let stdout = "";
  let stderr = "";
  const io = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readStdin: async () => "", env: {}, cwd: process.cwd(), isTTY: false };
  const code = await main(["schema", "--role", role, folder], io);
  const want = readFileSync(path.join(folder, "expected.stdout"), "utf8");
  const wantCode = Number(readFileSync(path.join(folder, "expected.exit"), "utf8").trim());
  const ok = stdout === want && code === wantCode;
  if (!ok) bad++;
  console.log(`${name} (${role}): ${ok ? "OK" : "DIFF"}`);
  if (!ok) console.log(`  exit ${code}, want ${wantCode}\n  got:  ${stdout}  want: ${want}  stderr: ${stderr}`);
}
process.exit(bad > 0 ? 1 : 0);

// Writes what the built CLI prints for every fixture and example module, in
// every format, into one folder, so that two builds can be compared byte for
// byte (a restructuring must not change a single output):
//
//   npm run build && node scripts/output-snapshot.mjs /tmp/before
//   ... change the code ...
//   npm run build && node scripts/output-snapshot.mjs /tmp/after
//   diff -r /tmp/before /tmp/after
//
// Each module is linted once (`--format json` plus `--also-write` for the
// other formats) with the role its expected.json names, the way the fixture
// tests lint it, and with every rule on. The exit code and stderr are kept
// too. Paths in the outputs are relative to the repository, so two checkouts
// give the same bytes. A fixture case that names a base module is built
// first (scripts/fixture-modules.mjs) at the same relative path under a
// temporary root and linted from there, so its outputs read as a standalone
// copy's would.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildRoot, moduleDirOf } from "./fixture-modules.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2];
if (!out) {
  process.stderr.write("usage: node scripts/output-snapshot.mjs OUTPUT_DIR\n");
  process.exit(3);
}
const outDir = path.resolve(out);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const FORMATS = ["sarif", "text", "compact", "github", "checkstyle", "junit"];

/** Module directories: those with an expected.json under fixtures/, and the examples. */
function moduleDirs() {
  const dirs = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (existsSync(path.join(abs, "expected.json"))) dirs.push(rel);
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) walk(path.join(rel, e.name));
    }
  };
  walk("fixtures");
  for (const e of readdirSync(path.join(root, "examples")).sort()) {
    const rel = path.join("examples", e);
    if (statSync(path.join(root, rel)).isDirectory() && readdirSync(path.join(root, rel)).some((f) => f.endsWith(".tf"))) dirs.push(rel);
  }
  return dirs;
}

function roleOf(rel) {
  const file = path.join(root, rel, "expected.json");
  if (!existsSync(file)) return null;
  try {
    const role = JSON.parse(readFileSync(file, "utf8")).role;
    return typeof role === "string" ? role : null;
  } catch {
    return null;
  }
}

let n = 0;
for (const rel of moduleDirs()) {
  const dest = path.join(outDir, rel);
  mkdirSync(dest, { recursive: true });
  const role = roleOf(rel);
  const args = [path.join(root, "bin", "tfcapi-lint.js"), "--no-color", "--no-config", "--jobs", "1", "--format", "json"];
  if (role) args.push("--role", role);
  for (const f of FORMATS) args.push("--also-write", `${f}=${path.join(dest, `report.${f}`)}`);
  args.push(rel);
  const built = moduleDirOf(path.join(root, rel)) !== path.join(root, rel);
  const r = spawnSync(process.execPath, args, { cwd: built ? buildRoot() : root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "" } });
  writeFileSync(path.join(dest, "report.json"), r.stdout ?? "");
  writeFileSync(path.join(dest, "stderr"), r.stderr ?? "");
  writeFileSync(path.join(dest, "exit"), `${r.status}\n`);
  // SARIF names the folder it ran in (originalUriBaseIds): a built module
  // ran in the temporary root, a copy would have run in the repository.
  if (built) {
    for (const f of readdirSync(dest)) {
      const file = path.join(dest, f);
      const text = readFileSync(file, "utf8");
      const fixed = text.split(pathToFileURL(buildRoot()).href).join(pathToFileURL(root).href).split(buildRoot()).join(root);
      if (fixed !== text) writeFileSync(file, fixed);
    }
  }
  n++;
}
process.stdout.write(`output-snapshot: ${n} modules written to ${outDir}\n`);

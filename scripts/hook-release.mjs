// Writes the tree of a release revision (what a tag that pre-commit users
// name in `rev:` must hold) into an empty directory:
//
//   node scripts/hook-release.mjs DEST
//
// pre-commit installs a node hook by running, in its clone of the revision,
// `npm install --dev --prod` (every devDependency: esbuild, TypeScript,
// vitest, ... take minutes), then `npm pack` (which runs `prepack`) and
// `npm install -g` of the tarball. A release revision therefore carries the
// built CLI and a package.json that needs nothing at install time:
//  - dist/ is built here and included (and not ignored by its .gitignore);
//  - no devDependencies and no prepack/test scripts: nothing to build;
//  - no dependencies: the CLI bundle (dist/cli.cjs) inlines picocolors, its
//    only runtime dependency, so the install needs neither the registry nor
//    an npm cache.
// Commit DEST's files as they are (`git add -A`) and tag that commit.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dest = process.argv[2];
if (dest === undefined || process.argv.length > 3) {
  process.stderr.write("usage: node scripts/hook-release.mjs DEST (an empty or new directory)\n");
  process.exit(2);
}
const out = path.resolve(dest);
if (existsSync(out) && readdirSync(out).length > 0) {
  process.stderr.write(`hook-release: ${dest} is not empty\n`);
  process.exit(2);
}

// The checkout's files as a commit would hold them (tracked and untracked, not ignored).
const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
const files = [...new Set(listed.split("\0").filter((f) => f !== ""))].filter((f) => existsSync(path.join(root, f)));

execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
const cli = readFileSync(path.join(root, "dist", "cli.cjs"), "utf8");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
for (const dep of Object.keys(pkg.dependencies ?? {})) {
  // The bundle must not load a dependency at run time: the release installs none.
  if (cli.includes(`require("${dep}")`)) throw new Error(`dist/cli.cjs requires ${dep} at run time; bundle it`);
}

mkdirSync(out, { recursive: true });
for (const f of files) {
  mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
  cpSync(path.join(root, f), path.join(out, f));
}
cpSync(path.join(root, "dist"), path.join(out, "dist"), { recursive: true });

const release = { ...pkg };
delete release.devDependencies;
delete release.dependencies;
release.scripts = {};
writeFileSync(path.join(out, "package.json"), JSON.stringify(release, null, 2) + "\n");
// The lock file describes the development install; the release installs nothing.
rmSync(path.join(out, "package-lock.json"), { force: true });
const ignore = readFileSync(path.join(root, ".gitignore"), "utf8").split("\n").filter((l) => l.trim() !== "dist/");
writeFileSync(path.join(out, ".gitignore"), ignore.join("\n"));
process.stdout.write(`release tree written to ${dest} (${files.length} files + dist/)\n`);

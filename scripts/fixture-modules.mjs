// Fixture modules by difference.
//
// A case folder (`fixtures/<group>/<rule>/<case>/`, `fixtures/realistic/<case>/`,
// ...) holds `expected.json` and EITHER a whole module (standalone, as it is
// linted) OR only what it changes against a base module:
//
//   expected.json   { "base": "examples/machinepool-aws",   // repository-relative
//                     "remove": ["outputs.tf"],              // optional: base files left out
//                     "edits": [{ "file": "main.tf", "find": "...", "replace": "..." }],
//                     "role": ..., "findings": [...] }
//   other files     overlay: they replace the base's file of the same path or are added
//
// The module is the base's files, minus `remove`, plus the overlay files, then
// the edits in order (each `find` must occur exactly once in its file, or the
// build fails). A base is a standalone module folder (it has no base itself).
//
// `moduleDir(caseDir)` builds such a module under one temporary root per
// process, at the SAME repository-relative path (`<tmp>/fixtures/...`), so a
// tool run from `buildRoot()` reports the very paths the case folder had; a
// standalone case is returned as it is. Used by the fixture tests and by
// scripts/output-snapshot.mjs.
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file lives in `<root>/scripts/`). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Files of a case folder that describe the case rather than belong to the module. */
const CASE_FILES = new Set(["expected.json"]);

/** A fixture problem: a clear message, never a stack trace worth reading. */
export class FixtureError extends Error {
  constructor(message) {
    super(message);
    this.name = "FixtureError";
  }
}

const rel = (abs) => path.relative(REPO_ROOT, abs).split(path.sep).join("/");

/**
 * The case description in `<dir>/expected.json`: its base (absolute, or null
 * for a standalone module), the files it removes and its edits. Throws a
 * FixtureError when expected.json is missing or malformed, or names a base
 * that does not exist.
 */
export function readCase(dir) {
  const file = path.join(dir, "expected.json");
  if (!existsSync(file)) throw new FixtureError(`${rel(dir)}: a case folder needs an expected.json (the findings it must give)`);
  let json;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FixtureError(`${rel(file)}: not valid JSON (${e.message})`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new FixtureError(`${rel(file)}: must hold a JSON object`);
  if (json.base === undefined) {
    if (json.remove !== undefined || json.edits !== undefined) throw new FixtureError(`${rel(file)}: "remove" and "edits" need a "base" to apply to`);
    return { dir, expected: json, base: null, remove: [], edits: [] };
  }
  if (typeof json.base !== "string" || json.base === "" || path.isAbsolute(json.base)) {
    throw new FixtureError(`${rel(file)}: "base" must be a repository-relative folder such as "examples/machinepool-aws"`);
  }
  const base = path.resolve(REPO_ROOT, json.base);
  if (!existsSync(base) || !statSync(base).isDirectory()) throw new FixtureError(`${rel(file)}: base "${json.base}" does not exist (name a module folder relative to the repository root)`);
  if (existsSync(path.join(base, "expected.json")) && readCase(base).base !== null) {
    throw new FixtureError(`${rel(file)}: base "${json.base}" has a base itself; name a standalone module instead`);
  }
  const remove = json.remove ?? [];
  if (!Array.isArray(remove) || remove.some((r) => typeof r !== "string")) throw new FixtureError(`${rel(file)}: "remove" must be a list of file paths`);
  const edits = json.edits ?? [];
  if (!Array.isArray(edits) || edits.some((e) => e === null || typeof e !== "object" || typeof e.file !== "string" || typeof e.find !== "string" || typeof e.replace !== "string" || e.find === "")) {
    throw new FixtureError(`${rel(file)}: "edits" must be a list of { "file", "find", "replace" } with a non-empty "find"`);
  }
  return { dir, expected: json, base, remove, edits };
}

/** Relative paths (with "/") of every file under `dir`, sorted; `skip` names top-level files to leave out. */
export function filesUnder(dir, skip = new Set()) {
  const out = [];
  const walk = (sub) => {
    for (const e of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const r = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (!(sub === "" && skip.has(e.name))) out.push(r);
    }
  };
  walk("");
  return out.sort();
}

/** Write the module a based case describes into `dest` (which must not exist yet). */
export function buildModule(spec, dest) {
  const where = rel(path.join(spec.dir, "expected.json"));
  mkdirSync(dest, { recursive: true });
  const baseFiles = new Set(filesUnder(spec.base, CASE_FILES));
  for (const r of spec.remove) {
    if (!baseFiles.has(r)) throw new FixtureError(`${where}: "remove" names ${r}, which base ${rel(spec.base)} does not have`);
  }
  const removed = new Set(spec.remove);
  for (const r of baseFiles) {
    if (removed.has(r)) continue;
    mkdirSync(path.dirname(path.join(dest, r)), { recursive: true });
    cpSync(path.join(spec.base, r), path.join(dest, r));
  }
  for (const r of filesUnder(spec.dir, CASE_FILES)) {
    mkdirSync(path.dirname(path.join(dest, r)), { recursive: true });
    cpSync(path.join(spec.dir, r), path.join(dest, r));
  }
  for (const [i, e] of spec.edits.entries()) {
    const target = path.join(dest, e.file);
    if (!existsSync(target) || !lstatSync(target).isFile()) throw new FixtureError(`${where}: edit ${i + 1} is for ${e.file}, which the module does not have`);
    const text = readFileSync(target, "utf8");
    const first = text.indexOf(e.find);
    if (first < 0) throw new FixtureError(`${where}: edit ${i + 1} does not find its text in ${e.file}`);
    if (text.indexOf(e.find, first + 1) >= 0) throw new FixtureError(`${where}: edit ${i + 1} finds its text more than once in ${e.file}; make "find" longer`);
    writeFileSync(target, text.slice(0, first) + e.replace + text.slice(first + e.find.length));
  }
}

let root = null;
const built = new Map();

/** The temporary folder that mirrors the repository for built modules (one per process). */
export function buildRoot() {
  if (root === null) {
    root = mkdtempSync(path.join(tmpdir(), "tfcapi-fixtures-"));
    process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  }
  return root;
}

/**
 * The folder to lint for the case at `dir`: `dir` itself for a standalone
 * module, else the module built (once per process) at the same
 * repository-relative path under buildRoot().
 */
export function moduleDir(dir) {
  const abs = path.resolve(dir);
  const spec = readCase(abs);
  if (spec.base === null) return abs;
  const cached = built.get(abs);
  if (cached) return cached;
  const inRepo = path.relative(REPO_ROOT, abs);
  // A case outside the repository (a test's scratch case) is built under its own name.
  const dest = inRepo.startsWith("..") || path.isAbsolute(inRepo) ? path.join(buildRoot(), ".outside", String(built.size)) : path.join(buildRoot(), inRepo);
  rmSync(dest, { recursive: true, force: true });
  buildModule(spec, dest);
  built.set(abs, dest);
  return dest;
}

/** Like moduleDir, for any folder: one without expected.json is returned as it is. */
export function moduleDirOf(dir) {
  return existsSync(path.join(dir, "expected.json")) ? moduleDir(dir) : path.resolve(dir);
}

/**
 * Every case folder under `dir` (a folder with expected.json), sorted by
 * path; folders named node_modules or starting with "." are not entered.
 */
export function findCaseDirs(dir) {
  const out = [];
  const walk = (d) => {
    if (existsSync(path.join(d, "expected.json"))) out.push(d);
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) walk(path.join(d, e.name));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

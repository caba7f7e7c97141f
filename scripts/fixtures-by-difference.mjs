// Conversion (safe to run again): turns fixture case folders that copy
// files of another module into cases by difference, and describes cases
// already by difference again against the best base (see
// scripts/fixture-modules.mjs): files identical to the base's are deleted,
// files that differ a little become `edits`, files the base has but the case
// lacks go to `remove`. Every converted case is built again and compared with
// the original folder byte for byte before anything is written; a case whose
// build differs stays as it was.
//
//   node scripts/fixtures-by-difference.mjs [--dry-run]
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { REPO_ROOT, buildModule, filesUnder, findCaseDirs, moduleDir, readCase } from "./fixture-modules.mjs";

const dryRun = process.argv.includes("--dry-run");
const SKIP = new Set(["expected.json"]);
/** Folders other tests name directly, or whose layout is not one module: left standalone. */
const KEEP = /^fixtures\/(cli|e2e|schema|terraform|hcl|skeletons|module\/source-escape)\//;
const MAX_EDITED_LINES = 24;
const MAX_HUNKS = 6;
/** Edits are kept only when their text is well under the file's (else the file is copied whole). */
const MAX_EDIT_SHARE = 0.6;

const relOf = (abs) => path.relative(REPO_ROOT, abs).split(path.sep).join("/");
const lines = (text) => text.split(/(?<=\n)/);

/** Bytes that are not UTF-8 are kept as a marked base64 string: compared exactly, never edited. */
const RAW = "\u0000raw:";

function readTree(dir) {
  return new Map(
    filesUnder(dir, SKIP).map((f) => {
      const bytes = readFileSync(path.join(dir, f));
      const text = bytes.toString("utf8");
      return [f, Buffer.from(text, "utf8").equals(bytes) ? text : RAW + bytes.toString("base64")];
    }),
  );
}

const bytesOf = (text) => (text.startsWith(RAW) ? Buffer.from(text.slice(RAW.length), "base64") : text);

/** Line hunks turning `a` into `b`: [aStart, aEnd, bStart, bEnd]. */
function hunks(a, b) {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return null;
  const dp = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const h = [i, i, j, j];
    while ((i < n || j < m) && !(i < n && j < m && a[i] === b[j])) {
      if (j >= m || (i < n && dp[i + 1][j] >= dp[i][j + 1])) i++;
      else j++;
    }
    h[1] = i;
    h[3] = j;
    out.push(h);
  }
  return out;
}

/** Exact-text edits turning `from` into `to`, or null when the difference is not small. */
function editsFor(file, from, to) {
  const a = lines(from);
  const b = lines(to);
  const hs = hunks(a, b);
  if (hs === null || hs.length === 0 || hs.length > MAX_HUNKS) return null;
  if (hs.reduce((s, [a0, a1, b0, b1]) => s + Math.max(a1 - a0, b1 - b0), 0) > MAX_EDITED_LINES) return null;
  const edits = [];
  let cur = a.slice();
  let shift = 0;
  for (const [a0, a1, b0, b1] of hs) {
    const s = a0 + shift;
    const e = a1 + shift;
    const text = cur.join("");
    let made = null;
    for (let k = 0; k <= 6 && made === null; k++) {
      const lo = Math.max(0, s - k);
      const hi = Math.min(cur.length, e + k);
      const find = cur.slice(lo, hi).join("");
      if (find === "") continue;
      const at = text.indexOf(find);
      if (at < 0 || text.indexOf(find, at + 1) >= 0) continue;
      const replace = cur.slice(lo, s).join("") + b.slice(b0, b1).join("") + cur.slice(e, hi).join("");
      made = { file, find, replace };
    }
    if (made === null) return null;
    edits.push(made);
    cur = [...cur.slice(0, s), ...b.slice(b0, b1), ...cur.slice(e)];
    shift += b1 - b0 - (a1 - a0);
  }
  const size = edits.reduce((n, e) => n + e.find.length + e.replace.length, 0);
  return cur.join("") === to && size <= MAX_EDIT_SHARE * to.length ? edits : null;
}

/** The cheapest description of `tree` against `base`, with how many files it saves. */
function describe(tree, base) {
  const remove = [...base.keys()].filter((f) => !tree.has(f));
  const overlay = [];
  const edits = [];
  let same = 0;
  for (const [f, text] of tree) {
    const b = base.get(f);
    if (b === text) same++;
    else {
      const made = b === undefined || b.startsWith(RAW) || text.startsWith(RAW) ? null : editsFor(f, b, text);
      if (made) edits.push(...made);
      else overlay.push(f);
    }
  }
  const saved = tree.size - overlay.length;
  return { remove, overlay, edits, same, score: saved - remove.length * 0.5 - edits.length * 0.25 };
}

// Bases: the AWS examples, fixtures/bases/*, the other clouds' realistic
// modules, the skeletons, and every case that stays standalone (in path
// order; the first conversion moved the standalone cases that others were
// built on into fixtures/bases/<role>-<case>/).
const bases = new Map();
for (const b of ["examples/cluster-aws", "examples/machine-aws", "examples/machinepool-aws"]) bases.set(b, readTree(path.join(REPO_ROOT, b)));
const shared = path.join(REPO_ROOT, "fixtures", "bases");
if (existsSync(shared)) for (const b of readdirSync(shared, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) bases.set(`fixtures/bases/${b}`, readTree(path.join(shared, b)));
const cases = findCaseDirs(path.join(REPO_ROOT, "fixtures"));
for (const d of cases) {
  const r = relOf(d);
  if ((r.startsWith("fixtures/realistic/") && !r.startsWith("fixtures/realistic/aws-")) || r.startsWith("fixtures/skeletons/")) bases.set(r, readTree(d));
}

let converted = 0;
let deleted = 0;
let kept = 0;
let probes = 0;
const scratch = mkdtempSync(path.join(tmpdir(), "fixtures-by-difference-"));
for (const d of cases) {
  const r = relOf(d);
  if (bases.has(r) || KEEP.test(`${r}/`)) continue;
  // Hidden files and symbolic links stay where they are (a link is part of what the case tests).
  if (readdirSync(d, { withFileTypes: true }).some((e) => e.name.startsWith(".")) || filesUnder(d).some((f) => lstatSync(path.join(d, f)).isSymbolicLink())) {
    bases.set(r, readTree(d));
    continue;
  }
  // A case already by difference is described again from its built module.
  const tree = readTree(moduleDir(d));
  let best = null;
  for (const [b, bt] of bases) {
    const desc = describe(tree, bt);
    if (desc.same === 0) continue;
    const preferred = b.startsWith("examples/") || b.startsWith("fixtures/bases/") || b.startsWith("fixtures/realistic/") || b.startsWith("fixtures/skeletons/");
    const score = desc.score + (preferred ? 0.1 : 0);
    if (best === null || score > best.score) best = { base: b, ...desc, score };
  }
  if (best === null || best.score < 1) {
    if (readCase(d).base === null) bases.set(r, tree);
    kept++;
    continue;
  }
  const expectedText = readFileSync(path.join(d, "expected.json"), "utf8");
  const { base: _base, remove: _remove, edits: _edits, ...expected } = JSON.parse(expectedText);
  const head = { base: best.base, ...(best.remove.length ? { remove: best.remove } : {}), ...(best.edits.length ? { edits: best.edits } : {}) };
  const next = { ...head, ...expected };
  // Check: the module the real builder makes equals the folder, byte for byte.
  const probeId = probes++;
  const probeCase = path.join(scratch, `case-${probeId}`);
  for (const f of best.overlay) {
    mkdirSync(path.dirname(path.join(probeCase, f)), { recursive: true });
    writeFileSync(path.join(probeCase, f), bytesOf(tree.get(f)));
  }
  mkdirSync(probeCase, { recursive: true });
  const probe = path.join(scratch, `module-${probeId}`);
  buildModule({ dir: probeCase, base: path.join(REPO_ROOT, best.base), remove: best.remove, edits: best.edits, expected: next }, probe);
  const got = readTree(probe);
  const same = got.size === tree.size && [...tree].every(([f, t]) => got.get(f) === t);
  if (!same) {
    process.stderr.write(`fixtures-by-difference: ${r}: the built module differs, left as it is\n`);
    if (readCase(d).base === null) bases.set(r, tree);
    kept++;
    continue;
  }
  converted++;
  if (dryRun) continue;
  const before = filesUnder(d, SKIP);
  for (const f of before) unlinkSync(path.join(d, f));
  for (const f of best.overlay) {
    mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
    writeFileSync(path.join(d, f), bytesOf(tree.get(f)));
  }
  deleted += before.length - best.overlay.length;
  // Empty sub-folders left behind go too.
  const prune = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) prune(path.join(dir, e.name));
    if (dir !== d && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  };
  prune(d);
  writeFileSync(path.join(d, "expected.json"), `${JSON.stringify(next, null, 2)}\n`);
}
rmSync(scratch, { recursive: true, force: true });
process.stdout.write(`fixtures-by-difference: ${converted} cases converted, ${deleted} files removed, ${kept} standalone${dryRun ? " (dry run)" : ""}\n`);

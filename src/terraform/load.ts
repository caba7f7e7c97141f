/**
 * Load a module directory and its local nested modules into ModuleUnits.
 *
 * - Files: files.ts decides which entries are module files and reads them;
 *   each file is read and parsed once, even when it is in both file sets.
 * - Nested modules: only calls whose constant `source` is `.`, `..`, `./x`
 *   or `../x` are followed. A source that leaves the root lexically, cannot
 *   be resolved, or resolves (through symlinks) outside the root's real
 *   path is a `source-escape` problem at the call's `source` attribute, and
 *   the child is not loaded. A call back into a directory already on the
 *   current load path is skipped silently (cycles). A directory reached by
 *   two different calls is loaded once and shared.
 * - `opts.overlay` replaces the content of files by absolute path (an
 *   editor's unsaved buffers: the language server passes every open
 *   document); a file need not exist on disk. An entry applies to the
 *   directory that holds it, by path or by real path.
 * - `opts.stdin` replaces one file's content (`--stdin`); the file need not
 *   exist on disk. A relative stdin path is resolved against the current
 *   directory, or else against the root module directory. It is an overlay
 *   of (at most) two candidate paths.
 *
 * - `opts.log` is told everything the load asked the file system (real
 *   paths, directory checks, listings, file bytes), so that a caller can
 *   tell later whether the same load would see the same (the CLI's result
 *   cache).
 *
 * Never throws on user input.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseModuleFile } from "./parse.js";
import type { LoadProblem, LoadResult, Module, ModuleCall, ModuleUnit, SourceFile } from "./module-types.js";
import {
  type FileEntry,
  type ListResult,
  errorText,
  fileSets,
  isIgnoredFileName,
  isInside,
  isOverrideFileName,
  listModuleFiles,
  moduleFileExtension,
  readModuleFile,
} from "./files.js";
import { buildModule } from "./module-builder.js";

export interface LoadOptions {
  stdin?: { path: string; text: string };
  /** Text in place of files on disk, by absolute path. */
  overlay?: ReadonlyMap<string, string>;
  /**
   * Parses to reuse when a file's text is unchanged (the language server
   * keeps one across runs; syntax trees are never modified after parsing).
   */
  parseCache?: ParseCache;
  /** Told what the load reads from the file system (see LoadLog). */
  log?: LoadLog;
}

/**
 * What a load asked the file system, told as it happens: enough to replay
 * the same questions later and see whether the answers changed.
 */
export interface LoadLog {
  /** `fs.realpathSync(p)` gave `real`, or failed with `error` (errorText). */
  realpath(p: string, real: string | null, error: string | null): void;
  /** Whether `p` is a directory (`fs.statSync`; false when it cannot be stat'ed). */
  isDirectory(p: string, yes: boolean): void;
  /** `listModuleFiles(dir, rootReal)` gave `listed`. */
  listing(dir: string, rootReal: string, listed: ListResult): void;
  /** A module file read from disk: its bytes, or why it could not be read. */
  file(absPath: string, bytes: Uint8Array | null, error: string | null): void;
}

/** Parse results by file path (relative to the root) and absolute path, with the text they are of. */
export type ParseCache = Map<string, { text: string; parsed: ReturnType<typeof parseModuleFile> }>;

interface OverlayEntry {
  abs: string;
  /** Real path of the entry's directory (null when it does not resolve). */
  dirReal: string | null;
  text: string;
}

interface LoadState {
  rootAbs: string;
  rootReal: string;
  problems: LoadProblem[];
  units: ModuleUnit[];
  /** Units by real directory path (a directory is loaded once). */
  byReal: Map<string, ModuleUnit>;
  /** Files whose text replaces the disk's (the stdin candidates, the overlay). */
  overlay: OverlayEntry[];
  parseCache: ParseCache | null;
  /** Cache keys seen by this load (entries of files no longer loaded are dropped). */
  parsedKeys: Set<string>;
  log: LoadLog | null;
}

export function loadModule(dir: string, opts: LoadOptions = {}): LoadResult {
  const rootAbs = path.resolve(dir);
  const problems: LoadProblem[] = [];
  let rootReal = rootAbs;
  const log = opts.log ?? null;
  try {
    // One realpath(3) call, not an lstat of every component of the path.
    rootReal = fs.realpathSync.native(rootAbs);
    log?.realpath(rootAbs, rootReal, null);
  } catch (err) {
    log?.realpath(rootAbs, null, errorText(err));
    problems.push({ kind: "unreadable", message: `cannot read module directory ${dir}: ${errorText(err)}`, file: "", range: null });
  }
  const state: LoadState = {
    rootAbs,
    rootReal,
    problems,
    units: [],
    byReal: new Map(),
    overlay: overlayEntries(rootAbs, opts),
    parseCache: opts.parseCache ?? null,
    parsedKeys: new Set(),
    log,
  };
  const root = loadUnit(state, rootAbs, rootReal, "", []);
  if (state.parseCache) for (const k of state.parseCache.keys()) if (!state.parsedKeys.has(k)) state.parseCache.delete(k);
  return { root, units: state.units, problems };
}

function overlayEntries(rootAbs: string, opts: LoadOptions): OverlayEntry[] {
  const out: OverlayEntry[] = [];
  const realDirs = new Map<string, string | null>();
  const add = (abs: string, text: string): void => {
    const dir = path.dirname(abs);
    let dirReal = realDirs.get(dir);
    if (dirReal === undefined) realDirs.set(dir, (dirReal = realOrNull(dir)));
    out.push({ abs, dirReal, text });
  };
  if (opts.stdin) {
    const text = opts.stdin.text;
    for (const abs of unique([path.resolve(opts.stdin.path), path.resolve(rootAbs, opts.stdin.path)])) add(abs, text);
  }
  for (const [p, text] of opts.overlay ?? []) add(path.resolve(p), text);
  return out;
}

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function loadUnit(state: LoadState, dirAbs: string, dirReal: string, relDir: string, loadPath: string[]): ModuleUnit {
  const { files, fileProblems } = readUnitFiles(state, dirAbs, dirReal, relDir);
  const names = files.map((f) => f.name);
  const sets = fileSets(names);
  const byName = new Map(files.map((f) => [f.name, f]));
  const pick = (list: string[]) => list.map((n) => byName.get(n)!).filter(Boolean);
  const terraform = buildModule(pick(sets.terraform), { dir: dirAbs, relDir, fileSet: "terraform" });
  const hasTofu = names.some((n) => n.endsWith(".tofu") || n.endsWith(".tofu.json"));
  // Without .tofu files both tools read the same files: one model serves both
  // (it is never read as OpenTofu's then: `expressions` is Terraform's set).
  const opentofu = hasTofu ? buildModule(pick(sets.opentofu), { dir: dirAbs, relDir, fileSet: "opentofu" }) : terraform;
  const tofuOnly = hasTofu && !names.some((n) => n.endsWith(".tf") || n.endsWith(".tf.json"));
  const unit: ModuleUnit = {
    dir: dirAbs,
    relDir,
    allFiles: files,
    terraform,
    opentofu,
    hasTofu,
    tofuOnly,
    declarations: tofuOnly ? opentofu : terraform,
    expressions: hasTofu ? opentofu : terraform,
    children: [],
    hasParseErrors: fileProblems > 0 || files.some((f) => f.diagnostics.some((d) => d.severity === "error")),
  };
  state.units.push(unit);
  state.byReal.set(dirReal, unit);

  const innerPath = [...loadPath, dirReal];
  for (const call of localCalls(unit)) {
    const child = resolveChild(state, unit, call, innerPath);
    if (child) unit.children.push({ call, unit: child });
  }
  return unit;
}

/** Local module calls of both file sets, the expression set's first, one per name. */
function localCalls(unit: ModuleUnit): ModuleCall[] {
  const seen = new Map<string, ModuleCall>();
  for (const mod of [unit.expressions, unit.declarations, unit.terraform, unit.opentofu]) {
    for (const call of mod.moduleCalls.values()) {
      if (call.isLocal && call.source !== null && !seen.has(call.name)) seen.set(call.name, call);
    }
  }
  return [...seen.values()];
}

function resolveChild(state: LoadState, unit: ModuleUnit, call: ModuleCall, loadPath: string[]): ModuleUnit | null {
  const source = call.source!;
  const escape = (why: string): null => {
    state.problems.push({
      kind: "source-escape",
      message: `module "${call.name}": source "${source}" ${why}`,
      file: call.file.path,
      range: call.sourceAttr ? call.sourceAttr.range : call.block.range,
    });
    return null;
  };
  const relDir = path.posix.normalize(path.posix.join(unit.relDir === "" ? "." : unit.relDir, source));
  if (relDir === ".." || relDir.startsWith("../")) return escape("leaves the root module directory; only what is inside it ships with the module");
  const childRel = relDir === "." ? "" : relDir.replace(/\/$/, "");
  const childAbs = path.resolve(unit.dir, source);
  let childReal: string;
  try {
    childReal = fs.realpathSync(childAbs);
    state.log?.realpath(childAbs, childReal, null);
  } catch (err) {
    state.log?.realpath(childAbs, null, errorText(err));
    return escape(`cannot be resolved (${errorText(err)})`);
  }
  if (!isInside(childReal, state.rootReal)) return escape(`resolves to ${childReal}, outside the root module directory; only what is inside it ships with the module`);
  let isDir = false;
  try {
    isDir = fs.statSync(childReal).isDirectory();
  } catch {
    isDir = false;
  }
  state.log?.isDirectory(childReal, isDir);
  if (!isDir) return escape("is not a directory");
  if (loadPath.includes(childReal)) return null;
  const existing = state.byReal.get(childReal);
  if (existing) return existing;
  return loadUnit(state, childAbs, childReal, childRel, loadPath);
}

/** Read and parse every module file of a directory (overlay texts in place of the disk's). */
function readUnitFiles(
  state: LoadState,
  dirAbs: string,
  dirReal: string,
  relDir: string,
): { files: SourceFile[]; fileProblems: number } {
  const before = state.problems.length;
  const rel = (name: string) => (relDir === "" ? name : `${relDir}/${name}`);
  const listed = listModuleFiles(dirAbs, state.rootReal);
  state.log?.listing(dirAbs, state.rootReal, listed);
  if (listed.dirError !== null) {
    state.problems.push({
      kind: "unreadable",
      message: `cannot list module directory ${relDir === "" ? "." : relDir}: ${listed.dirError}`,
      file: relDir,
      range: null,
    });
  }
  const entries: FileEntry[] = [...listed.entries];
  // Overlay texts of this directory by file name (the first entry for a name wins).
  const substituted = new Map<string, string>();
  for (const { abs, dirReal: candReal, text } of state.overlay) {
    if (path.dirname(abs) !== dirAbs && (candReal === null || candReal !== dirReal)) continue;
    const name = path.basename(abs);
    const extension = moduleFileExtension(name);
    if (!extension || isIgnoredFileName(name) || substituted.has(name)) continue;
    substituted.set(name, text);
    if (!entries.some((e) => e.name === name)) entries.push({ name, absPath: path.join(dirAbs, name), extension });
  }
  if (substituted.size > 0) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const p of listed.problems) {
    if (substituted.has(p.name)) continue;
    state.problems.push({ kind: p.kind, message: p.message, file: rel(p.name), range: null, ...(p.unresolved ? { unresolved: true as const } : {}) });
  }
  const files: SourceFile[] = [];
  for (const e of entries) {
    let text: string;
    const given = substituted.get(e.name);
    if (given !== undefined) {
      text = given;
    } else {
      const log = state.log;
      const read = readModuleFile(e.absPath, e.name, log ? (bytes, error) => log.file(e.absPath, bytes, error) : undefined);
      if (!read.ok) {
        state.problems.push({ kind: read.kind, message: read.message, file: rel(e.name), range: null });
        continue;
      }
      text = read.text;
    }
    const filePath = rel(e.name);
    let parsed: ReturnType<typeof parseModuleFile>;
    if (state.parseCache) {
      const key = `${filePath}\0${e.absPath}`;
      state.parsedKeys.add(key);
      const hit = state.parseCache.get(key);
      if (hit && hit.text === text) {
        parsed = hit.parsed;
      } else {
        parsed = safeParse(text, filePath);
        state.parseCache.set(key, { text, parsed });
      }
    } else {
      parsed = safeParse(text, filePath);
    }
    files.push({
      path: filePath,
      absPath: e.absPath,
      name: e.name,
      extension: e.extension,
      hcl: parsed.file,
      diagnostics: parsed.diagnostics,
      isOverride: isOverrideFileName(e.name),
    });
  }
  return { files, fileProblems: state.problems.length - before };
}

/** Parse; a parser crash (a bug) is reported as a diagnostic, not thrown. */
function safeParse(text: string, filename: string): ReturnType<typeof parseModuleFile> {
  try {
    return parseModuleFile(text, filename);
  } catch (err) {
    const pos = { line: 1, column: 1, offset: 0 };
    return {
      file: {
        filename,
        syntax: filename.endsWith(".json") ? "json" : "native",
        text,
        body: { kind: "Body", attributes: [], blocks: [], range: { start: pos, end: pos } },
        comments: [],
        lineStarts: [0],
      },
      diagnostics: [
        {
          severity: "error",
          summary: "Internal parser error",
          detail: `The parser failed on this file (${err instanceof Error ? err.message : String(err)}); please report this.`,
          subject: { start: pos, end: pos },
        },
      ],
    };
  }
}

/** Convenience: the module of a unit for a file set name. */
export function unitModule(unit: ModuleUnit, set: "terraform" | "opentofu"): Module {
  return set === "terraform" ? unit.terraform : unit.opentofu;
}

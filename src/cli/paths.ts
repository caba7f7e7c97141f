/**
 * From command-line paths to module directories: a path is a module
 * directory or a file inside one; `--recursive` finds every directory under
 * it holding module files.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import * as path from "node:path";

export interface Target {
  /** Absolute module directory. */
  dir: string;
  /** The directory as shown to the user (derived from the path given). */
  display: string;
  /** Found by --recursive below a path given (not the path itself). */
  fromRecursion?: boolean;
}

export class PathError extends Error {}

const MODULE_FILE = /\.(tf|tofu)(\.json)?$/;
const SKIP_DIRS = new Set([".terraform", "node_modules", ".git"]);

export function isModuleFileName(name: string): boolean {
  if (name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"))) return false;
  return MODULE_FILE.test(name);
}

function toSlash(p: string): string {
  return p.split(path.sep).join("/");
}

function joinDisplay(base: string, rel: string): string {
  if (rel === "") return base;
  if (base === "." || base === "./") return toSlash(rel);
  return `${base.replace(/[\\/]+$/, "")}/${toSlash(rel)}`;
}

/** The module directory a path names. Throws PathError when it cannot be read. */
export function moduleDirOf(p: string, cwd: string = process.cwd()): Target {
  const abs = path.resolve(cwd, p);
  let st;
  try {
    st = statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PathError(`${p}: ${code === "ENOENT" ? "no such file or directory" : `cannot read (${code ?? String(err)})`}`);
  }
  if (st.isDirectory()) return { dir: abs, display: p };
  if (!isModuleFileName(path.basename(abs))) {
    throw new PathError(`${p}: not a module directory or module file (.tf, .tf.json, .tofu, .tofu.json)`);
  }
  return { dir: path.dirname(abs), display: path.dirname(p) };
}

/**
 * Every directory at or under `root` that holds module files, in sorted
 * order, skipping `.terraform`, `node_modules`, `.git` and excluded
 * directories; directory symlinks are followed once (no loops).
 */
export function findModuleDirs(root: Target, excluded: (absDir: string) => boolean): Target[] {
  const out: Target[] = [];
  const seen = new Set<string>();
  const walk = (abs: string, rel: string): void => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    if (rel !== "" && excluded(abs)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      if (rel === "") throw new PathError(`${root.display}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let hasModuleFile = false;
    const subdirs: string[] = [];
    for (const e of entries) {
      const full = path.join(abs, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = statSync(full);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          isFile = isModuleFileName(e.name);
        }
      }
      if (isDir) {
        if (!SKIP_DIRS.has(e.name)) subdirs.push(e.name);
      } else if (isFile && isModuleFileName(e.name) && !excluded(full)) {
        hasModuleFile = true;
      }
    }
    if (hasModuleFile) out.push({ dir: abs, display: joinDisplay(root.display, rel), ...(rel !== "" ? { fromRecursion: true } : {}) });
    for (const name of subdirs) walk(path.join(abs, name), rel === "" ? name : path.join(rel, name));
  };
  walk(root.dir, "");
  return out;
}

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
  /**
   * Found by the run, not named: a directory --recursive walked (the path
   * given included), the directory of a module file named one by one, or a
   * directory above such files. A found directory is linted only when its
   * role is set or detected on enough evidence; otherwise it is skipped
   * with a note (or, when its role is ambiguous, reported as such).
   */
  found?: boolean;
  /** The module file the path named (absolute), when a file was given. */
  file?: string;
}

/** A path given (or found) that cannot be read; the message names it. */
export class PathError extends Error {
  constructor(
    message: string,
    /** Absolute path. */
    readonly abs: string,
    readonly directory: boolean,
  ) {
    super(message);
  }
}

/** An I/O error about `shown` in plain words: "permission denied: nox/main.tf". */
export function ioErrorText(err: unknown, shown: string): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === "EACCES" || code === "EPERM") return `permission denied: ${shown}`;
  if (code === "ENOENT") return `${shown}: no such file or directory`;
  if (code === "ENOTDIR") return `${shown}: a component of the path is not a directory`;
  if (code === "ELOOP") return `${shown}: too many levels of symbolic links`;
  if (code === "EISDIR") return `${shown}: is a directory`;
  return `cannot read ${shown}: ${code ?? (err instanceof Error ? err.message : String(err))}`;
}

const MODULE_FILE = /\.(tf|tofu)(\.json)?$/;
const SKIP_DIRS = new Set([".terraform", "node_modules", ".git"]);

export function isModuleFileName(name: string): boolean {
  if (name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"))) return false;
  return MODULE_FILE.test(name);
}

function toSlash(p: string): string {
  return p.split(path.sep).join("/");
}

export function joinDisplay(base: string, rel: string): string {
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
    throw new PathError(ioErrorText(err, p), abs, false);
  }
  if (st.isDirectory()) return { dir: abs, display: p };
  if (!isModuleFileName(path.basename(abs))) {
    throw new PathError(`${p}: not a module directory or module file (.tf, .tf.json, .tofu, .tofu.json)`, abs, false);
  }
  return { dir: path.dirname(abs), display: path.dirname(p), file: abs };
}

export interface Walk {
  targets: Target[];
  /** Directories that could not be read, each named. */
  problems: PathError[];
  /** How many directories and module files the walk left out because they are excluded. */
  excluded: number;
  /**
   * What the walk listed, by absolute directory: each directory's entries
   * as readdir gave them, and its real path (the result cache checks module
   * directories against these instead of asking again; see cache-inputs.ts).
   */
  listings: Map<string, Listed>;
}

/** A directory as a walk of this run saw it. */
export interface Listed {
  entries: readonly Dirent[];
  real: string;
}

/**
 * Every directory at or under `root` that holds module files, in sorted
 * order, skipping `.terraform`, `node_modules`, `.git` and excluded
 * directories. A directory is visited once (by real path, also across
 * several roots sharing `seen`); symbolic links to directories are not
 * followed (a link to `/` would walk the whole system; a target inside the
 * root is visited under its own name). A directory that cannot be read is a
 * problem naming it, not a silent gap.
 */
export function findModuleDirs(
  root: Target,
  excluded: (abs: string, parentDir: string) => boolean,
  seen: Set<string> = new Set(),
  onListing?: (absDir: string, names: ReadonlySet<string>) => void,
): Walk {
  const out: Target[] = [];
  const listings = new Map<string, Listed>();
  const problems: PathError[] = [];
  let excludedCount = 0;
  let rootReal: string;
  try {
    rootReal = realpathSync.native(root.dir);
  } catch (err) {
    return { targets: out, problems: [new PathError(ioErrorText(err, root.display), root.dir, true)], excluded: 0, listings };
  }
  // `real` is the directory's real path: the root's is resolved once, and a
  // subdirectory the walk enters is never a symbolic link (links to
  // directories are not followed), so its real path is its parent's plus
  // its name, without asking the file system for every directory.
  const walk = (abs: string, rel: string, real: string, parent: string): void => {
    const shown = joinDisplay(root.display, rel);
    if (!isInside(real, rootReal)) return;
    if (seen.has(real)) return;
    seen.add(real);
    if (rel !== "" && excluded(abs, parent)) {
      excludedCount++;
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      problems.push(new PathError(ioErrorText(err, shown), abs, true));
      return;
    }
    listings.set(abs, { entries, real });
    onListing?.(abs, new Set(entries.map((e) => e.name)));
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let hasModuleFile = false;
    const subdirs: string[] = [];
    for (const e of entries) {
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = statSync(childPath(abs, e.name));
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          isFile = isModuleFileName(e.name);
        }
        // A link to a directory is not followed: one outside the root would
        // take the walk anywhere (a link to / walks /proc), and one inside
        // it is reached under its own name anyway.
        if (isDir) continue;
      }
      if (isDir) {
        if (!SKIP_DIRS.has(e.name)) subdirs.push(e.name);
      } else if (isFile && isModuleFileName(e.name)) {
        if (excluded(childPath(abs, e.name), abs)) excludedCount++;
        else hasModuleFile = true;
      }
    }
    if (hasModuleFile) {
      out.push({ dir: abs, display: shown, found: true });
      // What realOf would find now (see `real` above): asked once, by the walk.
      if (!realPaths.has(abs)) realPaths.set(abs, real);
    }
    for (const name of subdirs) walk(childPath(abs, name), rel === "" ? name : rel + path.sep + name, childPath(real, name), abs);
  };
  walk(root.dir, "", rootReal, path.dirname(root.dir));
  return { targets: out, problems, excluded: excludedCount, listings };
}

/**
 * `name` (an entry readdir gave: no separator, never `.` or `..`) in the
 * normalized absolute directory `dir`: what path.join makes of them,
 * without normalizing again.
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** Is `p` equal to `root` or inside it (both real, absolute paths)? */
function isInside(p: string, root: string): boolean {
  if (p === root) return true;
  // A child's path as the walk makes it (childPath): inside at a glance.
  if (p.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return true;
  const rel = path.relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Real path of a directory (itself when it cannot be resolved), cached. */
const realPaths = new Map<string, string>();
export function realOf(dir: string): string {
  let r = realPaths.get(dir);
  if (r === undefined) {
    try {
      r = realpathSync.native(dir);
    } catch {
      r = path.resolve(dir);
    }
    realPaths.set(dir, r);
  }
  return r;
}

/** Is `p` equal to `dir` or below it (both absolute)? */
export function isAtOrUnder(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Module file discovery: which directory entries are module files, the two
 * file sets (Terraform's and OpenTofu's), and reading each file safely.
 *
 * Names are filtered before anything touches the file system, so an editor
 * lock symlink (`#main.tf#`, `.#main.tf`) that dangles is never stat'ed or
 * opened. Nothing here throws on user input: unreadable, binary, non-UTF-8
 * and oversized files become `FileProblem`s.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { FileSetName, LoadProblem } from "./module-types.js";

export type ModuleFileExtension = ".tf" | ".tf.json" | ".tofu" | ".tofu.json";

/** Files larger than this are not read (a module file is a few KiB). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * The heap a module's source needs at the least, per source byte: its syntax
 * trees, the module model and the rules' work hold 45-60 heap bytes per byte
 * on files of small resources (measured on a 20 MB file of 190,000 of them).
 * A module whose files need more than the free heap is not read: V8 would
 * abort the process with a heap-out-of-memory trace instead.
 */
export const MIN_HEAP_PER_SOURCE_BYTE = 40;
/** Below this much source in a module, the heap is not looked at. */
const HEAP_CHECK_FROM_BYTES = 4 * 1024 * 1024;

/** Bytes the heap can still grow by. */
function freeHeapBytes(): number {
  // Loaded only for large modules: the module costs start-up time on every other run.
  const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  const h = v8.getHeapStatistics();
  return h.heap_size_limit - h.used_heap_size;
}

const MB = 1024 * 1024;

/** Longest suffix first, so `x.tf.json` is not taken for `.json`-less `.tf`. */
const EXTENSIONS: ModuleFileExtension[] = [".tofu.json", ".tf.json", ".tofu", ".tf"];

/** The module-file extension of `name`, or null when it is not a module file name. */
export function moduleFileExtension(name: string): ModuleFileExtension | null {
  for (const ext of EXTENSIONS) {
    if (name.length > ext.length && name.endsWith(ext)) return ext;
  }
  return null;
}

/**
 * Names Terraform and OpenTofu skip: hidden files, editor backups (`x.tf~`)
 * and Emacs lock/autosave files (`#x.tf#`).
 */
export function isIgnoredFileName(name: string): boolean {
  if (name.startsWith(".")) return true;
  if (name.endsWith("~")) return true;
  if (name.startsWith("#") && name.endsWith("#")) return true;
  return false;
}

/** `override.tf`, `x_override.tf`, and the `.tf.json`/`.tofu`/`.tofu.json` forms. */
export function isOverrideFileName(name: string): boolean {
  const ext = moduleFileExtension(name);
  if (!ext) return false;
  const stem = name.slice(0, -ext.length);
  return stem === "override" || stem.endsWith("_override");
}

/** The stem of a module file name (`main` for `main.tf.json`). */
export function fileStem(name: string): string {
  const ext = moduleFileExtension(name);
  return ext ? name.slice(0, -ext.length) : name;
}

/**
 * Split module file names into the two file sets (reference.md "Which files
 * make a module"). Input and output names are sorted in byte order, the
 * order Terraform reads a directory in.
 */
export function fileSets(names: readonly string[]): Record<FileSetName, string[]> {
  const sorted = [...names].filter((n) => moduleFileExtension(n) !== null).sort(byteOrder);
  const present = new Set(sorted);
  const terraform: string[] = [];
  const opentofu: string[] = [];
  for (const name of sorted) {
    const ext = moduleFileExtension(name)!;
    const stem = name.slice(0, -ext.length);
    switch (ext) {
      case ".tf":
        terraform.push(name);
        if (!present.has(stem + ".tofu")) opentofu.push(name);
        break;
      case ".tf.json":
        terraform.push(name);
        if (!present.has(stem + ".tofu.json")) opentofu.push(name);
        break;
      case ".tofu":
      case ".tofu.json":
        opentofu.push(name);
        break;
    }
  }
  return { terraform, opentofu };
}

export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A candidate module file found in a directory (not yet read). */
export interface FileEntry {
  name: string;
  absPath: string;
  extension: ModuleFileExtension;
}

export interface ListResult {
  entries: FileEntry[];
  /** Problems with entries (relative `file` names are filled by the caller). */
  problems: { name: string; kind: LoadProblem["kind"]; message: string; unresolved?: true }[];
  /** Set when the directory itself could not be listed. */
  dirError: string | null;
}

/**
 * List the module files directly in `dir`. Symlinked files must resolve to a
 * regular file whose real path is inside `rootReal`; otherwise they are
 * reported as `source-escape` (they would not ship with the module).
 */
export function listModuleFiles(dir: string, rootReal: string): ListResult {
  const result: ListResult = { entries: [], problems: [], dirError: null };
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    result.dirError = errorText(err);
    return result;
  }
  // Source bytes of the files listed so far, and the free heap once looked at.
  let total = 0;
  let free: number | undefined;
  for (const d of dirents) {
    const name = d.name;
    if (isIgnoredFileName(name)) continue;
    const extension = moduleFileExtension(name);
    if (!extension) continue;
    const absPath = path.join(dir, name);
    if (isSymlink(d, absPath)) {
      let real: string;
      try {
        real = fs.realpathSync(absPath);
      } catch (err) {
        result.problems.push({
          name,
          kind: "source-escape",
          message: `module file ${name} is a symbolic link that cannot be resolved (${errorText(err)})`,
          unresolved: true,
        });
        continue;
      }
      if (!isInside(real, rootReal)) {
        result.problems.push({
          name,
          kind: "source-escape",
          message: `module file ${name} is a symbolic link to ${real}, outside the module directory; it would not ship with the module`,
        });
        continue;
      }
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(absPath);
    } catch (err) {
      if (((err as NodeJS.ErrnoException).code === "EACCES" || (err as NodeJS.ErrnoException).code === "EPERM") && !searchable(dir)) {
        // Listed (read permission) but not searchable (no x): no file in it
        // can be opened, and the directory is what to fix, not each file.
        return { entries: [], problems: [], dirError: UNSEARCHABLE };
      }
      // A name that is not valid UTF-8 comes back from readdir with U+FFFD
      // in it, and no file has that name: say what is wrong with it.
      const badName = name.includes("\ufffd") && (err as NodeJS.ErrnoException).code === "ENOENT";
      const why = badName ? "the file name is not valid UTF-8; rename the file" : errorText(err);
      result.problems.push({ name, kind: "unreadable", message: `cannot read ${name}: ${why}` });
      continue;
    }
    if (st.isDirectory()) {
      // Terraform and OpenTofu read regular files only and skip directories,
      // whatever their name (a directory called "network.tf" is not a file).
      continue;
    }
    if (!st.isFile()) {
      // Never open FIFOs, sockets or devices: reading one could block forever.
      result.problems.push({ name, kind: "unreadable", message: `${name} is not a regular file` });
      continue;
    }
    if (st.size > MAX_FILE_BYTES) {
      result.problems.push({
        name,
        kind: "too-large",
        message: `${name} is ${st.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a module file`,
      });
      continue;
    }
    total += st.size;
    if (total > HEAP_CHECK_FROM_BYTES) {
      free ??= freeHeapBytes();
      const need = total * MIN_HEAP_PER_SOURCE_BYTE;
      if (need > free) {
        total -= st.size;
        const suggest = Math.max(4096, 1024 * Math.ceil((2 * need) / (1024 * MB)));
        result.problems.push({
          name,
          kind: "too-large",
          message:
            `${name} (${(st.size / MB).toFixed(1)} MB) is too large to lint in the memory this process may use: the module's files need at least ` +
            `${Math.ceil(need / MB)} MB of heap and ${Math.floor(free / MB)} MB are free; raise Node's limit, e.g. NODE_OPTIONS=--max-old-space-size=${suggest}`,
        });
        continue;
      }
    }
    result.entries.push({ name, absPath, extension });
  }
  result.entries.sort((a, b) => byteOrder(a.name, b.name));
  return result;
}

/** What a directory that can be listed but not searched gets (the lint's read error names the directory). */
export const UNSEARCHABLE = "permission denied (the directory can be listed but not searched, so none of its files can be opened; give it the x permission, e.g. chmod a+x)";

/** May this process open the entries of `dir` (search permission)? */
function searchable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Some file systems report no entry type (DT_UNKNOWN); then ask lstat, so a
 * symbolic link is never mistaken for the file it points to.
 */
function isSymlink(d: fs.Dirent, absPath: string): boolean {
  if (d.isSymbolicLink()) return true;
  if (d.isFile() || d.isDirectory() || d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice()) return false;
  try {
    return fs.lstatSync(absPath).isSymbolicLink();
  } catch {
    return false;
  }
}

export type ReadResult =
  | { ok: true; text: string }
  | { ok: false; kind: LoadProblem["kind"]; message: string };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Most files are plain UTF-8 without NUL bytes: read them as text in one
 * step. A NUL, or a U+FFFD (an invalid sequence replaced, or a real one),
 * gives null: the caller reads the bytes again to tell which.
 */
function readPlainText(absPath: string, name: string): ReadResult | null {
  let text: string;
  try {
    text = fs.readFileSync(absPath, "utf8");
  } catch (err) {
    return { ok: false, kind: "unreadable", message: `cannot read ${name}: ${errorText(err)}` };
  }
  if (text.includes("\0") || text.includes("\ufffd")) return null;
  if (text.length > MAX_FILE_BYTES / 3 && Buffer.byteLength(text) > MAX_FILE_BYTES) {
    return { ok: false, kind: "too-large", message: `${name} is over the ${MAX_FILE_BYTES}-byte limit for a module file` };
  }
  return { ok: true, text };
}

/**
 * Read a module file as UTF-8 text. A byte-order mark is kept (the parser
 * removes it); NUL bytes mean a binary file; invalid UTF-8 is reported.
 * `seen` is told the bytes read, or why none could be (a LoadLog).
 */
export function readModuleFile(absPath: string, name: string, seen?: (bytes: Uint8Array | null, error: string | null) => void): ReadResult {
  // A LoadLog (`seen`) is told the bytes, so it takes the byte path below.
  if (seen === undefined) {
    const fast = readPlainText(absPath, name);
    if (fast !== null) return fast;
  }
  let buf: Buffer;
  try {
    buf = fs.readFileSync(absPath);
  } catch (err) {
    seen?.(null, errorText(err));
    return { ok: false, kind: "unreadable", message: `cannot read ${name}: ${errorText(err)}` };
  }
  seen?.(buf, null);
  if (buf.length > MAX_FILE_BYTES) {
    return { ok: false, kind: "too-large", message: `${name} is over the ${MAX_FILE_BYTES}-byte limit for a module file` };
  }
  return decodeModuleText(buf, name);
}

/** Decode file bytes (shared by disk reads and tests). */
export function decodeModuleText(buf: Uint8Array, name: string): ReadResult {
  const nul = buf.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      kind: "binary",
      message: `${name} contains a NUL byte at offset ${nul}; it looks like a binary file, not Terraform source`,
    };
  }
  try {
    return { ok: true, text: utf8.decode(buf) };
  } catch {
    return {
      ok: false,
      kind: "not-utf8",
      message: `${name} is not valid UTF-8 (byte offset ${firstInvalidUtf8(buf)}); save it as UTF-8`,
    };
  }
}

/** Offset of the first byte that starts an invalid UTF-8 sequence. */
function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    let n = 0;
    let min = 0;
    if (b < 0x80) { i++; continue; }
    else if (b >= 0xc2 && b <= 0xdf) { n = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { n = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { n = 3; min = 0x10000; }
    else return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return buf.length;
}

/** Is `p` equal to `root` or inside it (both real, absolute paths)? */
export function isInside(p: string, root: string): boolean {
  if (p === root) return true;
  const rel = path.relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

export function errorText(err: unknown): string {
  if (err && typeof err === "object") {
    const e = err as { code?: string; message?: string };
    if (e.code === "EACCES" || e.code === "EPERM") return "permission denied";
    if (e.code === "ENOENT") return "no such file or directory";
    if (e.code === "ELOOP") return "too many levels of symbolic links";
    if (e.code === "ENOTDIR") return "not a directory";
    if (e.code === "EISDIR") return "is a directory";
    if (e.code === "EMFILE" || e.code === "ENFILE") return "too many open files";
    if (e.code === "EIO") return "input/output error";
    if (e.code === "ENAMETOOLONG") return "file name too long";
    if (e.code) return e.code;
    if (e.message) return e.message;
  }
  return String(err);
}

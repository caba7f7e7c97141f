/**
 * What one module's lint read, for the result cache (cache.ts): recorded
 * while the module is linted (a LoadLog handed to the loader, plus the
 * files its `file()`/`templatefile()` calls name with a constant path), and
 * checked again before a stored result is reused. Contents are compared by
 * sha256, never by file times: a result is reused only when every question
 * the loader asked the file system gets the same answer again.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { Body, Expression } from "../hcl/ast.js";
import { stripBom } from "../hcl/source.js";
import { collectCalls, constString } from "../hcl/walk.js";
import { byteOrder, errorText, isIgnoredFileName, listModuleFiles, moduleFileExtension, type ListResult } from "../terraform/files.js";
import type { LoadLog } from "../terraform/load.js";
import type { Listed } from "./paths.js";
import type { LoadResult } from "../terraform/module-types.js";

/** What a module's lint read, as data (JSON, and structured-clone safe: it crosses threads). */
export interface ReadInputs {
  /** [path, real path or "!" + error]: the loader's real-path questions. */
  realpaths: [string, string][];
  /** [path, is a directory]. */
  dirs: [string, boolean][];
  /**
   * [directory, root real path, digest of its module-file listing, its file
   * names when the listing is plain (regular files, no problem), else null].
   */
  listings: [string, string, string, string[] | null][];
  /** [absolute path, "sha256:…" or "!" + error]: module files read. */
  files: [string, string][];
  /** [absolute path, "sha256:…", "absent" or "!" + error]: files named by file()/templatefile() calls. */
  named: [string, string][];
  /** The report's sources, in order: [path relative to the module, absolute path it was read from]. */
  sources: [string, string][];
  /**
   * The UTC day the lint started on, when the sources contain an ignore
   * comment with an expiry date (`exp:`): the result holds on that day only.
   */
  day: string | null;
}

let crypto: typeof import("node:crypto") | undefined;
/** sha256 in hex; node:crypto is loaded on first use (a run without --cache never loads it). */
export function sha256(data: Uint8Array | string): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  // crypto.hash (Node 21.7+) hashes in one call, faster on many small files.
  const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: "hex") => string }).hash;
  return oneShot ? oneShot("sha256", data, "hex") : crypto.createHash("sha256").update(data).digest("hex");
}

/** A file's contents as a stamp: its hash, or why it cannot be read. */
function stampOf(bytes: Uint8Array | null, error: string | null): string {
  return bytes !== null ? `sha256:${sha256(bytes)}` : `!${error ?? "unreadable"}`;
}

/** A listing as one string (entries and problems, in order). */
function listingDigest(listed: ListResult): string {
  return sha256(JSON.stringify([listed.dirError, listed.entries.map((e) => [e.name, e.absPath, e.extension]), listed.problems.map((p) => [p.name, p.kind, p.message, p.unresolved === true])]));
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text a report shows for file bytes: UTF-8 without a byte-order mark (as the loader and parser make it). */
function sourceText(bytes: Uint8Array): string | null {
  try {
    return stripBom(strictUtf8.decode(bytes)).text;
  } catch {
    return null;
  }
}

/** Records what one lint reads (a LoadLog), then makes ReadInputs of it. */
export class InputRecorder implements LoadLog {
  private readonly realpaths: [string, string][] = [];
  private readonly dirs: [string, boolean][] = [];
  private readonly listings: [string, string, string, string[] | null][] = [];
  private readonly files: [string, string][] = [];
  /** Bytes of the files read, until finish() checks the report's sources against them. */
  private readonly bytes = new Map<string, Uint8Array>();
  /** Taken before the lint judges any expiry date (a lint that runs past midnight then holds for no day). */
  private readonly day = new Date().toISOString().slice(0, 10);

  realpath(p: string, real: string | null, error: string | null): void {
    this.realpaths.push([p, real ?? `!${error ?? "unresolved"}`]);
  }
  isDirectory(p: string, yes: boolean): void {
    this.dirs.push([p, yes]);
  }
  listing(dir: string, rootReal: string, listed: ListResult): void {
    const plain = listed.dirError === null && listed.problems.length === 0;
    this.listings.push([dir, rootReal, listingDigest(listed), plain ? listed.entries.map((e) => e.name) : null]);
  }
  file(absPath: string, bytes: Uint8Array | null, error: string | null): void {
    this.files.push([absPath, stampOf(bytes, error)]);
    if (bytes !== null) this.bytes.set(absPath, bytes);
  }

  /**
   * The inputs of a lint that loaded `load` (null when there was no load)
   * and reported `sources`; null when a source's text cannot be rebuilt
   * from the bytes read (the result is then not stored).
   */
  finish(load: LoadResult | null, sources: ReadonlyMap<string, string> | null): ReadInputs | null {
    const sourcePaths: [string, string][] = [];
    let dated = false;
    if (load !== null && sources !== null) {
      const absOf = new Map<string, string>();
      for (const u of load.units) for (const f of u.allFiles) absOf.set(f.path, f.absPath);
      for (const [rel, text] of sources) {
        const abs = absOf.get(rel);
        const bytes = abs === undefined ? undefined : this.bytes.get(abs);
        if (abs === undefined || bytes === undefined || sourceText(bytes) !== text) return null;
        sourcePaths.push([rel, abs]);
        if (text.includes("exp:")) dated = true;
      }
    }
    this.bytes.clear();
    return {
      realpaths: this.realpaths,
      dirs: this.dirs,
      listings: this.listings,
      files: this.files,
      named: load === null ? [] : namedFiles(load).map((p) => [p, namedStamp(p)]),
      sources: sourcePaths,
      day: dated ? this.day : null,
    };
  }
}

/** Functions whose first argument is a file path Terraform reads. */
const FILE_FUNCTIONS = new Set(["file", "templatefile", "filebase64", "filemd5", "filesha1", "filesha256", "filesha512", "filebase64sha256", "filebase64sha512", "fileexists"]);

/**
 * A constant path argument, resolved: a literal (relative to the root
 * module, where Terraform runs), or a template starting with
 * `${path.module}` / `${path.root}` / `${path.cwd}` and constant after it.
 */
function constantPath(arg: Expression | undefined, unitDir: string, rootDir: string): string | null {
  if (arg === undefined) return null;
  const literal = constString(arg);
  if (literal !== null) return path.resolve(rootDir, literal);
  if (arg.kind !== "Template" || arg.parts.length < 1) return null;
  const [first, ...rest] = arg.parts;
  if (first?.kind !== "TemplateInterp" || first.expr.kind !== "ScopeTraversal") return null;
  const t = first.expr.traversal;
  if (t.length !== 2 || t[0]!.kind !== "TraverseRoot" || t[0]!.name !== "path" || t[1]!.kind !== "TraverseAttr") return null;
  const base = t[1]!.name === "module" ? unitDir : t[1]!.name === "root" || t[1]!.name === "cwd" ? rootDir : null;
  if (base === null) return null;
  let tail = "";
  for (const p of rest) {
    if (p.kind !== "TemplateLiteral") return null;
    tail += p.value;
  }
  return path.join(base, tail);
}

/** Every attribute's expression of a body and its nested blocks, in source order (an explicit stack: blocks nest without limit). */
function bodyExpressions(body: Body, out: Expression[]): void {
  const stack: Body[] = [body];
  while (stack.length > 0) {
    const b = stack.pop()!;
    for (const a of b.attributes) out.push(a.expr);
    for (let i = b.blocks.length - 1; i >= 0; i--) stack.push(b.blocks[i]!.body);
  }
}

/** Absolute paths of the files the module's file()/templatefile() calls name with a constant path, sorted, each once. */
export function namedFiles(load: LoadResult): string[] {
  const out = new Set<string>();
  const rootDir = load.root.dir;
  for (const unit of load.units) {
    for (const file of unit.allFiles) {
      const exprs: Expression[] = [];
      bodyExpressions(file.hcl.body, exprs);
      for (const e of exprs) {
        for (const call of collectCalls(e)) {
          if (!FILE_FUNCTIONS.has(call.name)) continue;
          const p = constantPath(call.args[0], unit.dir, rootDir);
          if (p !== null) out.add(p);
        }
      }
    }
  }
  return [...out].sort();
}

/** A named file's stamp: its hash, "absent", or why it cannot be read. */
function namedStamp(p: string): string {
  try {
    return `sha256:${sha256(fs.readFileSync(p))}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "absent" : `!${errorText(err)}`;
  }
}

/**
 * Directory listings a run has already made, by absolute directory: the
 * `--recursive` walk's (Walk.listings). A listing of this same run is as
 * good as a new one: a run without the cache would use the walk's view to
 * choose its modules and list each one again only moments later, and a
 * file added or removed between the two is a race either way. What the
 * cache needs is that the outcome it reuses is the outcome of the module
 * as it was at some instant of this run, and the walk's listing was made
 * in this run; the next run lists again, so a later change is never missed
 * for more than the run it raced with. Only the names and entry types are
 * taken from it (no file times), and the directory's real path (the walk
 * enters no symbolic link, so a directory's real path is its parent's
 * plus its name); the files' contents are still read and hashed.
 */
export type RunListings = ReadonlyMap<string, Listed>;

/**
 * Whether `dir` still holds exactly the module files `names` (a listing
 * that had only regular files and no problem), from its entries' types
 * alone: true or false; null when an entry's type needs the full listing
 * (a symbolic link, a special file). A regular file is what the full
 * listing's stat would find; its size limit and readability are judged by
 * reading it (its stamp). The run's own listing of `dir` is used when
 * there is one (RunListings).
 */
function plainListing(dir: string, names: readonly string[], listed: RunListings | undefined): boolean | null {
  let dirents = listed?.get(dir)?.entries;
  if (dirents === undefined) {
    try {
      dirents = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
  }
  const files: string[] = [];
  for (const d of dirents) {
    if (isIgnoredFileName(d.name) || moduleFileExtension(d.name) === null) continue;
    if (d.isFile()) files.push(d.name);
    else if (!d.isDirectory()) return null;
  }
  if (files.length !== names.length) return false;
  files.sort(byteOrder);
  return files.every((n, i) => n === names[i]);
}

/** One buffer for every file the check reads (grown when a file needs more): no allocation a file. */
let readBuffer = Buffer.allocUnsafe(1 << 16);

/**
 * The bytes of a file, in the shared buffer (valid until the next call),
 * as readFileSync reads them (open, read to the end, close) without asking
 * its size first; the error as readFileSync throws it. A read that fills
 * less than the room it was given is taken as the end: so it is for a
 * regular file, and for anything else a short read can only make the
 * bytes differ from those stored (a miss, never a wrong reuse).
 */
function readShared(p: string): Buffer {
  const fd = fs.openSync(p, "r");
  try {
    let length = 0;
    for (;;) {
      if (length === readBuffer.length) {
        const bigger = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(bigger, 0, 0, length);
        readBuffer = bigger;
      }
      const room = readBuffer.length - length;
      const n = fs.readSync(fd, readBuffer, length, room, null);
      length += n;
      if (n < room) return readBuffer.subarray(0, length);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A copy of bytes (Buffer.from on a Buffer copies element by element). */
function copyOf(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  bytes.copy(out);
  return out;
}

/**
 * Why the inputs no longer hold, in a few words; null when they all do.
 * On success `texts` holds the bytes of each of the report's sources (by
 * absolute path), as just checked.
 */
export function changedInput(inputs: ReadInputs, texts: Map<string, Buffer>, listed?: RunListings): string | null {
  for (const [p, was] of inputs.realpaths) {
    let now = listed?.get(p)?.real;
    if (now === undefined) {
      try {
        // One system call (the loader's realpathSync walks the path); on a difference the module is only linted again.
        now = fs.realpathSync.native(p);
      } catch (err) {
        now = `!${errorText(err)}`;
      }
    }
    if (now !== was) return `${p} resolves differently`;
  }
  for (const [p, was] of inputs.dirs) {
    let now = false;
    try {
      now = fs.statSync(p).isDirectory();
    } catch {
      now = false;
    }
    if (now !== was) return `${p} is ${was ? "no longer" : "now"} a directory`;
  }
  for (const [dir, rootReal, was, names] of inputs.listings) {
    const same = names !== null ? plainListing(dir, names, listed) : null;
    if (same === false || (same === null && listingDigest(listModuleFiles(dir, rootReal)) !== was)) return `the module files in ${dir} changed`;
  }
  const sources = new Set<string>();
  for (const [, abs] of inputs.sources) sources.add(abs);
  for (const [p, was] of inputs.files) {
    let bytes: Buffer | null = null;
    let error: string | null = null;
    try {
      bytes = readShared(p);
    } catch (err) {
      error = errorText(err);
    }
    if (stampOf(bytes, error) !== was) return `${p} changed`;
    // A copy: the shared buffer is read into again for the next file.
    if (bytes !== null && sources.has(p)) texts.set(p, copyOf(bytes));
  }
  for (const [p, was] of inputs.named) if (namedStamp(p) !== was) return `${p} changed`;
  return null;
}

/**
 * A report's sources that decode a file's text when it is first asked for
 * (most formats show none: decoding them all up front was a good part of a
 * warm run). It behaves as the Map of texts it stands for: every key is
 * there from the start, in order, and any read of the values (get,
 * iteration, forEach) gives the decoded text. The bytes are those that
 * decoded as UTF-8 when the result was stored (their hash says so), so the
 * quick, lenient decoder gives the same text. (A structured clone would
 * copy the values not yet decoded as empty strings: a reused result never
 * crosses to a worker.)
 */
export class LazySources extends Map<string, string> {
  // A private field (not a property): the object shows only its entries, as a Map does.
  readonly #pending: Map<string, Buffer>;

  constructor(bytes: Iterable<[string, Buffer]>) {
    super();
    this.#pending = new Map(bytes);
    for (const key of this.#pending.keys()) super.set(key, "");
  }

  private decode(key: string): void {
    const bytes = this.#pending.get(key);
    if (bytes === undefined) return;
    this.#pending.delete(key);
    super.set(key, stripBom(bytes.toString("utf8")).text);
  }

  private decodeAll(): void {
    for (const key of [...this.#pending.keys()]) this.decode(key);
  }

  override get(key: string): string | undefined {
    this.decode(key);
    return super.get(key);
  }
  override set(key: string, value: string): this {
    this.#pending.delete(key);
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.#pending.delete(key);
    return super.delete(key);
  }
  override clear(): void {
    this.#pending.clear();
    super.clear();
  }
  override forEach(fn: (value: string, key: string, map: Map<string, string>) => void, thisArg?: unknown): void {
    this.decodeAll();
    super.forEach(fn, thisArg);
  }
  override entries(): MapIterator<[string, string]> {
    this.decodeAll();
    return super.entries();
  }
  override values(): MapIterator<string> {
    this.decodeAll();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[string, string]> {
    this.decodeAll();
    return super[Symbol.iterator]();
  }
}

/** The report's sources again, from the bytes changedInput read (decoded when asked for); null when one is missing. */
export function sourcesFrom(inputs: ReadInputs, texts: ReadonlyMap<string, Buffer>): Map<string, string> | null {
  const bytes: [string, Buffer][] = [];
  for (const [rel, abs] of inputs.sources) {
    const b = texts.get(abs);
    if (b === undefined) return null;
    bytes.push([rel, b]);
  }
  return new LazySources(bytes);
}

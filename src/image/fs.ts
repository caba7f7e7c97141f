/**
 * An image's filesystem, built by applying its layers in order: each layer
 * streamed (uncompressed, gzip or zstd, detected from its first bytes) into a
 * tar reader, whiteouts (`.wh.NAME`) and opaque directories (`.wh..wh..opq`)
 * applied to the layers below, entries whose cleaned path leaves the root
 * skipped. Only metadata is kept for most files; the content of module files
 * under /captf/module and of mirror indexes (`*.json` under /captf/providers)
 * is kept too, within the caps (see Caps).
 */
import { createGunzip } from "node:zlib";
import * as posix from "node:path/posix";
import { PassThrough, Transform, type Readable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Decompress } from "fzstd";
import * as tar from "tar-stream";
import { ImageReadError, type Descriptor, type ImageSource } from "./source.js";

export const MODULE_DIR = "/captf/module";
export const PROVIDERS_DIR = "/captf/providers";

export interface Caps {
  /** Kept content (module files, mirror indexes) plus 512 bytes per tar entry. */
  kept: number;
  /** Uncompressed tar bytes read over all layers. */
  scanned: number;
}

export const DEFAULT_CAPS: Caps = { kept: 512 * 1024 * 1024, scanned: 16 * 1024 * 1024 * 1024 };

export type NodeType = "file" | "dir" | "symlink" | "other";

export interface FsNode {
  type: NodeType;
  /** Permission bits (and setuid etc.), without the file type. */
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** Symlink target as written. */
  linkname?: string;
  /** Kept content (module files and mirror indexes only). */
  content?: Buffer;
}

export type Progress = (event: { layer: Descriptor; index: number; count: number; read: number; done: boolean }) => void;

export interface BuildOptions {
  caps?: Caps;
  onProgress?: Progress;
}

const MODULE_FILE = /\.(tf|tf\.json|tofu|tofu\.json)$/;

function keepsContent(p: string): boolean {
  if (p.startsWith(`${MODULE_DIR}/`)) return MODULE_FILE.test(p);
  if (p.startsWith(`${PROVIDERS_DIR}/`)) return p.endsWith(".json");
  return false;
}

/** The absolute, cleaned path of a tar entry name, or null when it leaves the root. */
export function cleanEntryPath(name: string): string | null {
  let n = name.replace(/^\/+/, "");
  if (n === "" || n === "." || n === "./") return "/";
  n = posix.normalize(n);
  if (n === ".." || n.startsWith("../")) return null;
  if (n === "." || n === "./") return "/";
  n = n.replace(/\/+$/, "");
  return `/${n}`;
}

/** The zstd decoder (fzstd) as a Transform stream. */
class ZstdDecompress extends Transform {
  private readonly decoder: Decompress;
  constructor() {
    super();
    this.decoder = new Decompress((chunk) => {
      this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    try {
      this.decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      cb();
    } catch (err) {
      cb(new ImageReadError(`invalid zstd data: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
  override _flush(cb: TransformCallback): void {
    try {
      this.decoder.push(new Uint8Array(0), true);
      cb();
    } catch (err) {
      cb(new ImageReadError(`truncated or invalid zstd data: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
}

/** The first bytes of a stream, pushed back so the stream still starts with them. */
function peek(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const onReadable = (): void => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.alloc(0));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      stream.off("readable", onReadable);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    stream.on("readable", onReadable);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/** A decompressor for a layer by its first bytes: gzip, zstd, else a plain tar. */
function decompressorFor(first: Buffer): Transform {
  if (first[0] === 0x1f && first[1] === 0x8b) return createGunzip();
  if (first[0] === 0x28 && first[1] === 0xb5 && first[2] === 0x2f && first[3] === 0xfd) return new ZstdDecompress();
  return new PassThrough();
}

function decompressError(err: unknown): Error {
  if (err instanceof ImageReadError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(e.message ?? "")) return new ImageReadError("truncated gzip data");
  if (typeof e.code === "string" && e.code.startsWith("Z_")) return new ImageReadError(`invalid gzip data (${e.message})`);
  return new ImageReadError(e.message ?? String(err));
}

/** Counts bytes as they pass and fails past a limit. */
class Counter extends Transform {
  constructor(private readonly onBytes: (n: number) => Error | null) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const err = this.onBytes(chunk.length);
    if (err) cb(err);
    else cb(null, chunk);
  }
}

/** A size in the largest binary unit that keeps it readable: `16 GiB`, `512 MiB`, `16 KiB`. */
export function sizeText(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

export class ImageFs {
  readonly nodes = new Map<string, FsNode>();
  /** Paths added by the layer being applied (whiteouts only hide lower layers). */
  private current = new Set<string>();
  private kept = 0;
  private scanned = 0;

  constructor(private readonly caps: Caps = DEFAULT_CAPS) {}

  get(p: string): FsNode | undefined {
    return this.nodes.get(p);
  }

  /** Paths strictly under `dir`, sorted. */
  under(dir: string): string[] {
    const prefix = dir === "/" ? "/" : `${dir}/`;
    return [...this.nodes.keys()].filter((p) => p.startsWith(prefix) && p !== dir).sort();
  }

  /** Whether `dir` exists as a directory or has entries under it (implied parent). */
  hasDir(dir: string): boolean {
    const n = this.nodes.get(dir);
    if (n) return n.type === "dir";
    const prefix = `${dir}/`;
    for (const p of this.nodes.keys()) if (p.startsWith(prefix)) return true;
    return false;
  }

  /** Whether anything exists at `p` (an entry, or an implied directory). */
  exists(p: string): boolean {
    return this.nodes.has(p) || this.hasDir(p);
  }

  private removeTree(p: string, lowerOnly: boolean): void {
    const prefix = `${p}/`;
    for (const k of [...this.nodes.keys()]) {
      if ((k === p || k.startsWith(prefix)) && !(lowerOnly && this.current.has(k))) this.nodes.delete(k);
    }
  }

  private capError(which: "kept" | "scanned"): ImageReadError {
    return which === "kept"
      ? new ImageReadError(`the image holds more than ${sizeText(this.caps.kept)} of module files, mirror indexes and entries; refusing to read further`)
      : new ImageReadError(`the image's layers are larger than ${sizeText(this.caps.scanned)} uncompressed; refusing to read further`);
  }

  private addKept(n: number): void {
    this.kept += n;
    if (this.kept > this.caps.kept) throw this.capError("kept");
  }

  /** Apply one entry of the current layer. */
  private apply(header: tar.Header, content: Buffer | undefined): void {
    const p = cleanEntryPath(header.name);
    if (p === null) return;
    this.addKept(512);
    const base = posix.basename(p);
    const dir = posix.dirname(p);
    if (base === ".wh..wh..opq") {
      for (const k of this.under(dir)) if (!this.current.has(k)) this.nodes.delete(k);
      return;
    }
    if (base.startsWith(".wh.")) {
      this.removeTree(posix.join(dir, base.slice(4)), true);
      return;
    }
    let node: FsNode;
    const meta = { mode: (header.mode ?? 0) & 0o7777, uid: header.uid ?? 0, gid: header.gid ?? 0 };
    switch (header.type) {
      case "directory":
        node = { type: "dir", ...meta, size: 0 };
        break;
      case "symlink":
        node = { type: "symlink", ...meta, size: 0, linkname: header.linkname ?? "" };
        break;
      case "link": {
        // A hard link is the same file as an earlier entry.
        const target = cleanEntryPath(header.linkname ?? "");
        const t = target === null ? undefined : this.nodes.get(target);
        if (t && t.type === "file") {
          node = { ...t };
          if (t.content === undefined && keepsContent(p)) node.content = undefined;
          else if (t.content !== undefined && keepsContent(p)) this.addKept(t.content.length);
        } else {
          node = { type: "other", ...meta, size: 0 };
        }
        break;
      }
      case "file":
      case "contiguous-file":
        node = { type: "file", ...meta, size: header.size ?? 0 };
        if (content !== undefined) node.content = content;
        break;
      default:
        node = { type: "other", ...meta, size: 0 };
    }
    const prev = this.nodes.get(p);
    if (prev && prev.type === "dir" && node.type !== "dir") this.removeTree(p, false);
    if (prev && prev.type === "dir" && node.type === "dir") {
      // A directory entry again (a later layer changing its mode): keep what is under it.
    }
    this.nodes.set(p, node);
    this.current.add(p);
  }

  /** Read one layer stream (its stored bytes) and apply it. */
  async applyLayer(stored: Readable, onStored?: (n: number) => void): Promise<void> {
    this.current = new Set();
    const extract = tar.extract();
    const done = new Promise<void>((resolve, reject) => {
      extract.on("entry", (header, stream, next) => {
        const p = cleanEntryPath(header.name);
        const keep = p !== null && (header.type === "file" || header.type === "contiguous-file") && keepsContent(p);
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (data: unknown) => {
          const d = data as Buffer;
          if (!keep) return;
          size += d.length;
          try {
            this.addKept(d.length);
          } catch (err) {
            stream.destroy(err as Error);
            return;
          }
          chunks.push(d);
        });
        stream.on("error", (err) => reject(err));
        stream.on("end", () => {
          try {
            this.apply(header, keep ? Buffer.concat(chunks, size) : undefined);
          } catch (err) {
            reject(err);
            return;
          }
          next();
        });
      });
      extract.on("finish", resolve);
      extract.on("error", reject);
    });
    done.catch(() => {});
    const storedCounter = new Counter((n) => {
      onStored?.(n);
      return null;
    });
    const tarCounter = new Counter((n) => {
      this.scanned += n;
      return this.scanned > this.caps.scanned ? this.capError("scanned") : null;
    });
    try {
      const first = await peek(stored);
      await Promise.all([pipeline(stored, storedCounter, decompressorFor(first), tarCounter, extract), done]);
    } catch (err) {
      throw layerError(err);
    }
  }
}

function layerError(err: unknown): ImageReadError {
  if (err instanceof ImageReadError) return err;
  if (typeof (err as NodeJS.ErrnoException).code === "string" && (err as NodeJS.ErrnoException).code!.startsWith("Z_")) return decompressError(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (/Unexpected end of data|unexpected end/i.test(msg)) return new ImageReadError("the layer's tar stream ends in the middle of an entry (truncated layer)");
  if (/Invalid tar header|checksum/i.test(msg)) return new ImageReadError(`the layer is not a valid tar archive (${msg})`);
  return new ImageReadError(`cannot read the layer: ${msg}`);
}

/** Apply every layer of a manifest in order. */
export async function buildFs(source: ImageSource, layers: readonly Descriptor[], opts: BuildOptions = {}): Promise<ImageFs> {
  const fs = new ImageFs(opts.caps ?? DEFAULT_CAPS);
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i]!;
    const stream = await source.openBlob(layer);
    let read = 0;
    const progress = opts.onProgress;
    try {
      await fs.applyLayer(stream, (n) => {
        read += n;
        progress?.({ layer, index: i, count: layers.length, read, done: false });
      });
    } catch (err) {
      stream.destroy();
      const e = layerError(err);
      throw new ImageReadError(`layer ${i + 1} of ${layers.length} (${layer.digest}): ${e.message}`);
    }
    progress?.({ layer, index: i, count: layers.length, read, done: true });
  }
  return fs;
}

export type Resolved =
  | { kind: "ok"; path: string; node: FsNode | null; hops: number; first?: string }
  | { kind: "missing"; path: string }
  | { kind: "escape"; link: string }
  | { kind: "loop" };

export const MAX_HOPS = 40;

/**
 * Follows symbolic links in every component of `p` (at most 40 hops in all),
 * absolute targets from the image root, relative ones from the link's
 * directory. `node` is null for a directory that exists only implicitly.
 */
export function resolvePath(fs: ImageFs, p: string): Resolved {
  let hops = 0;
  let first: string | undefined;
  let parts = p.split("/").filter((s) => s !== "");
  let done: string[] = [];
  while (parts.length > 0) {
    const name = parts.shift()!;
    if (name === ".") continue;
    if (name === "..") {
      if (done.length === 0) return { kind: "escape", link: p };
      done.pop();
      continue;
    }
    const cur = `/${[...done, name].join("/")}`;
    const node = fs.get(cur);
    if (node && node.type === "symlink") {
      if (++hops > MAX_HOPS) return { kind: "loop" };
      const target = node.linkname ?? "";
      if (first === undefined) first = target;
      const tparts = target.split("/").filter((s) => s !== "");
      if (target.startsWith("/")) done = [];
      else {
        // relative: from the link's directory; climbing above the root leaves the image
        let depth = done.length;
        for (const t of tparts) {
          if (t === "..") depth--;
          else if (t !== ".") depth++;
          if (depth < 0) return { kind: "escape", link: cur };
        }
      }
      parts = [...tparts, ...parts];
      continue;
    }
    const rest = (): string => `/${[...done, name, ...parts].join("/")}`;
    if (!node && !fs.hasDir(cur)) return { kind: "missing", path: rest() };
    if (node && node.type !== "dir" && parts.length > 0) return { kind: "missing", path: rest() };
    done.push(name);
  }
  const path = `/${done.join("/")}`;
  const r: Resolved = { kind: "ok", path, node: fs.get(path) ?? null, hops };
  if (first !== undefined) r.first = first;
  return r;
}

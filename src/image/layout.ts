/**
 * An OCI image layout on disk (`oci:DIR`, `oci:DIR:TAG`) as an ImageSource:
 * `oci-layout`, `index.json` and `blobs/<alg>/<hex>`, as `podman save
 * --format oci-dir`, `skopeo copy ... oci:DIR` and an extracted `docker save`
 * (Docker 25+) write it.
 *
 * `resolve()` returns the layout's `index.json` as the top-level index, or,
 * with a tag (`oci:DIR:TAG`, skopeo's spelling), the manifest or index whose
 * `org.opencontainers.image.ref.name` annotation (or Docker's
 * `io.containerd.image.name`) names it. Every blob read is checked against its
 * digest; a layer is hashed while it streams.
 */
import { createHash } from "node:crypto";
import { createReadStream, promises as fsp, statSync } from "node:fs";
import * as path from "node:path";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { type ContentKind, type Descriptor, type ImageSource, ImageReadError, ImageRefError, MEDIA } from "./source.js";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** `DIR` and optional `TAG` of an `oci:` reference (the part after `oci:`). */
export function splitLayoutRef(rest: string): { dir: string; tag?: string } {
  if (rest === "") throw new ImageRefError('oci: needs a directory, e.g. oci:./img');
  // skopeo's oci:PATH:REF: unless the whole text is a directory, the
  // rightmost colon whose left part is a directory starts the tag (a tag
  // such as docker.io/captf/cluster:v1 holds colons itself).
  if (isDir(rest)) return { dir: rest };
  for (let colon = rest.lastIndexOf(":"); colon > 0; colon = rest.lastIndexOf(":", colon - 1)) {
    const dir = rest.slice(0, colon);
    if (!isDir(dir)) continue;
    const tag = rest.slice(colon + 1);
    return tag === "" ? { dir } : { dir, tag };
  }
  return { dir: rest };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function checkDigest(desc: Descriptor): string {
  if (typeof desc.digest !== "string" || !DIGEST.test(desc.digest)) {
    throw new ImageReadError(`unsupported or malformed digest ${JSON.stringify(desc.digest)} (only sha256 is supported)`);
  }
  return desc.digest.slice("sha256:".length);
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function errno(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "ENOENT") return "no such file";
  if (e.code === "EACCES" || e.code === "EPERM") return "permission denied";
  if (e.code === "EISDIR") return "is a directory";
  return e.code ?? (err instanceof Error ? err.message : String(err));
}

/** Verifies a stream's sha256 and size as it passes through; errors at the end on a mismatch. */
class DigestCheck extends Transform {
  private readonly hash = createHash("sha256");
  private seen = 0;
  constructor(
    private readonly desc: Descriptor,
    private readonly what: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.hash.update(chunk);
    this.seen += chunk.length;
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    const got = `sha256:${this.hash.digest("hex")}`;
    if (got !== this.desc.digest) {
      cb(new ImageReadError(`${this.what} ${this.desc.digest} is corrupt: its content hashes to ${got}`));
      return;
    }
    if (typeof this.desc.size === "number" && this.desc.size >= 0 && this.seen !== this.desc.size) {
      cb(new ImageReadError(`${this.what} ${this.desc.digest} is ${this.seen} bytes, its descriptor says ${this.desc.size}`));
      return;
    }
    cb();
  }
}

export async function openLayoutSource(ref: string, dir: string, tag?: string): Promise<ImageSource> {
  const root = path.resolve(dir);
  let st;
  try {
    st = await fsp.stat(root);
  } catch (err) {
    throw new ImageReadError(`cannot read the image layout ${dir}: ${errno(err)}`);
  }
  if (!st.isDirectory()) throw new ImageReadError(`${dir} is not a directory (oci: needs an OCI image layout directory)`);
  let marker: unknown;
  try {
    marker = JSON.parse(await fsp.readFile(path.join(root, "oci-layout"), "utf8"));
  } catch (err) {
    const why = err instanceof SyntaxError ? "it is not valid JSON" : errno(err);
    throw new ImageReadError(`${dir} is not an OCI image layout: cannot read oci-layout (${why})`);
  }
  if (typeof marker !== "object" || marker === null || typeof (marker as { imageLayoutVersion?: unknown }).imageLayoutVersion !== "string") {
    throw new ImageReadError(`${dir} is not an OCI image layout: oci-layout has no imageLayoutVersion`);
  }
  let indexBytes: Buffer;
  try {
    indexBytes = await fsp.readFile(path.join(root, "index.json"));
  } catch (err) {
    throw new ImageReadError(`${dir} is not an OCI image layout: cannot read index.json (${errno(err)})`);
  }

  const blobPath = (desc: Descriptor): string => path.join(root, "blobs", "sha256", checkDigest(desc));

  const fetch = async (desc: Descriptor, kind: ContentKind, limit: number): Promise<Buffer> => {
    const what = kind === "manifest" ? "manifest" : "blob";
    const file = blobPath(desc);
    let size: number;
    try {
      size = (await fsp.stat(file)).size;
    } catch (err) {
      throw new ImageReadError(`${what} ${desc.digest} is missing from the layout (${errno(err)})`);
    }
    if (size > limit) throw new ImageReadError(`${what} ${desc.digest} is ${size} bytes, more than the ${limit} bytes allowed`);
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(file);
    } catch (err) {
      throw new ImageReadError(`cannot read ${what} ${desc.digest}: ${errno(err)}`);
    }
    const got = sha256(bytes);
    if (got !== desc.digest) throw new ImageReadError(`${what} ${desc.digest} is corrupt: its content hashes to ${got}`);
    return bytes;
  };

  return {
    ref,
    async resolve() {
      const indexDesc: Descriptor = { mediaType: MEDIA.ociIndex, digest: sha256(indexBytes), size: indexBytes.length };
      let index: { manifests?: Descriptor[] };
      try {
        index = JSON.parse(indexBytes.toString("utf8")) as { manifests?: Descriptor[] };
      } catch {
        throw new ImageReadError(`index.json of ${dir} is not valid JSON`);
      }
      if (typeof index !== "object" || index === null || !Array.isArray(index.manifests)) {
        throw new ImageReadError(`index.json of ${dir} has no manifests list`);
      }
      const list = index.manifests;
      if (tag === undefined) {
        // One image in the layout (what podman, skopeo and docker save
        // write): that image is what the reference names.
        const only = list.length === 1 ? list[0] : undefined;
        if (only && typeof only === "object" && typeof only.digest === "string" && typeof only.mediaType === "string") {
          const bytes = await fetch(only, "manifest", 4 << 20);
          return { descriptor: { mediaType: only.mediaType, digest: only.digest, size: only.size }, bytes };
        }
        if (list.length === 0) throw new ImageReadError(`the layout ${dir} holds no image (index.json lists no manifest)`);
        return { descriptor: indexDesc, bytes: indexBytes };
      }
      const names = (d: Descriptor): string[] => {
        const a = d.annotations ?? {};
        const out: string[] = [];
        const ref = a["org.opencontainers.image.ref.name"];
        if (typeof ref === "string") out.push(ref);
        const ctr = a["io.containerd.image.name"];
        if (typeof ctr === "string") {
          out.push(ctr);
          const m = /:([^:/]+)$/.exec(ctr);
          if (m) out.push(m[1]!);
        }
        return out;
      };
      const found = list.find((d) => d && typeof d === "object" && names(d).includes(tag));
      if (!found) {
        const known = list.flatMap(names);
        throw new ImageRefError(`the layout ${dir} has no image named "${tag}"${known.length ? ` (it has: ${known.join(", ")})` : ""}`);
      }
      const bytes = await fetch(found, "manifest", 4 << 20);
      return { descriptor: { mediaType: found.mediaType, digest: found.digest, size: found.size }, bytes };
    },
    fetch,
    async openBlob(desc: Descriptor): Promise<Readable> {
      const file = blobPath(desc);
      try {
        await fsp.access(file);
      } catch (err) {
        throw new ImageReadError(`layer ${desc.digest} is missing from the layout (${errno(err)})`);
      }
      const input = createReadStream(file);
      const check = new DigestCheck(desc, "layer");
      input.on("error", (err) => check.destroy(new ImageReadError(`cannot read layer ${desc.digest}: ${errno(err)}`)));
      return input.pipe(check);
    },
    async close() {},
  };
}

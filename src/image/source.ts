/**
 * Where an image's manifests and blobs come from: an OCI image layout on disk
 * (`oci:DIR`, src/image/layout.ts) or a registry (src/image/registry.ts).
 * The image checks (src/image/) read an image only through this interface.
 */
import type { Readable } from "node:stream";

/** An image platform as OCI writes it (`os`, `architecture`, optional `variant`). */
export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

/** An OCI content descriptor (also how Docker v2 manifests describe content). */
export interface Descriptor {
  mediaType: string;
  /** `sha256:<64 hex>` (other algorithms are refused with an ImageReadError). */
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
}

/** Which endpoint holds the content in a registry: manifests and indexes, or blobs (configs and layers). */
export type ContentKind = "manifest" | "blob";

export interface ImageSource {
  /** The reference as the user wrote it, for messages and reports. */
  readonly ref: string;
  /**
   * The top-level content the reference names (an index, a manifest list or a
   * manifest), with its bytes, verified against the digest when one is known.
   * The returned descriptor's digest is the sha256 of those bytes.
   */
  resolve(): Promise<{ descriptor: Descriptor; bytes: Buffer }>;
  /**
   * The bytes of small content (a nested index or manifest: kind "manifest";
   * an image config: kind "blob"), at most `limit` bytes, verified against
   * `desc.digest` (a mismatch or an oversize answer is an ImageReadError).
   */
  fetch(desc: Descriptor, kind: ContentKind, limit: number): Promise<Buffer>;
  /**
   * A layer blob as a stream of its stored (possibly compressed) bytes. The
   * stream errors with an ImageReadError when the content does not match
   * `desc.digest` once it has been read to the end. Never buffers the whole blob.
   */
  openBlob(desc: Descriptor): Promise<Readable>;
  /** Releases sockets or file handles. Safe to call twice. */
  close(): Promise<void>;
}

/** The image cannot be read: pull or extract failure, missing blob, digest mismatch, over a cap. Exit 2. */
export class ImageReadError extends Error {
  override name = "ImageReadError";
}

/** The reference itself is not valid (or names no image in a layout). Exit 3. */
export class ImageRefError extends Error {
  override name = "ImageRefError";
}

/** Media types the image command understands. */
export const MEDIA = {
  ociIndex: "application/vnd.oci.image.index.v1+json",
  ociManifest: "application/vnd.oci.image.manifest.v1+json",
  ociConfig: "application/vnd.oci.image.config.v1+json",
  dockerList: "application/vnd.docker.distribution.manifest.list.v2+json",
  dockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
  dockerConfig: "application/vnd.docker.container.image.v1+json",
} as const;

/** The image cannot be linted as asked (its module's role cannot be told, say): the command line must say more (exit 3). */
export class ImageUsageError extends Error {}

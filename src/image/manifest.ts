/**
 * From the content a reference names to the image manifests to check:
 * indexes and manifest lists walked (nested too), platform selection, image
 * configs read. OCI and Docker v2 media types.
 */
import { ImageReadError, ImageRefError, MEDIA, type Descriptor, type ImageSource, type Platform } from "./source.js";

const MANIFEST_LIMIT = 4 << 20;
const CONFIG_LIMIT = 8 << 20;

export interface ImageConfig {
  User?: string;
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  Labels?: Record<string, string> | null;
}

export interface SelectedImage {
  /** `os/arch` or `os/arch/variant`. */
  platform: string;
  os: string;
  architecture: string;
  manifest: Descriptor;
  layers: Descriptor[];
  config: ImageConfig;
}

export type Selection =
  | { kind: "images"; digest: string; images: SelectedImage[] }
  /** Nothing to check: the only finding is image/platform with this message. */
  | { kind: "platform-mismatch"; digest: string; message: string; platforms: string[]; labels?: Record<string, string> };

export function platformText(p: Platform): string {
  return `${p.os}/${p.architecture}${p.variant ? `/${p.variant}` : ""}`;
}

/** Parses `--platform os/arch[/variant]` (exit 3 when malformed). */
export function parsePlatform(text: string): Platform {
  const parts = text.split("/");
  const ok = (s: string | undefined): boolean => s !== undefined && /^[a-z0-9_.-]+$/i.test(s);
  if (parts.length < 2 || parts.length > 3 || !parts.every(ok)) {
    throw new ImageRefError(`invalid --platform "${text}": expected OS/ARCH or OS/ARCH/VARIANT, e.g. linux/amd64`);
  }
  return { os: parts[0]!.toLowerCase(), architecture: parts[1]!.toLowerCase(), ...(parts[2] ? { variant: parts[2].toLowerCase() } : {}) };
}

function matches(have: Platform, want: Platform): boolean {
  if (have.os !== want.os || have.architecture !== want.architecture) return false;
  if (want.variant === undefined) return true;
  const norm = (p: Platform): string => p.variant ?? (p.architecture === "arm64" ? "v8" : "");
  return norm(have) === norm(want);
}

interface Parsed {
  mediaType?: string;
  manifests?: unknown;
  layers?: unknown;
  config?: unknown;
}

function parseJson(bytes: Buffer, what: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ImageReadError(`${what} is not valid JSON`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new ImageReadError(`${what} is not a JSON object`);
  return v as Parsed;
}

function isIndex(mediaType: string | undefined, doc: Parsed): boolean {
  if (mediaType === MEDIA.ociIndex || mediaType === MEDIA.dockerList) return true;
  if (mediaType === MEDIA.ociManifest || mediaType === MEDIA.dockerManifest) return false;
  return Array.isArray(doc.manifests);
}

function descriptor(v: unknown, what: string): Descriptor {
  const d = v as Descriptor;
  if (typeof d !== "object" || d === null || typeof d.digest !== "string" || typeof d.mediaType !== "string") {
    throw new ImageReadError(`${what} has a malformed descriptor`);
  }
  return d;
}

async function readConfig(source: ImageSource, desc: Descriptor): Promise<{ config: ImageConfig; platform: Platform }> {
  const bytes = await source.fetch(desc, "blob", CONFIG_LIMIT);
  const doc = parseJson(bytes, `image config ${desc.digest}`) as { config?: ImageConfig; os?: unknown; architecture?: unknown; variant?: unknown };
  const platform: Platform = {
    os: typeof doc.os === "string" ? doc.os : "unknown",
    architecture: typeof doc.architecture === "string" ? doc.architecture : "unknown",
    ...(typeof doc.variant === "string" && doc.variant !== "" ? { variant: doc.variant } : {}),
  };
  const c = doc.config && typeof doc.config === "object" ? doc.config : {};
  return { config: c, platform };
}

interface Candidate {
  desc: Descriptor;
  doc: Parsed;
  platform: Platform | null;
}

function layersOf(doc: Parsed, what: string): Descriptor[] {
  if (!Array.isArray(doc.layers)) throw new ImageReadError(`${what} has no layers list`);
  return doc.layers.map((l, i) => descriptor(l, `${what} layer ${i + 1}`));
}

async function complete(source: ImageSource, c: Candidate): Promise<SelectedImage> {
  const what = `manifest ${c.desc.digest}`;
  const layers = layersOf(c.doc, what);
  const { config, platform } = await readConfig(source, descriptor(c.doc.config, what));
  const p = c.platform ?? platform;
  return { platform: platformText(p), os: p.os, architecture: p.architecture, manifest: c.desc, layers, config };
}

/**
 * The images to check: with `allPlatforms` every image manifest of an index
 * (attestation manifests skipped); otherwise the first one for `want`
 * (`explicit` says whether --platform was given, which matters for a
 * single-platform image).
 */
export async function selectImages(source: ImageSource, want: Platform, explicit: boolean, allPlatforms: boolean): Promise<Selection> {
  const top = await source.resolve();
  const topDoc = parseJson(top.bytes, `the ${top.descriptor.mediaType.includes("index") || top.descriptor.mediaType.includes("list") ? "index" : "manifest"} of ${source.ref}`);
  const digest = top.descriptor.digest;
  const topType = typeof topDoc.mediaType === "string" ? topDoc.mediaType : top.descriptor.mediaType;
  if (!isIndex(topType, topDoc)) {
    const img = await complete(source, { desc: top.descriptor, doc: topDoc, platform: null });
    if (explicit && !allPlatforms && !matches({ os: img.os, architecture: img.architecture, ...(variantOf(img.platform) ? { variant: variantOf(img.platform)! } : {}) }, want)) {
      return {
        kind: "platform-mismatch",
        digest,
        message: `the image is for ${img.platform}, not ${platformText(want)}`,
        platforms: [img.platform],
        ...(img.config.Labels ? { labels: img.config.Labels } : {}),
      };
    }
    return { kind: "images", digest, images: [img] };
  }

  // Walk the index (and nested ones) in order.
  const candidates: Candidate[] = [];
  const seen = new Set<string>([digest]);
  const walk = async (doc: Parsed, what: string, depth: number): Promise<void> => {
    if (depth > 8) throw new ImageReadError(`${what}: indexes nested more than 8 deep`);
    const list = Array.isArray(doc.manifests) ? doc.manifests : [];
    for (let i = 0; i < list.length; i++) {
      const d = descriptor(list[i], `${what} entry ${i + 1}`);
      if (d.mediaType === MEDIA.ociIndex || d.mediaType === MEDIA.dockerList) {
        if (seen.has(d.digest)) continue;
        seen.add(d.digest);
        const bytes = await source.fetch(d, "manifest", MANIFEST_LIMIT);
        await walk(parseJson(bytes, `index ${d.digest}`), `index ${d.digest}`, depth + 1);
        continue;
      }
      if (d.mediaType !== MEDIA.ociManifest && d.mediaType !== MEDIA.dockerManifest) continue;
      const p = d.platform && typeof d.platform.os === "string" && typeof d.platform.architecture === "string" ? d.platform : null;
      if (p && p.os === "unknown" && p.architecture === "unknown") continue; // attestation
      if (d.annotations?.["vnd.docker.reference.type"] === "attestation-manifest") continue;
      candidates.push({ desc: d, doc: {}, platform: p });
    }
  };
  await walk(topDoc, `the index of ${source.ref}`, 0);

  const load = async (c: Candidate): Promise<Candidate> => {
    const bytes = await source.fetch(c.desc, "manifest", MANIFEST_LIMIT);
    return { ...c, doc: parseJson(bytes, `manifest ${c.desc.digest}`) };
  };

  if (allPlatforms) {
    const images: SelectedImage[] = [];
    for (const c of candidates) {
      const img = await complete(source, await load(c));
      if (img.os === "unknown" && img.architecture === "unknown") continue;
      images.push(img);
    }
    if (images.length === 0) throw new ImageReadError(`the index of ${source.ref} lists no image manifest`);
    return { kind: "images", digest, images };
  }
  for (const c of candidates) {
    if (c.platform) {
      if (matches(c.platform, want)) return { kind: "images", digest, images: [await complete(source, await load(c))] };
      continue;
    }
    // No platform in the index: the config says.
    const img = await complete(source, await load(c));
    if (matches({ os: img.os, architecture: img.architecture, ...(variantOf(img.platform) ? { variant: variantOf(img.platform)! } : {}) }, want)) {
      return { kind: "images", digest, images: [img] };
    }
  }
  return { kind: "platform-mismatch", digest, message: `the index has no manifest for ${platformText(want)}`, platforms: [] };
}

function variantOf(platform: string): string | undefined {
  return platform.split("/")[2];
}

/**
 * Registry references: `host[:port]/repo[:tag|@digest]` and Docker Hub's
 * short names, checked against the distribution reference grammar
 * (lowercase path components joined by `.`, `_`, `__` or dashes; tags of at
 * most 128 word characters, dots and dashes; names of at most 255 characters).
 */
import { ImageRefError } from "./source.js";

export interface RegistryRef {
  /** Host and optional port the API is served from (`registry-1.docker.io` for Docker Hub). */
  registry: string;
  /** Repository path inside the registry (`library/alpine`). */
  repository: string;
  /** Tag; `latest` when the reference has neither tag nor digest. */
  tag?: string;
  /** `sha256:<64 hex>` when the reference pins a digest (it wins over a tag). */
  digest?: string;
}

/** The host Docker Hub's API answers on, and the name users and credential files give it. */
export const DOCKER_HUB_API = "registry-1.docker.io";
export const DOCKER_HUB_NAMES = new Set(["docker.io", "index.docker.io", "registry-1.docker.io"]);

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN_COMPONENT = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[A-Za-z0-9=_-]+$/;
const SHA256 = /^sha256:[a-f0-9]{64}$/;

function fail(ref: string, why: string): never {
  throw new ImageRefError(`invalid image reference "${ref}": ${why}`);
}

function checkHost(ref: string, host: string): void {
  let name = host;
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::([0-9]+))?$/.exec(host);
  if (v6) return;
  const colon = host.lastIndexOf(":");
  if (colon >= 0) {
    const port = host.slice(colon + 1);
    if (!/^[0-9]+$/.test(port) || Number(port) > 65535) fail(ref, `"${port}" is not a port number`);
    name = host.slice(0, colon);
  }
  if (name === "" || !name.split(".").every((c) => DOMAIN_COMPONENT.test(c))) {
    fail(ref, `"${host}" is not a valid registry host`);
  }
}

/** Splits and validates a registry reference; throws ImageRefError with the reason when it is not one. */
export function parseRegistryRef(ref: string): RegistryRef {
  if (ref === "") fail(ref, "it is empty");
  if (/\s/.test(ref)) fail(ref, "it contains white space");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) {
    fail(ref, "a registry reference has no scheme; write host[:port]/repository[:tag|@digest]");
  }

  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) fail(ref, `"${digest}" is not a digest (algorithm:hex)`);
    if (!digest.startsWith("sha256:")) fail(ref, `only sha256 digests are supported, not "${digest.split(":")[0]}"`);
    if (!SHA256.test(digest)) fail(ref, `"${digest}" is not a sha256 digest (64 lowercase hex digits)`);
  }

  // A tag follows the last colon that comes after the last slash (a colon
  // before it belongs to the host's port).
  let tag: string | undefined;
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) {
      fail(ref, `"${tag}" is not a valid tag (up to 128 letters, digits, "_", "." and "-", not starting with "." or "-")`);
    }
  }

  if (rest === "") fail(ref, "the repository name is missing");
  let registry: string;
  let repository: string;
  const first = rest.indexOf("/");
  const head = first >= 0 ? rest.slice(0, first) : "";
  if (first >= 0 && (head.includes(".") || head.includes(":") || head === "localhost")) {
    registry = head;
    repository = rest.slice(first + 1);
    checkHost(ref, registry);
  } else {
    registry = DOCKER_HUB_API;
    repository = rest;
  }
  if (repository === "") fail(ref, "the repository name is missing");
  for (const part of repository.split("/")) {
    if (part === "") fail(ref, `"${repository}" has an empty path component`);
    if (!PATH_COMPONENT.test(part)) {
      fail(
        ref,
        `"${part}" is not a valid repository path component (lowercase letters and digits, separated by ".", "_", "__" or "-")`,
      );
    }
  }
  if (DOCKER_HUB_NAMES.has(registry)) {
    registry = DOCKER_HUB_API;
    if (!repository.includes("/")) repository = `library/${repository}`;
  }
  const nameLength = (registry === DOCKER_HUB_API ? "docker.io" : registry).length + 1 + repository.length;
  if (nameLength > 255) fail(ref, "the repository name is longer than 255 characters");
  if (tag === undefined && digest === undefined) tag = "latest";
  return { registry, repository, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/** The name credential files use for a registry (Docker Hub is `docker.io`). */
export function credentialHost(registry: string): string {
  return DOCKER_HUB_NAMES.has(registry) ? "docker.io" : registry;
}

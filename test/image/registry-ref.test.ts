import { describe, expect, it } from "vitest";
import { parseRegistryRef } from "../../src/image/registry.js";
import { ImageRefError } from "../../src/image/source.js";

const D = `sha256:${"3f".repeat(32)}`;

describe("parseRegistryRef", () => {
  it.each([
    ["alpine", { registry: "registry-1.docker.io", repository: "library/alpine", tag: "latest" }],
    ["alpine:3.20", { registry: "registry-1.docker.io", repository: "library/alpine", tag: "3.20" }],
    ["captf/aws-workers:v1.2.0", { registry: "registry-1.docker.io", repository: "captf/aws-workers", tag: "v1.2.0" }],
    ["docker.io/alpine", { registry: "registry-1.docker.io", repository: "library/alpine", tag: "latest" }],
    ["index.docker.io/team/x:1", { registry: "registry-1.docker.io", repository: "team/x", tag: "1" }],
    ["docker.io/library/busybox@" + D, { registry: "registry-1.docker.io", repository: "library/busybox", digest: D }],
    ["localhost/app", { registry: "localhost", repository: "app", tag: "latest" }],
    ["localhost:5000/x", { registry: "localhost:5000", repository: "x", tag: "latest" }],
    ["127.0.0.1:5000/a/b/c:tag_1.x-y", { registry: "127.0.0.1:5000", repository: "a/b/c", tag: "tag_1.x-y" }],
    ["ghcr.io/captf-io/modules/aws__pool.v2:1.0", { registry: "ghcr.io", repository: "captf-io/modules/aws__pool.v2", tag: "1.0" }],
    [`quay.io/org/img:v1@${D}`, { registry: "quay.io", repository: "org/img", tag: "v1", digest: D }],
    [`registry.example.com:8443/org/img@${D}`, { registry: "registry.example.com:8443", repository: "org/img", digest: D }],
    ["[::1]:5000/img", { registry: "[::1]:5000", repository: "img", tag: "latest" }],
  ])("%s", (ref, want) => {
    expect(parseRegistryRef(ref)).toEqual(want);
  });

  it.each([
    ["", "it is empty"],
    ["Alpine", '"Alpine" is not a valid repository path component (lowercase letters and digits, separated by ".", "_", "__" or "-")'],
    ["ghcr.io/Org/img", '"Org" is not a valid repository path component (lowercase letters and digits, separated by ".", "_", "__" or "-")'],
    ["team//img", '"team//img" has an empty path component'],
    ["team/img-", '"img-" is not a valid repository path component (lowercase letters and digits, separated by ".", "_", "__" or "-")'],
    ["img:", '"" is not a valid tag (up to 128 letters, digits, "_", "." and "-", not starting with "." or "-")'],
    ["img:.hidden", '".hidden" is not a valid tag (up to 128 letters, digits, "_", "." and "-", not starting with "." or "-")'],
    [`img:${"t".repeat(129)}`, `"${"t".repeat(129)}" is not a valid tag (up to 128 letters, digits, "_", "." and "-", not starting with "." or "-")`],
    ["img@sha256:abc", '"sha256:abc" is not a sha256 digest (64 lowercase hex digits)'],
    [`img@sha512:${"a".repeat(128)}`, 'only sha256 digests are supported, not "sha512"'],
    ["img@latest", '"latest" is not a digest (algorithm:hex)'],
    ["host:99999/img", '"99999" is not a port number'],
    ["-bad.example/img", '"-bad.example" is not a valid registry host'],
    ["ghcr.io/", "the repository name is missing"],
    [":tag", "the repository name is missing"],
    ["docker://alpine", "a registry reference has no scheme; write host[:port]/repository[:tag|@digest]"],
    ["my image", "it contains white space"],
    [`example.com/${"a".repeat(250)}`, "the repository name is longer than 255 characters"],
  ])("rejects %j", (ref, why) => {
    expect(() => parseRegistryRef(ref)).toThrow(new ImageRefError(`invalid image reference "${ref}": ${why}`));
    expect(() => parseRegistryRef(ref)).toThrow(ImageRefError);
  });
});

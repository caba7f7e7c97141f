import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  decodeModuleText,
  fileSets,
  isIgnoredFileName,
  isOverrideFileName,
  listModuleFiles,
  MAX_FILE_BYTES,
  moduleFileExtension,
  readModuleFile,
} from "../../src/terraform/files.js";

const tmpDirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "tfcapi-files-"));
  tmpDirs.push(d);
  return fs.realpathSync(d);
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("file sets", () => {
  it("splits the reference example into the Terraform and OpenTofu sets", () => {
    const names = ["a.tf", "a.tofu", "b.tf", "c.tf.json", "c.tofu.json", "d.tf.json", "e.tofu", "f.tf"];
    expect(fileSets(names)).toEqual({
      terraform: ["a.tf", "b.tf", "c.tf.json", "d.tf.json", "f.tf"],
      opentofu: ["a.tofu", "b.tf", "c.tofu.json", "d.tf.json", "e.tofu", "f.tf"],
    });
  });

  it("does not let a .tofu shadow a .tf.json of the same stem (or vice versa)", () => {
    expect(fileSets(["x.tf.json", "x.tofu", "y.tf", "y.tofu.json"])).toEqual({
      terraform: ["x.tf.json", "y.tf"],
      opentofu: ["x.tf.json", "x.tofu", "y.tf", "y.tofu.json"],
    });
  });

  it("gives an empty Terraform set for a .tofu-only module", () => {
    expect(fileSets(["main.tofu", "outputs.tofu.json"])).toEqual({
      terraform: [],
      opentofu: ["main.tofu", "outputs.tofu.json"],
    });
  });

  it("recognises module file extensions, longest first", () => {
    expect(["main.tf", "main.tf.json", "main.tofu", "main.tofu.json", "main.json", "main.tfvars", ".tf", "tf"].map(moduleFileExtension)).toEqual([
      ".tf",
      ".tf.json",
      ".tofu",
      ".tofu.json",
      null,
      null,
      null,
      null,
    ]);
  });

  it("ignores hidden, backup and lock-file names", () => {
    expect(
      ["main.tf", ".main.tf", ".#main.tf", "main.tf~", "#main.tf#", "#main.tf", "main.tf#"].map(isIgnoredFileName),
    ).toEqual([false, true, true, true, true, false, false]);
  });

  it("recognises override files", () => {
    expect(
      ["override.tf", "web_override.tf", "override.tf.json", "x_override.tofu", "override.tofu.json", "overrides.tf", "override_web.tf", "main.tf"].map(
        isOverrideFileName,
      ),
    ).toEqual([true, true, true, true, true, false, false, false]);
  });
});

describe("listModuleFiles", () => {
  it("lists module files only, sorted, skipping ignored names without touching them", () => {
    const d = tmp();
    for (const n of ["variables.tf", "main.tf", "outputs.tf.json", "versions.tofu", "README.md", "terraform.tfvars", "main.tf~", ".hidden.tf"]) {
      fs.writeFileSync(path.join(d, n), "");
    }
    fs.mkdirSync(path.join(d, "modules"));
    fs.writeFileSync(path.join(d, "modules", "nested.tf"), "");
    // Emacs lock files are dangling symlinks: they must be filtered by name.
    fs.symlinkSync("root@host.1234:1700000000", path.join(d, ".#main.tf"));
    fs.symlinkSync("root@host.1234:1700000000", path.join(d, "#main.tf#"));
    const r = listModuleFiles(d, d);
    expect(r.entries.map((e) => [e.name, e.extension])).toEqual([
      ["main.tf", ".tf"],
      ["outputs.tf.json", ".tf.json"],
      ["variables.tf", ".tf"],
      ["versions.tofu", ".tofu"],
    ]);
    expect(r.problems).toEqual([]);
    expect(r.dirError).toBeNull();
  });

  it("skips a directory named like a module file, as Terraform does", () => {
    const d = tmp();
    fs.mkdirSync(path.join(d, "network.tf"));
    fs.writeFileSync(path.join(d, "main.tf"), "");
    const r = listModuleFiles(d, d);
    expect(r.entries.map((e) => e.name)).toEqual(["main.tf"]);
    expect(r.problems).toEqual([]);
  });

  it("reports symlinked module files that dangle or point outside the root", () => {
    const outside = tmp();
    fs.writeFileSync(path.join(outside, "shared.tf"), 'variable "x" {}\n');
    const d = tmp();
    fs.writeFileSync(path.join(d, "real.tf"), "");
    fs.symlinkSync(path.join(outside, "shared.tf"), path.join(d, "shared.tf"));
    fs.symlinkSync(path.join(d, "missing.tf"), path.join(d, "dangling.tf"));
    fs.symlinkSync(path.join(d, "real.tf"), path.join(d, "alias.tf"));
    const r = listModuleFiles(d, d);
    expect(r.entries.map((e) => e.name)).toEqual(["alias.tf", "real.tf"]);
    expect(r.problems).toEqual([
      {
        name: "dangling.tf",
        kind: "source-escape",
        message: "module file dangling.tf is a symbolic link that cannot be resolved (no such file or directory)",
        unresolved: true,
      },
      {
        name: "shared.tf",
        kind: "source-escape",
        message: `module file shared.tf is a symbolic link to ${path.join(outside, "shared.tf")}, outside the module directory; it would not ship with the module`,
      },
    ].sort((a, b) => (a.name < b.name ? -1 : 1)));
  });

  it("reports files over the size limit without reading them", () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, "main.tf"), "");
    // A sparse file: large on stat, no disk space used.
    fs.writeFileSync(path.join(d, "generated.tf.json"), "");
    fs.truncateSync(path.join(d, "generated.tf.json"), MAX_FILE_BYTES + 1);
    const r = listModuleFiles(d, d);
    expect(r.entries.map((e) => e.name)).toEqual(["main.tf"]);
    expect(r.problems).toEqual([
      {
        name: "generated.tf.json",
        kind: "too-large",
        message: `generated.tf.json is ${MAX_FILE_BYTES + 1} bytes, over the ${MAX_FILE_BYTES}-byte limit for a module file`,
      },
    ]);
  });

  it("reports a directory that cannot be listed", () => {
    const d = tmp();
    const r = listModuleFiles(path.join(d, "nope"), d);
    expect(r).toEqual({ entries: [], problems: [], dirError: "no such file or directory" });
  });
});

describe("reading files", () => {
  it("decodes UTF-8 and keeps a byte-order mark and CRLF for the parser", () => {
    const bytes = Buffer.from('\uFEFFvariable "x" {\r\n  default = "é"\r\n}\r\n', "utf8");
    expect(decodeModuleText(bytes, "main.tf")).toEqual({ ok: true, text: '\uFEFFvariable "x" {\r\n  default = "é"\r\n}\r\n' });
  });

  it("rejects binary files (NUL bytes)", () => {
    expect(decodeModuleText(Buffer.from([0x76, 0x61, 0x72, 0x00, 0x01]), "blob.tf")).toEqual({
      ok: false,
      kind: "binary",
      message: "blob.tf contains a NUL byte at offset 3; it looks like a binary file, not Terraform source",
    });
  });

  it("rejects invalid UTF-8 with the offending byte offset", () => {
    const latin1 = Buffer.concat([Buffer.from('variable "caf'), Buffer.from([0xe9]), Buffer.from('" {}\n')]);
    expect(decodeModuleText(latin1, "latin1.tf")).toEqual({
      ok: false,
      kind: "not-utf8",
      message: "latin1.tf is not valid UTF-8 (byte offset 13); save it as UTF-8",
    });
    // An overlong encoding of "/" and a lone surrogate are invalid too.
    expect(decodeModuleText(Buffer.from([0x61, 0xc0, 0xaf]), "a.tf")).toMatchObject({ kind: "not-utf8", message: "a.tf is not valid UTF-8 (byte offset 1); save it as UTF-8" });
    expect(decodeModuleText(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]), "b.tf")).toMatchObject({ kind: "not-utf8", message: "b.tf is not valid UTF-8 (byte offset 2); save it as UTF-8" });
  });

  it("reports a read failure as unreadable", () => {
    const d = tmp();
    fs.mkdirSync(path.join(d, "x.tf"));
    expect(readModuleFile(path.join(d, "x.tf"), "x.tf")).toEqual({ ok: false, kind: "unreadable", message: "cannot read x.tf: is a directory" });
    expect(readModuleFile(path.join(d, "gone.tf"), "gone.tf")).toEqual({
      ok: false,
      kind: "unreadable",
      message: "cannot read gone.tf: no such file or directory",
    });
  });
});

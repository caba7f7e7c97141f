import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import type { LoadProblem, LoadResult } from "../../src/terraform/module-types.js";
import { at, fixture } from "./helpers.js";

const tmpDirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "tfcapi-load-"));
  tmpDirs.push(d);
  return fs.realpathSync(d);
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Write files (string content or Buffer) under dir. */
function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

function problems(r: LoadResult): [LoadProblem["kind"], string, string | null, string][] {
  return r.problems.map((p) => [p.kind, p.file, at(p.range), p.message]);
}

describe("nested local modules", () => {
  const r = loadModule(fixture("nested", "root"));

  it("loads local children depth-first, each directory once", () => {
    expect(r.units.map((u) => u.relDir)).toEqual(["", "child", "modules/net", "a", "b"]);
    expect(r.units[0]).toBe(r.root);
    expect(r.root.children.map((c) => [c.call.name, c.unit.relDir])).toEqual([
      ["child", "child"],
      ["net", "modules/net"],
      ["a", "a"],
    ]);
    const child = r.root.children[0]!.unit;
    expect(child.children.map((c) => [c.call.name, c.unit.relDir])).toEqual([["net", "modules/net"]]);
    expect(child.children[0]!.unit).toBe(r.root.children[1]!.unit);
    // a -> b -> a is a cycle: b's call back to a is skipped.
    expect(r.units[3]!.children.map((c) => c.unit.relDir)).toEqual(["b"]);
    expect(r.units[4]!.children).toEqual([]);
  });

  it("gives child files root-relative paths", () => {
    expect(r.units.map((u) => u.allFiles.map((f) => f.path))).toEqual([
      ["main.tf"],
      ["child/main.tf"],
      ["modules/net/main.tf"],
      ["a/main.tf"],
      ["b/main.tf"],
    ]);
    const net = r.units[2]!;
    expect(net.dir).toBe(fixture("nested", "root", "modules", "net"));
    expect(net.declarations.relDir).toBe("modules/net");
    expect([...net.declarations.variables.keys()]).toEqual(["cidr"]);
  });

  it("reports escaping and unresolvable sources at the source argument", () => {
    expect(problems(r)).toEqual([
      [
        "source-escape",
        "main.tf",
        "16:3-16:24",
        'module "outside": source "../outside" leaves the root module directory; only what is inside it ships with the module',
      ],
      ["source-escape", "main.tf", "29:3-29:30", 'module "missing": source "./does-not-exist" cannot be resolved (no such file or directory)'],
    ]);
  });
});

describe("symbolic links", () => {
  it("rejects a module directory symlinked to outside the root", () => {
    const outside = tmp();
    write(outside, { "main.tf": 'output "x" {\n  value = 1\n}\n' });
    const root = tmp();
    write(root, { "main.tf": 'module "shared" {\n  source = "./shared"\n}\n' });
    fs.symlinkSync(outside, path.join(root, "shared"));
    const r = loadModule(root);
    expect(r.units.length).toBe(1);
    expect(problems(r)).toEqual([
      [
        "source-escape",
        "main.tf",
        "2:3-2:22",
        `module "shared": source "./shared" resolves to ${outside}, outside the root module directory; only what is inside it ships with the module`,
      ],
    ]);
  });

  it("accepts a symlinked module directory that stays inside the root", () => {
    const root = tmp();
    write(root, {
      "main.tf": 'module "net" {\n  source = "./net-link"\n}\n',
      "modules/net/main.tf": 'variable "cidr" {\n  type = string\n}\n',
    });
    fs.symlinkSync(path.join(root, "modules", "net"), path.join(root, "net-link"));
    const r = loadModule(root);
    expect(r.problems).toEqual([]);
    expect(r.units.map((u) => [u.relDir, u.allFiles.map((f) => f.path)])).toEqual([
      ["", ["main.tf"]],
      ["net-link", ["net-link/main.tf"]],
    ]);
  });

  it("reports a dangling source symlink and a symlink loop without hanging", () => {
    const root = tmp();
    write(root, {
      "main.tf": [
        'module "gone" {\n  source = "./gone"\n}\n',
        'module "loop" {\n  source = "./loop"\n}\n',
        'module "back" {\n  source = "./sub"\n}\n',
      ].join("\n"),
      "sub/main.tf": 'module "up" {\n  source = "./up"\n}\n',
    });
    fs.symlinkSync(path.join(root, "nowhere"), path.join(root, "gone"));
    fs.symlinkSync(path.join(root, "loop"), path.join(root, "loop"));
    fs.symlinkSync("..", path.join(root, "sub", "up"));
    const r = loadModule(root);
    expect(r.units.map((u) => u.relDir)).toEqual(["", "sub"]);
    expect(problems(r)).toEqual([
      ["source-escape", "main.tf", "2:3-2:20", 'module "gone": source "./gone" cannot be resolved (no such file or directory)'],
      ["source-escape", "main.tf", "6:3-6:20", 'module "loop": source "./loop" cannot be resolved (too many levels of symbolic links)'],
    ]);
  });

  it("reports module files that are symlinks to outside the root or dangle, in children too", () => {
    const outside = tmp();
    write(outside, { "common.tf": 'variable "region" {\n  type = string\n}\n' });
    const root = tmp();
    write(root, {
      "main.tf": 'module "child" {\n  source = "./child"\n}\n',
      "child/main.tf": 'output "ok" {\n  value = true\n}\n',
    });
    fs.symlinkSync(path.join(outside, "common.tf"), path.join(root, "common.tf"));
    fs.symlinkSync(path.join(root, "missing.tf"), path.join(root, "child", "broken.tf"));
    const r = loadModule(root);
    expect(problems(r)).toEqual([
      [
        "source-escape",
        "common.tf",
        null,
        `module file common.tf is a symbolic link to ${path.join(outside, "common.tf")}, outside the module directory; it would not ship with the module`,
      ],
      ["source-escape", "child/broken.tf", null, "module file broken.tf is a symbolic link that cannot be resolved (no such file or directory)"],
    ]);
    expect(r.root.allFiles.map((f) => f.path)).toEqual(["main.tf"]);
    expect(r.root.hasParseErrors).toBe(true);
    expect(r.units[1]!.allFiles.map((f) => f.path)).toEqual(["child/main.tf"]);
  });
});

describe("file sets and bad files", () => {
  it("reads declarations from Terraform's set and expressions from OpenTofu's when .tofu files exist", () => {
    const root = tmp();
    write(root, {
      "main.tf": 'output "who" {\n  value = "terraform"\n}\n',
      "main.tofu": 'output "who" {\n  value = "opentofu"\n}\n',
      "variables.tf": 'variable "x" {\n  type = string\n}\n',
    });
    const r = loadModule(root);
    const u = r.root;
    expect([u.hasTofu, u.tofuOnly]).toEqual([true, false]);
    expect(u.terraform.files.map((f) => f.path)).toEqual(["main.tf", "variables.tf"]);
    expect(u.opentofu.files.map((f) => f.path)).toEqual(["main.tofu", "variables.tf"]);
    expect(u.declarations).toBe(u.terraform);
    expect(u.expressions).toBe(u.opentofu);
    expect(u.allFiles.map((f) => f.path)).toEqual(["main.tf", "main.tofu", "variables.tf"]);
    // variables.tf is in both sets but read and parsed once.
    expect(u.terraform.files[1]).toBe(u.opentofu.files[1]);
    expect(u.terraform.files[1]).toBe(u.allFiles[2]);
    expect(u.opentofu.fileSet).toBe("opentofu");
  });

  it("supports a .tofu-only module", () => {
    const root = tmp();
    write(root, { "main.tofu": 'variable "x" {\n  type = string\n}\n', "outputs.tofu.json": '{"output": {"y": {"value": "${var.x}"}}}\n' });
    const u = loadModule(root).root;
    expect([u.hasTofu, u.tofuOnly]).toEqual([true, true]);
    expect(u.declarations).toBe(u.opentofu);
    expect(u.expressions).toBe(u.opentofu);
    expect([...u.declarations.variables.keys(), ...u.declarations.outputs.keys()]).toEqual(["x", "y"]);
    expect(u.terraform.files).toEqual([]);
  });

  it("a module without .tofu files reads Terraform's set for both", () => {
    const root = tmp();
    write(root, { "main.tf": 'variable "x" {\n  type = string\n}\n' });
    const u = loadModule(root).root;
    expect([u.hasTofu, u.tofuOnly, u.declarations === u.terraform, u.expressions === u.terraform]).toEqual([false, false, true, true]);
  });

  it("reports binary and non-UTF-8 files, skips directories, and still loads the rest", () => {
    const root = tmp();
    write(root, {
      "main.tf": '\uFEFFvariable "x" {\r\n  type = string\r\n}\r\n',
      "blob.tf": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
      "latin1.tf": Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from("\n")]),
    });
    fs.mkdirSync(path.join(root, "network.tf"));
    const r = loadModule(root);
    expect(problems(r)).toEqual([
      ["binary", "blob.tf", null, "blob.tf contains a NUL byte at offset 7; it looks like a binary file, not Terraform source"],
      ["not-utf8", "latin1.tf", null, "latin1.tf is not valid UTF-8 (byte offset 5); save it as UTF-8"],
    ]);
    expect(r.root.allFiles.map((f) => f.path)).toEqual(["main.tf"]);
    expect(r.root.allFiles[0]!.diagnostics).toEqual([]);
    expect(at(r.root.declarations.variables.get("x")!.range)).toBe("1:1-3:2");
    expect(r.root.hasParseErrors).toBe(true);
  });

  it("reports a missing module directory instead of throwing", () => {
    const root = tmp();
    const r = loadModule(path.join(root, "absent"));
    expect(r.units.length).toBe(1);
    expect(r.root.allFiles).toEqual([]);
    expect(r.problems.map((p) => [p.kind, p.file])).toEqual([
      ["unreadable", ""],
      ["unreadable", ""],
    ]);
    expect(r.problems[0]!.message).toBe(`cannot read module directory ${path.join(root, "absent")}: no such file or directory`);
    expect(r.problems[1]!.message).toBe("cannot list module directory .: no such file or directory");
  });

  it("marks a unit whose file fails to parse", () => {
    const root = tmp();
    write(root, { "main.tf": 'variable "x" {\n  type = \n}\n', "ok.tf": 'output "y" {\n  value = 1\n}\n' });
    const u = loadModule(root).root;
    expect(u.hasParseErrors).toBe(true);
    expect(u.allFiles.find((f) => f.path === "main.tf")!.diagnostics.length).toBeGreaterThan(0);
    expect([...u.declarations.outputs.keys()]).toEqual(["y"]);
  });
});

describe("stdin substitution", () => {
  it("replaces an existing file's content", () => {
    const root = tmp();
    write(root, { "main.tf": 'variable "on_disk" {\n  type = string\n}\n' });
    const r = loadModule(root, { stdin: { path: path.join(root, "main.tf"), text: 'variable "in_editor" {\n  type = number\n}\n' } });
    expect([...r.root.declarations.variables.keys()]).toEqual(["in_editor"]);
    expect(r.root.allFiles.map((f) => [f.path, f.absPath])).toEqual([["main.tf", path.join(root, "main.tf")]]);
  });

  it("adds a file that is not on disk yet (relative to the module directory)", () => {
    const root = tmp();
    write(root, { "main.tf": 'variable "a" {\n  type = string\n}\n' });
    const r = loadModule(root, { stdin: { path: "new_outputs.tf", text: 'output "b" {\n  value = var.a\n}\n' } });
    expect(r.root.allFiles.map((f) => f.path)).toEqual(["main.tf", "new_outputs.tf"]);
    expect([...r.root.declarations.outputs.keys()]).toEqual(["b"]);
    expect(r.problems).toEqual([]);
  });

  it("substitutes a file of a nested module and replaces an unreadable one", () => {
    const root = tmp();
    write(root, { "main.tf": 'module "child" {\n  source = "./child"\n}\n', "child/main.tf": Buffer.from([0x00]) });
    const r = loadModule(root, { stdin: { path: path.join(root, "child", "main.tf"), text: 'output "fixed" {\n  value = 1\n}\n' } });
    expect(r.problems).toEqual([]);
    expect([...r.units[1]!.declarations.outputs.keys()]).toEqual(["fixed"]);
  });
});

describe("stdin substitution through a symlinked root", () => {
  it("matches the stdin file by real directory", () => {
    const real = tmp();
    write(real, { "main.tf": 'variable "on_disk" {\n  type = string\n}\n' });
    const parent = tmp();
    fs.symlinkSync(real, path.join(parent, "link"));
    const r = loadModule(path.join(parent, "link"), { stdin: { path: path.join(real, "main.tf"), text: 'variable "edited" {\n  type = string\n}\n' } });
    expect([...r.root.declarations.variables.keys()]).toEqual(["edited"]);
    expect(r.root.allFiles.map((f) => f.absPath)).toEqual([path.join(parent, "link", "main.tf")]);
  });
});

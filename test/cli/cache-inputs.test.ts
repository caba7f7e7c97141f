/**
 * What the result cache records of a lint (cache-inputs.ts), with the real
 * loader: the files its file()/templatefile() calls name, and whether the
 * recorded answers still hold after each kind of change.
 */
import { appendFileSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { changedInput, InputRecorder, LazySources, namedFiles, sourcesFrom } from "../../src/cli/cache-inputs.js";
import { loadModule } from "../../src/terraform/load.js";
import { tree } from "./helpers.js";

const MAIN = `module "net" {
  source = "./net"
}

locals {
  a = templatefile("\${path.module}/tpl/a.tpl", {})
  b = file("\${path.root}/b.txt")
  c = filebase64("c.bin")
  d = file(var.somewhere)
  e = file("\${path.module}/\${var.name}.txt")
}
`;

const NET = `locals {
  user_data = file("\${path.module}/user-data.sh")
}
`;

/** Loads `dir` with a recorder, as lintTarget does; the recorded inputs. */
function record(dir: string) {
  const recorder = new InputRecorder();
  const load = loadModule(dir, { log: recorder });
  const sources = new Map<string, string>();
  for (const u of load.units) for (const f of u.allFiles) sources.set(f.path, f.hcl.text);
  return { load, inputs: recorder.finish(load, sources)!, sources };
}

describe("the inputs of a lint", () => {
  it("names the files of constant-path file() and templatefile() calls, the root's and a child's", () => {
    const root = tree({ "main.tf": MAIN, "net/main.tf": NET });
    const { load, inputs } = record(root);
    expect(namedFiles(load)).toEqual([path.join(root, "b.txt"), path.join(root, "c.bin"), path.join(root, "net", "user-data.sh"), path.join(root, "tpl", "a.tpl")]);
    expect(inputs.named.map(([p, stamp]) => [path.relative(root, p), stamp])).toEqual([
      ["b.txt", "absent"],
      ["c.bin", "absent"],
      ["net/user-data.sh", "absent"],
      ["tpl/a.tpl", "absent"],
    ]);
    expect(inputs.files.map(([p]) => path.relative(root, p))).toEqual(["main.tf", "net/main.tf"]);
    expect(inputs.listings.map(([d, , , names]) => [path.relative(root, d), names])).toEqual([
      ["", ["main.tf"]],
      ["net", ["main.tf"]],
    ]);
    expect(inputs.sources).toEqual([
      ["main.tf", path.join(root, "main.tf")],
      ["net/main.tf", path.join(root, "net", "main.tf")],
    ]);
    expect(inputs.day).toBeNull();
  });

  it("holds until something it read changes, and says what", () => {
    const root = tree({ "main.tf": MAIN, "net/main.tf": NET, "tpl/a.tpl": "hello" });
    const { inputs, sources } = record(root);
    const texts = new Map<string, Buffer>();
    expect(changedInput(inputs, texts)).toBeNull();
    // A LazySources (a Map of its own class): its entries are the texts.
    expect(new Map(sourcesFrom(inputs, texts))).toEqual(sources);

    writeFileSync(path.join(root, "tpl", "a.tpl"), "hello!");
    expect(changedInput(inputs, new Map())).toBe(`${path.join(root, "tpl", "a.tpl")} changed`);
    writeFileSync(path.join(root, "tpl", "a.tpl"), "hello");
    writeFileSync(path.join(root, "b.txt"), "now here");
    expect(changedInput(inputs, new Map())).toBe(`${path.join(root, "b.txt")} changed`);
    rmSync(path.join(root, "b.txt"));

    writeFileSync(path.join(root, "net", "extra.tf"), "");
    expect(changedInput(inputs, new Map())).toBe(`the module files in ${path.join(root, "net")} changed`);
    rmSync(path.join(root, "net", "extra.tf"));
    // A directory with a module file's name is no module file: still the same.
    mkdirSync(path.join(root, "notes.tf"));
    expect(changedInput(inputs, new Map())).toBeNull();

    appendFileSync(path.join(root, "net", "main.tf"), "\n");
    expect(changedInput(inputs, new Map())).toBe(`${path.join(root, "net", "main.tf")} changed`);
  });

  it("a child that resolves elsewhere, or a symbolic link among the files, is checked in full", () => {
    const root = tree({ "main.tf": 'module "net" {\n  source = "./net"\n}\n', "real-net/main.tf": NET, "shared/x.txt": "# x\n" });
    symlinkSync("real-net", path.join(root, "net"));
    symlinkSync(path.join("..", "shared", "x.txt"), path.join(root, "real-net", "link.tf"));
    const { inputs } = record(root);
    expect(inputs.realpaths.map(([p, r]) => [path.relative(root, p), path.relative(root, r)])).toEqual([
      ["", ""],
      ["net", "real-net"],
    ]);
    expect(inputs.listings.map(([d, , , names]) => [path.relative(root, d), names])).toEqual([
      ["", ["main.tf"]],
      ["net", ["link.tf", "main.tf"]],
    ]);
    expect(changedInput(inputs, new Map())).toBeNull();
    // A symbolic link among the entries: the full listing is compared, which
    // sees the link now leave the root (the same text on the other side).
    const outside = tree({ "x.txt": "# x\n" });
    unlinkSync(path.join(root, "real-net", "link.tf"));
    symlinkSync(path.join(outside, "x.txt"), path.join(root, "real-net", "link.tf"));
    expect(changedInput(inputs, new Map())).toBe(`the module files in ${path.join(root, "net")} changed`);
    unlinkSync(path.join(root, "real-net", "link.tf"));
    symlinkSync(path.join("..", "shared", "x.txt"), path.join(root, "real-net", "link.tf"));
    expect(changedInput(inputs, new Map())).toBeNull();
    unlinkSync(path.join(root, "net"));
    mkdirSync(path.join(root, "other-net"));
    writeFileSync(path.join(root, "other-net", "main.tf"), NET);
    symlinkSync("other-net", path.join(root, "net"));
    expect(changedInput(inputs, new Map())).toBe(`${path.join(root, "net")} resolves differently`);
  });

  it("a source with an expiry date makes the result hold for the day only", () => {
    const root = tree({ "main.tf": "# tfcapi-lint-ignore-file: input/default exp:2999-01-01\n" });
    expect(record(root).inputs.day).toBe(new Date().toISOString().slice(0, 10));
  });
});

describe("a reused result's sources (LazySources)", () => {
  const bytes = (text: string): Buffer => Buffer.from(text, "utf8");
  const make = (): LazySources =>
    new LazySources([
      ["main.tf", bytes("\uFEFFlocals {}\n")],
      ["net/main.tf", bytes("# é\n")],
      ["z.tf", bytes("")],
    ]);

  it("has every key at once, in order, and decodes a text (without its byte-order mark) when asked", () => {
    const s = make();
    expect(s.size).toBe(3);
    expect([...s.keys()]).toEqual(["main.tf", "net/main.tf", "z.tf"]);
    expect(s.has("z.tf")).toBe(true);
    expect(s.get("net/main.tf")).toBe("# é\n");
    expect(s.get("missing.tf")).toBeUndefined();
    // Asking for one first leaves the order as it was.
    expect([...s]).toEqual([
      ["main.tf", "locals {}\n"],
      ["net/main.tf", "# é\n"],
      ["z.tf", ""],
    ]);
  });

  it("gives the texts to forEach, values and entries, and takes new ones", () => {
    const s = make();
    const seen: string[] = [];
    s.forEach((v, k) => seen.push(`${k}=${v}`));
    expect(seen).toEqual(["main.tf=locals {}\n", "net/main.tf=# é\n", "z.tf="]);
    const t = make();
    expect([...t.values()]).toEqual(["locals {}\n", "# é\n", ""]);
    const u = make();
    u.set("main.tf", "changed");
    expect(u.delete("z.tf")).toBe(true);
    expect([...u.entries()]).toEqual([
      ["main.tf", "changed"],
      ["net/main.tf", "# é\n"],
    ]);
    u.clear();
    expect(u.size).toBe(0);
    expect(u.get("main.tf")).toBeUndefined();
  });
});

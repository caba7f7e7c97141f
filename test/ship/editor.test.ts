/**
 * Editor integration as the README documents it: the VS Code task's problem
 * matcher (taken from the README's tasks.json, so the two cannot drift) must
 * read every line of `--format compact` into the right file, line, column,
 * severity, message and rule; the Run-on-Save command must select module
 * files; and the stdin form must lint an unsaved buffer in its module.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { cleanup, copyFromRoot, ensureBuilt, ROOT, runCli, tempDir } from "./helpers.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

function jsonBlocks(): unknown[] {
  return [...README.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!) as unknown);
}

interface Task {
  label: string;
  command: string;
  args: string[];
  problemMatcher: {
    owner: string;
    fileLocation: [string, string];
    pattern: { regexp: string; file: number; line: number; column: number; severity: number; message: number; code: number };
  };
}

const tasksJson = jsonBlocks().find((b) => typeof b === "object" && b !== null && "tasks" in b) as { version: string; tasks: Task[] };
const task = tasksJson.tasks[0]!;
const matcher = task.problemMatcher;
const settings = jsonBlocks().find((b) => typeof b === "object" && b !== null && "emeraldwalk.runonsave" in b) as {
  "emeraldwalk.runonsave": { commands: { match: string; cmd: string }[] };
};

interface JsonFinding {
  id: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

describe("VS Code task and problem matcher from the README", () => {
  let ws: string | undefined;

  beforeAll(() => {
    ensureBuilt();
    ws = tempDir("editor");
    mkdirSync(path.join(ws, ".git"));
    copyFromRoot("examples/broken-machinepool", path.join(ws, "modules", "broken pool"));
    copyFromRoot("examples/machinepool-aws", path.join(ws, "modules", "pool"));
  });
  afterAll(() => cleanup(ws));

  it("is a tasks.json that runs tfcapi-lint in compact format relative to the workspace", () => {
    expect(tasksJson.version).toBe("2.0.0");
    expect(task.command).toBe("npx");
    expect(task.args.slice(0, 3)).toEqual(["tfcapi-lint", "--format", "compact"]);
    expect(matcher.owner).toBe("tfcapi-lint");
    expect(matcher.fileLocation).toEqual(["relative", "${workspaceFolder}"]);
  });

  it("reads every compact line into exactly the finding's fields", () => {
    // The task's own arguments, with this checkout's CLI in place of npx.
    const args = task.args.slice(1);
    const compact = runCli(args, { cwd: ws! });
    expect(compact.code).toBe(1);
    // VS Code reads both streams: notes on stderr must not look like problems.
    for (const line of compact.stderr.split("\n")) expect(new RegExp(matcher.pattern.regexp).test(line), line).toBe(false);
    const docs = ([] as { module: string; findings: JsonFinding[] }[]).concat(JSON.parse(runCli(["--format", "json", ...args.slice(2)], { cwd: ws! }).stdout));
    const expected = docs.flatMap((d) =>
      d.findings.map((f) => ({
        file: f.file === "" ? d.module : `${d.module}/${f.file}`,
        line: String(f.line),
        column: String(f.column),
        severity: f.severity,
        message: f.message.replace(/\s*\n\s*/g, " "),
        code: f.id,
      })),
    );
    expect(expected.length).toBeGreaterThan(5);

    const re = new RegExp(matcher.pattern.regexp);
    const lines = compact.stdout.trimEnd().split("\n");
    const parsed = lines.map((line) => {
      const m = re.exec(line);
      expect(m, line).not.toBeNull();
      const p = matcher.pattern;
      return { file: m![p.file]!, line: m![p.line]!, column: m![p.column]!, severity: m![p.severity]!, message: m![p.message]!, code: m![p.code]! };
    });
    expect(parsed).toEqual(expected);
    // A path with a space, relative to the workspace folder, as fileLocation expects.
    expect(parsed.some((p) => p.file.startsWith("modules/broken pool/"))).toBe(true);
    for (const p of parsed) expect(["error", "warning", "info"]).toContain(p.severity);
  });

  it("runs on save for module files only (the Run on Save settings)", () => {
    const commands = settings["emeraldwalk.runonsave"].commands;
    expect(commands.length).toBe(1);
    const match = new RegExp(commands[0]!.match);
    for (const f of ["main.tf", "outputs.tofu", "vars.tf.json", "x.tofu.json"]) expect(match.test(f), f).toBe(true);
    for (const f of ["terraform.tfvars", "README.md", "main.tf.orig", "x.hcl"]) expect(match.test(f), f).toBe(false);
    expect(commands[0]!.cmd).toBe("${workspaceFolder}/node_modules/.bin/tfcapi-lint --format compact ${file}");
  });

  it("lints an unsaved buffer with --stdin --stdin-filename, together with the saved files of its module", () => {
    expect(README).toContain("tfcapi-lint --format compact --stdin --stdin-filename modules/pool/outputs.tf < buffer\n");
    const saved = readFileSync(path.join(ws!, "modules", "pool", "outputs.tf"), "utf8");
    const clean = runCli(["--format", "compact", "--stdin", "--stdin-filename", "modules/pool/outputs.tf"], { cwd: ws!, input: saved });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe("");

    // The buffer drops sort(): only the buffer says so, the file on disk is untouched.
    const buffer = saved.replace(/value = sort\((\[for member in local\.members : "aws:\/\/\/\$\{member\.zone\}\/\$\{member\.id\}"\])\)/, "value = $1");
    expect(buffer).not.toBe(saved);
    const dirty = runCli(["--format", "compact", "--stdin", "--stdin-filename", "modules/pool/outputs.tf"], { cwd: ws!, input: buffer });
    expect(dirty.code).toBe(0);
    const lineNo = buffer.split("\n").findIndex((l) => l.includes("value = [for member in local.members")) + 1;
    const column = buffer.split("\n")[lineNo - 1]!.indexOf("[for") + 1;
    const m = new RegExp(matcher.pattern.regexp).exec(dirty.stdout.trimEnd());
    expect(m).not.toBeNull();
    expect([m![1], m![2], m![3], m![4], m![6]]).toEqual(["modules/pool/outputs.tf", String(lineNo), String(column), "warning", "output/provider-id-list-shape"]);
    expect(readFileSync(path.join(ws!, "modules", "pool", "outputs.tf"), "utf8")).toBe(saved);
  });
});

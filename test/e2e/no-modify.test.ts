/**
 * User files are never modified (content, mtime, mode, inode) unless --fix;
 * --fix writes through a temporary file and a rename, leaving nothing behind.
 */
import { describe, expect, it } from "vitest";
import { chmodSync, cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { copyFixture, firstLine, fixtureFiles, parseDoc, REPO, runCli, snapshot, tempDir, tree, type FileState } from "./helpers.js";

const FORMATS = ["text", "compact", "json", "sarif", "github", "checkstyle", "junit"];

/** Several fixture modules side by side, a config file, and an ignored lock symlink. */
function workspace(): string {
  const root = tempDir();
  copyFixture("pool-nested", "pools/nested", root);
  copyFixture("pool-tofu", "pools/tofu", root);
  copyFixture("machine-tofu", "machines/tofu", root);
  copyFixture("machine", "machines/plain", root);
  cpSync(path.join(REPO, "examples", "broken-machinepool"), path.join(root, "pools", "broken"), { recursive: true });
  return root;
}

function changed(before: Map<string, FileState>, after: Map<string, FileState>): string[] {
  const out: string[] = [];
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(k);
    const b = after.get(k);
    if (!a || !b) out.push(`${k}: ${a ? "removed" : "added"}`);
    else if (a.content !== b.content) out.push(`${k}: content`);
    else if (a.mtimeMs !== b.mtimeMs) out.push(`${k}: mtime`);
    else if (a.mode !== b.mode) out.push(`${k}: mode`);
    else if (a.ino !== b.ino) out.push(`${k}: inode`);
  }
  return out.sort();
}

describe("without --fix nothing is written", () => {
  it("every format, command and mode leaves every file and directory as it was", () => {
    const root = workspace();
    const reports = tempDir();
    const before = snapshot(root);
    const modules = ["pools/nested", "pools/tofu", "pools/broken", "machines/tofu", "machines/plain"];
    const runs: { args: string[]; input?: string; env?: Record<string, string>; codes: number[] }[] = [];
    for (const format of FORMATS) {
      runs.push({ args: ["--format", format, ...modules], codes: [1] });
      runs.push({ args: ["--format", format, "--recursive", "."], codes: [1] });
    }
    runs.push(
      { args: ["module", "--role", "machinepool", "--strict", "--json", "pools/broken"], codes: [1] },
      { args: ["module", "--role", "machinepool", "pools/nested"], codes: [1] },
      { args: ["--fix-dry-run", ...modules], codes: [1] },
      { args: ["--fix-dry-run", "--format", "json", "pools/broken"], codes: [1] },
      { args: ["--format", "sarif", "-o", path.join(reports, "lint.sarif"), "--recursive", "."], codes: [1] },
      { args: ["--format", "github", "pools/broken"], env: { GITHUB_STEP_SUMMARY: path.join(reports, "summary.md") }, codes: [1] },
      { args: ["--stdin", "--stdin-filename", "pools/broken/outputs.tf", "--fix-dry-run"], input: "output \"x\" {\n  value = 1\n}\n", codes: [1] },
      { args: ["--stdin", "--stdin-filename", "machines/plain/main.tf"], input: "", codes: [0] },
      { args: ["--print-config", "pools/nested"], codes: [0] },
      { args: ["--report-unused-ignores", "--no-inline-config", "--quiet", "--max-warnings", "0", ...modules], codes: [1] },
      { args: ["rules"], codes: [0] },
      { args: ["rules", "--format", "json"], codes: [0] },
      { args: ["explain", "module/backend"], codes: [0] },
      { args: ["version", "--json"], codes: [0] },
      { args: ["--help"], codes: [0] },
      { args: ["--bogus", "pools/broken"], codes: [3] },
      { args: ["--role", "machine", "--fix", "--stdin", "--stdin-filename", "machines/plain/main.tf"], input: "", codes: [3] },
    );
    for (const run of runs) {
      const r = runCli(run.args, { cwd: root, ...(run.input !== undefined ? { input: run.input } : {}), ...(run.env ? { env: run.env } : {}) });
      expect(run.codes, `${run.args.join(" ")}\n${r.stderr}`).toContain(r.code);
    }
    expect(changed(before, snapshot(root))).toEqual([]);
    // The report files went where they were asked to, and only there.
    expect(readdirSync(reports).sort()).toEqual([".git", "lint.sarif", "summary.md"]);
    expect(JSON.parse(readFileSync(path.join(reports, "lint.sarif"), "utf8")).version).toBe("2.1.0");
  }, 300_000);
});

describe("--fix", () => {
  it("replaces fixed files by rename (new inode, mode kept), leaves others untouched, leaves no temporary files", () => {
    const root = workspace();
    const mod = path.join(root, "pools", "broken");
    chmodSync(path.join(mod, "variables.tf"), 0o640);
    const before = snapshot(root);
    const r = runCli(["--role", "machinepool", "--fix-unsafe", "--format", "json", "pools/broken"], { cwd: root });
    expect(r.stderr).toBe("tfcapi-lint: fixed 4 problems in 3 files\n");
    expect(r.code).toBe(1);
    const after = snapshot(root);
    const diff = changed(before, after);
    // Only the files with fixable findings changed; the directory's mtime
    // changes because of the rename.
    expect(diff).toEqual(["pools/broken/main.tf: content", "pools/broken/outputs.tf: content", "pools/broken/variables.tf: content", "pools/broken: mtime"]);
    for (const f of ["main.tf", "outputs.tf", "variables.tf"]) {
      const a = before.get(`pools/broken/${f}`)!;
      const b = after.get(`pools/broken/${f}`)!;
      expect(b.ino, f).not.toBe(a.ino);
      expect(b.mode, f).toBe(a.mode);
    }
    expect(statSync(path.join(mod, "variables.tf")).mode & 0o777).toBe(0o640);
    expect(readdirSync(mod).sort()).toEqual(["main.tf", "outputs.tf", "variables.tf", "versions.tf"]);
    // What is left after fixing has no fixable finding.
    const doc = parseDoc(r.stdout);
    expect(doc.findings.filter((f) => ["input/sensitive", "syntax/one-line-block", "pool/autoscaling-ignore-changes"].includes(f.id))).toEqual([]);
    expect(readFileSync(path.join(mod, "variables.tf"), "utf8")).toContain("sensitive = true");
    // A second --fix changes nothing at all.
    const again = snapshot(root);
    const second = runCli(["--role", "machinepool", "--fix-unsafe", "pools/broken"], { cwd: root });
    expect(second.code).toBe(1);
    expect(firstLine(second.stdout)).toBe("pools/broken/main.tf");
    expect(changed(again, snapshot(root))).toEqual([]);
  }, 60_000);

  it("fixes a symlinked module file through the link: the link stays, its target is rewritten", () => {
    const files = fixtureFiles("machine", "m/", (f, t) => (f === "variables.tf" ? t.replace('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}\n', "") : t));
    const root = tree({ ...files, "m/shared/bootstrap.tf": 'variable "bootstrap_data" {\n  type = string\n}\n' });
    symlinkSync("shared/bootstrap.tf", path.join(root, "m", "bootstrap.tf"));
    const before = runCli(["--role", "machine", "--format", "compact", "m"], { cwd: root });
    expect(before.stdout).toContain("m/bootstrap.tf:1:10: warning: ");
    const r = runCli(["--role", "machine", "--fix-unsafe", "m"], { cwd: root });
    expect(r.stderr).toBe("tfcapi-lint: fixed 1 problem in 1 file\n");
    expect(r.code).toBe(0);
    expect(firstLine(r.stdout)).toBe("✔ no problems");
    expect(lstatSync(path.join(root, "m", "bootstrap.tf")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(root, "m", "bootstrap.tf"))).toBe("shared/bootstrap.tf");
    expect(readFileSync(path.join(root, "m", "shared", "bootstrap.tf"), "utf8")).toBe('variable "bootstrap_data" {\n  type      = string\n  sensitive = true\n}\n');
    expect(readdirSync(path.join(root, "m", "shared"))).toEqual(["bootstrap.tf"]);
  });
});

/**
 * The library's lintModule checks what it is given: a wrong option is a
 * TypeError or RangeError naming it, thrown at the call, never a crash deep
 * in the engine or a report that quietly ignored the setting.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { lintModule } from "../../src/index.js";
import type { LintOptions } from "../../src/index.js";
import { REPO } from "../cli/helpers.js";

const POOL = path.join(REPO, "examples", "machinepool-aws");

/** The error lintModule throws for these arguments (fails the test when it returns). */
function thrown(dir: unknown, opts?: unknown): Error {
  try {
    lintModule(dir as string, opts as LintOptions);
  } catch (err) {
    return err as Error;
  }
  throw new Error("lintModule returned instead of throwing");
}

describe("lintModule input checks", () => {
  it("an unknown role is a RangeError naming options.role", () => {
    const err = thrown(POOL, { role: "pool" });
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe('lintModule: options.role is "pool", which is no CAPTF role: use "cluster", "machine", "machinepool", or leave it out to detect the role');
    const typed = thrown(POOL, { role: 3 });
    expect(typed).toBeInstanceOf(TypeError);
    expect(typed.message).toBe('lintModule: options.role must be one of "cluster", "machine", "machinepool", not the number 3');
  });

  it("severities as a plain object is a TypeError that says how to make the Map", () => {
    const err = thrown(POOL, { severities: { "input/sensitive": "off" } });
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe(
      'lintModule: options.severities must be a Map of rule ID to "off", "info", "warning" or "error", not a plain object; for a plain object, pass new Map(Object.entries(object))',
    );
  });

  it("an unknown severity or rule in severities is a RangeError naming both", () => {
    const sev = thrown(POOL, { severities: new Map([["input/sensitive", "fatal"]]) });
    expect(sev).toBeInstanceOf(RangeError);
    expect(sev.message).toBe('lintModule: options.severities sets "input/sensitive" to the string "fatal": a severity is "off", "info", "warning" or "error"');
    const rule = thrown(POOL, { severities: new Map([["input/sensitiv", "off"]]) });
    expect(rule).toBeInstanceOf(RangeError);
    expect(rule.message).toBe(
      'lintModule: options.severities names "input/sensitiv", which is no known rule (ALL_RULES lists the built-in ones; pass a plugin\'s rules in options.ruleSet)',
    );
    const allow = thrown(POOL, { allowWarnings: "input/sensitive" });
    expect(allow).toBeInstanceOf(TypeError);
    expect(allow.message).toBe('lintModule: options.allowWarnings must be an array of rule IDs, not the string "input/sensitive"');
  });

  it("a file where the module directory is expected is a TypeError naming dir", () => {
    const file = path.join(POOL, "main.tf");
    const err = thrown(file);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe(`lintModule: dir must be a module directory, and ${file} is a file: pass the directory that holds it`);
    expect(thrown(undefined)).toBeInstanceOf(TypeError);
    expect(thrown(POOL, "machinepool").message).toBe('lintModule: options must be an object (or left out), not the string "machinepool"');
  });

  it("good input still lints, and a missing directory is still a no-module outcome, not a throw", () => {
    const ok = lintModule(POOL, { role: "machinepool", severities: new Map([["input/sensitive", "off"]]), allowWarnings: ["pool/autoscaling-ignore-changes"] });
    expect(ok.kind).toBe("report");
    if (ok.kind === "report") expect(ok.report.summary).toEqual({ error: 0, warning: 0, info: 0 });
    const missing = lintModule(path.join(REPO, "examples", "no-such-module"));
    expect(missing).toEqual({ kind: "no-module", message: `cannot read module directory ${path.join(REPO, "examples", "no-such-module")}: no such file or directory` });
  });

  it("the built package throws the same error from its entry point", () => {
    const entry = pathToFileURL(path.join(REPO, "dist", "index.js")).href;
    const script = `import { lintModule } from ${JSON.stringify(entry)};
try { lintModule(${JSON.stringify(POOL)}, { severities: { "input/sensitive": "off" } }); console.log("returned"); }
catch (e) { console.log(e.constructor.name + ": " + e.message); }`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      'TypeError: lintModule: options.severities must be a Map of rule ID to "off", "info", "warning" or "error", not a plain object; for a plain object, pass new Map(Object.entries(object))\n',
    );
  });
});

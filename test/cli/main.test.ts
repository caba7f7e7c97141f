import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { parseArgs, UsageError } from "../../src/cli/args.js";
import { REPO } from "./helpers.js";

function io(overrides: Partial<Io> = {}): Io & { out: string; err: string } {
  const state = { out: "", err: "" };
  return Object.assign(state, {
    stdout: (t: string) => {
      state.out += t;
    },
    stderr: (t: string) => {
      state.err += t;
    },
    readStdin: async () => "",
    env: {},
    cwd: REPO,
    isTTY: false,
    ...overrides,
  });
}

describe("main()", () => {
  it("reports an internal error on one line with exit 2, the stack only with TFCAPI_LINT_DEBUG=1", async () => {
    const failing = () => Promise.reject(new Error("pipe exploded\nsecond line"));
    const quiet = io({ readStdin: failing });
    expect(await main(["--stdin", "--stdin-filename", "fixtures/cli/machine-clean/main.tf"], quiet)).toBe(2);
    expect(quiet.err).toBe("tfcapi-lint: internal error: pipe exploded\n");
    const debug = io({ readStdin: failing, env: { TFCAPI_LINT_DEBUG: "1" } });
    expect(await main(["--stdin", "--stdin-filename", "fixtures/cli/machine-clean/main.tf"], debug)).toBe(2);
    expect(debug.err.startsWith("tfcapi-lint: internal error: pipe exploded\nError: pipe exploded\nsecond line\n    at ")).toBe(true);
  });
});

describe("parseArgs", () => {
  it("accepts --opt=value, repeated and comma-separated options, and -- to end options", () => {
    const a = parseArgs(["--role=machine", "--allow-warning", "a/b,c/d", "--allow-warning=e/f", "--rule", "input/default=off", "--rule=x/y=error", "--", "--weird-dir"]);
    expect(a.role).toBe("machine");
    expect(a.allowWarnings).toEqual(["a/b", "c/d", "e/f"]);
    expect(a.ruleSettings).toEqual([{ id: "input/default", severity: "off" }, { id: "x/y", severity: "error" }]);
    expect(a.positionals).toEqual(["--weird-dir"]);
    expect(a.command).toBe("lint");
  });

  it("--fix-unsafe implies --fix, unless it widens --fix-dry-run", () => {
    const pick = (args: string[]) => {
      const a = parseArgs(args);
      return [a.fix, a.fixUnsafe, a.fixDryRun];
    };
    expect(pick(["--fix"])).toEqual([true, false, false]);
    expect(pick(["--fix-unsafe"])).toEqual([true, true, false]);
    expect(pick(["--fix-unsafe", "--fix"])).toEqual([true, true, false]);
    expect(pick(["--fix-unsafe", "--fix-dry-run"])).toEqual([false, true, true]);
    expect(pick(["--fix-dry-run", "--fix-unsafe"])).toEqual([false, true, true]);
    expect(pick(["--fix-dry-run"])).toEqual([false, false, true]);
    expect(() => parseArgs(["--fix-unsafe=yes"])).toThrow(new UsageError("option --fix-unsafe takes no value"));
  });

  it("recognises commands only as the first positional", () => {
    expect(parseArgs(["rules", "--format", "json"]).command).toBe("rules");
    expect(parseArgs(["./rules"]).positionals).toEqual(["./rules"]);
    expect(parseArgs(["mod", "rules"]).positionals).toEqual(["mod", "rules"]);
  });

  it("rejects bad values", () => {
    expect(() => parseArgs(["--max-warnings", "many"])).toThrow(new UsageError('--max-warnings expects a whole number, got "many"'));
    expect(() => parseArgs(["--strict=yes"])).toThrow(new UsageError("option --strict takes no value"));
    expect(() => parseArgs(["--rule", "input/default"])).toThrow(new UsageError('--rule expects ID=SEVERITY (e.g. --rule input/default=off), got "input/default"'));
  });
});

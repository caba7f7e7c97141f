/** Help texts: each command's --help, and where the general options are listed. */
import { describe, expect, it } from "vitest";
import { HELP } from "../../src/cli/args.js";
import { LSP_HELP, startLsp } from "../../src/cli/lsp.js";
import { UsageError } from "../../src/cli/args.js";
import { runCli } from "./helpers.js";

describe("tfcapi-lint --help", () => {
  it("lists --version and --help with the general options, not under the image options", () => {
    const general = HELP.slice(HELP.indexOf("\nOptions:\n"), HELP.indexOf("\nImage options"));
    const image = HELP.slice(HELP.indexOf("\nImage options"), HELP.indexOf("\nExit codes"));
    expect(general).toContain("\n  --version, -v             print the version\n");
    expect(general).toContain("\n  --help, -h                print this help\n");
    expect(image).not.toContain("--version");
    expect(image).not.toContain("--help");
    expect(image.trim().split("\n").slice(1).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(["--platform OS/ARCH", "--all-platforms", "--insecure"]);
  });
});

describe("tfcapi-lint --help: the result cache", () => {
  it("lists --cache and --cache-location with the general options", () => {
    const general = HELP.slice(HELP.indexOf("\nOptions:\n"), HELP.indexOf("\nImage options"));
    expect(general).toContain(
      "\n  --cache                   reuse each module's results from the last run\n" +
        "                            when nothing they depend on changed (contents,\n" +
        "                            never file times; not with --stdin)\n" +
        "  --cache-location PATH     the cache file, or a directory for it\n" +
        "                            (default: .tfcapi-lint-cache in the working\n" +
        "                            directory)\n",
    );
    expect(runCli(["--help"]).stdout).toBe(HELP);
  });
});

describe("tfcapi-lint lsp --help", () => {
  it("prints the command's help and exits 0 instead of starting the server", async () => {
    let out = "";
    expect(await startLsp(["lsp", "--help"], (t) => void (out += t))).toBe(0);
    expect(out).toBe(LSP_HELP);
    expect(out.startsWith("Usage: tfcapi-lint lsp [--stdio] [--no-plugins]\n")).toBe(true);
    out = "";
    expect(await startLsp(["lsp", "--stdio", "-h"], (t) => void (out += t))).toBe(0);
    expect(out).toBe(LSP_HELP);
  });

  it("an unknown argument is still a usage error naming it", () => {
    expect(() => startLsp(["lsp", "-h", "--socket=1"], () => {})).toThrow(
      new UsageError('lsp: unknown argument "--socket=1" (the server talks over stdin and stdout; --stdio is accepted for clients that pass it; --no-plugins loads no plugin)'),
    );
  });

  it("through the built CLI", () => {
    const r = runCli(["lsp", "--help"]);
    expect(r).toEqual({ code: 0, stdout: LSP_HELP, stderr: "" });
  });
});

/**
 * `tfcapi-lint lsp` run by something that does not speak LSP (a person
 * trying the command, a misconfigured editor): one clear line on stderr,
 * the protocol's exit status 1, nothing on stdout.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { BIN, REPO } from "./client.js";

const TAIL = "This is the language server: an editor starts it and speaks the Language Server Protocol on its standard input and output (see the README's Editors section).\n";

function serve(input: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, "lsp"], { cwd: REPO, input, encoding: "utf8", timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("lsp with input that is not the protocol", () => {
  beforeAll(() => ensureBuilt());

  it("a header without a colon: what is wrong, once, and exit 1", () => {
    expect(serve("hello world\r\n\r\nmore text\r\n\r\n")).toEqual({
      code: 1,
      stdout: "",
      stderr: `tfcapi-lint lsp: the input is not a Language Server Protocol message (Message header must separate key and value using ':' hello world). ${TAIL}`,
    });
  });

  it("input that ends before any message: said, and exit 1", () => {
    expect(serve("")).toEqual({ code: 1, stdout: "", stderr: `tfcapi-lint lsp: the input ended before any message. ${TAIL}` });
    expect(serve("no header end")).toEqual({ code: 1, stdout: "", stderr: `tfcapi-lint lsp: the input ended before any message. ${TAIL}` });
  });

  it("a client that initializes and goes away without shutdown: exit 1, and nothing said (it spoke LSP)", () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });
    const r = serve(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect([r.code, r.stderr]).toEqual([1, ""]);
  });
});

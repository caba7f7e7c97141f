/**
 * Issue 17, item 5: what a failed pull says. No OpenSSL or system text
 * reaches the user (what failed, and what to do), and an image from a
 * registry that cannot be read is reported under its reference in compact
 * and SARIF (there is no file to point at), not at the working directory.
 */
import * as http from "node:http";
import * as net from "node:net";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { netWords } from "../../src/image/registry.js";
import { run } from "./helpers.js";

const REPO = path.resolve(import.meta.dirname, "../..");
const Ajv = AjvDraft04.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat("uri", (s: string) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(s) && URL.canParse(s));
ajv.addFormat("uri-reference", (s: string) => /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/.test(s));
const validSarif = ajv.compile(JSON.parse(readFileSync(path.join(REPO, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"), "utf8")));

/** Nothing a user should read: OpenSSL's function names, errno names, Node's internals. */
const RAW = /ssl3_|SSL routines|EPROTO|ECONNRESET|ECONNREFUSED|EACCES|ENOENT|openssl|socket hang up|Parse Error/;

let httpServer: http.Server;
let garbage: net.Server;
let httpHost = "";
let garbageHost = "";
const sockets = new Set<net.Socket>();

function listen(server: net.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`127.0.0.1:${(server.address() as net.AddressInfo).port}`)));
}

beforeAll(async () => {
  // A plain-HTTP server (a local registry:2 without TLS, say).
  httpServer = http.createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  httpHost = await listen(httpServer);
  // Something that is neither TLS nor HTTP.
  garbage = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.end("hello, this is not a registry\r\n\r\n");
  });
  garbageHost = await listen(garbage);
});

afterAll(async () => {
  httpServer.closeAllConnections();
  for (const s of sockets) s.destroy();
  await new Promise((r) => httpServer.close(r));
  await new Promise((r) => garbage.close(r));
});

describe("a pull that fails says what failed and what to do", () => {
  it("HTTPS against a plain-HTTP registry: no OpenSSL text, and --insecure is suggested", async () => {
    const ref = `${httpHost}/team/app:v1`;
    const r = await run(["image", "-f", "compact", ref]);
    const message = `cannot read image ${ref}: cannot pull ${ref}: ${httpHost} did not answer over HTTPS (its answer is not TLS); if it is a plain-HTTP registry, use --insecure`;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tfcapi-lint: ${message}\n`);
    // Compact: under the reference, as the image's own findings are, not at the working directory.
    expect(r.stdout).toBe(`${ref}:0:0: error: ${message} [read-error]\n`);
    expect(r.stdout + r.stderr).not.toMatch(RAW);
  });

  it("SARIF: valid, with the reference as a logical location", async () => {
    const ref = `${httpHost}/team/app:v1`;
    const r = await run(["image", "-f", "sarif", ref]);
    expect(r.code).toBe(2);
    const log = JSON.parse(r.stdout) as { runs: { invocations: unknown[] }[] };
    expect(validSarif(log)).toBe(true);
    expect(log.runs[0]!.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: "error",
            message: { text: `cannot read image ${ref}: cannot pull ${ref}: ${httpHost} did not answer over HTTPS (its answer is not TLS); if it is a plain-HTTP registry, use --insecure` },
            descriptor: { id: "read-error" },
            locations: [{ logicalLocations: [{ name: ref, fullyQualifiedName: ref, kind: "resource" }] }],
          },
        ],
      },
    ]);
  });

  it("a server that speaks neither TLS nor HTTP, with --insecure: both attempts in words", async () => {
    const ref = `${garbageHost}/team/app:v1`;
    const r = await run(["image", "--insecure", "-f", "compact", ref]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tfcapi-lint: cannot read image ${ref}: cannot pull ${ref}: HTTPS: ${garbageHost} did not answer over HTTPS (its answer is not TLS); HTTP: ${garbageHost} did not answer with valid HTTP\n`,
    );
    expect(r.stdout + r.stderr).not.toMatch(RAW);
  });

  it("network failures in words", () => {
    const err = (code: string, message = `read ${code}`): NodeJS.ErrnoException => Object.assign(new Error(message), { code });
    expect(netWords(err("ECONNRESET"), "r.example:5000")).toBe("the connection to r.example:5000 was reset");
    expect(netWords(err("EHOSTUNREACH"), "r.example")).toBe("cannot reach r.example: no route to the host");
    expect(netWords(err("ENETUNREACH"), "r.example")).toBe("cannot reach r.example: the network is unreachable");
    expect(netWords(err("HPE_INVALID_CONSTANT", "Parse Error: Expected HTTP/"), "r.example")).toBe("r.example did not answer with valid HTTP");
    expect(netWords(Object.assign(new Error("aborted"), {}), "r.example")).toBe("the connection to r.example closed before the transfer ended");
    expect(netWords(err("EWEIRD", "something odd"), "r.example")).toBe("the connection to r.example failed (EWEIRD)");
  });
});

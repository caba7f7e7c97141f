/**
 * When the language server lints (scheduler.ts): a change that finds its
 * module idle is linted at once, whatever debounceMs is; a burst of changes
 * (coming while a run is under way or within debounceMs after one) is linted
 * once, in its last version, debounceMs after its last change.
 *
 * No clock decides an assertion here: a debounce of ten minutes makes any
 * wait for it show as a timeout, and the server's own counts (runs started
 * at once, runs started after a burst's wait) say which path each run took.
 * The one sleep lets a burst window run out before an edit that must find
 * the module idle; the counts then check that it did.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { asDiagnostic, cliFindings, LspClient, uri, workspace, type CliFinding, type Diagnostic } from "./client.js";

const ws = workspace("lsp-leading", { copy: { pool: "examples/broken-machinepool" }, killAfterEach: true });
let mod: string;
let outputs: string;
let original: string;
/** What the CLI reports in outputs.tf for the module as it is on disk. */
let expected: CliFinding[];

beforeAll(() => {
  mod = ws.at("pool");
  outputs = path.join(mod, "outputs.tf");
  original = readFileSync(outputs, "utf8");
  expected = cliFindings(mod).filter((f) => f.file === "outputs.tf");
  // The module has findings in outputs.tf, so every version below shows some.
  expect(expected.length).toBeGreaterThan(0);
});

/** outputs.tf with `n` comment lines on top: every finding moves down `n` lines. */
const withComments = (n: number): string => "# moved\n".repeat(n) + original;

/** The diagnostics outputs.tf must show with `n` comment lines on top. */
const shownWith = (n: number): Diagnostic[] => expected.map((f) => asDiagnostic({ ...f, line: f.line + n, endLine: f.endLine + n }));

type Stats = { runs: number; abandoned: number; leading: number; waited: number; debounceMs: number; linting: boolean };

const start = (debounceMs: number): Promise<LspClient> => ws.start({}, { debounceMs });

const stats = async (client: LspClient): Promise<Stats> => (await client.conn.sendRequest("tfcapi-lint/stats")) as Stats;

/** The versions of outputs.tf published since publication `from`. */
const versions = (client: LspClient, from: number): (number | undefined)[] => client.publications.slice(from).filter((p) => p.uri === uri(outputs)).map((p) => p.version);

describe("the language server lints on the leading edge", () => {
  it("opening a file with a debounce of ten minutes: the module is linted at once", async () => {
    const client = await start(600_000);
    await client.open(outputs, original);
    // A server that waited for the debounce would publish nothing before the test's timeout.
    expect(await client.nextDiagnostics(uri(outputs))).toEqual(shownWith(0));
    expect(await stats(client)).toMatchObject({ runs: 1, abandoned: 0, leading: 1, waited: 0, debounceMs: 600_000, linting: false });
    expect(versions(client, 0)).toEqual([1]);
  });

  it("an edit once the burst window has passed is linted at once, without a wait", async () => {
    const debounceMs = 1000;
    const client = await start(debounceMs);
    await client.open(outputs, original);
    await client.nextDiagnostics(uri(outputs));
    // Let the window after that run pass; the counts below check that the edit found the module idle.
    await new Promise((resolve) => setTimeout(resolve, debounceMs + 500));
    const from = client.publications.length;
    await client.change(outputs, withComments(1));
    await client.until("version 2 of outputs.tf", () => versions(client, from).includes(2));
    expect(client.diagnostics.get(uri(outputs))).toEqual(shownWith(1));
    expect(versions(client, from)).toEqual([2]);
    expect(await stats(client)).toMatchObject({ runs: 2, abandoned: 0, leading: 2, waited: 0 });
  });

  it("a burst of edits right after a run is linted once, in its last version", async () => {
    // Long enough that the three edits, sent back to back, all come within the window after the first run.
    const client = await start(3000);
    await client.open(outputs, original);
    await client.nextDiagnostics(uri(outputs));
    const from = client.publications.length;
    for (const n of [1, 2, 3]) await client.change(outputs, withComments(n));
    await client.until("version 4 of outputs.tf", () => versions(client, from).includes(4));
    // Versions 2 and 3 were never linted on their own: one run, after the burst's wait, for version 4.
    expect(versions(client, from)).toEqual([4]);
    expect(client.diagnostics.get(uri(outputs))).toEqual(shownWith(3));
    expect(await stats(client)).toMatchObject({ runs: 2, abandoned: 0, leading: 1, waited: 1, linting: false });
    expect(await client.stop()).toBe(0);
  });
});

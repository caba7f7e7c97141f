/**
 * The language server driven through a real JSON-RPC client (vscode-jsonrpc)
 * over the stdio of the built CLI: diagnostics for the whole module with
 * unsaved buffers, clearing, quick fixes and ignore comments applied to the
 * text, fix-all, hover, the configuration file, position encodings, bad
 * input, and a clean shutdown.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyEdits, asDiagnostic, BIN, cliFindings, DOCS, LspClient, REPO, uri, workspace, type CodeAction, type Diagnostic } from "./client.js";


const byRule = (list: readonly Diagnostic[], id: string): Diagnostic[] => list.filter((d) => d.code === id);

const ws = workspace("lsp", { copy: { pool: "examples/broken-machinepool" } });
const mod = (): string => ws.at("pool");
const f = (name: string): string => path.join(mod(), name);
const text = (name: string): string => readFileSync(f(name), "utf8");

describe("tfcapi-lint lsp over stdio", () => {
  let c: LspClient;
  /** The client's copy of each open document. */
  const docs = new Map<string, string>();

  async function openDoc(name: string): Promise<void> {
    docs.set(name, text(name));
    await c.open(f(name), docs.get(name)!);
  }
  async function setDoc(name: string, next: string): Promise<void> {
    docs.set(name, next);
    await c.change(f(name), next);
  }
  /** Apply a code action's WorkspaceEdit to the open documents and send the change, as an editor does. */
  async function apply(action: CodeAction): Promise<string> {
    const changes = Object.entries(action.edit!.changes!);
    expect(changes).toHaveLength(1);
    const [u, edits] = changes[0]!;
    const name = path.basename(new URL(u).pathname);
    expect(u).toBe(uri(f(name)));
    const next = applyEdits(docs.get(name)!, edits);
    await setDoc(name, next);
    return next;
  }

  beforeAll(() => {
    c = ws.client();
  });

  it("initializes with UTF-16 positions, quick fixes, fix-all and hover", async () => {
    const init = await c.initialize(
      { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } }, general: { positionEncodings: ["utf-16"] } },
      { debounceMs: 20 },
      ws.root,
    );
    expect(init.capabilities).toEqual({
      positionEncoding: "utf-16",
      textDocumentSync: { openClose: true, change: 2 },
      codeActionProvider: { codeActionKinds: ["quickfix", "source.fixAll.tfcapi-lint"] },
      hoverProvider: true,
    });
    await c.initialized();
    await c.until("the file watcher registration", () => c.registrations.length > 0);
    expect(c.registrations).toEqual([
      {
        id: expect.any(String),
        method: "workspace/didChangeWatchedFiles",
        registerOptions: { watchers: [{ globPattern: "**/.tfcapi-lint.hcl" }, { globPattern: "**/*.{tf,tf.json,tofu,tofu.json}" }] },
      },
    ]);
  });

  it("publishes the findings of every file of the module when one is opened, as the CLI reports them", async () => {
    const expected = cliFindings(mod());
    expect(expected.length).toBe(19);
    await openDoc("outputs.tf");
    const files = ["main.tf", "outputs.tf", "variables.tf", "versions.tf"];
    await c.until("diagnostics for all four files", () => files.every((n) => c.diagnostics.has(uri(f(n)))));
    for (const name of files) {
      expect(c.diagnostics.get(uri(f(name))), name).toEqual(expected.filter((x) => x.file === name).map(asDiagnostic));
    }
    // One finding spelled out.
    expect(byRule(c.diagnostics.get(uri(f("outputs.tf")))!, "output/health-shape")).toEqual([
      {
        range: { start: { line: 27, character: 14 }, end: { line: 27, character: 18 } },
        severity: 1,
        code: "output/health-shape",
        codeDescription: { href: `${DOCS}output/health-shape.md` },
        source: "tfcapi-lint",
        message: 'health.state "ok" is not a health state; use one of "pending", "running", "degraded", "stopped", "terminated", "unknown"',
      },
    ]);
  });

  it("updates outputs.tf when variables.tf changes unsaved; a module-level finding goes to the top of outputs.tf", async () => {
    // Without its health output the module misses a contract output, but
    // while variables.tf does not parse (a one-line block with two
    // arguments) "not declared" checks stand down: the declaration could be
    // in the part that does not parse.
    const withoutHealth = docs.get("outputs.tf")!.replace(/\n# "ok" is not[\s\S]*$/, "\n");
    await setDoc("outputs.tf", withoutHealth);
    let outs = await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health-shape").length === 0);
    expect(byRule(outs, "output/health")).toEqual([]);

    await openDoc("variables.tf");
    const oneLine = 'variable "failure_domains" { type = list(string) default = [] }';
    expect(docs.get("variables.tf")).toContain(oneLine);
    await setDoc("variables.tf", docs.get("variables.tf")!.replace(oneLine, 'variable "failure_domains" {\n  type = list(string)\n}'));
    outs = await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health").length > 0);
    const message = 'Output "health" is not declared; add one whose value is an object with state and healthy (e.g. { state = "running", healthy = true })';
    expect(byRule(outs, "output/health")).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 22 } },
        severity: 1,
        code: "output/health",
        codeDescription: { href: `${DOCS}output/health.md` },
        source: "tfcapi-lint",
        message,
      },
    ]);
    await c.latest(uri(f("variables.tf")), (d) => byRule(d, "syntax/one-line-block").length === 0);
    // The CLI reports the same finding about the module as a whole.
    const cliDir = mkdtempSync(ws.at("cli-"));
    cpSync(mod(), cliDir, { recursive: true });
    writeFileSync(path.join(cliDir, "outputs.tf"), withoutHealth);
    writeFileSync(path.join(cliDir, "variables.tf"), docs.get("variables.tf")!);
    expect(cliFindings(cliDir).filter((x) => x.id === "output/health").map((x) => [x.file, x.line, x.message])).toEqual([["", 0, message]]);
    rmSync(cliDir, { recursive: true, force: true });

    // A parse error in variables.tf: a diagnostic there, and outputs.tf loses the finding again.
    await setDoc("variables.tf", `${text("variables.tf")}\nvariable "unfinished" {\n`);
    const vars = await c.latest(uri(f("variables.tf")), (d) => byRule(d, "syntax/parse").length > 0);
    expect(byRule(vars, "syntax/parse").map((d) => d.range.start)).toEqual([{ line: 81, character: 22 }]);
    await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health").length === 0);

    await setDoc("variables.tf", text("variables.tf"));
    await c.latest(uri(f("variables.tf")), (d) => byRule(d, "syntax/parse").length === 0);
    await setDoc("outputs.tf", text("outputs.tf"));
    await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health-shape").length === 1);
  });

  it("clears a file's diagnostics when its findings go away", async () => {
    await openDoc("versions.tf");
    const noBackend = docs.get("versions.tf")!.replace(/\n  # The generated root[\s\S]*?\n  }\n/, "\n");
    expect(noBackend).not.toContain("backend");
    await setDoc("versions.tf", noBackend);
    expect(await c.latest(uri(f("versions.tf")), (d) => d.length === 0)).toEqual([]);
    await setDoc("versions.tf", text("versions.tf"));
    const back = await c.latest(uri(f("versions.tf")), (d) => d.length > 0);
    expect(back.map((d) => [d.code, d.range.start.line, d.range.start.character])).toEqual([["module/backend", 4, 2]]);
  });

  it("offers the fix (preferred) and both ignores; the fix applied gives the fixed text", async () => {
    const at = { start: { line: 7, character: 12 }, end: { line: 7, character: 12 } };
    const actions = await c.codeActions(f("outputs.tf"), at);
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred ?? false])).toEqual([
      ["Wrap the value in sort()", "quickfix", true],
      ["Ignore output/provider-id-list-shape on this line/block", "quickfix", false],
      ["Ignore output/provider-id-list-shape in this file", "quickfix", false],
      ["Fix all auto-fixable tfcapi-lint findings in this file", "source.fixAll.tfcapi-lint", false],
    ]);
    expect(actions[0]!.diagnostics!.map((d) => d.code)).toEqual(["output/provider-id-list-shape"]);
    const fixed = await apply(actions[0]!);
    expect(fixed.split("\n")[7]).toBe(
      '  value = sort([for id, member in data.aws_instance.member : "aws:///${member.availability_zone}/${id}" if member.instance_state == "running"])',
    );
    expect(fixed.replace("sort([for", "[for").replace('"running"])', '"running"]')).toBe(text("outputs.tf"));
    const list = await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/provider-id-list-shape").length === 1);
    expect(byRule(list, "output/provider-id-list-shape")[0]!.message).toContain('filtered on "running"');
  });

  it("inserts an ignore comment for the line/block, and one for the file", async () => {
    const health = byRule(c.diagnostics.get(uri(f("outputs.tf")))!, "output/health-shape")[0]!;
    const actions = await c.codeActions(f("outputs.tf"), health.range);
    const line = actions.find((a) => a.title === "Ignore output/health-shape on this line/block")!;
    expect(line.edit!.changes![uri(f("outputs.tf"))]).toEqual([
      { range: { start: { line: 27, character: 0 }, end: { line: 27, character: 0 } }, newText: "    # tfcapi-lint-ignore: output/health-shape\n" },
    ]);
    const after = await apply(line);
    expect(after.split("\n").slice(25, 31)).toEqual([
      'output "health" {',
      "  value = {",
      "    # tfcapi-lint-ignore: output/health-shape",
      '    state   = "ok"',
      "    healthy = true",
      "  }",
    ]);
    await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health-shape").length === 0);

    const replicas = byRule(c.diagnostics.get(uri(f("outputs.tf")))!, "pool/replicas-output")[0]!;
    expect(replicas.range.start.line).toBe(12);
    const fileWide = (await c.codeActions(f("outputs.tf"), replicas.range)).find((a) => a.title === "Ignore pool/replicas-output in this file")!;
    const after2 = await apply(fileWide);
    expect(after2).toBe(`# tfcapi-lint-ignore-file: pool/replicas-output\n${after}`);
    const list = await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "pool/replicas-output").length === 0);
    expect(list.map((d) => d.code)).toEqual(["output/provider-id-list-shape"]);
  });

  it("fixes everything safely fixable in a file with source.fixAll.tfcapi-lint, as --fix does; an unsafe fix stays a quick fix marked unsafe", async () => {
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await c.codeActions(f("variables.tf"), top, ["source.fixAll"]);
    expect(actions.map((a) => [a.title, a.kind])).toEqual([["Fix all auto-fixable tfcapi-lint findings in this file", "source.fixAll.tfcapi-lint"]]);
    const fixed = await apply(actions[0]!);
    // The CLI's --fix (safe fixes only) on a copy writes the same text.
    const cliDir = mkdtempSync(ws.at("fix-"));
    cpSync(mod(), cliDir, { recursive: true });
    spawnSync(process.execPath, [BIN, "--fix", "."], { cwd: cliDir });
    const cliFixed = readFileSync(path.join(cliDir, "variables.tf"), "utf8");
    rmSync(cliDir, { recursive: true, force: true });
    expect(fixed).toBe(cliFixed);
    // The one-line block (safe) is split; bootstrap_data is not marked sensitive (unsafe: it changes the plan).
    expect(fixed.split("\n").slice(37, 40)).toEqual(['variable "bootstrap_data" {', "  type = string", "}"]);
    expect(fixed.split("\n").slice(46, 50)).toEqual(['variable "failure_domains" {', "  type    = list(string)", "  default = []", "}"]);
    const list = await c.latest(uri(f("variables.tf")), (d) => byRule(d, "syntax/one-line-block").length === 0);
    const sensitive = byRule(list, "input/sensitive");
    expect(sensitive.map((d) => d.range.start)).toEqual([{ line: 37, character: 9 }]);
    // Only unsafe fixes left: no fix-all action.
    expect(await c.codeActions(f("variables.tf"), top, ["source.fixAll"])).toEqual([]);
    // The unsafe fix is a quick fix whose title says so, never the preferred one.
    const quick = await c.codeActions(f("variables.tf"), sensitive[0]!.range);
    expect(quick.map((a) => [a.title, a.kind, a.isPreferred ?? false])).toEqual([
      ['Mark variable "bootstrap_data" sensitive (unsafe: changes the plan)', "quickfix", false],
      ["Ignore input/sensitive on this line/block", "quickfix", false],
      ["Ignore input/sensitive in this file", "quickfix", false],
    ]);
    const marked = await apply(quick[0]!);
    expect(marked.split("\n").slice(37, 41)).toEqual(['variable "bootstrap_data" {', "  type      = string", "  sensitive = true", "}"]);
    await c.latest(uri(f("variables.tf")), (d) => byRule(d, "input/sensitive").length === 0);
    // The file on disk is untouched.
    expect(text("variables.tf")).toBe(readFileSync(path.join(REPO, "examples", "broken-machinepool", "variables.tf"), "utf8"));
  });

  it("shows the rule's documentation on hover over a finding", async () => {
    const d = byRule(c.diagnostics.get(uri(f("main.tf")))!, "bootstrap/encoding")[0]!;
    expect(d.range).toEqual({ start: { line: 22, character: 14 }, end: { line: 22, character: 46 } });
    await openDoc("main.tf");
    const h = await c.hover(f("main.tf"), { line: 22, character: 20 });
    expect(h!.range).toEqual(d.range);
    expect(h!.contents.kind).toBe("markdown");
    const page = readFileSync(path.join(REPO, "rules", "bootstrap", "encoding.md"), "utf8").trim();
    expect(h!.contents.value).toBe(`**bootstrap/encoding** (error): ${d.message}\n\n---\n\n${page}\n\n[bootstrap/encoding documentation](${DOCS}bootstrap/encoding.md)`);
    expect(await c.hover(f("main.tf"), { line: 0, character: 0 })).toBeNull();
  });

  it("reads .tfcapi-lint.hcl, reloads it on a watched-file change and shows its errors on it", async () => {
    const config = ws.at(".tfcapi-lint.hcl");
    writeFileSync(config, 'rule "pool/min-max-unpinned" {\n  severity = "off"\n}\nrule "bootstrap/encoding" {\n  severity = "info"\n}\n');
    await c.watched([{ uri: uri(config), type: 1 }]);
    const main = await c.latest(uri(f("main.tf")), (d) => byRule(d, "pool/min-max-unpinned").length === 0);
    expect(byRule(main, "bootstrap/encoding").map((d) => d.severity)).toEqual([3]);
    expect(c.diagnostics.get(uri(config))).toEqual([]);

    writeFileSync(config, 'rule "pool/min-max-unpinned" {\n  severity = "off"\n}\nrule "no/such-rule" {\n  severity = "off"\n}\n');
    await c.watched([{ uri: uri(config), type: 2 }]);
    const errs = await c.latest(uri(config), (d) => d.length > 0);
    expect(errs).toEqual([
      {
        range: { start: { line: 3, character: 5 }, end: { line: 3, character: 21 } },
        severity: 1,
        source: "tfcapi-lint",
        message: 'config error: unknown rule "no/such-rule" (run "tfcapi-lint rules" for the list)',
      },
    ]);
    // Meanwhile the module is linted with the defaults.
    await c.latest(uri(f("main.tf")), (d) => byRule(d, "pool/min-max-unpinned").length === 2);

    unlinkSync(config);
    await c.watched([{ uri: uri(config), type: 3 }]);
    expect(await c.latest(uri(config), (d) => d.length === 0)).toEqual([]);

    // A client that watches no files: the next lint sees the new file anyway.
    writeFileSync(config, 'rule "input/reserved" {\n  severity = "off"\n}\n');
    await setDoc("variables.tf", `${docs.get("variables.tf")!}\n`);
    await c.latest(uri(f("variables.tf")), (d) => d.length > 0 && byRule(d, "input/reserved").length === 0);
    writeFileSync(config, 'fail_on = "never"\n');
    await setDoc("variables.tf", docs.get("variables.tf")!.slice(0, -1));
    await c.latest(uri(f("variables.tf")), (d) => byRule(d, "input/reserved").length === 1);
    expect(await c.latest(uri(config), (d) => d.length > 0)).toEqual([
      {
        range: { start: { line: 0, character: 10 }, end: { line: 0, character: 17 } },
        severity: 1,
        source: "tfcapi-lint",
        message: 'config error: fail_on must be one of "error", "warning", "info"',
      },
    ]);
    unlinkSync(config);
    await setDoc("variables.tf", `${docs.get("variables.tf")!}\n`);
    expect(await c.latest(uri(config), (d) => d.length === 0)).toEqual([]);
  });

  it("turns bad input into diagnostics and keeps answering", async () => {
    await setDoc("main.tf", 'resource "aws_instance" {{{ "\n\u0000\uFFFF}\n');
    const list = await c.latest(uri(f("main.tf")), (d) => byRule(d, "syntax/parse").length > 0);
    expect(list.every((d) => d.source === "tfcapi-lint")).toBe(true);
    expect(byRule(list, "syntax/parse")[0]!.range.start).toEqual({ line: 0, character: 25 });
    // Requests about things the server does not know get empty answers.
    expect(await c.codeActions(ws.at("nowhere", "x.tf"), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })).toEqual([]);
    expect(await c.conn.sendRequest("textDocument/hover", { textDocument: { uri: "untitled:Untitled-1" }, position: { line: 0, character: 0 } })).toBeNull();
    expect(await c.codeActions(f("main.tf"), { start: { line: 999, character: 999 }, end: { line: 999, character: 999 } })).toEqual([]);
    // A malformed request is answered (with an error or nothing), and the server lives on.
    await c.conn.sendRequest("textDocument/codeAction", { textDocument: { uri: uri(f("main.tf")) } }).catch(() => null);
    await setDoc("main.tf", text("main.tf"));
    await c.latest(uri(f("main.tf")), (d) => byRule(d, "bootstrap/encoding").length === 1);
  });

  it("leaves the files on disk alone, and shuts down and exits with status 0", async () => {
    for (const name of ["main.tf", "outputs.tf", "variables.tf", "versions.tf"]) {
      expect(text(name), name).toBe(readFileSync(path.join(REPO, "examples", "broken-machinepool", name), "utf8"));
    }
    expect(await c.stop()).toBe(0);
    expect(c.stderr).toBe("");
  });
});

describe("position encodings", () => {
  // "é" is 1 UTF-16 unit, 2 UTF-8 bytes, 1 code point; "🚀" is 2, 4 and 1.
  const line = '    state   = /* é🚀 */ "ok"';
  const cases: [string[] | undefined, string, number][] = [
    [undefined, "utf-16", 24],
    [["utf-8", "utf-16"], "utf-8", 27],
    [["utf-32"], "utf-32", 23],
    [["utf-7", "utf-16"], "utf-16", 24],
  ];
  for (const [offered, chosen, column] of cases) {
    it(`offers ${JSON.stringify(offered)}: positions in ${chosen}`, async () => {
      const c = new LspClient({ cwd: ws.root, args: ["--stdio"] });
      try {
        const init = await c.initialize(offered ? { general: { positionEncodings: offered } } : {}, { debounceMs: 0 });
        expect(init.capabilities.positionEncoding).toBe(chosen);
        await c.initialized();
        const outputs = text("outputs.tf").replace('    state   = "ok"', line);
        await c.open(f("outputs.tf"), outputs);
        const list = await c.latest(uri(f("outputs.tf")), (d) => byRule(d, "output/health-shape").length > 0);
        const d = byRule(list, "output/health-shape")[0]!;
        expect(d.range).toEqual({ start: { line: 27, character: column }, end: { line: 27, character: column + 4 } });
        const h = await c.hover(f("outputs.tf"), { line: 27, character: column + 1 });
        expect(h!.contents.value.startsWith("**output/health-shape** (error)")).toBe(true);
        // The ignore comment lands on the line in any encoding.
        const ignore = (await c.codeActions(f("outputs.tf"), d.range)).find((a) => a.title.startsWith("Ignore output/health-shape on"))!;
        expect(ignore.edit!.changes![uri(f("outputs.tf"))]![0]!.range.start).toEqual({ line: 27, character: 0 });
        expect(await c.stop()).toBe(0);
      } finally {
        c.kill();
      }
    });
  }
});

describe("tfcapi-lint lsp arguments", () => {
  it("rejects what it does not understand with a usage error", () => {
    const r = spawnSync(process.execPath, [BIN, "lsp", "--socket=9000"], { encoding: "utf8", input: "" });
    expect(r.status).toBe(3);
    expect(r.stderr).toBe(
      'tfcapi-lint: lsp: unknown argument "--socket=9000" (the server talks over stdin and stdout; --stdio is accepted for clients that pass it; --no-plugins loads no plugin)\nRun tfcapi-lint --help for usage.\n',
    );
  });
});

describe("a large module", () => {
  it("abandons a run made stale by a newer edit, publishes only the newest version, and answers requests meanwhile", async () => {
    const dir = ws.at("large");
    cpSync(path.join(REPO, "examples", "machinepool-aws"), dir, { recursive: true });
    const N = 1500;
    let big = "";
    for (let i = 0; i < N; i++) {
      big += `variable "extra_${i}" {\n  type    = string\n  default = "v${i}"\n}\n\nresource "aws_ssm_parameter" "p${i}" {\n  name  = "/x/${i}"\n  type  = "String"\n  value = "\${var.extra_${i}}-\${timestamp()}"\n}\n\n`;
    }
    const file = path.join(dir, "big.tf");
    writeFileSync(file, big);
    const c = new LspClient({ cwd: ws.root });
    try {
      // sliceMs 0: a run yields to the event loop after every step (each
      // rule), so an edit sent once the server says it is linting comes in
      // while steps of that run are still to do.
      await c.initialize({}, { debounceMs: 0, sliceMs: 0 });
      await c.initialized();
      await c.open(file, big);
      const first = await c.latest(uri(file), (d) => d.length > 0, 120_000);
      expect(first).toHaveLength(N);
      type Stats = { runs: number; abandoned: number; linting: boolean };
      const stats = async (): Promise<Stats> => (await c.conn.sendRequest("tfcapi-lint/stats")) as Stats;
      const u = uri(file);
      const v2 = big.replace("-${timestamp()}", "");
      const v3 = v2.replace("-${timestamp()}", "");
      let version = 1;
      const published = (v: number, since: number): boolean => c.publications.slice(since).some((p) => p.uri === u && p.version === v);
      // Two edits in a row, the second sent while the server is linting the
      // first. No clock decides the outcome: the server's own counts say
      // whether the first run was abandoned (overtaken by the second edit) or
      // finished first, and each outcome has exact expectations. The edits
      // are repeated until the first run was overtaken; a server that never
      // abandons a stale run fails on the attempt limit.
      for (let attempt = 0; ; attempt++) {
        expect(attempt, "the second edit never came in while the first one was being linted").toBeLessThan(20);
        const before = await stats();
        expect(before.linting).toBe(false);
        const from = c.publications.length;
        await c.change(file, v2);
        const older = ++version;
        // Ask until the answer comes while the run of `older` is under way. A
        // server that lints without yielding never answers during a run: it
        // publishes `older` instead, which ends the wait and fails here.
        let during = await stats();
        while (!during.linting && !published(older, from)) during = await stats();
        if (!during.linting) {
          // The whole run of `older` fell between two answers (a busy
          // machine delays the client too): this attempt shows nothing, so
          // try again. A server that never answers during a run ends here
          // every time and fails on the attempt limit above.
          expect(during).toMatchObject({ runs: before.runs + 1, abandoned: before.abandoned });
          continue;
        }
        expect(during).toMatchObject({ linting: true, runs: before.runs, abandoned: before.abandoned });
        const sent = c.change(file, v3);
        const newer = ++version;
        // The server answers while it lints (the answer itself may come
        // before or after either run ends, as the machine's load decides).
        await stats();
        await sent;
        const last = await c.latest(u, (d) => d.length === N - 2 && published(newer, from), 120_000);
        expect(last).toHaveLength(N - 2);
        const mine = c.publications.slice(from).filter((p) => p.uri === u);
        const after = await stats();
        if (after.abandoned === before.abandoned + 1) {
          // The run of `older` was overtaken: abandoned, never published.
          expect(mine.map((p) => p.version)).toEqual([newer]);
          expect(after).toMatchObject({ linting: false, runs: before.runs + 1 });
          break;
        }
        // The run of `older` finished before the second edit came in: both are published, in order.
        expect(after).toMatchObject({ linting: false, runs: before.runs + 2, abandoned: before.abandoned });
        expect(mine.map((p) => p.version)).toEqual([older, newer]);
        expect(mine[0]!.diagnostics).toHaveLength(N - 1);
      }
      expect(await c.stop()).toBe(0);
    } finally {
      c.kill();
    }
  }, 240_000);
});

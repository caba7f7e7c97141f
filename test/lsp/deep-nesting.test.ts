/**
 * The language server at depth, through the real client: a module
 * (examples/machine-aws) with one unsaved file nested 100,000 levels deep,
 * three findings at the innermost levels (a volatile call in the 100,000th
 * nested block, a one-line block beside it, the version through 100,000
 * nested for expressions), and every path the server walks driven there:
 * diagnostics (with related information), hover, quick fix, ignore
 * comments, fix-all, incremental edits at the innermost level and a syntax
 * error there. Then shapes whose every level holds an argument (nested
 * dynamic blocks, native and JSON: the server ran out of memory on them
 * while bodyAttributes made every attribute's path at once) and a heredoc
 * inside 100,000 brackets, each hovered and ignored at the innermost level.
 * The server must answer each with exact positions, on its main thread,
 * without logging a failure or writing to stderr. No timing is asserted:
 * the waits only bound how long a dead or stuck server is waited for.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyEdits, DOCS, LspClient, REPO, uri, workspace, type CodeAction, type Diagnostic, type Range, type TextEdit } from "./client.js";

const N = 100_000;
/** How long a wait for the server may take (a lint of the deep module is about a second; fix-all lints it once per pass). */
const WAIT = 120_000;

const range = (sl: number, sc: number, el: number, ec: number): Range => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

/* The deep file, line by line (0-based, as the client counts). */
/** `  nested {` on lines 1..N; the innermost body starts on line N + 1. */
const INPUT_LINE = N + 1;
const INPUT = "    input = uuid()";
const INNER_LINE = N + 2;
const INNER = "    inner { a = 1 b = 2 }";
/** The one-line block split, one argument per line. */
const SPLIT = "    inner {\n      a = 1\n      b = 2\n    }";
/** The data source after the resource's N closing braces. */
const AMI_LINE = 2 * N + 4;
const VALUES_LINE = AMI_LINE + 4;
const VALUES = `    values = ${"[for v in ".repeat(N)}[var.kubernetes_version]${" : v]".repeat(N)}`;
/** Where var.kubernetes_version sits in VALUES (inside N brackets). */
const VERSION_AT = VALUES.indexOf("var.kubernetes_version");

const DEEP =
  'resource "terraform_data" "deep" {\n' +
  "  nested {\n".repeat(N) +
  `${INPUT}\n${INNER}\n` +
  "  }\n".repeat(N) +
  "}\n" +
  'data "aws_ami" "deep" {\n  owners = ["self"]\n  filter {\n    name   = "name"\n' +
  `${VALUES}\n` +
  "  }\n}\n";

/** drift/non-idempotent's message for a call `fn` at `path` (names joined by dots) of a terraform_data resource. */
const drift = (fn: string, resource: string, path: string, instead: string): string =>
  `${fn}() gives terraform_data.${resource} "${path}" a new value on every plan, so drift checks always fire: use a ${instead} resource instead, or add ${path.split(".")[0]} to lifecycle ignore_changes.`;
const NESTED_PATH = [...Array<string>(N).fill("nested"), "input"].join(".");
const driftMessage = (fn: string, instead: string): string => drift(fn, "deep", NESTED_PATH, instead);
const ONE_LINE = "inner is written on one line with 2 arguments, which Terraform rejects (a one-line block may hold a single argument); put each argument and nested block on its own line";
const DISTRO =
  'var.kubernetes_version reaches data.aws_ami.deep with any distro suffix (e.g. "v1.31.4+rke2r1"), which no image matches: look up split("+", var.kubernetes_version)[0] instead.';

const ws = workspace("lsp-deep", { copy: { vm: "examples/machine-aws" } });
let dir: string;
let deep: string;
let variables: string;
let c: LspClient | undefined;

beforeAll(() => {
  dir = ws.at("vm");
  deep = path.join(dir, "deep.tf");
  variables = path.join(dir, "variables.tf");
});

/** The 0-based line of `variable "kubernetes_version"` in the example's variables.tf. */
function versionVariableLine(): number {
  const line = readFileSync(variables, "utf8").split("\n").indexOf('variable "kubernetes_version" {');
  expect(line).toBeGreaterThan(0);
  return line;
}

/**
 * The diagnostics the server publishes for version `v` of the document `abs`
 * (it publishes the version it linted); an error at once, with the server's
 * stderr, when the server exits first (out of memory, say).
 */
async function publishedFor(abs: string, v: number): Promise<Diagnostic[]> {
  const client = c!;
  const mine = () => client.publications.filter((p) => p.uri === uri(abs) && p.version === v);
  const gone = (): boolean => client.child.exitCode !== null || client.child.signalCode !== null;
  await client.until(`diagnostics for version ${v} of ${abs}`, () => mine().length > 0 || gone(), WAIT);
  const found = mine().at(-1);
  if (!found) throw new Error(`the server exited (${client.child.exitCode ?? client.child.signalCode}) before publishing version ${v} of ${abs}; stderr: ${client.stderr.slice(0, 2000)}`);
  return found.diagnostics;
}

/** The version/distro-suffix diagnostic on var.kubernetes_version in the data source's values line (0-based `line`), with the variable it comes from. */
const distroAt = (line: number) => ({
  range: range(line, VERSION_AT, line, VERSION_AT + "var.kubernetes_version".length),
  severity: 2,
  code: "version/distro-suffix",
  codeDescription: { href: `${DOCS}version/distro-suffix.md` },
  source: "tfcapi-lint",
  message: DISTRO,
  relatedInformation: [{ location: { uri: uri(variables), range: range(versionVariableLine(), 0, versionVariableLine(), 29) }, message: "var.kubernetes_version (variable)" }],
});

const page = (id: string): string => readFileSync(path.join(REPO, "rules", ...id.split("/")) + ".md", "utf8").trim();

describe(`the language server on a file nested ${N} levels deep`, { timeout: 2 * WAIT }, () => {
  /** The client's copy of the deep document. */
  let text = DEEP;
  const byRule = (id: string): Diagnostic[] => (c!.diagnostics.get(uri(deep)) ?? []).filter((d) => d.code === id);
  const summary = (list: readonly Diagnostic[]): [string, Range][] => list.map((d) => [String(d.code), d.range]);

  /** The version of the deep document the client last sent (didOpen sends 1). */
  let version = 1;
  /** Send the document's whole new text, as an editor applying a workspace edit may. */
  async function setText(next: string): Promise<void> {
    text = next;
    version++;
    await c!.change(deep, next);
  }
  /** Send one incremental edit (a range and its new text) and apply it to the client's copy. */
  async function editText(edit: TextEdit): Promise<void> {
    text = applyEdits(text, [edit]);
    version++;
    await c!.edit(deep, [edit]);
  }
  /** The diagnostics the server publishes for the version just sent. */
  const linted = (): Promise<Diagnostic[]> => publishedFor(deep, version);
  /** The edits of a code action for the deep file (its only file). */
  function editsOf(a: CodeAction) {
    expect(Object.keys(a.edit!.changes!)).toEqual([uri(deep)]);
    return a.edit!.changes![uri(deep)]!;
  }
  /** Nothing went wrong in the server: no failure logged (a handler that threw answers an empty result), nothing on stderr. */
  function healthy(): void {
    expect(c!.logs).toEqual([]);
    expect(c!.stderr).toBe("");
    expect(c!.child.exitCode).toBeNull();
  }

  it("publishes the findings at the innermost levels with their exact ranges, the related variable included", async () => {
    c = await ws.start({ textDocument: { publishDiagnostics: { relatedInformation: true } }, general: { positionEncodings: ["utf-16"] } });
    await c.open(deep, DEEP);
    const list = await linted();
    expect(list).toEqual([
      {
        range: range(INPUT_LINE, 12, INPUT_LINE, 18),
        severity: 2,
        code: "drift/non-idempotent",
        codeDescription: { href: `${DOCS}drift/non-idempotent.md` },
        source: "tfcapi-lint",
        message: driftMessage("uuid", "random_uuid"),
      },
      {
        range: range(INNER_LINE, 18, INNER_LINE, 19),
        severity: 1,
        code: "syntax/one-line-block",
        codeDescription: { href: `${DOCS}syntax/one-line-block.md` },
        source: "tfcapi-lint",
        message: ONE_LINE,
      },
      distroAt(VALUES_LINE),
    ]);
    // The rest of the module is clean.
    for (const name of ["main.tf", "outputs.tf", "variables.tf", "versions.tf"]) expect(c.diagnostics.get(uri(path.join(dir, name))) ?? [], name).toEqual([]);
    healthy();
  });

  it("hovers: the finding's page on its range, nothing deep in the nesting where there is no finding", async () => {
    const [drift] = byRule("drift/non-idempotent");
    const h = await c!.hover(deep, { line: INPUT_LINE, character: 14 });
    expect(h).toEqual({
      contents: {
        kind: "markdown",
        value: `**drift/non-idempotent** (warning): ${drift!.message}\n\n---\n\n${page("drift/non-idempotent")}\n\n[drift/non-idempotent documentation](${DOCS}drift/non-idempotent.md)`,
      },
      range: range(INPUT_LINE, 12, INPUT_LINE, 18),
    });
    const v = await c!.hover(deep, { line: VALUES_LINE, character: VERSION_AT + 5 });
    expect(v).toEqual({
      contents: {
        kind: "markdown",
        value: `**version/distro-suffix** (warning): ${DISTRO}\n\n---\n\n${page("version/distro-suffix")}\n\n[version/distro-suffix documentation](${DOCS}version/distro-suffix.md)`,
      },
      range: range(VALUES_LINE, VERSION_AT, VALUES_LINE, VERSION_AT + "var.kubernetes_version".length),
    });
    // The innermost `nested {`, and halfway down the brackets: no finding there.
    expect(await c!.hover(deep, { line: N, character: 4 })).toBeNull();
    expect(await c!.hover(deep, { line: VALUES_LINE, character: 13 + (N / 2) * "[for v in ".length })).toBeNull();
    // Just before the findings' starts.
    expect(await c!.hover(deep, { line: INPUT_LINE, character: 11 })).toBeNull();
    expect(await c!.hover(deep, { line: VALUES_LINE, character: VERSION_AT - 1 })).toBeNull();
    healthy();
  });

  it("fix-all splits the one-line block at the innermost level, as one minimal edit", async () => {
    const actions = await c!.codeActions(deep, range(0, 0, 0, 0), ["source.fixAll"]);
    expect(actions.map((a) => [a.title, a.kind])).toEqual([["Fix all auto-fixable tfcapi-lint findings in this file", "source.fixAll.tfcapi-lint"]]);
    expect(editsOf(actions[0]!)).toEqual([{ range: range(INNER_LINE, 11, INNER_LINE, 23), newText: "\n      a = 1\n      b = 2\n   " }]);
    expect(applyEdits(text, editsOf(actions[0]!))).toBe(DEEP.replace(`\n${INNER}\n`, `\n${SPLIT}\n`));
    healthy();
  });

  it("offers the one-line block's quick fix and both ignores; the fix applied clears the finding", async () => {
    const [block] = byRule("syntax/one-line-block");
    const actions = await c!.codeActions(deep, block!.range);
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred ?? false, a.diagnostics?.map((d) => d.code)])).toEqual([
      ["Expand the block to one argument per line", "quickfix", true, ["syntax/one-line-block"]],
      ["Ignore syntax/one-line-block on this line/block", "quickfix", false, ["syntax/one-line-block"]],
      ["Ignore syntax/one-line-block in this file", "quickfix", false, ["syntax/one-line-block"]],
      ["Fix all auto-fixable tfcapi-lint findings in this file", "source.fixAll.tfcapi-lint", false, undefined],
    ]);
    expect(actions[0]!.diagnostics).toEqual([block]);
    expect(editsOf(actions[0]!)).toEqual([{ range: range(INNER_LINE, 10, INNER_LINE, 25), newText: "{\n      a = 1\n      b = 2\n    }" }]);
    expect(editsOf(actions[1]!)).toEqual([{ range: range(INNER_LINE, 0, INNER_LINE, 0), newText: "    # tfcapi-lint-ignore: syntax/one-line-block\n" }]);
    expect(editsOf(actions[2]!)).toEqual([{ range: range(0, 0, 0, 0), newText: "# tfcapi-lint-ignore-file: syntax/one-line-block\n" }]);
    // Fix all, offered at the finding too: the same edit as asked for alone.
    expect(editsOf(actions[3]!)).toEqual([{ range: range(INNER_LINE, 11, INNER_LINE, 23), newText: "\n      a = 1\n      b = 2\n   " }]);

    const fixed = applyEdits(text, editsOf(actions[0]!));
    expect(fixed).toBe(DEEP.replace(`\n${INNER}\n`, `\n${SPLIT}\n`));
    await setText(fixed);
    const list = await linted();
    // The other two findings stay where they were (the data source three lines further down).
    expect(summary(list)).toEqual([
      ["drift/non-idempotent", range(INPUT_LINE, 12, INPUT_LINE, 18)],
      ["version/distro-suffix", range(VALUES_LINE + 3, VERSION_AT, VALUES_LINE + 3, VERSION_AT + "var.kubernetes_version".length)],
    ]);
    healthy();
  });

  it("ignores the innermost finding on its line: the comment lands above it, indented, and the finding goes", async () => {
    const [drift] = byRule("drift/non-idempotent");
    const actions = await c!.codeActions(deep, range(INPUT_LINE, 15, INPUT_LINE, 15));
    // No safe fix left in the file: no fix-all.
    expect(actions.map((a) => [a.title, a.kind, a.isPreferred ?? false])).toEqual([
      ["Ignore drift/non-idempotent on this line/block", "quickfix", false],
      ["Ignore drift/non-idempotent in this file", "quickfix", false],
    ]);
    expect(actions[0]!.diagnostics).toEqual([drift]);
    expect(editsOf(actions[0]!)).toEqual([{ range: range(INPUT_LINE, 0, INPUT_LINE, 0), newText: "    # tfcapi-lint-ignore: drift/non-idempotent\n" }]);
    expect(editsOf(actions[1]!)).toEqual([{ range: range(0, 0, 0, 0), newText: "# tfcapi-lint-ignore-file: drift/non-idempotent\n" }]);
    // The version's finding, 100,000 brackets into its line: the comment goes above that line.
    const [distro] = byRule("version/distro-suffix");
    const onVersion = await c!.codeActions(deep, distro!.range, ["quickfix"]);
    expect(onVersion.map((a) => [a.title, editsOf(a)])).toEqual([
      ["Ignore version/distro-suffix on this line/block", [{ range: range(VALUES_LINE + 3, 0, VALUES_LINE + 3, 0), newText: "    # tfcapi-lint-ignore: version/distro-suffix\n" }]],
      ["Ignore version/distro-suffix in this file", [{ range: range(0, 0, 0, 0), newText: "# tfcapi-lint-ignore-file: version/distro-suffix\n" }]],
    ]);

    const ignored = applyEdits(text, editsOf(actions[0]!));
    expect(ignored.split("\n").slice(N, N + 4)).toEqual(["  nested {", "    # tfcapi-lint-ignore: drift/non-idempotent", INPUT, "    inner {"]);
    await setText(ignored);
    const list = await linted();
    expect(summary(list)).toEqual([["version/distro-suffix", range(VALUES_LINE + 4, VERSION_AT, VALUES_LINE + 4, VERSION_AT + "var.kubernetes_version".length)]]);
    healthy();
  });

  it("edits at the innermost level incrementally: the ignore comment taken out, the call replaced, fresh diagnostics each time", async () => {
    await editText({ range: range(INPUT_LINE, 0, INPUT_LINE + 1, 0), newText: "" });
    expect(text).toBe(DEEP.replace(`\n${INNER}\n`, `\n${SPLIT}\n`));
    expect(summary(await linted())).toEqual([
      ["drift/non-idempotent", range(INPUT_LINE, 12, INPUT_LINE, 18)],
      ["version/distro-suffix", range(VALUES_LINE + 3, VERSION_AT, VALUES_LINE + 3, VERSION_AT + "var.kubernetes_version".length)],
    ]);

    await editText({ range: range(INPUT_LINE, 12, INPUT_LINE, 18), newText: "timestamp()" });
    expect(text.split("\n")[INPUT_LINE]).toBe("    input = timestamp()");
    const list = await linted();
    expect(list[0]).toEqual({
      range: range(INPUT_LINE, 12, INPUT_LINE, 23),
      severity: 2,
      code: "drift/non-idempotent",
      codeDescription: { href: `${DOCS}drift/non-idempotent.md` },
      source: "tfcapi-lint",
      message: driftMessage("timestamp", "time_static"),
    });
    expect(summary(list.slice(1))).toEqual([["version/distro-suffix", range(VALUES_LINE + 3, VERSION_AT, VALUES_LINE + 3, VERSION_AT + "var.kubernetes_version".length)]]);
    // Hover reads the new lint: the new range and message.
    const h = await c!.hover(deep, { line: INPUT_LINE, character: 22 });
    expect(h!.range).toEqual(range(INPUT_LINE, 12, INPUT_LINE, 23));
    expect(h!.contents.value.startsWith(`**drift/non-idempotent** (warning): ${driftMessage("timestamp", "time_static")}\n\n---\n\n`)).toBe(true);
    healthy();
  });

  it("a syntax error at the innermost level of the blocks, then 100,000 brackets into a line: diagnostics at the exact spot, and back", async () => {
    await editText({ range: range(INPUT_LINE, 12, INPUT_LINE, 23), newText: "= =" });
    expect(await linted()).toEqual([
      {
        range: range(INPUT_LINE, 12, INPUT_LINE, 13),
        severity: 1,
        code: "syntax/parse",
        codeDescription: { href: `${DOCS}syntax/parse.md` },
        source: "tfcapi-lint",
        message: "Invalid expression: An expression was expected here, but this token cannot start one.",
      },
      distroAt(VALUES_LINE + 3),
    ]);
    await editText({ range: range(INPUT_LINE, 12, INPUT_LINE, 15), newText: "timestamp()" });
    expect(summary(await linted())).toEqual([
      ["drift/non-idempotent", range(INPUT_LINE, 12, INPUT_LINE, 23)],
      ["version/distro-suffix", range(VALUES_LINE + 3, VERSION_AT, VALUES_LINE + 3, VERSION_AT + "var.kubernetes_version".length)],
    ]);

    // A stray ")" after the version, inside the innermost brackets.
    const after = VERSION_AT + "var.kubernetes_version".length;
    await editText({ range: range(VALUES_LINE + 3, after, VALUES_LINE + 3, after), newText: ")" });
    const broken = await linted();
    expect(broken[1]).toEqual({
      range: range(VALUES_LINE + 3, after, VALUES_LINE + 3, after + 1),
      severity: 1,
      code: "syntax/parse",
      codeDescription: { href: `${DOCS}syntax/parse.md` },
      source: "tfcapi-lint",
      message: "Missing item separator: Separate the items of a list with commas.",
    });
    expect(summary(broken)).toEqual([
      ["drift/non-idempotent", range(INPUT_LINE, 12, INPUT_LINE, 23)],
      ["syntax/parse", range(VALUES_LINE + 3, after, VALUES_LINE + 3, after + 1)],
    ]);
    await editText({ range: range(VALUES_LINE + 3, after, VALUES_LINE + 3, after + 1), newText: "" });
    expect(summary(await linted())).toEqual([
      ["drift/non-idempotent", range(INPUT_LINE, 12, INPUT_LINE, 23)],
      ["version/distro-suffix", range(VALUES_LINE + 3, VERSION_AT, VALUES_LINE + 3, after)],
    ]);
    healthy();
  });

  it("never wrote the unsaved file, and shuts down and exits with status 0", async () => {
    expect(existsSync(deep)).toBe(false);
    expect(await c!.stop()).toBe(0);
    expect(c!.logs).toEqual([]);
    expect(c!.stderr).toBe("");
  });
});

/**
 * Shapes whose every level holds an argument (nested dynamic blocks, each
 * with its for_each, in both syntaxes), and a heredoc inside 100,000
 * brackets: each module linted alone (a directory of its own), the finding
 * at the innermost level shown, hovered and ignored there.
 */
describe(`an argument at every one of ${N} levels, and a heredoc ${N} brackets deep`, { timeout: 2 * WAIT }, () => {
  const DYN_PATH = [...Array<string>(N).fill("d"), "input"].join(".");
  const DYN_INPUT = 3 * N + 1;
  const dynJson = `{"resource": {"terraform_data": {"json": ${'{"dynamic": {"d": {"for_each": "${[1]}", "content": '.repeat(N)}{"input": "\${uuid()}"}${"}}}".repeat(N)}}}}\n`;
  const dynJsonAt = dynJson.indexOf("uuid()");
  const ignoreDrift = "tfcapi-lint-ignore: drift/non-idempotent";
  const cases: {
    what: string;
    file: string;
    text: string;
    finding: { range: Range; message: string };
    /** A position deep in the nesting with no finding. */
    quiet: { line: number; character: number };
    ignore: TextEdit;
    fileIgnore: TextEdit;
  }[] = [
    {
      what: `native syntax: ${N} nested dynamic blocks`,
      file: "dyn/dyn.tf",
      text: `resource "terraform_data" "dyn" {\n${'  dynamic "d" {\n    for_each = [1]\n    content {\n'.repeat(N)}      input = uuid()\n${"    }\n  }\n".repeat(N)}}\n`,
      finding: { range: range(DYN_INPUT, 14, DYN_INPUT, 20), message: drift("uuid", "dyn", DYN_PATH, "random_uuid") },
      quiet: { line: DYN_INPUT - 2, character: 8 },
      ignore: { range: range(DYN_INPUT, 0, DYN_INPUT, 0), newText: `      # ${ignoreDrift}\n` },
      fileIgnore: { range: range(0, 0, 0, 0), newText: `# tfcapi-lint-ignore-file: drift/non-idempotent\n` },
    },
    {
      what: `JSON syntax: ${N} nested dynamic blocks on one line`,
      file: "json/dyn.tf.json",
      text: dynJson,
      finding: { range: range(0, dynJsonAt, 0, dynJsonAt + "uuid()".length), message: drift("uuid", "json", DYN_PATH, "random_uuid") },
      quiet: { line: 0, character: dynJsonAt / 2 },
      // The innermost block's object (the content holding the argument) gets the comment property.
      ignore: { range: range(0, dynJson.indexOf('{"input"') + 1, 0, dynJson.indexOf('{"input"') + 1), newText: `"//": "${ignoreDrift}", ` },
      fileIgnore: { range: range(0, 1, 0, 1), newText: `"//": "tfcapi-lint-ignore-file: drift/non-idempotent", ` },
    },
    {
      what: `a heredoc inside ${N} brackets`,
      file: "heredoc/heredoc.tf",
      text: `resource "terraform_data" "heredoc" {\n  input = ${"[".repeat(N)}<<EOT\n\${timestamp()}\nEOT\n${"]".repeat(N)}\n}\n`,
      finding: { range: range(2, 2, 2, 13), message: drift("timestamp", "heredoc", "input", "time_static") },
      quiet: { line: 1, character: 10 + N / 2 },
      // Not inside the heredoc (the comment would become part of its text): above the argument.
      ignore: { range: range(1, 0, 1, 0), newText: `  # ${ignoreDrift}\n` },
      fileIgnore: { range: range(0, 0, 0, 0), newText: `# tfcapi-lint-ignore-file: drift/non-idempotent\n` },
    },
  ];

  beforeAll(async () => {
    for (const k of cases) cpSync(path.join(REPO, "examples", "machine-aws"), ws.at(path.dirname(k.file)), { recursive: true });
    c?.kill();
    c = await ws.start({ general: { positionEncodings: ["utf-16"] } });
  });

  for (const k of cases) {
    it(k.what, async () => {
      const abs = ws.at(k.file);
      const linted = (v: number): Promise<Diagnostic[]> => publishedFor(abs, v);
      await c!.open(abs, k.text);
      const diagnostic: Diagnostic = {
        range: k.finding.range,
        severity: 2,
        code: "drift/non-idempotent",
        codeDescription: { href: `${DOCS}drift/non-idempotent.md` },
        source: "tfcapi-lint",
        message: k.finding.message,
      };
      expect(await linted(1)).toEqual([diagnostic]);

      const middle = { line: k.finding.range.start.line, character: k.finding.range.start.character + 3 };
      expect(await c!.hover(abs, middle)).toEqual({
        contents: {
          kind: "markdown",
          value: `**drift/non-idempotent** (warning): ${k.finding.message}\n\n---\n\n${page("drift/non-idempotent")}\n\n[drift/non-idempotent documentation](${DOCS}drift/non-idempotent.md)`,
        },
        range: k.finding.range,
      });
      expect(await c!.hover(abs, k.quiet)).toBeNull();

      const actions = await c!.codeActions(abs, { start: middle, end: middle });
      expect(actions).toEqual([
        { title: "Ignore drift/non-idempotent on this line/block", kind: "quickfix", diagnostics: [diagnostic], edit: { changes: { [uri(abs)]: [k.ignore] } } },
        { title: "Ignore drift/non-idempotent in this file", kind: "quickfix", diagnostics: [diagnostic], edit: { changes: { [uri(abs)]: [k.fileIgnore] } } },
      ]);
      await c!.change(abs, applyEdits(k.text, [k.ignore]));
      expect(await linted(2)).toEqual([]);
      expect(c!.logs).toEqual([]);
      expect(c!.stderr).toBe("");
    });
  }

  it("shuts down cleanly", async () => {
    expect(await c!.stop()).toBe(0);
    expect(c!.logs).toEqual([]);
    expect(c!.stderr).toBe("");
  });
});

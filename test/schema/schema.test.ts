/**
 * `tfcapi-lint schema`: every `fixtures/schema/<case>/` is run as
 * `schema --role $(cat role) <case>` from `fixtures/schema` and compared
 * byte for byte with `expected.stdout` and `expected.exit`. `expected.stderr`
 * is the whole of stderr when it ends with a newline, else how stderr
 * starts (for messages that end in a parser diagnostic's wording); without
 * the file stderr must be empty. See fixtures/schema/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { loadModule } from "../../src/terraform/load.js";
import { goJsonString, SCHEMA_LIMIT_BYTES, schemaSizeError, variablesSchema } from "../../src/contract/variables-schema.js";
import { BIN, REPO, runCli, tree } from "../cli/helpers.js";

const CASES = path.join(REPO, "fixtures", "schema");

async function run(args: string[], cwd = CASES): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: async () => "",
    env: {},
    cwd,
    isTTY: false,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/**
 * The at-limit case one byte over the limit: its last variable's name one
 * letter longer (made here rather than kept as a second 5,000-line copy).
 */
const TOO_BIG_STDERR =
  "tfcapi-lint schema: the schema is 32769 bytes, over the label limit of 32768 bytes; simplify the variable types or drop variables the image need not describe\n";
function tooBigModule(): { parent: string; dir: string; done: () => void } {
  const parent = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-schema-"));
  const dir = path.join(parent, "too-big");
  mkdirSync(dir);
  const text = readFileSync(path.join(CASES, "at-limit", "variables.tf"), "utf8");
  const last = text.lastIndexOf('variable "z');
  expect(last).toBeGreaterThan(0);
  const bigger = text.slice(0, last) + 'variable "zx' + text.slice(last + 'variable "z'.length);
  writeFileSync(path.join(dir, "variables.tf"), bigger.replace("is 32768 bytes", "is 32769 bytes"));
  return { parent, dir, done: () => rmSync(parent, { recursive: true, force: true }) };
}

const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe("schema fixtures", () => {
  it("has the cases this suite is about", () => {
    for (const c of ["type-forms", "sorting", "escaping", "json-syntax", "unreadable-types", "role-cluster", "role-machine", "role-machinepool", "override", "tofu-only", "at-limit", "syntax-error", "json-invalid", "no-module-files", "duplicate-variable"]) {
      expect(cases).toContain(c);
    }
  });

  for (const c of cases) {
    it(c, async () => {
      const dir = path.join(CASES, c);
      const role = readFileSync(path.join(dir, "role"), "utf8").trim();
      const r = await run(["schema", "--role", role, c]);
      expect(r.stdout).toBe(readFileSync(path.join(dir, "expected.stdout"), "utf8"));
      expect(r.code).toBe(Number(readFileSync(path.join(dir, "expected.exit"), "utf8").trim()));
      const errFile = path.join(dir, "expected.stderr");
      if (!existsSync(errFile)) {
        expect(r.stderr).toBe("");
      } else {
        const want = readFileSync(errFile, "utf8");
        if (want.endsWith("\n")) expect(r.stderr).toBe(want);
        else {
          expect(r.stderr.startsWith(want), `stderr ${JSON.stringify(r.stderr)} should start with ${JSON.stringify(want)}`).toBe(true);
          expect(r.stderr.endsWith("\n") && r.stderr.indexOf("\n") === r.stderr.length - 1).toBe(true);
        }
      }
    });
  }

  it("at-limit is exactly the limit and the same module one byte bigger is over it", async () => {
    const at = readFileSync(path.join(CASES, "at-limit", "expected.stdout"));
    expect(at.length).toBe(SCHEMA_LIMIT_BYTES + 1); // and the newline
    expect(SCHEMA_LIMIT_BYTES).toBe(32768);
    const big = tooBigModule();
    try {
      expect(await run(["schema", "--role", "machine", "too-big"], big.parent)).toEqual({ code: 1, stdout: "", stderr: TOO_BIG_STDERR });
    } finally {
      big.done();
    }
  });
});

describe("schema command line", () => {
  it("accepts the directory before --role and --role=R", async () => {
    const want = readFileSync(path.join(CASES, "tofu-only", "expected.stdout"), "utf8");
    expect(await run(["schema", "tofu-only", "--role", "machine"])).toEqual({ code: 0, stdout: want, stderr: "" });
    expect(await run(["schema", "--role=machine", "tofu-only"])).toEqual({ code: 0, stdout: want, stderr: "" });
    expect(await run(["schema", "--role", "machine", path.join(CASES, "tofu-only")], "/")).toEqual({ code: 0, stdout: want, stderr: "" });
  });

  const usage = (m: string) => `tfcapi-lint schema: ${m}\nRun tfcapi-lint schema --help for usage.\n`;
  it.each([
    [["schema", "tofu-only"], "--role is required (cluster, machine or machinepool)"],
    [["schema", "--role", "worker", "tofu-only"], 'unknown role "worker" (use cluster, machine or machinepool)'],
    [["schema", "--role", "machine"], "missing the module directory"],
    [["schema", "--role", "machine", "tofu-only", "override"], "takes exactly one module directory (got 2: tofu-only override)"],
    [["schema", "--role", "machine", "--strict", "tofu-only"], "unknown option --strict"],
    [["schema", "tofu-only", "--role"], "--role needs a value (cluster, machine or machinepool)"],
  ])("usage error %j", async (args, message) => {
    expect(await run(args)).toEqual({ code: 3, stdout: "", stderr: usage(message) });
  });

  it("prints its help", async () => {
    const r = await run(["schema", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("Usage: tfcapi-lint schema --role ROLE DIR\n")).toBe(true);
    expect(r.stderr).toBe("");
  });

  it("exits 2 for a missing directory or a file given as the directory", async () => {
    expect(await run(["schema", "--role", "cluster", "no-such-case"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "tfcapi-lint schema: cannot load the module in no-such-case: no such directory\n",
    });
    expect(await run(["schema", "--role", "cluster", "tofu-only/variables.tofu"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "tfcapi-lint schema: cannot load the module in tofu-only/variables.tofu: not a directory\n",
    });
  });

  it("exits 2 for an unreadable module file, and ignores problems of child modules", async () => {
    const dir = tree({
      "m/main.tf": 'variable "a" {\n  type = string\n}\nmodule "c" {\n  source = "./child"\n}\n',
      "m/child/main.tf": "variable {{{\n",
      "bin/main.tf": Buffer.from([0x76, 0x00, 0x01, 0x02]),
    });
    expect(await run(["schema", "--role", "cluster", "m"], dir)).toEqual({
      code: 0,
      stdout: '{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}\n',
      stderr: "",
    });
    const r = await run(["schema", "--role", "cluster", "bin"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.startsWith("tfcapi-lint schema: cannot load the module in bin: main.tf contains a NUL byte")).toBe(true);
  });

  it("escapes U+2028 and U+2029 in names", async () => {
    const dir = tree({ "m/variables.tf": 'variable "sep\\u2028para\\u2029" {\n  type = string\n}\n' });
    expect(await run(["schema", "--role", "machine", "m"], dir)).toEqual({
      code: 0,
      stdout: '{"type":"object","properties":{"sep\\u2028para\\u2029":{"type":"string"}},"required":["sep\\u2028para\\u2029"],"additionalProperties":false}\n',
      stderr: "",
    });
  });

  it("writes the same bytes through the installed binary", () => {
    if (!existsSync(path.join(REPO, "dist", "cli.cjs"))) {
      if (process.env.CI) throw new Error("dist/ is not built (run npm run build)");
      console.warn(`skipped: ${BIN} needs dist/ (run npm run build)`);
      return;
    }
    const ok = runCli(["schema", "--role", "machine", "type-forms"], { cwd: CASES });
    expect(ok).toEqual({ code: 0, stdout: readFileSync(path.join(CASES, "type-forms", "expected.stdout"), "utf8"), stderr: "" });
    const tooBig = tooBigModule();
    try {
      const big = runCli(["schema", "--role", "machine", "too-big"], { cwd: tooBig.parent });
      expect(big).toEqual({ code: 1, stdout: "", stderr: TOO_BIG_STDERR });
    } finally {
      tooBig.done();
    }
  });
});

describe("variablesSchema (the API image/variables-schema uses)", () => {
  it("takes the loader's result or its root unit", () => {
    const load = loadModule(path.join(CASES, "override"));
    const want = readFileSync(path.join(CASES, "override", "expected.stdout"), "utf8").trimEnd();
    expect(variablesSchema(load, "machine")).toBe(want);
    expect(variablesSchema(load.root, "machine")).toBe(want);
  });

  it("reports the limit by UTF-8 bytes, not characters", () => {
    expect(schemaSizeError("é".repeat(SCHEMA_LIMIT_BYTES / 2))).toBeNull();
    expect(schemaSizeError(`${"é".repeat(SCHEMA_LIMIT_BYTES / 2 - 1)}ab`)).toBeNull();
    expect(schemaSizeError(`${"é".repeat(SCHEMA_LIMIT_BYTES / 2)}a`)).toBe(
      "the schema is 32769 bytes, over the label limit of 32768 bytes; simplify the variable types or drop variables the image need not describe",
    );
  });

  it("escapes strings as Go's encoding/json does", () => {
    expect(goJsonString("<a>&\"\\\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029é😀")).toBe(
      '"\\u003ca\\u003e\\u0026\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\\u2028\\u2029é😀"',
    );
    expect(goJsonString("x\ud800y")).toBe('"x\ufffdy"');
  });
});

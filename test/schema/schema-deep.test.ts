/**
 * `tfcapi-lint schema` on modules nested deeper than the main thread's
 * 256 levels: Terraform accepts them and so does the lint command (on a
 * large-stack worker), so schema must too; past the worker's limit the
 * clear error stays. Runs the built CLI (only the bundle starts the worker).
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { runCli, tree } from "../cli/helpers.js";

beforeAll(() => ensureBuilt());

const nested = (open: string, inner: string, close: string, depth: number): string => open.repeat(depth) + inner + close.repeat(depth);

it("a 400-level type is described in full", () => {
  const dir = tree({ "m/variables.tf": `variable "x" {\n  type = ${nested("list(", "string", ")", 400)}\n}\n` });
  const items = nested('{"type":"array","items":', '{"type":"string"}', "}", 400);
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: `{"type":"object","properties":{"x":${items}},"required":["x"],"additionalProperties":false}\n`,
    stderr: "",
  });
});

it("a 400-level local does not stop the schema of the variables", () => {
  const dir = tree({ "m/main.tf": `variable "x" {\n  type = string\n}\nlocals {\n  a = ${nested("[", "1", "]", 400)}\n}\n` });
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: '{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}\n',
    stderr: "",
  });
});

it("beyond 5,000 levels the module cannot be loaded (exit 2, the parser's message)", () => {
  const dir = tree({ "m/main.tf": "" });
  writeFileSync(path.join(dir, "m", "main.tf"), `variable "x" {\n  type = string\n}\nlocals {\n  a = ${nested("[", "1", "]", 6000)}\n}\n`);
  const r = runCli(["schema", "--role", "cluster", "m"], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe(
    "tfcapi-lint schema: cannot load the module in m: main.tf:5: Nesting too deep: Brackets, blocks and templates are nested more than 5000 levels deep here; the rest of the file was not parsed. Flatten the structure, for example with locals.\n",
  );
});

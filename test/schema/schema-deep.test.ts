/**
 * `tfcapi-lint schema` on modules nested to any depth: Terraform accepts
 * them and so does the lint command, so schema must too (on the main
 * thread, 100,000 levels). Runs the built CLI.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { nested, runCli, schemaOfX, tree } from "../cli/helpers.js";

beforeAll(() => ensureBuilt());


it("a 400-level type is described in full", () => {
  const dir = tree({ "m/variables.tf": `variable "x" {\n  type = ${nested("list(", "string", ")", 400)}\n}\n` });
  const items = nested('{"type":"array","items":', '{"type":"string"}', "}", 400);
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: `${schemaOfX(items)}\n`,
    stderr: "",
  });
});

it("a 400-level local does not stop the schema of the variables", () => {
  const dir = tree({ "m/main.tf": `variable "x" {\n  type = string\n}\nlocals {\n  a = ${nested("[", "1", "]", 400)}\n}\n` });
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: `${schemaOfX('{"type":"string"}')}\n`,
    stderr: "",
  });
});

it("1,300 levels (deeper than the old limit, just under the label's size): the type in full, beside a 100,000-level local", () => {
  const dir = tree({ "m/main.tf": "" });
  writeFileSync(path.join(dir, "m", "main.tf"), `variable "x" {\n  type = ${nested("list(", "string", ")", 1300)}\n}\nlocals {\n  a = ${nested("[", "1", "]", 100_000)}\n}\n`);
  const items = nested('{"type":"array","items":', '{"type":"string"}', "}", 1300);
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: `${schemaOfX(items)}\n`,
    stderr: "",
  });
});

it("a 100,000-level type is read in full and refused only for its size (exit 1)", () => {
  const n = 100_000;
  const dir = tree({ "m/main.tf": "" });
  writeFileSync(path.join(dir, "m", "main.tf"), `variable "x" {\n  type = ${nested("list(", "string", ")", n)}\n}\n`);
  // 25 bytes per level, the string's 17 and the object around it.
  const bytes = 25 * n + 17 + schemaOfX("").length;
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 1,
    stdout: "",
    stderr: `tfcapi-lint schema: the schema is ${bytes} bytes, over the label limit of 32768 bytes; simplify the variable types or drop variables the image need not describe\n`,
  });
});

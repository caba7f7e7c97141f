/**
 * The built CLI on modules 100,000 levels deep, on the main thread: the
 * walks of src/ (module model, graph, shared walk, types, the variables
 * schema) keep their own stacks. Nested blocks and type constraints are
 * what no rule of rules/ follows further, so every rule stays on.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, beforeEach, expect, it } from "vitest";
import { ensureBuilt } from "../ship/helpers.js";
import { nested, REPO, runCli, schemaOfX, tree } from "./helpers.js";

beforeAll(() => ensureBuilt());

// The tests block the thread for seconds each: give the event loop a turn
// before each one, so the runner's messages to this fork are answered.
beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

const D = 100_000;

/** examples/cluster-aws (clean) as `m/`, with `extra` added. */
function clusterModule(extra: Record<string, string>): string {
  const base = path.join(REPO, "examples", "cluster-aws");
  const files: Record<string, string> = {};
  for (const f of readdirSync(base)) if (f.endsWith(".tf")) files[`m/${f}`] = readFileSync(path.join(base, f), "utf8");
  return tree({ ...files, ...extra });
}

it("lints examples/cluster-aws with blocks nested 100,000 deep and a 100,000-level variable type added: clean, exit 0", () => {
  const dir = clusterModule({
    "m/deep.tf":
      `variable "deep" {\n  type    = ${nested("list(", "string", ")", D)}\n  default = null\n}\n\n` +
      `resource "aws_security_group" "deep" {\n${nested("ingress {\n", "from_port = 1\n", "}\n", D)}}\n`,
  });
  const r = runCli(["--role", "cluster", "--format", "json", "m"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout) as { module: string; role: string; findings: unknown[]; summary: unknown };
  expect([report.module, report.role, report.findings, report.summary]).toEqual(["m", "cluster", [], { error: 0, warning: 0, info: 0 }]);
});

it("schema writes a 100,000-level type without a stack overflow, and says it is over the label limit", () => {
  const dir = tree({ "m/variables.tf": `variable "x" {\n  type = ${nested("list(", "string", ")", D)}\n}\n` });
  const items = nested('{"type":"array","items":', '{"type":"string"}', "}", D);
  const bytes = Buffer.byteLength(schemaOfX(items));
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 1,
    stdout: "",
    stderr: `tfcapi-lint schema: the schema is ${bytes} bytes, over the label limit of 32768 bytes; simplify the variable types or drop variables the image need not describe\n`,
  });
});

it("schema describes a 500-level object type in full", () => {
  const dir = tree({ "m/variables.tf": `variable "x" {\n  type = ${nested("object({ a = ", "number", " })", 500)}\n}\n` });
  const inner = nested('{"type":"object","properties":{"a":', '{"type":"number"}', '},"required":["a"]}', 500);
  expect(runCli(["schema", "--role", "cluster", "m"], { cwd: dir })).toEqual({
    code: 0,
    stdout: `${schemaOfX(inner)}\n`,
    stderr: "",
  });
});

/** `tfcapi-lint schema` on paths that cannot be a module directory: the reason in words, exit 2. */
import { symlinkSync } from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { tree } from "../cli/helpers.js";

async function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => "", env: {}, cwd, isTTY: false };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

it("a symbolic link loop is named as one, not by its error code", async () => {
  const dir = tree({ "m/main.tf": 'variable "a" {\n  type = string\n}\n' });
  symlinkSync("loop", path.join(dir, "loop"));
  expect(await run(["schema", "--role", "cluster", "loop"], dir)).toEqual({
    code: 2,
    stdout: "",
    stderr: "tfcapi-lint schema: cannot load the module in loop: too many levels of symbolic links\n",
  });
});

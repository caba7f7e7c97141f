/**
 * The baseline in the language server, through a real client: findings in
 * the baseline are hints whose message says so, new ones keep their
 * severity; `initializationOptions.showBaselined: false` hides the hints; a
 * corrupt baseline file is a diagnostic on it.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LspClient, uri, workspace, type Diagnostic } from "./client.js";
import { edit, indebted } from "../helpers/indebted-module.js";

let c: LspClient | undefined;

const FILE = ".tfcapi-lint-baseline.json";
const entry = (rule: string, subject: string, count: number) => ({ module: "mod", rule, subject, count });
const BASELINE = {
  version: 1,
  entries: [
    entry("drift/non-idempotent", "resource.aws_instance.this", 2),
    entry("input/sensitive", "variable.bootstrap_data", 1),
    entry("input/user-variable-default", "variable.key_name", 1),
    entry("input/user-variable-default", "variable.ssh_cidr", 1),
    entry("output/required", "output.interruptible", 1),
  ],
};

const files = indebted();
// key_name renamed since the baseline was written: its finding is new.
files["mod/variables.tf"] = edit(files["mod/variables.tf"]!, 'variable "key_name"', 'variable "key_pair_name"');
const ws = workspace("lsp-baseline", { files: { ...files, [FILE]: JSON.stringify(BASELINE, null, 2) + "\n" }, killAfterEach: true });

const variables = () => ws.at("mod", "variables.tf");
const brief = (list: Diagnostic[]) => list.map((d) => [d.code, d.range.start.line, d.severity, d.message.replace(/^.*?(\(in the baseline[^)]*\))?$/, "$1")]);

async function openVariables(init: Record<string, unknown>): Promise<Diagnostic[]> {
  c = await ws.start({}, { debounceMs: 0, ...init });
  const { readFileSync } = await import("node:fs");
  await c.open(variables(), readFileSync(variables(), "utf8"));
  return c.latest(uri(variables()), (d) => d.some((x) => x.code === "input/user-variable-default"));
}

describe("baselined findings in the editor", () => {
  it("are hints that say they are in the baseline; the new finding keeps its severity", async () => {
    const list = await openVariables({});
    const note = `(in the baseline ${ws.at(FILE)}; a known warning, not counted)`;
    expect(brief(list)).toEqual([
      ["input/sensitive", 36, 4, note],
      ["input/user-variable-default", 106, 2, ""],
      ["input/user-variable-default", 110, 4, note],
    ]);
    expect(list[0]!.message).toBe(`Variable "bootstrap_data" carries the node's bootstrap secret (join token): mark it sensitive = true so plans and logs do not print it. ${note}`);
  });

  it("are hidden with initializationOptions.showBaselined false", async () => {
    const list = await openVariables({ showBaselined: false });
    expect(brief(list)).toEqual([["input/user-variable-default", 106, 2, ""]]);
  });

  it("a corrupt baseline file is a diagnostic on it, and the module is shown without a baseline", async () => {
    writeFileSync(ws.at(FILE), '{"version": 1, "entries": {}}\n');
    try {
      const list = await openVariables({});
      expect(list.map((d) => d.severity)).toEqual([2, 2, 2]);
      const onFile = await c!.latest(uri(ws.at(FILE)), (d) => d.length > 0);
      expect(onFile).toEqual([
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: 1,
          source: "tfcapi-lint",
          message: `baseline ${ws.at(FILE)}: "entries" must be an array; fix it, or write it again with --update-baseline`,
        },
      ]);
    } finally {
      writeFileSync(ws.at(FILE), JSON.stringify(BASELINE, null, 2) + "\n");
    }
  });
});

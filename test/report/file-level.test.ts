import { describe, expect, it } from "vitest";
import { buildSarif } from "../../src/report/sarif.js";
import { getFormatter } from "../../src/report/index.js";
import { stepSummaryMarkdown } from "../../src/report/github.js";
import { clusterModule, finding, rng, sampleRun } from "./sample.js";

/** A finding about a whole file: a file is named but there is no line (line 0). */
function fileLevelRun() {
  const mod = clusterModule();
  mod.findings = [finding("module/source-escape", "error", "child/main.tf", rng(0, 0, 0, 0), "links outside the module")];
  mod.summary = { error: 1, warning: 0, info: 0 };
  return sampleRun([mod]);
}

function format(name: string): string {
  return getFormatter(name)!(fileLevelRun(), { color: false, env: {} });
}

describe("findings about a whole file", () => {
  it("text: under the file, no position, no frame", () => {
    expect(format("text").split("\n").slice(0, 3)).toEqual([
      "envs/prod/child/main.tf",
      "  -  error  links outside the module  module/source-escape",
      "",
    ]);
  });

  it("compact: the file at :0:0", () => {
    expect(format("compact")).toBe("envs/prod/child/main.tf:0:0: error: links outside the module [module/source-escape]\n");
  });

  it("json: the file with line 0", () => {
    const doc = JSON.parse(format("json"));
    expect(doc.findings[0]).toMatchObject({ file: "child/main.tf", line: 0, column: 0, endLine: 0, endColumn: 0 });
  });

  it("sarif: the file with start line 1", () => {
    const log = JSON.parse(JSON.stringify(buildSarif(fileLevelRun(), () => null)));
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "envs/prod/child/main.tf", uriBaseId: "%SRCROOT%" },
      region: { startLine: 1 },
    });
  });

  it("github: the file without a line; summary names the file", () => {
    expect(format("github").split("\n")[0]).toBe(
      "::error file=envs/prod/child/main.tf,title=module/source-escape::links outside the module",
    );
    expect(stepSummaryMarkdown(fileLevelRun(), {})).toContain(
      "| error | [module/source-escape](https://github.com/captf-io/tfcapi-lint/blob/main/rules/module/source-escape.md) | envs/prod/child/main.tf | links outside the module |",
    );
  });

  it("checkstyle and junit: the file without line/column", () => {
    expect(format("checkstyle")).toContain(
      '  <file name="envs/prod/child/main.tf">\n    <error severity="error" message="links outside the module" source="tfcapi-lint.module/source-escape"/>\n  </file>',
    );
    expect(format("junit")).toContain(
      '<failure message="links outside the module" type="error">envs/prod/child/main.tf:0:0: error: links outside the module</failure>',
    );
  });
});

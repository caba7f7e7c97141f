import { describe, expect, it } from "vitest";
import { formatJson } from "../../src/report/json.js";
import { clusterModule, pathModule, poolModule, sampleRun } from "./sample.js";

const URL = "https://github.com/captf-io/tfcapi-lint/blob/main/rules/";

describe("json formatter", () => {
  it("prints one reference-shaped object for one module, keys in order, 2-space indent", () => {
    const out = formatJson(sampleRun([clusterModule()]), { color: false });
    expect(out).toBe(
      [
        "{",
        '  "module": "./envs/prod",',
        '  "contract": "v1alpha1",',
        '  "role": "cluster",',
        '  "findings": [',
        "    {",
        '      "id": "module/child-note",',
        '      "severity": "info",',
        '      "file": "child/main.tf",',
        '      "line": 1,',
        '      "message": "a note: child, here",',
        '      "column": 1,',
        '      "endLine": 3,',
        '      "endColumn": 2,',
        `      "ruleUrl": "${URL}module/child-note.md"`,
        "    },",
        "    {",
        '      "id": "output/endpoint-never-set",',
        '      "severity": "warning",',
        '      "file": "main.tofu",',
        '      "line": 2,',
        '      "message": "control_plane_endpoint is always null\\r\\nset it from var.control_plane_endpoint (100%)",',
        '      "column": 11,',
        '      "endLine": 2,',
        '      "endColumn": 15,',
        `      "ruleUrl": "${URL}output/endpoint-never-set.md"`,
        "    }",
        "  ],",
        '  "summary": {',
        '    "error": 0,',
        '    "warning": 1,',
        '    "info": 1',
        "  },",
        '  "roleSource": "flag",',
        '  "fileSet": "opentofu",',
        '  "suppressed": []',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("prints an array for several modules, module-level at line 0, suppressed apart", () => {
    const out = formatJson(sampleRun(), { color: false });
    const parsed = JSON.parse(out);
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.map((d: { module: string }) => d.module)).toEqual(["modules/my pool", "./envs/prod"]);
    const pool = parsed[0];
    expect(Object.keys(pool)).toEqual(["module", "contract", "role", "findings", "summary", "roleSource", "fileSet", "suppressed"]);
    expect(pool.findings[0]).toEqual({
      id: "output/required",
      severity: "error",
      file: "",
      line: 0,
      message: 'output "replicas" is not declared',
      column: 0,
      endLine: 0,
      endColumn: 0,
      ruleUrl: `${URL}output/required.md`,
    });
    expect(Object.keys(pool.findings[1])).toEqual(["id", "severity", "file", "line", "message", "column", "endLine", "endColumn", "ruleUrl"]);
    expect(pool.findings.map((f: { id: string; line: number; column: number }) => `${f.id}@${f.line}:${f.column}`)).toEqual([
      "output/required@0:0",
      "output/provider-id-list-shape@2:11",
      "output/health-shape@6:31",
    ]);
    expect(pool.summary).toEqual({ error: 2, warning: 1, info: 0 });
    expect(pool.suppressed).toEqual([
      {
        id: "input/sensitive",
        severity: "warning",
        file: "variables.tf",
        line: 2,
        message: "bootstrap_data is not sensitive",
        column: 1,
        endLine: 4,
        endColumn: 2,
        ruleUrl: `${URL}input/sensitive.md`,
        justification: "rendered into cloud-init, holds no secret",
        suppressedBy: { file: "variables.tf", line: 1 },
      },
    ]);
    expect(out.startsWith("[\n  {\n    \"module\": \"modules/my pool\",\n")).toBe(true);
    expect(out.endsWith("\n]\n")).toBe(true);
  });

  it("always has a findings array", () => {
    const mod = poolModule();
    mod.findings = [];
    mod.summary = { error: 0, warning: 0, info: 0 };
    const doc = JSON.parse(formatJson(sampleRun([mod]), { color: false }));
    expect(doc.findings).toEqual([]);
    expect(doc.suppressed).toEqual([]);
  });
  it("adds the path a finding followed as a related array after ruleUrl, only on findings that have one", () => {
    const mod = pathModule();
    mod.findings.push({ ...mod.findings[1], range: { ...mod.findings[1].range }, related: [] });
    const doc = JSON.parse(formatJson(sampleRun([mod]), { color: false }));
    expect(doc.findings).toEqual([
      {
        id: "output/required",
        severity: "error",
        file: "",
        line: 0,
        message: 'output "replicas" is not declared',
        column: 0,
        endLine: 0,
        endColumn: 0,
        ruleUrl: `${URL}output/required.md`,
        related: [{ file: "child/main.tf", line: 1, column: 1, endLine: 1, endColumn: 9, message: "module child" }],
      },
      {
        id: "output/provider-id-list-shape",
        severity: "warning",
        file: "outputs.tf",
        line: 2,
        message: "wrap the value in sort()",
        column: 11,
        endLine: 2,
        endColumn: 20,
        ruleUrl: `${URL}output/provider-id-list-shape.md`,
        related: [
          { file: "locals.tf", line: 2, column: 9, endLine: 2, endColumn: 45, message: "local.ids" },
          { file: "main.tf", line: 1, column: 1, endLine: 3, endColumn: 2, message: "aws_instance.node\n(count)" },
        ],
      },
      {
        id: "output/provider-id-list-shape",
        severity: "warning",
        file: "outputs.tf",
        line: 2,
        message: "wrap the value in sort()",
        column: 11,
        endLine: 2,
        endColumn: 20,
        ruleUrl: `${URL}output/provider-id-list-shape.md`,
      },
    ]);
    // Key order: related comes last, after the reference keys and ruleUrl.
    expect(Object.keys(doc.findings[1])).toEqual(["id", "severity", "file", "line", "message", "column", "endLine", "endColumn", "ruleUrl", "related"]);
  });

  it("keeps the related array on a suppressed finding, before its justification", () => {
    const mod = pathModule();
    mod.findings[1].suppressed = { justification: "sorted by the controller", file: "outputs.tf", line: 1 };
    const doc = JSON.parse(formatJson(sampleRun([mod]), { color: false }));
    expect(doc.findings.map((f: { id: string }) => f.id)).toEqual(["output/required"]);
    expect(Object.keys(doc.suppressed[0]).slice(-3)).toEqual(["related", "justification", "suppressedBy"]);
    expect(doc.suppressed[0].related).toHaveLength(2);
  });
});

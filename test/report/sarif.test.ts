import { readFileSync } from "node:fs";
import AjvDraft04 from "ajv-draft-04";
import { describe, expect, it } from "vitest";
import { buildSarif, FINGERPRINT_KEY, formatSarif, ruleName } from "../../src/report/sarif.js";
import type { ModuleReport } from "../../src/lint/result.js";
import { clusterModule, finding, pathModule, poolModule, POOL_OUTPUTS, rng, sampleRun } from "./sample.js";

const schema = JSON.parse(
  readFileSync(new URL("../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json", import.meta.url), "utf8"),
);
// The official schema has a language-tag pattern that is invalid with the `u` flag.
// CommonJS module: under NodeNext the class is on `.default`.
const Ajv = AjvDraft04.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat("uri", (s: string) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(s) && URL.canParse(s));
ajv.addFormat("uri-reference", (s: string) => /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/.test(s));
ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)));
const validate = ajv.compile(schema);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function sarif(modules?: ModuleReport[], docs: (id: string) => string | null = () => null): Json {
  return JSON.parse(JSON.stringify(buildSarif(sampleRun(modules), docs)));
}

function fingerprintOf(log: Json, ruleId: string): string {
  const result = log.runs[0].results.find((r: Json) => r.ruleId === ruleId);
  return result.partialFingerprints[FINGERPRINT_KEY];
}

describe("sarif formatter", () => {
  it("produces SARIF 2.1.0 that validates against the official schema", () => {
    const text = formatSarif(sampleRun(), { color: false });
    expect(text.endsWith("}\n")).toBe(true);
    const log = JSON.parse(text);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validate(sarif([poolModule()]))).toBe(true);
    expect(validate(sarif([]))).toBe(true);
  });

  it("the schema check is not vacuous: an unencoded space in a URI fails", () => {
    const log = sarif();
    log.runs[0].results[1].locations[0].physicalLocation.artifactLocation.uri = "modules/my pool/outputs.tf";
    expect(validate(log)).toBe(false);
  });

  it("describes the tool and every rule", () => {
    const log = sarif();
    expect(log.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0];
    expect(run.columnKind).toBe("utf16CodeUnits");
    expect(run.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: "file:///work/repo/" } });
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
    const driver = run.tool.driver;
    expect(driver.name).toBe("tfcapi-lint");
    expect(driver.informationUri).toBe("https://github.com/captf-io/tfcapi-lint");
    expect(driver.semanticVersion).toBe("1.2.3");
    expect(driver.rules.map((r: Json) => r.id)).toEqual([
      "output/required",
      "output/health-shape",
      "output/provider-id-list-shape",
      "input/sensitive",
      "output/endpoint-never-set",
      "module/child-note",
    ]);
    const url = "https://github.com/captf-io/tfcapi-lint/blob/main/rules/input/sensitive.md";
    expect(driver.rules[3]).toEqual({
      id: "input/sensitive",
      name: "InputSensitive",
      shortDescription: { text: "bootstrap_data is marked sensitive" },
      fullDescription: { text: "bootstrap_data is marked sensitive" },
      help: {
        text: `bootstrap_data is marked sensitive\n\nDocumentation: ${url}`,
        markdown: `bootstrap_data is marked sensitive\n\n[Documentation](${url})`,
      },
      helpUri: url,
      defaultConfiguration: { level: "warning" },
      properties: { tags: ["security", "input"], precision: "very-high", "problem.severity": "warning" },
    });
    // A rule only seen in findings still gets a descriptor, with the finding's severity.
    expect(driver.rules[5].defaultConfiguration).toEqual({ level: "note" });
    expect(driver.rules[5].properties["problem.severity"]).toBe("recommendation");
    expect(driver.rules[5].shortDescription.text).toBe("module/child-note");
  });

  it("takes fullDescription and help from the rule's docs page when there is one", () => {
    const page = "# output/required\n\n<!-- generated -->\nDetects a required output\nthat is missing.\n\n## Why\n\nBecause.\n";
    const log = sarif(undefined, (id) => (id === "output/required" ? page : null));
    const rule = log.runs[0].tool.driver.rules[0];
    expect(rule.fullDescription).toEqual({ text: "Detects a required output that is missing." });
    expect(rule.help).toEqual({ text: page, markdown: page });
    expect(rule.shortDescription).toEqual({ text: "Every output the role requires is declared" });
  });

  it("locates results repository-relative, module-level ones at the module directory", () => {
    const run = sampleRun();
    run.cwd = "/work/repo/envs";
    const results = JSON.parse(JSON.stringify(buildSarif(run, () => null))).runs[0].results;
    expect(results.map((r: Json) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ["output/required", 0, "error"],
      ["output/provider-id-list-shape", 2, "warning"],
      ["output/health-shape", 1, "error"],
      ["input/sensitive", 3, "warning"],
      ["module/child-note", 5, "note"],
      ["output/endpoint-never-set", 4, "warning"],
    ]);
    expect(results[0].locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: "modules/my%20pool/", uriBaseId: "%SRCROOT%" },
          region: { startLine: 1 },
        },
      },
    ]);
    expect(results[2].locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: "modules/my%20pool/outputs.tf", uriBaseId: "%SRCROOT%" },
          region: { startLine: 6, startColumn: 31, endLine: 6, endColumn: 42 },
        },
      },
    ]);
    expect(results[4].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "envs/prod/child/main.tf", uriBaseId: "%SRCROOT%" },
      region: { startLine: 1, startColumn: 1, endLine: 3, endColumn: 2 },
    });
    expect(results[5].message).toEqual({
      text: "control_plane_endpoint is always null\r\nset it from var.control_plane_endpoint (100%)",
    });
    expect(results.map((r: Json) => r.properties)).toEqual([
      { module: "modules/my pool" },
      { module: "modules/my pool" },
      { module: "modules/my pool" },
      { module: "modules/my pool" },
      { module: "envs/prod" },
      { module: "envs/prod" },
    ]);
  });

  it("emits suppressed findings with an in-source suppression and its justification", () => {
    const result = sarif().runs[0].results[3];
    expect(result.ruleId).toBe("input/sensitive");
    expect(result.suppressions).toEqual([
      {
        kind: "inSource",
        justification: "rendered into cloud-init, holds no secret",
        location: {
          physicalLocation: {
            artifactLocation: { uri: "modules/my%20pool/variables.tf", uriBaseId: "%SRCROOT%" },
            region: { startLine: 1 },
          },
        },
      },
    ]);
    expect(sarif().runs[0].results.filter((r: Json) => r.suppressions).length).toBe(1);
  });

  it("names the category after the module when there is one, else per result", () => {
    const one = sarif([poolModule()]).runs[0];
    expect(one.automationDetails).toEqual({ id: "tfcapi-lint/modules/my pool/" });
    expect(one.properties).toEqual({
      role: "machinepool",
      roleSource: "detected",
      fileSet: "terraform",
      modules: [
        {
          module: "modules/my pool",
          path: "modules/my pool",
          role: "machinepool",
          roleSource: "detected",
          roleEvidence: ["output provider_id_list", "variable desired_size"],
          fileSet: "terraform",
        },
      ],
    });
    expect(one.results.every((r: Json) => r.properties === undefined)).toBe(true);
    const two = sarif().runs[0];
    expect(two.automationDetails).toEqual({ id: "tfcapi-lint/" });
    expect(two.properties.role).toBeUndefined();
    expect(two.properties.modules.map((m: Json) => [m.path, m.role, m.roleSource])).toEqual([
      ["modules/my pool", "machinepool", "detected"],
      ["envs/prod", "cluster", "flag"],
    ]);
  });

  it("uses `version` when the tool version is not semver", () => {
    const run = sampleRun();
    run.toolVersion = "dev-abc";
    const driver = (buildSarif(run, () => null) as Json).runs[0].tool.driver;
    expect(driver.version).toBe("dev-abc");
    expect(driver.semanticVersion).toBeUndefined();
  });

  it("keeps a fingerprint when an unrelated line is inserted above the finding", () => {
    const before = sarif([poolModule()]);
    const shifted = poolModule();
    shifted.sources.set("outputs.tf", "# Outputs read by the CAPTF controller.\n" + POOL_OUTPUTS);
    shifted.findings = shifted.findings.map((f) =>
      f.file === "outputs.tf"
        ? { ...f, range: rng(f.range.start.line + 1, f.range.start.column, f.range.end.line + 1, f.range.end.column) }
        : f,
    );
    const after = sarif([shifted]);
    expect(after.runs[0].results[2].locations[0].physicalLocation.region.startLine).toBe(7);
    for (const id of ["output/required", "output/provider-id-list-shape", "output/health-shape", "input/sensitive"]) {
      expect(fingerprintOf(after, id)).toBe(fingerprintOf(before, id));
    }
    expect(fingerprintOf(before, "output/health-shape")).toMatch(/^[0-9a-f]{32}:1$/);
  });

  it("changes the fingerprint when the finding's line changes, and counts equal keys", () => {
    const before = sarif([poolModule()]);
    const edited = poolModule();
    edited.sources.set("outputs.tf", POOL_OUTPUTS.replace("healthy = 1", 'healthy = "yes"'));
    expect(fingerprintOf(sarif([edited]), "output/health-shape")).not.toBe(fingerprintOf(before, "output/health-shape"));

    const twice = poolModule();
    twice.findings = [
      finding("output/health-shape", "error", "outputs.tf", rng(6, 10, 6, 20), "a"),
      finding("output/health-shape", "error", "outputs.tf", rng(6, 31, 6, 42), "b"),
    ];
    const prints = sarif([twice]).runs[0].results.map((r: Json) => r.partialFingerprints[FINGERPRINT_KEY]);
    expect(prints[0].slice(0, 33)).toBe(prints[1].slice(0, 33));
    expect([prints[0].slice(33), prints[1].slice(33)]).toEqual(["1", "2"]);
  });

  it("ignores whitespace-only re-indentation in fingerprints", () => {
    const before = sarif([poolModule()]);
    const reformatted = poolModule();
    reformatted.sources.set("outputs.tf", POOL_OUTPUTS.replace("  value = local.ids", "    value   =   local.ids"));
    expect(fingerprintOf(sarif([reformatted]), "output/provider-id-list-shape")).toBe(
      fingerprintOf(before, "output/provider-id-list-shape"),
    );
  });

  it("encodes path segments and never emits an empty URI for the repository root", () => {
    const mod = clusterModule();
    mod.dir = "/work/repo";
    mod.findings = [
      finding("output/required", "error", "", rng(0, 0, 0, 0), "missing"),
      finding("output/required", "error", "a#b/c%d.tf", rng(1, 1, 1, 2), "odd name"),
    ];
    const results = sarif([mod]).runs[0].results;
    expect(results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("./");
    expect(results[1].locations[0].physicalLocation.artifactLocation.uri).toBe("a%23b/c%25d.tf");
    expect(sarif([mod]).runs[0].automationDetails.id).toBe("tfcapi-lint/./");
    expect(validate(sarif([mod]))).toBe(true);
  });

  it("turns rule ids into Pascal-case names", () => {
    expect(ruleName("output/provider-id-list-shape")).toBe("OutputProviderIdListShape");
    expect(ruleName("syntax/parse")).toBe("SyntaxParse");
  });
});

describe("sarif fixes", () => {
  it("turns a finding's autofix into a SARIF fix with character-offset replacements", () => {
    const mod = poolModule();
    mod.findings[1].fix = {
      description: "wrap the value in sort()",
      edits: [
        { file: "outputs.tf", start: 38, end: 38, text: "sort(" },
        { file: "outputs.tf", start: 47, end: 47, text: ")" },
        { file: "variables.tf", start: 0, end: 84, text: "" },
      ],
    };
    const log = sarif([mod]);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.runs[0].results[1].fixes).toEqual([
      {
        description: { text: "wrap the value in sort()" },
        artifactChanges: [
          {
            artifactLocation: { uri: "modules/my%20pool/outputs.tf", uriBaseId: "%SRCROOT%" },
            replacements: [
              { deletedRegion: { charOffset: 38, charLength: 0 }, insertedContent: { text: "sort(" } },
              { deletedRegion: { charOffset: 47, charLength: 0 }, insertedContent: { text: ")" } },
            ],
          },
          {
            artifactLocation: { uri: "modules/my%20pool/variables.tf", uriBaseId: "%SRCROOT%" },
            replacements: [{ deletedRegion: { charOffset: 0, charLength: 84 } }],
          },
        ],
        // A fix that does not say its kind is unsafe.
        properties: { kind: "unsafe" },
      },
    ]);
    expect(log.runs[0].results[0].fixes).toBeUndefined();
  });
});

describe("sarif paths (Finding.related)", () => {
  it("gives a finding's path as relatedLocations and a codeFlows thread, schema-valid", () => {
    const log = sarif([pathModule()]);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const [required, shape] = log.runs[0].results;
    const at = (uri: string, region: Json) => ({ artifactLocation: { uri, uriBaseId: "%SRCROOT%" }, region });
    const own = at("modules/my%20pool/outputs.tf", { startLine: 2, startColumn: 11, endLine: 2, endColumn: 20 });
    const locals = at("modules/my%20pool/locals.tf", { startLine: 2, startColumn: 9, endLine: 2, endColumn: 45 });
    const main = at("modules/my%20pool/main.tf", { startLine: 1, startColumn: 1, endLine: 3, endColumn: 2 });
    expect(shape.locations).toEqual([{ physicalLocation: own }]);
    expect(shape.relatedLocations).toEqual([
      { id: 1, physicalLocation: locals, message: { text: "local.ids" } },
      { id: 2, physicalLocation: main, message: { text: "aws_instance.node\n(count)" } },
    ]);
    expect(shape.codeFlows).toEqual([
      {
        threadFlows: [
          {
            locations: [
              { location: { physicalLocation: own, message: { text: "wrap the value in sort()" } } },
              { location: { physicalLocation: locals, message: { text: "local.ids" } } },
              { location: { physicalLocation: main, message: { text: "aws_instance.node\n(count)" } } },
            ],
          },
        ],
      },
    ]);
    // A module-level finding starts its thread where it is shown (its home file, line 1).
    expect(required.codeFlows[0].threadFlows[0].locations.map((l: Json) => l.location.physicalLocation)).toEqual([
      { artifactLocation: { uri: "modules/my%20pool/outputs.tf", uriBaseId: "%SRCROOT%" }, region: { startLine: 1 } },
      at("modules/my%20pool/child/main.tf", { startLine: 1, startColumn: 1, endLine: 1, endColumn: 9 }),
    ]);
    // The schema check sees these parts: a thread location without its location object fails.
    const broken = sarif([pathModule()]);
    broken.runs[0].results[1].codeFlows[0].threadFlows[0].locations = [];
    expect(validate(broken)).toBe(false);
  });

  it("adds neither relatedLocations nor codeFlows to a finding without a path", () => {
    const mod = pathModule();
    mod.findings[1].related = [];
    delete mod.findings[0].related;
    for (const result of sarif([mod]).runs[0].results) {
      expect(Object.keys(result)).toEqual(["ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints"]);
    }
  });
});

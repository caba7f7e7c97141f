import { describe, expect, it } from "vitest";
import { formatCheckstyle } from "../../src/report/checkstyle.js";
import { formatJunit } from "../../src/report/junit.js";
import { escapeXml, escapeXmlText } from "../../src/report/xml.js";
import { clusterModule, finding, poolModule, rng, sampleRun } from "./sample.js";

describe("checkstyle formatter", () => {
  it("groups unsuppressed findings by file, escaped, module-level without position", () => {
    expect(formatCheckstyle(sampleRun(), { color: false })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<checkstyle version="4.3">',
        "  <!-- tfcapi-lint: modules/my pool: role machinepool (role source: detected) -->",
        "  <!-- tfcapi-lint: envs/prod: role cluster (role source: flag) -->",
        '  <file name="modules/my pool">',
        '    <error severity="error" message="output &quot;replicas&quot; is not declared" source="tfcapi-lint.output/required"/>',
        "  </file>",
        '  <file name="modules/my pool/outputs.tf">',
        '    <error line="2" column="11" severity="warning" message="wrap the value in sort(): 100% of members, in a stable order" source="tfcapi-lint.output/provider-id-list-shape"/>',
        '    <error line="6" column="31" severity="error" message="health.healthy must be a bool, got: number" source="tfcapi-lint.output/health-shape"/>',
        "  </file>",
        '  <file name="envs/prod/child/main.tf">',
        '    <error line="1" column="1" severity="info" message="a note: child, here" source="tfcapi-lint.module/child-note"/>',
        "  </file>",
        '  <file name="envs/prod/main.tofu">',
        '    <error line="2" column="11" severity="warning" message="control_plane_endpoint is always null&#13;&#10;set it from var.control_plane_endpoint (100%)" source="tfcapi-lint.output/endpoint-never-set"/>',
        "  </file>",
        "</checkstyle>",
        "",
      ].join("\n"),
    );
  });

  it("prints an empty report for a clean run", () => {
    const mod = clusterModule();
    mod.findings = [];
    expect(formatCheckstyle(sampleRun([mod]), { color: false })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n  <!-- tfcapi-lint: envs/prod: role cluster (role source: flag) -->\n</checkstyle>\n',
    );
  });
});

describe("junit formatter", () => {
  it("has one suite per module and one case per applicable rule", () => {
    expect(formatJunit(sampleRun(), { color: false })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="tfcapi-lint" tests="8" failures="4" errors="0" time="0">',
        '  <testsuite name="modules/my pool" tests="4" failures="3" errors="0" skipped="0" time="0">',
        "    <properties>",
        '      <property name="role" value="machinepool"/>',
        '      <property name="roleSource" value="detected"/>',
        '      <property name="fileSet" value="terraform"/>',
        "    </properties>",
        '    <testcase name="output/required" classname="modules/my pool" time="0">',
        '      <failure message="output &quot;replicas&quot; is not declared" type="error">modules/my pool:0:0: error: output &quot;replicas&quot; is not declared</failure>',
        "    </testcase>",
        '    <testcase name="output/health-shape" classname="modules/my pool" time="0">',
        '      <failure message="health.healthy must be a bool, got: number" type="error">modules/my pool/outputs.tf:6:31: error: health.healthy must be a bool, got: number</failure>',
        "    </testcase>",
        '    <testcase name="output/provider-id-list-shape" classname="modules/my pool" time="0">',
        '      <failure message="wrap the value in sort(): 100% of members, in a stable order" type="warning">modules/my pool/outputs.tf:2:11: warning: wrap the value in sort(): 100% of members, in a stable order</failure>',
        "    </testcase>",
        '    <testcase name="input/sensitive" classname="modules/my pool" time="0">',
        "      <system-out>modules/my pool/variables.tf:2:1: warning: bootstrap_data is not sensitive (suppressed: rendered into cloud-init, holds no secret)</system-out>",
        "    </testcase>",
        "  </testsuite>",
        '  <testsuite name="envs/prod" tests="4" failures="1" errors="0" skipped="0" time="0">',
        "    <properties>",
        '      <property name="role" value="cluster"/>',
        '      <property name="roleSource" value="flag"/>',
        '      <property name="fileSet" value="opentofu"/>',
        "    </properties>",
        '    <testcase name="output/required" classname="envs/prod" time="0"/>',
        '    <testcase name="output/health-shape" classname="envs/prod" time="0"/>',
        '    <testcase name="output/endpoint-never-set" classname="envs/prod" time="0">',
        '      <failure message="control_plane_endpoint is always null set it from var.control_plane_endpoint (100%)" type="warning">envs/prod/main.tofu:2:11: warning: control_plane_endpoint is always null set it from var.control_plane_endpoint (100%)</failure>',
        "    </testcase>",
        '    <testcase name="module/child-note" classname="envs/prod" time="0">',
        "      <system-out>envs/prod/child/main.tf:1:1: info: a note: child, here</system-out>",
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("lists several failing findings of a rule and only fails at or above failOn", () => {
    const mod = poolModule();
    mod.findings = [
      finding("output/health-shape", "error", "outputs.tf", rng(5, 1, 7, 2), "first"),
      finding("output/health-shape", "warning", "outputs.tf", rng(6, 31, 6, 42), "second"),
    ];
    const run = sampleRun([mod]);
    run.rules = run.rules.filter((r) => r.id === "output/health-shape");
    expect(formatJunit(run, { color: false }).split("\n").slice(8, 12)).toEqual([
      '    <testcase name="output/health-shape" classname="modules/my pool" time="0">',
      '      <failure message="2 problems" type="error">modules/my pool/outputs.tf:5:1: error: first',
      "modules/my pool/outputs.tf:6:31: warning: second</failure>",
      "    </testcase>",
    ]);
    run.failOn = "error";
    expect(formatJunit(run, { color: false }).split("\n").slice(8, 13)).toEqual([
      '    <testcase name="output/health-shape" classname="modules/my pool" time="0">',
      '      <failure message="first" type="error">modules/my pool/outputs.tf:5:1: error: first</failure>',
      "      <system-out>modules/my pool/outputs.tf:6:31: warning: second</system-out>",
      "    </testcase>",
      "  </testsuite>",
    ]);
  });

  it("has a passing case for a module with no applicable rule", () => {
    const mod = clusterModule();
    mod.findings = [];
    const run = sampleRun([mod]);
    run.rules = [];
    expect(formatJunit(run, { color: false })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="tfcapi-lint" tests="1" failures="0" errors="0" time="0">',
        '  <testsuite name="envs/prod" tests="1" failures="0" errors="0" skipped="0" time="0">',
        "    <properties>",
        '      <property name="role" value="cluster"/>',
        '      <property name="roleSource" value="flag"/>',
        '      <property name="fileSet" value="opentofu"/>',
        "    </properties>",
        '    <testcase name="tfcapi-lint" classname="envs/prod" time="0"/>',
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });
});

describe("xml escaping", () => {
  it("escapes markup, keeps line breaks as references in attributes, replaces invalid characters", () => {
    expect(escapeXml(`a<b>&"c"'d'`)).toBe("a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
    expect(escapeXml("x\ty\r\nz")).toBe("x&#9;y&#13;&#10;z");
    expect(escapeXml("bell\u0007 esc\u001b lone\ud800 ok\ud83d\ude00")).toBe("bell\ufffd esc\ufffd lone\ufffd ok\ud83d\ude00");
    expect(escapeXmlText("a\nb\tc\r")).toBe("a\nb\tc&#13;");
  });
});

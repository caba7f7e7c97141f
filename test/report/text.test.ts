import { describe, expect, it } from "vitest";
import { formatText } from "../../src/report/text.js";
import { frameParts } from "../../src/report/frame.js";
import { clusterModule, finding, pathModule, poolModule, rng, sampleRun } from "./sample.js";

const ESC = "\u001b";

describe("text formatter", () => {
  it("prints both modules with frames, totals, role and file set", () => {
    const out = formatText(sampleRun(), { color: false });
    expect(out).toBe(
      [
        "module modules/my pool",
        "",
        "modules/my pool",
        '  -  error  output "replicas" is not declared  output/required',
        "",
        "modules/my pool/outputs.tf",
        "  2:11  warning  wrap the value in sort(): 100% of members, in a stable order  output/provider-id-list-shape",
        "    2 |   value = local.ids",
        "      |           ^^^^^^^^^",
        "  6:31  error    health.healthy must be a bool, got: number  output/health-shape",
        '    6 | \tvalue = { state = "running", healthy = 1 }',
        "      | \t                             ^^^^^^^^^^^",
        "",
        "✖ 3 problems (2 errors, 1 warning, 0 info), 1 suppressed",
        "role: machinepool (detected: output provider_id_list; variable desired_size)",
        "file set: terraform (.tf, .tf.json)",
        "",
        "module envs/prod",
        "",
        "envs/prod/child/main.tf",
        "  1:1  info  a note: child, here  module/child-note",
        '    1 | resource "null_resource" "x" {',
        "      | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "",
        "envs/prod/main.tofu",
        "  2:11  warning  control_plane_endpoint is always null",
        "                 set it from var.control_plane_endpoint (100%)  output/endpoint-never-set",
        "    2 |   value = null",
        "      |           ^^^^",
        "",
        "✖ 2 problems (0 errors, 1 warning, 1 info)",
        "role: cluster (from --role)",
        "file set: opentofu (.tofu, .tofu.json, and .tf/.tf.json without a .tofu twin)",
        "",
        "✖ 5 problems in 2 modules (2 errors, 2 warnings, 1 info), 1 suppressed",
        "",
      ].join("\n"),
    );
  });

  it("has no module header for a single module and says when it is clean", () => {
    const mod = clusterModule();
    mod.findings = [];
    mod.summary = { error: 0, warning: 0, info: 0 };
    mod.roleSource = "config";
    expect(formatText(sampleRun([mod]), { color: false })).toBe(
      ["✔ no problems", "role: cluster (from the config file)", "file set: opentofu (.tofu, .tofu.json, and .tf/.tf.json without a .tofu twin)", ""].join("\n"),
    );
  });

  it("counts suppressed findings of a clean module and shows detection without evidence", () => {
    const mod = poolModule();
    mod.findings = mod.findings.filter((f) => f.suppressed);
    mod.summary = { error: 0, warning: 0, info: 0 };
    mod.roleEvidence = [];
    expect(formatText(sampleRun([mod]), { color: false })).toBe(
      ["✔ no problems (1 suppressed)", "role: machinepool (detected)", "file set: terraform (.tf, .tf.json)", ""].join("\n"),
    );
  });

  it("shows paths relative to the working directory", () => {
    const run = sampleRun([clusterModule()]);
    run.cwd = "/work/repo/modules";
    const out = formatText(run, { color: false });
    expect(out.split("\n").filter((l) => l.includes("main.t"))).toEqual([
      "../envs/prod/child/main.tf",
      "../envs/prod/main.tofu",
    ]);
  });

  it("prints no ANSI codes without colour", () => {
    expect(formatText(sampleRun(), { color: false })).not.toContain(ESC);
  });

  it("colours the severity, the caret and the totals with colour on", () => {
    const out = formatText(sampleRun([poolModule()]), { color: true });
    const lines = out.split("\n");
    expect(lines[0]).toBe(`${ESC}[4mmodules/my pool${ESC}[24m`);
    expect(lines[1]).toBe(
      `  ${ESC}[2m-${ESC}[22m  ${ESC}[31merror${ESC}[39m  output "replicas" is not declared  ${ESC}[2moutput/required${ESC}[22m`,
    );
    expect(lines[4]).toBe(
      `  ${ESC}[2m2:11${ESC}[22m  ${ESC}[33mwarning${ESC}[39m  wrap the value in sort(): 100% of members, in a stable order  ${ESC}[2moutput/provider-id-list-shape${ESC}[22m`,
    );
    expect(lines[6]).toBe(`     ${ESC}[2m |${ESC}[22m           ${ESC}[33m^^^^^^^^^${ESC}[39m`);
    expect(lines[7]).toBe(
      `  ${ESC}[2m6:31${ESC}[22m  ${ESC}[31merror${ESC}[39m    health.healthy must be a bool, got: number  ${ESC}[2moutput/health-shape${ESC}[22m`,
    );
    expect(lines[11]).toBe(`${ESC}[31m${ESC}[1m✖${ESC}[22m${ESC}[39m ${ESC}[1m3 problems (2 errors, 1 warning, 0 info)${ESC}[22m, 1 suppressed`);
    // Stripping the codes gives the plain output back.
    expect(out.replace(/\u001b\[\d+m/g, "")).toBe(formatText(sampleRun([poolModule()]), { color: false }));
  });

  it("colours info cyan and a warnings-only total yellow", () => {
    const mod = clusterModule();
    const out = formatText(sampleRun([mod]), { color: true });
    expect(out).toContain(`${ESC}[36minfo${ESC}[39m`);
    expect(out).toContain(`${ESC}[33m${ESC}[1m✖${ESC}[22m${ESC}[39m`);
  });

  it("replaces control characters from the module so they cannot drive the terminal", () => {
    const mod = clusterModule();
    mod.findings = [finding("output/endpoint-never-set", "warning", "main.tofu", rng(1, 1, 1, 3), `bad ${ESC}[2J name`)];
    mod.sources = new Map([["main.tofu", `x${ESC}y = 1\n`]]);
    const out = formatText(sampleRun([mod]), { color: false });
    expect(out).not.toContain(ESC);
    expect(out.split("\n").slice(0, 4)).toEqual([
      "envs/prod/main.tofu",
      "  1:1  warning  bad \ufffd[2J name  output/endpoint-never-set",
      "    1 | x\ufffdy = 1",
      "      | ^^",
    ]);
  });

  it("lists the path a finding followed as via lines under its frame, paths from the working directory", () => {
    const run = { ...sampleRun([pathModule()]), cwd: "/work/repo/modules" };
    expect(formatText(run, { color: false })).toBe(
      [
        "my pool",
        '  -  error  output "replicas" is not declared  output/required',
        "    via my pool/child/main.tf:1:1  module child",
        "",
        "my pool/outputs.tf",
        "  2:11  warning  wrap the value in sort()  output/provider-id-list-shape",
        "    2 |   value = local.ids",
        "      |           ^^^^^^^^^",
        "    via my pool/locals.tf:2:9  local.ids",
        "    via my pool/main.tf:1:1  aws_instance.node (count)",
        "",
        "✖ 2 problems (1 error, 1 warning, 0 info)",
        "role: machinepool (detected: output provider_id_list)",
        "file set: terraform (.tf, .tf.json)",
        "",
      ].join("\n"),
    );
  });

  it("dims the via keyword with colour on and replaces control characters in a hop's label", () => {
    const mod = pathModule();
    mod.findings[1].related![0].message = `local.${ESC}[2Jids`;
    const out = formatText(sampleRun([mod]), { color: true });
    expect(out.split("\n")[8]).toBe(`    ${ESC}[2mvia${ESC}[22m modules/my pool/locals.tf:2:9  local.\ufffd[2Jids`);
  });

  it("omits the frame when the source or the line is unavailable", () => {
    const mod = clusterModule();
    mod.findings = [
      finding("output/endpoint-never-set", "warning", "missing.tf", rng(3, 1, 3, 4), "m1"),
      finding("output/endpoint-never-set", "warning", "main.tofu", rng(40, 1, 40, 2), "m2"),
    ];
    const out = formatText(sampleRun([mod]), { color: false });
    expect(out.split("\n").slice(0, 6)).toEqual([
      "envs/prod/missing.tf",
      "  3:1  warning  m1  output/endpoint-never-set",
      "",
      "envs/prod/main.tofu",
      "  40:1  warning  m2  output/endpoint-never-set",
      "",
    ]);
  });
});

describe("code frame", () => {
  it("underlines a multi-line range to the end of its first line", () => {
    expect(frameParts("  value = {", rng(4, 11, 9, 4))).toEqual({ lineNumber: 4, source: "  value = {", pad: "          ", carets: "^" });
    expect(frameParts("abc def", rng(1, 5, 2, 1))).toEqual({ lineNumber: 1, source: "abc def", pad: "    ", carets: "^^^" });
  });

  it("draws one caret for an empty range or a range past the end of the line", () => {
    expect(frameParts("abc", rng(1, 2, 1, 2)).carets).toBe("^");
    expect(frameParts("abc", rng(1, 9, 1, 12))).toEqual({ lineNumber: 1, source: "abc", pad: "   ", carets: "^" });
  });

  it("cuts a very long line to a window around the range", () => {
    const line = "a".repeat(300) + "TARGET" + "b".repeat(300);
    const parts = frameParts(line, rng(1, 301, 1, 307));
    expect(parts.source).toBe("…" + "a".repeat(40) + "TARGET" + "b".repeat(114) + "…");
    expect(parts.pad).toBe(" ".repeat(41));
    expect(parts.carets).toBe("^^^^^^");
  });

  it("keeps the start of a long line when the range is near it", () => {
    const line = "x".repeat(10) + "y".repeat(200);
    const parts = frameParts(line, rng(1, 3, 1, 500));
    expect(parts.source).toBe("x".repeat(10) + "y".repeat(150) + "…");
    expect(parts.pad).toBe("  ");
    expect(parts.carets).toBe("^".repeat(158));
  });
});

describe("text totals", () => {
  it("counts findings that have a fix", () => {
    const mod = poolModule();
    mod.findings[1].fix = { description: "wrap in sort()", kind: "safe", edits: [{ file: "outputs.tf", start: 38, end: 47, text: "sort(local.ids)" }] };
    const out = formatText(sampleRun([mod]), { color: false });
    expect(out).toContain("\n✖ 3 problems (2 errors, 1 warning, 0 info), 1 suppressed, 1 fixable with --fix\n");
    const both = formatText(sampleRun([mod, clusterModule()]), { color: false });
    expect(both.endsWith("\n✖ 5 problems in 2 modules (2 errors, 2 warnings, 1 info), 1 suppressed, 1 fixable with --fix\n")).toBe(true);
  });

  it("counts findings whose fix is unsafe apart, with the option that applies them", () => {
    const mod = poolModule();
    mod.findings[0].fix = { description: "ignore the count", kind: "unsafe", edits: [{ file: "outputs.tf", start: 0, end: 0, text: "" }] };
    expect(formatText(sampleRun([mod]), { color: false })).toContain("\n✖ 3 problems (2 errors, 1 warning, 0 info), 1 suppressed, 1 fixable with --fix-unsafe\n");
    mod.findings[1].fix = { description: "wrap in sort()", kind: "safe", edits: [{ file: "outputs.tf", start: 38, end: 47, text: "sort(local.ids)" }] };
    expect(formatText(sampleRun([mod]), { color: false })).toContain("\n✖ 3 problems (2 errors, 1 warning, 0 info), 1 suppressed, 1 fixable with --fix, 1 with --fix-unsafe\n");
    // A fix that does not say its kind is unsafe.
    delete mod.findings[0].fix.kind;
    expect(formatText(sampleRun([mod]), { color: false })).toContain(", 1 fixable with --fix, 1 with --fix-unsafe\n");
  });
});

describe("text role line", () => {
  it("shows at most three pieces of detection evidence", () => {
    const mod = clusterModule();
    mod.findings = [];
    mod.summary = { error: 0, warning: 0, info: 0 };
    mod.roleSource = "detected";
    mod.roleEvidence = ["a (x.tf:1)", "b (x.tf:2)", "c (x.tf:3)", "d (x.tf:4)", "e (x.tf:5)"];
    expect(formatText(sampleRun([mod]), { color: false }).split("\n")[1]).toBe(
      "role: cluster (detected: a (x.tf:1); b (x.tf:2); c (x.tf:3); and 2 more)",
    );
    mod.roleEvidence = mod.roleEvidence.slice(0, 3);
    expect(formatText(sampleRun([mod]), { color: false }).split("\n")[1]).toBe(
      "role: cluster (detected: a (x.tf:1); b (x.tf:2); c (x.tf:3))",
    );
  });
});

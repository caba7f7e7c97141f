import { describe, expect, it } from "vitest";
import { COMPACT_PATTERN, formatCompact } from "../../src/report/compact.js";
import { clusterModule, sampleRun } from "./sample.js";

describe("compact formatter", () => {
  it("prints one line per unsuppressed finding, module-level at :0:0", () => {
    expect(formatCompact(sampleRun(), { color: true })).toBe(
      [
        'modules/my pool:0:0: error: output "replicas" is not declared [output/required]',
        "modules/my pool/outputs.tf:2:11: warning: wrap the value in sort(): 100% of members, in a stable order [output/provider-id-list-shape]",
        "modules/my pool/outputs.tf:6:31: error: health.healthy must be a bool, got: number [output/health-shape]",
        "envs/prod/child/main.tf:1:1: info: a note: child, here [module/child-note]",
        "envs/prod/main.tofu:2:11: warning: control_plane_endpoint is always null set it from var.control_plane_endpoint (100%) [output/endpoint-never-set]",
        "",
      ].join("\n"),
    );
  });

  it("prints nothing for a clean run", () => {
    const mod = clusterModule();
    mod.findings = [];
    expect(formatCompact(sampleRun([mod]), { color: false })).toBe("");
  });

  it("lines parse with the documented problem-matcher pattern", () => {
    const re = new RegExp(COMPACT_PATTERN);
    const lines = formatCompact(sampleRun(), { color: false }).trimEnd().split("\n");
    const parsed = lines.map((l) => re.exec(l)?.slice(1));
    expect(parsed[0]).toEqual(["modules/my pool", "0", "0", "error", 'output "replicas" is not declared', "output/required"]);
    expect(parsed[2]).toEqual([
      "modules/my pool/outputs.tf",
      "6",
      "31",
      "error",
      "health.healthy must be a bool, got: number",
      "output/health-shape",
    ]);
    expect(parsed.every((p) => p !== undefined)).toBe(true);
  });
});

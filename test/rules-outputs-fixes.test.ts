/**
 * Fixes of syntax/one-line-block, output/provider-id-list-shape and
 * pool/autoscaling-ignore-changes: applying a fixture's fixes must give
 * exactly the expected text, the result must parse cleanly, and linting the
 * fixed module again must no longer report the fixed problem.
 */
import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule } from "./helpers/lint.js";
import { applyFixes, fixesByFile } from "../src/lint/apply-fixes.js";
import { parseModuleFile as parseHcl } from "../src/terraform/parse.js";
import type { Finding } from "../src/lint/types.js";
import type { Role } from "../src/contract/roles-api.js";
import { moduleDirOf } from "../scripts/fixture-modules.mjs";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

interface Fixed {
  /** Original and fixed text of every file the fixes touched. */
  files: Map<string, { before: string; after: string }>;
  /** The fixable findings before fixing. */
  before: Finding[];
  /** Findings of the same rule after fixing. */
  after: Finding[];
}

function lint(dir: string, role: Role, rule: string): Finding[] {
  const outcome = lintModule(dir, { role, only: [rule], now: new Date("2026-01-01T00:00:00Z") });
  if (outcome.kind !== "report") throw new Error(outcome.message);
  return outcome.report.findings;
}

function fixCase(rel: string, rule: string): Fixed {
  const src = path.join(FIXTURES, rel);
  const role = (JSON.parse(readFileSync(path.join(src, "expected.json"), "utf8")) as { role: Role }).role;
  const work = mkdtempSync(path.join(tmpdir(), "tfcapi-fix-"));
  try {
    cpSync(moduleDirOf(src), work, { recursive: true });
    const before = lint(work, role, rule);
    const files = new Map<string, { before: string; after: string }>();
    for (const [file, fixes] of fixesByFile(before, undefined, "all")) {
      const abs = path.join(work, file);
      const text = readFileSync(abs, "utf8");
      const { text: after, applied } = applyFixes(text, file, fixes);
      expect(applied).toBe(fixes.length);
      writeFileSync(abs, after);
      files.set(file, { before: text, after });
      expect(parseHcl(after, file).diagnostics).toEqual([]);
    }
    return { files, before: before.filter((f) => f.fix), after: lint(work, role, rule) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `before` with `from` (which must occur exactly once) replaced by `to`. */
function replaced(before: string, from: string, to: string): string {
  expect(before.split(from).length).toBe(2);
  return before.replace(from, to);
}

describe("syntax/one-line-block fix", () => {
  const rule = "syntax/one-line-block";

  it("expands a variable with two arguments, aligning the equals signs", () => {
    const r = fixCase("syntax/one-line-block/two-arguments", rule);
    expect(r.before.map((f) => f.fix!.description)).toEqual(["Expand the block to one argument per line"]);
    const v = r.files.get("instance.tf")!;
    expect(v.after).toBe(
      replaced(
        v.before,
        'variable "instance_type" { type = string default = "m6i.large" }',
        'variable "instance_type" {\n  type    = string\n  default = "m6i.large"\n}',
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("expands a nested lifecycle block at its own indentation and keeps comments", () => {
    const r = fixCase("syntax/one-line-block/nested-lifecycle-and-comment", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(
        m.before,
        "  lifecycle { create_before_destroy = true ignore_changes = [desired_capacity] }\n",
        "  lifecycle {\n    create_before_destroy = true\n    ignore_changes        = [desired_capacity]\n  }\n",
      ),
    );
    const v = r.files.get("variables.tf")!;
    expect(v.after).toBe(
      replaced(
        v.before,
        'variable "ssh_key_name" { type = string /* EC2 key pair */ default = null }',
        'variable "ssh_key_name" {\n  type = string\n  /* EC2 key pair */\n  default = null\n}',
      ),
    );
    expect(r.after).toEqual([]);
  });
});

describe("output/provider-id-list-shape fix", () => {
  const rule = "output/provider-id-list-shape";

  it("wraps distinct() in sort()", () => {
    const r = fixCase("output/provider-id-list-shape/unsorted-distinct", rule);
    const o = r.files.get("outputs.tf")!;
    expect(o.after).toBe(replaced(o.before, "value = distinct(local.raw_ids)", "value = sort(distinct(local.raw_ids))"));
    expect(r.after).toEqual([]);
  });

  it("wraps a sorted local in sort() in the output itself", () => {
    const r = fixCase("output/provider-id-list-shape/unsorted-sorted-local", rule);
    const o = r.files.get("outputs.tf")!;
    expect(o.after).toBe(replaced(o.before, "value = local.sorted_ids", "value = sort(local.sorted_ids)"));
    expect(r.after).toEqual([]);
  });

  it("wraps a whole conditional", () => {
    const r = fixCase("output/provider-id-list-shape/unsorted-conditional-one-branch", rule);
    const o = r.files.get("outputs.tf")!;
    expect(o.after).toBe(
      replaced(
        o.before,
        "value = var.captf_cluster_outputs == null ? [] : sort(local.raw_ids)",
        "value = sort(var.captf_cluster_outputs == null ? [] : sort(local.raw_ids))",
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("rewrites the JSON string of a .tf.json output", () => {
    const r = fixCase("output/provider-id-list-shape/json-unsorted", rule);
    const o = r.files.get("outputs.tf.json")!;
    expect(o.after).toBe(replaced(o.before, '"value": "${local.raw_ids}"', '"value": "${sort(local.raw_ids)}"'));
    expect(r.after).toEqual([]);
  });

  it("offers no fix for the running filter (dropping a condition is a judgement call)", () => {
    const r = fixCase("output/provider-id-list-shape/filter-running", rule);
    expect(r.before).toEqual([]);
    expect(r.after.map((f) => f.range.start.line)).toEqual([6]);
  });
});

describe("pool/autoscaling-ignore-changes fix", () => {
  const rule = "pool/autoscaling-ignore-changes";

  it("creates the lifecycle block when there is none", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/aws-missing-lifecycle", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(
        m.before,
        '    version = "$Latest"\n  }\n}\n',
        '    version = "$Latest"\n  }\n\n  lifecycle {\n    ignore_changes = [desired_capacity]\n  }\n}\n',
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("adds the attribute to an existing one-line list", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/aws-ignores-other-attributes", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(m.before, "ignore_changes        = [tag, load_balancers]", "ignore_changes        = [tag, load_balancers, desired_capacity]"),
    );
    expect(r.after).toEqual([]);
  });

  it("adds a line to a multi-line list, after the trailing comma and comment", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/aws-ignore-list-multiline", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(
        m.before,
        "      load_balancers, # attached by the cluster module\n    ]",
        "      load_balancers, # attached by the cluster module\n      desired_capacity,\n    ]",
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("expands a one-line lifecycle block to add ignore_changes", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/aws-one-line-lifecycle", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(
        m.before,
        "  lifecycle { create_before_destroy = true }\n",
        "  lifecycle {\n    create_before_destroy = true\n    ignore_changes        = [desired_capacity]\n  }\n",
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("adds ignore_changes to an existing lifecycle block, aligned with its arguments (EKS)", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/eks-desired-size-managed", rule);
    const m = r.files.get("main.tf")!;
    expect(m.after).toBe(
      replaced(
        m.before,
        "  lifecycle {\n    create_before_destroy = true\n  }\n",
        "  lifecycle {\n    create_before_destroy = true\n    ignore_changes        = [scaling_config[0].desired_size]\n  }\n",
      ),
    );
    expect(r.after).toEqual([]);
  });

  it("offers no fix for a JSON-syntax group (formatting would be a guess)", () => {
    const r = fixCase("pool/autoscaling-ignore-changes/json-missing", rule);
    expect(r.before).toEqual([]);
    expect(r.after.map((f) => [f.file, f.range.start.line])).toEqual([["main.tf.json", 2]]);
  });

  it("uses each cloud's desired-count attribute", () => {
    const cases: [string, string, string][] = [
      ["azure-scale-set-missing", "main.tf", "instances"],
      ["oci-instance-pool-missing", "main.tf", "size"],
      ["gcp-target-size-always-set", "main.tf", "target_size"],
      ["azure-legacy-scale-set-missing", "main.tf", "sku[0].capacity"],
      ["unknown-type-fallback-name", "main.tf", "size"],
      ["nested-module-missing", "modules/group/main.tf", "desired_capacity"],
    ];
    for (const [name, file, attr] of cases) {
      const r = fixCase(`pool/autoscaling-ignore-changes/${name}`, rule);
      expect([...r.files.keys()]).toEqual([file]);
      const f = r.files.get(file)!;
      expect(f.after.length - f.before.length).toBe(`\n  lifecycle {\n    ignore_changes = [${attr}]\n  }\n`.length);
      expect(f.after).toContain(`\n\n  lifecycle {\n    ignore_changes = [${attr}]\n  }\n}\n`);
      expect(r.after).toEqual([]);
    }
  });
});

describe("syntax/one-line-block fix of a nested block", () => {
  it("puts the nested block on its own lines and expands it too", () => {
    const r = fixCase("syntax/one-line-block/nested-block", "syntax/one-line-block");
    const f = r.files.get("image.tf")!;
    expect(f.after).toBe(
      replaced(
        f.before,
        'data "aws_ami" "node" { filter { name = "name" values = ["ubuntu-jammy-22.04-amd64-server-*"] } }',
        'data "aws_ami" "node" {\n  filter {\n    name   = "name"\n    values = ["ubuntu-jammy-22.04-amd64-server-*"]\n  }\n}',
      ),
    );
    expect(r.after).toEqual([]);
  });
});

describe("syntax/one-line-block beyond the parser's first error", () => {
  it("fixes every one-line block of a file in one pass", () => {
    const r = fixCase("syntax/one-line-block/several-in-one-file", "syntax/one-line-block");
    expect(r.before.map((f) => f.range.start.line)).toEqual([2, 4, 6]);
    const f = r.files.get("settings.tf")!;
    expect(f.after).toBe(
      [
        "# Module variables, squeezed onto one line each.",
        'variable "instance_type" {',
        "  type    = string",
        '  default = "m6i.large"',
        "}",
        "",
        'variable "root_volume_size" {',
        "  type    = number",
        "  default = 50",
        "}",
        "",
        'variable "spot" {',
        "  type = bool",
        "  /* cheaper, may be reclaimed */",
        "  default = false",
        "}",
        "",
      ].join("\n"),
    );
    expect(r.after).toEqual([]);
  });

  it("keeps CRLF line endings and expands a nested block found after the first error", () => {
    const r = fixCase("syntax/one-line-block/crlf", "syntax/one-line-block");
    const f = r.files.get("image.tf")!;
    expect(f.after).toBe(
      [
        "# Node image lookup, written on Windows.",
        'variable "image_owner" {',
        "  type    = string",
        '  default = "099720109477"',
        "}",
        "",
        'data "aws_ami" "node" {',
        "  owners = [var.image_owner]",
        "  filter {",
        '    name   = "name"',
        '    values = ["ubuntu-jammy-*"]',
        "  }",
        "}",
        "",
      ].join("\r\n"),
    );
    expect(r.after).toEqual([]);
  });
});

/**
 * Robustness of the native parser: arbitrary input never throws, every
 * diagnostic and node range stays inside the text, deep nesting is cut off
 * with a diagnostic, and large files parse in linear time.
 */
import { describe, expect, it } from "vitest";
import { parseNative } from "../../src/hcl/parser.js";
import { collectRefs, walkExpression } from "../../src/hcl/walk.js";
import type { Body, Expression, ParseResult, Range } from "../../src/hcl/ast.js";
import { mulberry32 } from "../../scripts/mulberry32.mjs";

const REALISTIC = `# Machine pool for CAPTF
terraform {
  required_version = ">= 1.6"
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}

variable "captf_object" {
  type = object({ name = string, namespace = string })
}

locals {
  name   = "\${var.captf_object.namespace}-\${var.captf_object.name}"
  labels = { for k, v in var.labels : lower(k) => v if v != null }
  ids    = sort([for i in data.aws_instances.pool.ids : "aws:///\${i}"])
  script = <<-EOT
    #!/bin/sh
    %{ for k, v in local.labels ~}
    echo "\${k}=\${v}"
    %{ endfor ~}
  EOT
}

resource "aws_autoscaling_group" "pool" {
  name_prefix = "\${local.name}-"
  min_size    = var.replicas
  max_size    = var.replicas
  tag {
    key                 = "Name"
    value               = local.name
    propagate_at_launch = true
  }
  lifecycle { ignore_changes = [desired_capacity] }
}

output "provider_id_list" {
  value = local.ids[*]
}
`;

/** Checks that a range is well-formed and inside the text. */
function checkRange(r: Range, len: number, what: string): void {
  const ok =
    r.start.offset >= 0 &&
    r.end.offset <= len &&
    r.start.offset <= r.end.offset &&
    r.start.line >= 1 &&
    r.start.column >= 1 &&
    r.end.line >= r.start.line;
  if (!ok) throw new Error(`bad ${what} range ${JSON.stringify(r)} (text length ${len})`);
}

function checkBody(b: Body, len: number): number {
  let nodes = 0;
  checkRange(b.range, len, "body");
  for (const a of b.attributes) {
    checkRange(a.range, len, "attribute");
    checkRange(a.nameRange, len, "name");
    walkExpression(a.expr, (e: Expression) => {
      checkRange(e.range, len, e.kind);
      nodes++;
    });
  }
  for (const bl of b.blocks) {
    checkRange(bl.range, len, "block");
    nodes += 1 + checkBody(bl.body, len);
  }
  return nodes;
}

/** Parses and validates every range; returns the result. */
function parseChecked(text: string): ParseResult {
  const r = parseNative(text, "x.tf");
  for (const d of r.diagnostics) checkRange(d.subject, r.file.text.length, "diagnostic");
  checkBody(r.file.body, r.file.text.length);
  return r;
}

describe("native parser robustness", () => {
  it("parses the realistic module without diagnostics", () => {
    const r = parseChecked(REALISTIC);
    expect(r.diagnostics).toEqual([]);
    expect(r.file.body.blocks.map((b) => b.type)).toEqual(["terraform", "variable", "locals", "resource", "output"]);
  });

  it("never throws on random characters and keeps ranges inside the text", () => {
    const rand = mulberry32(7);
    const alphabet = 'abc019 \n\t\r{}[]()"=,.:?!<>*/%+-&|#~$\\\'`;@\u00e9\u{1F600}\uFEFF\u0000';
    const chars = [...alphabet];
    let withErrors = 0;
    for (let n = 0; n < 400; n++) {
      let s = "";
      const len = Math.floor(rand() * 120);
      for (let i = 0; i < len; i++) s += chars[Math.floor(rand() * chars.length)];
      const r = parseChecked(s);
      if (r.diagnostics.length > 0) withErrors++;
    }
    expect(withErrors).toBeGreaterThan(300);
  });

  it("never throws on token soup built from HCL punctuation and keywords", () => {
    const rand = mulberry32(11);
    const toks = ["{", "}", "[", "]", "(", ")", '"', "${", "%{", "~}", "}", "<<EOT\n", "\nEOT\n", "<<-X\n", "for", "in", "if", ":", "=>", "...", "=", ",", "\n", "a", "1.5", ".", "*", "[*]", "::", "/*", "*/", "#", "\\"];
    let withErrors = 0;
    for (let n = 0; n < 400; n++) {
      let s = "";
      const len = 1 + Math.floor(rand() * 60);
      for (let i = 0; i < len; i++) s += toks[Math.floor(rand() * toks.length)] + (rand() < 0.3 ? " " : "");
      if (parseChecked(s).diagnostics.length > 0) withErrors++;
    }
    expect(withErrors).toBeGreaterThan(350);
  });

  it("handles every truncation of a realistic file, reporting an error for each incomplete one", () => {
    let errors = 0;
    for (let i = 0; i <= REALISTIC.length; i++) {
      const r = parseChecked(REALISTIC.slice(0, i));
      if (r.diagnostics.length > 0) errors++;
    }
    // A cut between two top-level items (or inside a comment) leaves valid HCL; everything else is an error.
    expect(errors).toBeGreaterThan(REALISTIC.length * 0.8);
    expect(parseChecked(REALISTIC.slice(0, REALISTIC.indexOf("variable"))).diagnostics).toEqual([]);
  });

  it("parses 10,000 levels of every bracket kind with no diagnostic", () => {
    for (const [open, close, kind] of [
      ["[", "]", "TupleCons"],
      ["(", ")", "Parentheses"],
      ["{ a = ", "}", "ObjectCons"],
      ['"${', '}"', "TemplateWrap"],
      ["f(", ")", "FunctionCall"],
      ["x[", "]", "Index"],
    ]) {
      const text = "a = " + open.repeat(10000) + "1" + close.repeat(10000) + "\n";
      const r = parseNative(text, "x.tf");
      expect(r.diagnostics).toEqual([]);
      expect(r.file.body.attributes[0].expr.kind).toBe(kind);
      expect(r.file.body.attributes[0].range.end.column).toBe(text.length);
    }
  });

  it("handles 10,000 nested blocks and 10,000 unary operators", () => {
    const blocks = parseNative("b {\n".repeat(10000) + "}\n".repeat(10000), "x.tf");
    expect(blocks.diagnostics).toEqual([]);
    expect(blocks.file.body.blocks[0].range.end.line).toBe(20000);
    const unary = parseNative("a = " + "-".repeat(10000) + "1\n", "x.tf");
    expect(unary.diagnostics).toEqual([]);
    expect(unary.file.body.attributes[0].expr.kind).toBe("UnaryOp");
  });

  it("parses a large file in linear time", () => {
    const unit = REALISTIC.replace(/"pool"/g, '"pool_N"');
    const parts: string[] = [];
    for (let i = 0; i < 2000; i++) parts.push(unit.replace(/pool_N/g, `pool_${i}`));
    const text = parts.join("\n"); // about 2.4 MB
    const t0 = performance.now();
    const r = parseNative(text, "big.tf");
    const ms = performance.now() - t0;
    expect(r.diagnostics).toEqual([]);
    expect(r.file.body.blocks).toHaveLength(10000);
    expect(collectRefs(r.file.body.blocks[9998].body.attributes[0].expr).map((x) => x.range.start.line)).toEqual([
      r.file.body.blocks[9998].range.start.line + 1,
    ]);
    // generous bound for loaded CI machines; typical is well under a second
    expect(ms).toBeLessThan(20000);
  });
});

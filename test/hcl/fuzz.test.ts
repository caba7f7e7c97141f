/**
 * Robustness of both parsers (native syntax and JSON syntax) on hostile
 * input: random bytes and token soups, every truncation of realistic files,
 * 10,000-deep nesting, a 20 MB file, invalid UTF-8, NUL bytes, lone
 * surrogates, CRLF line endings and a BOM. Nothing may throw, hang or
 * overflow the stack; every position in every result must be consistent
 * (test/gen/invariants.ts); and where the outcome is known, the exact
 * diagnostics are asserted. All randomness is seeded.
 *
 * The JSON reader is also checked against JSON.parse: on random near-JSON
 * text it must accept exactly what JSON.parse accepts and read the same
 * values.
 */

import { describe, expect, it } from "vitest";
import type { Diagnostic, ParseResult } from "../../src/hcl/ast.js";
import { parseModuleFile as parseHcl } from "../../src/terraform/parse.js";
import { readJson, type JValue } from "../../src/hcl/json-value.js";
import { checkInvariants } from "../gen/invariants.js";
import { Rng } from "../gen/rng.js";

const SEED = 4711;
const NATIVE = "main.tf";
const JSON_FILE = "main.tf.json";

function brief(d: Diagnostic): string {
  return `${d.summary} @ ${d.subject.start.line}:${d.subject.start.column}-${d.subject.end.line}:${d.subject.end.column}`;
}

function parseChecked(text: string, filename: string): ParseResult {
  const res = parseHcl(text, filename);
  const problems = checkInvariants(res);
  if (problems.length > 0) throw new Error(`${filename} ${JSON.stringify(text.slice(0, 200))}: ${problems.join("; ")}`);
  expect(res.diagnostics.some((d) => d.summary.startsWith("Internal"))).toBe(false);
  return res;
}

function randomBytesText(rng: Rng, length: number): string {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    // Bias towards ASCII punctuation and letters so the parsers get past the first character.
    bytes[i] = rng.chance(0.7) ? 0x20 + rng.int(0x5f) : rng.int(256);
  }
  return new TextDecoder("utf-8").decode(bytes);
}

const NATIVE_PIECES = [
  "{", "}", "[", "]", "(", ")", "=", "\n", " ", ",", ".", "*", "?", ":", "=>", "...", '"', "${", "%{", "}",
  "~", "#", "//", "/*", "*/", "<<EOT\n", "\nEOT\n", "<<-X\n", "resource", '"aws_instance"', "var", "x", "1",
  "1.5e3", "-", "!", "&&", "||", "==", "for", "in", "if", "else", "endif", "endfor", "true", "null", "\\", "\r\n",
  "\t", "é", "😀", "\ufffd", "\u0000", "\ud800", "provider::a::b", "'",
];

const JSON_PIECES = [
  "{", "}", "[", "]", ":", ",", " ", "\n", '"a"', '"b"', '"${var.x}"', '"%{ if a }b%{ endif }"', '"\\n"',
  '"\\u00e9"', '"\\q"', '"x', "1", "-2.5e3", "01", "true", "false", "null", "tru", "=", "'", "\\", "/",
  '"resource"', '"variable"', '"//"', '"locals"', "\u0000", "\ufffd", "\ud83d", "\r\n",
];

function tokenSoup(rng: Rng, pieces: string[], count: number): string {
  let s = "";
  for (let i = 0; i < count; i++) s += rng.pick(pieces);
  return s;
}

const REALISTIC_NATIVE = `# Machine pool for CAPTF.
terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "replicas" {
  type        = number
  description = "Desired number of machines."
  validation {
    condition     = var.replicas >= 0
    error_message = "replicas must not be negative."
  }
}

variable "labels" {
  type    = map(string)
  default = {}
}

locals {
  name   = "\${var.cluster_name}-pool"
  ids    = [for i in aws_instance.node[*].id : "aws:///\${i}"]
  joined = join(",", sort(local.ids))
}

resource "aws_autoscaling_group" "pool" {
  name             = local.name
  desired_capacity = var.replicas
  min_size         = 0
  max_size         = var.replicas * 2 /* headroom */

  dynamic "tag" {
    for_each = var.labels
    content {
      key                 = tag.key
      value               = tag.value
      propagate_at_launch = true
    }
  }

  lifecycle {
    ignore_changes = [desired_capacity]
  }
}

resource "aws_launch_template" "pool" {
  user_data = base64encode(<<-EOT
    #!/bin/bash
    echo "joining %{ if var.replicas > 0 }pool%{ else }nothing%{ endif }"
    EOT
  )
}

output "provider_id_list" {
  value = local.ids
}
`;

const REALISTIC_JSON = `{
  "//": "Machine pool for CAPTF.",
  "variable": {
    "replicas": {"type": "number", "description": "Desired number of machines."},
    "labels": {"type": "map(string)", "default": {}}
  },
  "locals": {
    "name": "\${var.cluster_name}-pool",
    "ids": "\${[for i in aws_instance.node[*].id : \\"aws:///\${i}\\"]}"
  },
  "resource": {
    "aws_autoscaling_group": {
      "pool": {
        "name": "\${local.name}",
        "desired_capacity": "\${var.replicas}",
        "min_size": 0,
        "max_size": 10.5e1,
        "dynamic": {"tag": {"for_each": "\${var.labels}", "content": {"key": "\${tag.key}", "value": "\${tag.value}"}}},
        "lifecycle": {"ignore_changes": ["desired_capacity"]}
      }
    }
  },
  "output": {
    "provider_id_list": {"value": "\${local.ids}", "depends_on": ["aws_autoscaling_group.pool"]}
  }
}
`;

describe("random input", () => {
  it("never throws on random bytes (native and JSON)", () => {
    const rng = new Rng(SEED);
    for (let i = 0; i < 300; i++) {
      const text = randomBytesText(rng, rng.int(400));
      parseChecked(text, NATIVE);
      parseChecked(text, JSON_FILE);
    }
  });

  it("never throws on token soups (native and JSON)", () => {
    const rng = new Rng(SEED + 1);
    for (let i = 0; i < 600; i++) {
      parseChecked(tokenSoup(rng, NATIVE_PIECES, rng.int(60)), NATIVE);
      parseChecked(tokenSoup(rng, JSON_PIECES, rng.int(60)), JSON_FILE);
    }
  });
});

/** JSON.parse's view of a value read by readJson (duplicate keys: last wins). */
function toPlain(v: JValue): unknown {
  switch (v.type) {
    case "object": {
      const o: Record<string, unknown> = {};
      for (const p of v.props) {
        Object.defineProperty(o, p.key.value, { value: toPlain(p.value), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    case "array":
      return v.items.map(toPlain);
    case "string":
    case "number":
    case "bool":
      return v.value;
    case "null":
      return null;
    case "invalid":
      return undefined;
  }
}

function randomJsValue(rng: Rng, depth: number): unknown {
  const r = rng.int(depth > 4 ? 5 : 8);
  switch (r) {
    case 0:
      return rng.pick(["", "abc", "é ${x}", 'q"uote', "back\\slash", "tab\t", "nl\n", "😀", "\u0001", "/"]);
    case 1:
      return rng.pick([0, -1, 1.5, 1e21, -2.5e-7, 123456789]);
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return rng.pick(["resource", "variable", "x"]);
    case 5:
    case 6: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--) o[rng.pick(["a", "b", "//", "type", "é", "k k"])] = randomJsValue(rng, depth + 1);
      return o;
    }
    default:
      return Array.from({ length: rng.int(4) }, () => randomJsValue(rng, depth + 1));
  }
}

function jsonParses(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

describe("JSON reader against JSON.parse", () => {
  it("accepts exactly what JSON.parse accepts and reads the same values", () => {
    const rng = new Rng(SEED + 2);
    const mismatches: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let text = JSON.stringify(randomJsValue(rng, 0), null, rng.chance(0.5) ? 2 : undefined);
      if (i % 2 === 1) {
        // One random character-level edit.
        const at = rng.int(text.length + 1);
        const piece = rng.pick(['"', "{", "}", "[", "]", ",", ":", "\\", "0", "e", "-", ".", " ", "\t", "x", "\u0000"]);
        switch (rng.int(3)) {
          case 0:
            text = text.slice(0, at) + text.slice(at + 1);
            break;
          case 1:
            text = text.slice(0, at) + piece + text.slice(at);
            break;
          default:
            text = text.slice(0, at) + piece + text.slice(at + 1);
        }
      }
      const ours = readJson(text);
      const theirs = jsonParses(text);
      const weAccept = ours.diagnostics.length === 0;
      if (weAccept !== theirs.ok) {
        mismatches.push(`case ${i}: JSON.parse ${theirs.ok ? "accepts" : "rejects"}, we report ${ours.diagnostics.map((d) => d.summary).join(", ") || "nothing"}: ${JSON.stringify(text)}`);
      } else if (theirs.ok && ours.value !== null) {
        const a = JSON.stringify(toPlain(ours.value));
        const b = JSON.stringify(theirs.value);
        if (a !== b) mismatches.push(`case ${i}: values differ: ${a} vs ${b}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

describe("truncations of realistic files", () => {
  it("handles every prefix of a native file", () => {
    expect(parseHcl(REALISTIC_NATIVE, NATIVE).diagnostics).toEqual([]);
    for (let n = 0; n < REALISTIC_NATIVE.length; n++) parseChecked(REALISTIC_NATIVE.slice(0, n), NATIVE);
  });

  it("handles every prefix of a JSON file, reporting an error for each", () => {
    expect(parseHcl(REALISTIC_JSON, JSON_FILE).diagnostics).toEqual([]);
    const end = REALISTIC_JSON.trimEnd().length;
    const silent: number[] = [];
    for (let n = 0; n < end; n++) {
      const res = parseChecked(REALISTIC_JSON.slice(0, n), JSON_FILE);
      if (res.diagnostics.length === 0) silent.push(n);
    }
    expect(silent).toEqual([]);
    // A cut inside a string value names the string; a cut after a complete
    // property names the unclosed object.
    const cutInString = REALISTIC_JSON.indexOf("Desired number") + 4;
    expect(parseHcl(REALISTIC_JSON.slice(0, cutInString), JSON_FILE).diagnostics.map(brief)).toEqual([
      "Invalid JSON string @ 4:51-4:56",
      "Unclosed object @ 4:17-4:18",
    ]);
    const cutAfterComma = REALISTIC_JSON.indexOf('"variable"');
    expect(parseHcl(REALISTIC_JSON.slice(0, cutAfterComma), JSON_FILE).diagnostics.map(brief)).toEqual([
      "Unclosed object @ 1:1-1:2",
    ]);
  });
});

describe("deep nesting", () => {
  const n = 10_000;

  it("native: 10,000 levels of [, {, ( and \"${ parse with no diagnostic", () => {
    const cases: [string, string][] = [
      ["a = " + "[".repeat(n) + "]".repeat(n) + "\n", "TupleCons"],
      ["a = " + "(".repeat(n) + "1" + ")".repeat(n) + "\n", "Parentheses"],
      ["a = " + "{a = ".repeat(n) + "1" + "}".repeat(n) + "\n", "ObjectCons"],
      ["a = " + '"${'.repeat(n) + "1" + '}"'.repeat(n) + "\n", "TemplateWrap"],
    ];
    for (const [text, kind] of cases) {
      const r = parseHcl(text, NATIVE);
      expect(r.diagnostics).toEqual([]);
      expect(r.file.body.attributes[0].expr.kind).toBe(kind);
    }
    const blocks = parseHcl("a {\n".repeat(n) + "}\n".repeat(n), NATIVE);
    expect(blocks.diagnostics).toEqual([]);
    expect(blocks.file.body.blocks[0].body.blocks[0].body.blocks[0].type).toBe("a");
  });

  it("JSON: 10,000 levels of [, {, ( and \"${ parse with no diagnostic", () => {
    const arrays = '{"locals": {"a": ' + "[".repeat(n) + "]".repeat(n) + "}}";
    const a = parseHcl(arrays, JSON_FILE);
    expect(a.diagnostics).toEqual([]);
    expect(a.file.body.blocks[0].body.attributes[0].expr.kind).toBe("TupleCons");
    const objects = '{"locals": {"a": ' + '{"b": '.repeat(n) + "1" + "}".repeat(n) + "}}";
    expect(parseHcl(objects, JSON_FILE).diagnostics).toEqual([]);
    // Parentheses nest inside the interpolation of one JSON string.
    const parens = '{"locals": {"a": "${' + "(".repeat(n) + "1" + ")".repeat(n) + '}"}}';
    expect(parseHcl(parens, JSON_FILE).diagnostics).toEqual([]);
    // Templates nest inside one JSON string; inner quotes are escaped.
    const templates = '{"locals": {"a": "' + '${\\"'.repeat(n) + "1" + '\\"}'.repeat(n) + '"}}';
    expect(parseHcl(templates, JSON_FILE).diagnostics).toEqual([]);
  });

  it("unclosed deep nesting ends with one diagnostic too", () => {
    expect(parseChecked("a = " + "[".repeat(n), NATIVE).diagnostics.map(brief)).toEqual([`Missing expression @ 1:${5 + n}-1:${5 + n}`]);
    expect(parseChecked("[".repeat(n), JSON_FILE).diagnostics.map(brief)).toEqual([`Unclosed array @ 1:${n}-1:${n + 1}`]);
  });
});

describe("special characters", () => {
  it("reports NUL bytes where they are", () => {
    expect(parseChecked("a = 1\u0000\n", NATIVE).diagnostics.map(brief)).toEqual([
      "Invalid character @ 1:6-1:7",
      "Missing newline after argument @ 1:6-1:7",
    ]);
    expect(parseChecked('{"a": 1}\u0000', JSON_FILE).diagnostics.map(brief)).toEqual(["Extraneous data after value @ 1:9-1:10"]);
    expect(parseChecked('{"locals": {"a": "x\u0000y"}}', JSON_FILE).diagnostics.map(brief)).toEqual(["Invalid JSON string @ 1:20-1:21"]);
  });

  it("keeps replacement characters from invalid UTF-8 in strings and reports them elsewhere", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('a = "x'), 0xff, ...new TextEncoder().encode('y"\n')]);
    const text = new TextDecoder().decode(bytes);
    const native = parseChecked(text, NATIVE);
    expect(native.diagnostics).toEqual([]);
    const attr = native.file.body.attributes[0];
    expect(attr.expr.kind === "Template" && attr.expr.parts[0].kind === "TemplateLiteral" && attr.expr.parts[0].value).toBe("x\ufffdy");
    expect(parseChecked("\ufffd = 1\n", NATIVE).diagnostics.map(brief)).toEqual([
      "Invalid character encoding @ 1:1-1:2",
      "Argument or block definition required @ 1:1-1:2",
    ]);
    const json = parseChecked('{"locals": {"a": "x\ufffdy"}}', JSON_FILE);
    expect(json.diagnostics).toEqual([]);
    const value = json.file.body.blocks[0].body.attributes[0].expr;
    expect(value.kind === "Template" && value.jsonValue).toBe("x\ufffdy");
    expect(parseChecked('{\ufffd: 1}', JSON_FILE).diagnostics.map(brief)).toEqual(["Invalid object property name @ 1:2-1:3"]);
  });

  it("survives lone surrogates", () => {
    expect(parseChecked('a = "x\ud800y"\n', NATIVE).diagnostics).toEqual([]);
    expect(parseChecked("\ud800 = 1\n", NATIVE).diagnostics.map(brief)).toEqual([
      "Invalid character encoding @ 1:1-1:2",
      "Argument or block definition required @ 1:1-1:2",
    ]);
    const json = parseChecked('{"locals": {"a": "x\udc00"}}', JSON_FILE);
    expect(json.diagnostics).toEqual([]);
    expect(parseChecked('{"a": \ud800}', JSON_FILE).diagnostics.map(brief)).toEqual(["Invalid start of value @ 1:7-1:8"]);
  });

  it("gives CRLF files the same lines and columns as LF files", () => {
    const lf = 'variable "a" {\n  type = string\n}\n';
    const crlf = lf.replace(/\n/g, "\r\n");
    const a = parseChecked(lf, NATIVE).file.body.blocks[0].body.attributes[0];
    const b = parseChecked(crlf, NATIVE).file.body.blocks[0].body.attributes[0];
    expect([b.nameRange.start.line, b.nameRange.start.column, b.expr.range.end.column]).toEqual([2, 3, 16]);
    expect([a.nameRange.start.line, a.nameRange.start.column, a.expr.range.end.column]).toEqual([2, 3, 16]);
    const jsonLf = '{\n  "variable": {\n    "a": {"type": "string"}\n  }\n}\n';
    const j = parseChecked(jsonLf.replace(/\n/g, "\r\n"), JSON_FILE).file.body.blocks[0].body.attributes[0];
    // "type" is read as an expression: its range starts inside the quotes.
    expect([j.nameRange.start.line, j.nameRange.start.column, j.expr.range.start.column]).toEqual([3, 11, 20]);
  });

  it("ignores a BOM for positions in both syntaxes", () => {
    const native = parseChecked("\ufeffa = 1\n", NATIVE);
    expect(native.file.text).toBe("a = 1\n");
    expect(native.file.body.attributes[0].nameRange.start).toEqual({ line: 1, column: 1, offset: 0 });
    const json = parseChecked('\ufeff{"locals": {"a": 1}}', JSON_FILE);
    expect(json.file.text).toBe('{"locals": {"a": 1}}');
    expect(json.file.body.blocks[0].typeRange.start).toEqual({ line: 1, column: 2, offset: 1 });
  });
});

describe("a 20 MB file", () => {
  const SIZE = 20_000_000;

  it("parses a 20 MB native file", () => {
    const unit = (i: number): string => `resource "aws_launch_template" "pool_${i}" {
  name_prefix = "pool-${i}-"
  image_id    = var.image_ids[${i % 7}]
  user_data = base64encode(<<-EOT
    #!/bin/bash
    set -euo pipefail
    echo "bootstrapping node ${i} of \${var.cluster_name}" >> /var/log/bootstrap.log
    curl -fsSL https://example.invalid/bootstrap.sh | bash -s -- --pool pool-${i} --labels "role=worker,zone=a"
    systemctl enable --now kubelet containerd node-exporter && sysctl -w net.ipv4.ip_forward=1
    EOT
  )
}

`;
    const parts: string[] = [];
    let length = 0;
    while (length < SIZE) {
      const u = unit(parts.length);
      parts.push(u);
      length += u.length;
    }
    const res = parseHcl(parts.join(""), NATIVE);
    expect(res.diagnostics).toEqual([]);
    expect(res.file.body.blocks.length).toBe(parts.length);
    expect(res.file.body.blocks[parts.length - 1].labels).toEqual(["aws_launch_template", `pool_${parts.length - 1}`]);
  }, 180_000);

  it("parses a 20 MB JSON file", () => {
    const script =
      "#!/bin/bash\\nset -euo pipefail\\necho bootstrapping >> /var/log/bootstrap.log\\ncurl -fsSL https://example.invalid/bootstrap.sh | bash -s -- --labels role=worker,zone=a\\nsystemctl enable --now kubelet containerd node-exporter";
    const unit = (i: number): string =>
      `    "pool_${i}": {"name_prefix": "pool-${i}-", "image_id": "\${var.image_ids[${i % 7}]}", "user_data": "${script}"}`;
    const parts: string[] = [];
    let length = 0;
    while (length < SIZE) {
      const u = unit(parts.length);
      parts.push(u);
      length += u.length + 2;
    }
    const text = `{"resource": {"aws_launch_template": {\n${parts.join(",\n")}\n}}}\n`;
    const res = parseHcl(text, JSON_FILE);
    expect(res.diagnostics).toEqual([]);
    expect(res.file.body.blocks.length).toBe(parts.length);
    const last = res.file.body.blocks[parts.length - 1];
    expect(last.labels).toEqual(["aws_launch_template", `pool_${parts.length - 1}`]);
    expect(last.typeRange.start.line).toBe(1);
    expect(last.labelRanges[1].start.line).toBe(parts.length + 1);
  }, 180_000);
});

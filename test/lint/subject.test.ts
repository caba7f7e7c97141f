/**
 * The subject of a finding (src/lint/subject.ts): the HCL address of the
 * top-level block around it, for every kind of block, in a local child
 * module too; what the rule names for a module-level finding, else
 * `module`; a rule's bad subject is a failure of the rule.
 */
import { describe, expect, it } from "vitest";
import { defineRule, type RuleDefinition } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { tree } from "../cli/helpers.js";
import { lintModule } from "../helpers/lint.js";

const MAIN = `resource "aws_instance" "web" {
  marker = 1
}

data "aws_ami" "img" {
  marker = 2
}

module "net" {
  source = "./net"
  marker = 3
}

locals {
  a      = 1
  marker = 4
}

provider "aws" {
  alias  = "east"
  marker = 5
}

provider "google" {
  marker = 6
}

terraform {
  marker = 7
}

output "o" {
  value  = 1
  marker = 8
}

variable "v" {
  marker = 9
}

check "health" {
  marker = 10
}

moved {
  from   = aws_instance.a
  to     = aws_instance.b
  marker = 11
}
`;

function markerRule(moduleLevel: { message: string; subject?: string }[]): RuleDefinition {
  return defineRule({
    id: "test/marker",
    severity: "warning",
    roles: ROLES,
    summary: "test: every marker attribute, and module-level findings",
    scope: "all",
    fixable: false,
    check(ctx) {
      if (ctx.isRoot) for (const m of moduleLevel) ctx.report(m);
      return {
        Attribute(node, site) {
          if (node.name === "marker") ctx.report({ file: site.file, range: node.range, message: `marker ${JSON.stringify(node.expr.range.start.line)}` });
        },
      };
    },
  });
}

function subjects(files: Record<string, string>, moduleLevel: { message: string; subject?: string }[] = []): string[] {
  const dir = tree(files);
  const out = lintModule(dir, { role: "machine", ruleSet: [markerRule(moduleLevel)] });
  if (out.kind !== "report") throw new Error(out.kind);
  expect(out.readErrors).toEqual([]);
  return out.report.findings.map((f) => `${f.file}:${f.range.start.line} ${f.subject}`);
}

describe("the subject of a finding", () => {
  it("is the address of the top-level block around it, for every kind of block", () => {
    expect(subjects({ "main.tf": MAIN, "net/main.tf": 'resource "aws_subnet" "a" {\n  marker = 12\n}\n\nlocals {\n  marker = 13\n}\n' })).toEqual([
      "main.tf:2 resource.aws_instance.web",
      "main.tf:6 data.aws_ami.img",
      "main.tf:11 module.net",
      "main.tf:16 local.marker",
      "main.tf:21 provider.aws.east",
      "main.tf:25 provider.google",
      "main.tf:29 terraform",
      "main.tf:34 output.o",
      "main.tf:38 variable.v",
      "main.tf:42 check.health",
      "main.tf:48 moved",
      // A local child's findings are prefixed with its directory.
      "net/main.tf:2 net:resource.aws_subnet.a",
      "net/main.tf:6 net:local.marker",
    ]);
  });

  it("does not depend on the line: blocks moved, lines added above", () => {
    const moved = "# top\n\n" + MAIN.slice(MAIN.indexOf("locals")) + "\n" + MAIN.slice(0, MAIN.indexOf("locals"));
    const before = subjects({ "main.tf": MAIN, "net/main.tf": "" }).map((s) => s.split(" ")[1]).sort();
    const after = subjects({ "main.tf": moved, "net/main.tf": "" }).map((s) => s.split(" ")[1]).sort();
    expect(after).toEqual(before);
  });

  it("is the same in the JSON syntax", () => {
    const json = JSON.stringify({ resource: { aws_instance: { web: { marker: 1 } } }, locals: { marker: 2 }, variable: { v: { marker: 3 } } }, null, 2);
    expect(subjects({ "main.tf.json": json }).map((s) => s.split(" ")[1])).toEqual(["resource.aws_instance.web", "local.marker", "variable.v"]);
  });

  it("of a module-level finding is what the rule named, else module", () => {
    expect(subjects({ "main.tf": "" }, [{ message: "missing output", subject: "output.exports" }, { message: "about the whole module" }])).toEqual([
      // In report order (by message): the whole module, then the missing output.
      ":0 module",
      ":0 output.exports",
    ]);
  });

  it("a subject that is not a non-empty string fails the rule (exit 2), naming it", () => {
    const dir = tree({ "main.tf": "" });
    const out = lintModule(dir, { role: "machine", ruleSet: [markerRule([{ message: "m", subject: " " }])] });
    if (out.kind !== "report") throw new Error(out.kind);
    expect(out.readErrors.map((e) => e.message)).toEqual([
      "rule test/marker failed on .: report(): subject must be a non-empty string (an HCL address such as output.exports) (this is a bug in tfcapi-lint, please report it)",
    ]);
  });
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { lintFixture } from "tfcapi-lint/testing";
import plugin from "../index.js";

const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

test("reports missing tags, a public IP and a timestamp in tags, with exact positions", () => {
  assert.deepEqual(lintFixture(fixture("missing-tags"), { plugin, role: "machinepool" }), [
    {
      ruleId: "acme/required-tags",
      severity: "warning",
      file: "main.tf",
      line: 7,
      column: 10,
      endLine: 9,
      endColumn: 4,
      message: 'aws_launch_template.node has no "cost-center" tag; add it to tags',
    },
    {
      ruleId: "acme/no-public-ip",
      severity: "error",
      file: "main.tf",
      line: 12,
      column: 5,
      endLine: 12,
      endColumn: 39,
      message: "aws_launch_template.node gives nodes a public IP address; acme nodes stay private",
    },
    {
      ruleId: "acme/no-timestamp-tags",
      severity: "warning",
      file: "main.tf",
      line: 18,
      column: 17,
      endLine: 18,
      endColumn: 28,
      message: "aws_launch_template.node stamps tags with timestamp(), a new value on every plan; take the time from a time_static resource",
    },
  ]);
});

test("a tagged, private module is clean", () => {
  assert.deepEqual(lintFixture(fixture("tagged"), { plugin, role: "machinepool" }), []);
});

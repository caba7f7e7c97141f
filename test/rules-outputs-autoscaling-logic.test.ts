/**
 * The reasoning behind pool/autoscaling-ignore-changes: which values are null
 * whenever var.autoscaling.enabled is true, and which resources are absent
 * then. Each case is an output of a small module, so locals resolve as in a
 * real one.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { loadModule } from "../src/terraform/load.js";
import { absentWhenEnabled, canonicalTraversal, nullWhenEnabled } from "../src/analysis/autoscaling.js";

import * as path from "node:path";

const LOCALS = `
variable "autoscaling" {
  type = object({ enabled = bool, min = number, max = number })
}

variable "replicas" {
  type = number
}

locals {
  scaling    = var.autoscaling
  enabled    = var.autoscaling.enabled
  disabled   = !var.autoscaling.enabled
  cfg        = { on = var.autoscaling.enabled, size = var.replicas }
  target     = local.enabled ? null : var.replicas
  chained    = local.target
  group_size = var.autoscaling.enabled ? 0 : 1
}
`;

const NULL_WHEN_ENABLED: Record<string, string> = {
  literal_null: "null",
  direct: "var.autoscaling.enabled ? null : var.replicas",
  negated: "!var.autoscaling.enabled ? var.replicas : null",
  equals_true: "var.autoscaling.enabled == true ? null : var.replicas",
  equals_false: "var.autoscaling.enabled == false ? var.replicas : null",
  not_equals_true: "var.autoscaling.enabled != true ? var.replicas : null",
  through_local_object: "local.scaling.enabled ? null : var.replicas",
  through_bool_local: "local.enabled ? null : var.replicas",
  through_negated_local: "local.disabled ? var.replicas : null",
  through_object_constructor: "local.cfg.on ? null : local.cfg.size",
  whole_value_local: "local.target",
  chained_locals: "local.chained",
  try_wrapped: "try(var.autoscaling.enabled, false) ? null : var.replicas",
  lookup: 'lookup(var.autoscaling, "enabled", false) ? null : var.replicas',
  guarded: "var.autoscaling != null && var.autoscaling.enabled ? null : var.replicas",
  or_condition: "var.autoscaling.enabled || var.replicas == 0 ? null : var.replicas",
  parenthesized: "(var.autoscaling.enabled ? (null) : var.replicas)",
  nested_conditional: "var.replicas > 0 ? (var.autoscaling.enabled ? null : var.replicas) : null",
};

const NOT_NULL_WHEN_ENABLED: Record<string, string> = {
  plain: "var.replicas",
  null_when_disabled: "var.autoscaling.enabled ? var.replicas : null",
  and_condition: "var.autoscaling.enabled && var.replicas > 0 ? null : var.replicas",
  unrelated_condition: "var.replicas > 0 ? var.replicas : null",
  min_attribute: "var.autoscaling.min > 0 ? null : var.replicas",
  function_of_enabled: "tostring(var.autoscaling.enabled) == \"true\" ? null : var.replicas",
};

const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-autoscaling-"));
const outputs = Object.entries({ ...NULL_WHEN_ENABLED, ...NOT_NULL_WHEN_ENABLED })
  .map(([name, value]) => `output "${name}" {\n  value = ${value}\n}\n`)
  .join("\n");
const resources = `
resource "aws_autoscaling_group" "fixed" {
  count            = var.autoscaling.enabled ? 0 : 1
  desired_capacity = var.replicas
}

resource "aws_autoscaling_group" "fixed_via_local" {
  count            = local.group_size
  desired_capacity = var.replicas
}

resource "aws_autoscaling_group" "fixed_for_each" {
  for_each         = var.autoscaling.enabled ? toset([]) : toset(["a"])
  desired_capacity = var.replicas
}

resource "aws_autoscaling_group" "autoscaled" {
  count            = var.autoscaling.enabled ? 1 : 0
  desired_capacity = var.replicas
}

resource "aws_autoscaling_group" "always" {
  desired_capacity = var.replicas
}
`;
writeFileSync(path.join(dir, "main.tf"), LOCALS + "\n" + outputs + resources);
const module = loadModule(dir).root.expressions;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("nullWhenEnabled", () => {
  it("parses the test module cleanly", () => {
    expect(module.files.flatMap((f) => f.diagnostics)).toEqual([]);
  });
  for (const name of Object.keys(NULL_WHEN_ENABLED)) {
    it(`${name} is null while autoscaling`, () => {
      expect(nullWhenEnabled(module, module.outputs.get(name)!.value!)).toBe(true);
    });
  }
  for (const name of Object.keys(NOT_NULL_WHEN_ENABLED)) {
    it(`${name} may be non-null while autoscaling`, () => {
      expect(nullWhenEnabled(module, module.outputs.get(name)!.value!)).toBe(false);
    });
  }
});

describe("canonicalTraversal", () => {
  it("follows locals and object constructors to the variable", () => {
    const value = module.outputs.get("through_object_constructor")!.value!;
    if (value.kind !== "Conditional") throw new Error("expected a conditional");
    expect(canonicalTraversal(module, value.condition)).toBe("var.autoscaling.enabled");
    expect(canonicalTraversal(module, value.falseResult)).toBe("var.replicas");
    expect(canonicalTraversal(module, module.locals.get("scaling")!.value)).toBe("var.autoscaling");
    expect(canonicalTraversal(module, module.locals.get("target")!.value)).toBeNull();
  });
});

describe("absentWhenEnabled", () => {
  const absent = (name: string) => absentWhenEnabled(module, module.resources.get(`aws_autoscaling_group.${name}`)!);
  it("recognizes a group that only exists while autoscaling is off", () => {
    expect(absent("fixed")).toBe(true);
    expect(absent("fixed_via_local")).toBe(true);
    expect(absent("fixed_for_each")).toBe(true);
  });
  it("keeps groups that exist while autoscaling is on", () => {
    expect(absent("autoscaled")).toBe(false);
    expect(absent("always")).toBe(false);
  });
});

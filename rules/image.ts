/**
 * The checks of the `image` command (src/image/checks.ts produces their
 * findings). Defined here so `tfcapi-lint rules`, `explain`, configuration
 * files and SARIF metadata know them; `check` does nothing because a module
 * lint never reports them.
 */
import { defineRule, type RuleDefinition, type Severity } from "../src/lint/types.js";
import { ROLES } from "../src/contract/roles-api.js";
import type { Role } from "../src/contract/roles-api.js";

const noCheck = (): void => {};

function imageRule(id: string, severity: Severity, summary: string, roles: readonly Role[] = ROLES): RuleDefinition {
  return defineRule({ id, severity, roles, summary, scope: "root", fixable: false, tags: ["image"], provenance: "image", check: noCheck });
}

export const IMAGE_RULES: readonly RuleDefinition[] = [
  imageRule("image/module-present", "error", "The image has no module file directly in /captf/module"),
  imageRule("image/runtime-present", "error", "/captf/runtime is missing, not a regular file, or not executable by the image user"),
  imageRule("image/runtime-version", "warning", "The runtime binary (terraform or tofu) disagrees with the io.captf.runtime label"),
  imageRule("image/providers-absent", "info", "No provider mirror in /captf/providers: init needs registry access when the Job runs"),
  imageRule("image/providers-layout", "error", "An entry of the provider mirror is neither a packed nor an unpacked provider package"),
  imageRule("image/providers-complete", "error", "The provider mirror has a broken link or lacks a provider the module needs for the image's platform"),
  imageRule("image/reserved-paths", "error", "The image ships files under a path that is mounted when the Job runs"),
  imageRule("image/label-role", "error", "The io.captf.role label is unset or differs from --role"),
  imageRule("image/label-contract", "warning", "The io.captf.contract label is unset or differs from --contract"),
  imageRule("image/label-capacity", "error", "The io.captf.capacity / io.captf.node-info labels are invalid, missing for a machine image, or set for another role"),
  imageRule("image/user-root", "warning", "The image runs as root"),
  imageRule("image/user-unresolved", "warning", "The image user is a name, not a numeric uid (no /etc/passwd lookup is done)"),
  imageRule("image/module-readable", "warning", "Module or mirror files the image user cannot read (or directories it cannot enter)"),
  imageRule("image/module-link", "error", "A link under /captf/module that does not end at a file or directory inside the module"),
  imageRule("image/entrypoint", "info", "The image sets an Entrypoint or Cmd, which the runner replaces"),
  imageRule("image/platform", "error", "The image (or index) has no manifest for the requested platform"),
  imageRule("image/variables-schema", "error", "The io.captf.variables-schema label is not the JSON Schema of the module's user variables"),
  imageRule("image/capacity-size-variable", "warning", "A machine image declares io.captf.capacity while a user variable chooses the instance size", ["machine"]),
];

export const IMAGE_RULE_IDS: ReadonlySet<string> = new Set(IMAGE_RULES.map((r) => r.id));

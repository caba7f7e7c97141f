import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import type { ModuleUnit, SourceFile } from "../../src/terraform/model.js";
import { comparableDeclarations } from "../_lib/inputs-declarations.js";

/** The file of the other set with the same stem (`main.tf` <-> `main.tofu`), if any. */
function counterpart(unit: ModuleUnit, file: SourceFile): SourceFile | undefined {
  const swap: Record<SourceFile["extension"], string> = {
    ".tf": ".tofu",
    ".tofu": ".tf",
    ".tf.json": ".tofu.json",
    ".tofu.json": ".tf.json",
  };
  const stem = file.path.slice(0, file.path.length - file.extension.length);
  const want = stem + swap[file.extension];
  return unit.allFiles.find((f) => f.path === want);
}

export default defineRule({
  id: "module/tofu-shadow",
  severity: "warning",
  roles: ROLES,
  summary: "Terraform and OpenTofu read the same declarations when .tofu files shadow .tf files",
  scope: "root",
  fixable: false,
  // A file that failed to parse may hold the missing use or twin declaration.
  declarationCheck: true,
  tags: ["module", "opentofu"],
  check(ctx) {
    const unit = ctx.unit;
    if (!unit.hasTofu || unit.tofuOnly) return;
    const tf = comparableDeclarations(unit.terraform);
    const tofu = comparableDeclarations(unit.opentofu);

    for (const [key, decl] of tf) {
      if (tofu.has(key)) continue;
      const shadow = counterpart(unit, decl.file);
      const why = shadow
        ? `OpenTofu reads ${shadow.name} instead of ${decl.file.name}`
        : "OpenTofu does not read it";
      ctx.report({
        message: `${key} is declared for Terraform but not for OpenTofu (${why}): declare it in the .tofu file too, or remove it.`,
        file: decl.file.path,
        range: decl.range,
      });
    }

    for (const [key, decl] of tofu) {
      const other = tf.get(key);
      if (!other) {
        const why = counterpart(unit, decl.file)
          ? `Terraform reads ${counterpart(unit, decl.file)!.name} instead`
          : "Terraform ignores .tofu files";
        ctx.report({
          message: `${key} is declared for OpenTofu only (${why}): declare it in the .tf file too, or remove it.`,
          file: decl.file.path,
          range: decl.range,
        });
        continue;
      }
      if (other.file.path === decl.file.path) continue;
      // Bodies in different syntaxes (HCL vs JSON) cannot be compared as text.
      if (other.file.hcl.syntax !== decl.file.hcl.syntax) continue;
      if (other.body === decl.body) continue;
      ctx.report({
        message: `${key} in ${decl.file.name} differs from the one in ${other.file.path}: Terraform and OpenTofu would run different code; make the two identical.`,
        file: decl.file.path,
        range: decl.range,
      });
    }
  },
});

import { defineRule } from "../../src/lint/types.js";
import { ROLES } from "../../src/contract/roles-api.js";
import { fileOf, findAttr } from "../../src/terraform/module-builder.js";
import { parseTypeExpr, parseTypeText, typeAccepts, typeToString } from "../../src/terraform/types.js";
import type { TypeNode } from "../../src/terraform/types.js";
import { blockNameRange } from "../../src/hcl/blocks.js";

const contractTypes = new Map<string, TypeNode | null>();

/** The parsed contract type (cached; null if the contract text itself does not parse). */
function contractType(text: string): TypeNode | null {
  let t = contractTypes.get(text);
  if (t === undefined) {
    const parsed = parseTypeText(text);
    t = parsed.ok ? parsed.type : null;
    contractTypes.set(text, t);
  }
  return t;
}

export default defineRule({
  id: "input/type",
  provenance: "reference",
  severity: "error",
  roles: ROLES,
  summary: "Contract inputs are declared with a type that accepts the contract's type",
  scope: "root",
  fixable: false,
  tags: ["contract", "inputs", "types"],
  check(ctx) {
    for (const input of ctx.contract.inputs[ctx.role]) {
      const variable = ctx.declarations.variables.get(input.name);
      if (!variable) continue;
      const expected = contractType(input.type);
      if (!variable.typeExpr) {
        ctx.report({
          severity: "warning",
          message:
            input.type === "any"
              ? `Contract input "${input.name}" has no type: declare the shape the module reads (or type = any) so readers and plans know what it expects.`
              : `Contract input "${input.name}" has no type: declare type = ${input.type} so a wrong value fails at plan time with a clear error.`,
          file: variable.file.path,
          range: blockNameRange(variable.block),
        });
        continue;
      }
      const typeAttr = findAttr(variable.block.body, "type");
      const attrRange = typeAttr && typeAttr.expr === variable.typeExpr ? typeAttr.range : variable.typeExpr.range;
      const file = fileOf(variable, variable.typeExpr).path;
      const parsed = parseTypeExpr(variable.typeExpr);
      if (!parsed.ok) {
        ctx.report({
          severity: "warning",
          message: `The type of contract input "${input.name}" cannot be read (${parsed.error}): write it as ${input.type}.`,
          file,
          range: attrRange,
        });
        continue;
      }
      if (expected === null || typeAccepts(parsed.type, expected)) continue;
      ctx.report({
        message: `Contract input "${input.name}" is declared as ${typeToString(parsed.type)}, which does not accept the contract's ${input.type}: declare type = ${input.type}.`,
        file,
        range: attrRange,
      });
    }
  },
});

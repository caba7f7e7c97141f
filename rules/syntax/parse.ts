import type { Diagnostic } from "../../src/hcl/ast.js";
import { defineRule } from "../../src/lint/types.js";

/** The diagnostic code syntax/one-line-block reports instead. */
export const ONE_LINE_BLOCK_CODE = "one-line-block";

/** "Summary: detail." as one line. */
export function diagnosticMessage(d: Diagnostic): string {
  const summary = d.summary.trim();
  const detail = d.detail.trim().replace(/\s*\n\s*/g, " ");
  if (detail === "") return summary;
  return `${summary}: ${detail}`;
}

export default defineRule({
  id: "syntax/parse",
  severity: "error",
  roles: ["cluster", "machine", "machinepool"],
  summary: "Every module file parses as HCL native or JSON syntax",
  scope: "all",
  fixable: false,
  tags: ["syntax"],
  check(ctx) {
    for (const file of ctx.unit.allFiles) {
      for (const d of file.diagnostics) {
        if (d.code === ONE_LINE_BLOCK_CODE) continue;
        ctx.report({
          message: diagnosticMessage(d),
          file: file.path,
          range: d.subject,
          ...(d.severity === "warning" ? { severity: "warning" as const } : {}),
        });
      }
    }
  },
});

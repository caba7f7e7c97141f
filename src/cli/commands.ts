/** The informational sub-commands: rules, explain, version. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { packageRoot, ruleDoc, ruleDocUrl } from "../report/docs.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { fixKindsOf, type RuleDefinition } from "../lint/types.js";
import { CONTRACT } from "../contract/roles.js";

let cachedVersion: string | undefined;

export function toolVersion(): string {
  if (cachedVersion === undefined) {
    cachedVersion = "0.0.0";
    const root = packageRoot();
    if (root) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version?: unknown };
        if (typeof pkg.version === "string") cachedVersion = pkg.version;
      } catch {
        // keep the fallback
      }
    }
  }
  return cachedVersion;
}

export function versionText(json: boolean): string {
  if (json) {
    return `${JSON.stringify({ name: "tfcapi-lint", version: toolVersion(), contracts: [CONTRACT.version], node: process.version }, null, 2)}\n`;
  }
  return `tfcapi-lint ${toolVersion()} (contract ${CONTRACT.version})\n`;
}

function ruleJson(r: RuleDefinition): Record<string, unknown> {
  return {
    id: r.id,
    severity: r.severity,
    roles: [...r.roles],
    scope: r.scope,
    fixable: r.fixable,
    fixKinds: [...fixKindsOf(r)],
    tags: [...(r.tags ?? [])],
    summary: r.summary,
    docs: ruleDocUrl(r.id, r),
    ...(r.plugin ? { plugin: r.plugin } : {}),
  };
}

/** A rule's fix kinds in a few letters: `safe`, `unsafe`, `safe+unsafe`, or "" when it has no fix. */
function fixColumn(r: RuleDefinition): string {
  return fixKindsOf(r).join("+");
}

/**
 * The line that states a fixable rule's fix kinds (`Fix kind: safe (...)`),
 * as every built-in rule's docs page states them; null for a rule without
 * fixes. `explain` adds it to a page that does not have one.
 */
export function fixKindLine(r: RuleDefinition): string | null {
  const kinds = fixKindsOf(r);
  if (kinds.length === 0) return null;
  if (kinds.length > 1) return "Fix kinds: safe and unsafe (`--fix` applies the safe fixes, `--fix-unsafe` the unsafe ones too).";
  return kinds[0] === "safe"
    ? "Fix kind: safe (`--fix` applies it: it cannot change what Terraform creates, updates, replaces or destroys)."
    : "Fix kind: unsafe (only `--fix-unsafe` applies it: it changes the plan).";
}

/** A docs page's line stating fix kinds (`Fix kind: safe ...`, `Fix kinds: safe and unsafe ...`). */
export const FIX_KIND_LINE = /^Fix kinds?: (safe and unsafe|safe|unsafe)\b/m;

/** `tfcapi-lint rules`: every rule of the catalogue. */
export function rulesText(catalogue: RuleCatalogue, json: boolean): string {
  const rules = catalogue.all;
  if (json) return `${JSON.stringify(rules.map(ruleJson), null, 2)}\n`;
  const width = Math.max(...rules.map((r) => r.id.length), 4);
  const fixWidth = Math.max(...rules.map((r) => fixColumn(r).length), 3);
  const lines = rules.map((r) => {
    const roles = r.roles.length === 3 ? "all" : r.roles.join(",");
    return `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${roles.padEnd(20)}  ${fixColumn(r).padEnd(fixWidth)}  ${r.summary}${r.plugin ? ` (plugin ${r.plugin})` : ""}`;
  });
  return `${`${"RULE".padEnd(width)}  SEVERITY ROLES                 ${"FIX".padEnd(fixWidth)}  SUMMARY`}\n${lines.join("\n")}\n`;
}

/**
 * The docs page of a rule, or null when the id is unknown. As JSON: the
 * rule's entry of `rules --format json` plus its page (`markdown`).
 */
export function explainText(catalogue: RuleCatalogue, id: string, json = false): string | null {
  const rule = catalogue.rule(id);
  const doc = ruleDoc(id, rule);
  let page: string;
  if (doc !== null) page = doc.endsWith("\n") ? doc : `${doc}\n`;
  else if (rule) {
    const from = rule.plugin ? `\n\nProvided by plugin ${rule.plugin}; more at ${ruleDocUrl(rule.id, rule)}` : "";
    page = `# ${rule.id}\n\n${rule.summary}\n\nSeverity: ${rule.severity}. Roles: ${rule.roles.join(", ")}.${from}\n`;
  }
  else return null;
  // A page that does not state the fix kinds (a plugin's): say them at the end.
  const kindLine = rule ? fixKindLine(rule) : null;
  if (kindLine !== null && !FIX_KIND_LINE.test(page)) page += `\n${kindLine}\n`;
  if (!json) return page;
  return `${JSON.stringify({ ...(rule ? ruleJson(rule) : { id }), markdown: page }, null, 2)}\n`;
}

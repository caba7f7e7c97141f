/** The informational sub-commands: rules, explain, version. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { packageRoot, ruleDoc, ruleDocUrl } from "../report/docs.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import type { RuleDefinition } from "../lint/types.js";
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
    tags: [...(r.tags ?? [])],
    summary: r.summary,
    docs: ruleDocUrl(r.id, r),
    ...(r.plugin ? { plugin: r.plugin } : {}),
  };
}

/** `tfcapi-lint rules`: every rule of the catalogue. */
export function rulesText(catalogue: RuleCatalogue, json: boolean): string {
  const rules = catalogue.all;
  if (json) return `${JSON.stringify(rules.map(ruleJson), null, 2)}\n`;
  const width = Math.max(...rules.map((r) => r.id.length), 4);
  const lines = rules.map((r) => {
    const roles = r.roles.length === 3 ? "all" : r.roles.join(",");
    return `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${roles.padEnd(20)}  ${r.fixable ? "fix " : "    "} ${r.summary}${r.plugin ? ` (plugin ${r.plugin})` : ""}`;
  });
  return `${`${"RULE".padEnd(width)}  SEVERITY ROLES                 FIX  SUMMARY`}\n${lines.join("\n")}\n`;
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
  if (!json) return page;
  return `${JSON.stringify({ ...(rule ? ruleJson(rule) : { id }), markdown: page }, null, 2)}\n`;
}

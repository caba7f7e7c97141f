/**
 * The hover room: the findings shown at a position, each with its rule's
 * documentation page (once per rule) and a link to it.
 */
import type { Hover, Position, Range } from "vscode-languageserver/node.js";
import { ruleDoc, ruleDocUrl } from "../report/docs.js";
import { isModuleFile, pathOf } from "./documents.js";
import { contains } from "./positions.js";
import type { Scheduler } from "./scheduler.js";

export function hover(scheduler: Scheduler, uri: string, pos: Position): Hover | null {
  const abs = pathOf(uri);
  if (abs === null || !isModuleFile(abs)) return null;
  const parts: string[] = [];
  const docs = new Set<string>();
  let range: Range | undefined;
  for (const { result, list } of scheduler.shownIn(abs)) {
    for (const p of list) {
      if (!contains(p.diagnostic.range, pos)) continue;
      const f = p.finding;
      const key = `${f.ruleId}\0${f.message}`;
      if (docs.has(key)) continue;
      docs.add(key);
      range ??= p.diagnostic.range;
      let part = `**${f.ruleId}** (${f.severity}): ${f.message}`;
      if (!docs.has(f.ruleId)) {
        docs.add(f.ruleId);
        // The rule as the module's config knows it (a plugin's page and URL travel on its rule).
        const rule = result.opts.catalogue.rule(f.ruleId);
        const page = ruleDoc(f.ruleId, rule);
        if (page !== null) part += `\n\n---\n\n${page.trim()}`;
        part += `\n\n[${f.ruleId} documentation](${ruleDocUrl(f.ruleId, rule)})`;
      }
      parts.push(part);
    }
  }
  if (parts.length === 0) return null;
  return { contents: { kind: "markdown", value: parts.join("\n\n---\n\n") }, ...(range ? { range } : {}) };
}

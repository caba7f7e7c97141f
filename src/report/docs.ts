/**
 * Rule documentation pages (`rules/<id>.md`) and their public URLs.
 *
 * The pages ship in the npm package (package.json `files`), next to the
 * bundled `dist/`. The code runs from `src/report/` under vitest and from
 * `dist/cli.js` (or a `dist/chunks/` chunk) once bundled, so the page
 * location is found by walking up from this module's own URL to the
 * directory whose package.json is named `tfcapi-lint`.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { RuleDefinition } from "../lint/types.js";

export const PACKAGE_NAME = "tfcapi-lint";
export const REPOSITORY_URL = "https://github.com/captf-io/tfcapi-lint";

/** A rule id is one or more lower-case kebab segments joined by `/` (no `..`, no absolute paths). */
const RULE_ID = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*$/;

/**
 * The stable help URL of a rule (SARIF `helpUri`, JSON `ruleUrl`). `rule` is
 * its definition in the run's catalogue, when there is one: a plugin rule
 * carries its own URL; a built-in rule's page is in the repository.
 */
export function ruleDocUrl(id: string, rule?: RuleDefinition): string {
  if (rule?.plugin !== undefined && rule.url !== undefined) return rule.url;
  const safe = id
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
  return `${REPOSITORY_URL}/blob/main/rules/${safe}.md`;
}

/**
 * The nearest ancestor of `start` (a directory) holding a package.json whose
 * `name` is tfcapi-lint, or null.
 */
export function findPackageRoot(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
        if (parsed !== null && typeof parsed === "object" && (parsed as { name?: unknown }).name === PACKAGE_NAME) {
          return dir;
        }
      } catch {
        // An unreadable or invalid package.json on the way up is not ours.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

let cachedRoot: string | null | undefined;

/** The package root of the running code (cached). */
export function packageRoot(): string | null {
  if (cachedRoot === undefined) {
    cachedRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  }
  return cachedRoot;
}

/** Reads `<root>/rules/<id>.md`; null when the id is malformed or the page is missing. */
export function readRuleDoc(root: string, id: string): string | null {
  if (!RULE_ID.test(id)) return null;
  try {
    return readFileSync(path.join(root, "rules", ...id.split("/")) + ".md", "utf8");
  } catch {
    return null;
  }
}

/** The documentation page of a rule (Markdown), or null when it has none; `rule` as for ruleDocUrl (a plugin rule carries its page). */
export function ruleDoc(id: string, rule?: RuleDefinition): string | null {
  if (rule?.plugin !== undefined) return rule.docs ?? null;
  const root = packageRoot();
  return root === null ? null : readRuleDoc(root, id);
}

/**
 * The first prose paragraph of a Markdown page: headings, fenced code,
 * tables, lists, quotes and HTML comments are skipped; the lines of the
 * paragraph are joined with single spaces. Null when the page has no prose.
 */
export function firstParagraph(markdown: string): string | null {
  const lines = markdown.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  let inFence = false;
  let inComment = false;
  let para: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }
    if (/^(```|~~~)/.test(line)) {
      if (para.length > 0) break;
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (line.startsWith("<!--")) {
      if (para.length > 0) break;
      if (!line.includes("-->")) inComment = true;
      continue;
    }
    const structural = line === "" || /^(#{1,6}\s|#{1,6}$|\||>|[-*+]\s|\d+[.)]\s|---+$|===+$)/.test(line);
    if (structural) {
      if (para.length > 0) break;
      continue;
    }
    para.push(line);
  }
  return para.length > 0 ? para.join(" ") : null;
}

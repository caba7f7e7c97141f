import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findPackageRoot, firstParagraph, packageRoot, readRuleDoc, ruleDoc, ruleDocUrl } from "../../src/report/docs.js";
import { FORMAT_NAMES, getFormatter } from "../../src/report/index.js";
import { formatText } from "../../src/report/text.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tmp = mkdtempSync(path.join(tmpdir(), "tfcapi-docs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("rule docs", () => {
  it("builds a stable help URL", () => {
    expect(ruleDocUrl("output/provider-id-list-shape")).toBe(
      "https://github.com/captf-io/tfcapi-lint/blob/main/rules/output/provider-id-list-shape.md",
    );
  });

  it("finds the package root by its package.json name", () => {
    expect(packageRoot()).toBe(repoRoot);
    const nested = path.join(tmp, "pkg", "dist", "chunks");
    mkdirSync(nested, { recursive: true });
    writeFileSync(path.join(tmp, "package.json"), JSON.stringify({ name: "tfcapi-lint" }));
    writeFileSync(path.join(tmp, "pkg", "package.json"), JSON.stringify({ name: "something-else" }));
    writeFileSync(path.join(tmp, "pkg", "dist", "package.json"), "{ not json");
    expect(findPackageRoot(nested)).toBe(tmp);
  });

  it("reads rules/<id>.md under a root, refusing malformed ids", () => {
    mkdirSync(path.join(tmp, "rules", "output"), { recursive: true });
    writeFileSync(path.join(tmp, "rules", "output", "health.md"), "# output/health\n\nThe page.\n");
    writeFileSync(path.join(tmp, "secret.md"), "not a rule page");
    expect(readRuleDoc(tmp, "output/health")).toBe("# output/health\n\nThe page.\n");
    expect(readRuleDoc(tmp, "output/missing")).toBeNull();
    expect(readRuleDoc(tmp, "../secret")).toBeNull();
    expect(readRuleDoc(tmp, "rules/../../secret")).toBeNull();
    expect(readRuleDoc(tmp, "/etc/passwd")).toBeNull();
    expect(readRuleDoc(tmp, "Output/Health")).toBeNull();
  });

  it("reads a real page of this package by rule id", () => {
    const rulesDir = path.join(repoRoot, "rules");
    const page = readdirSync(rulesDir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .map((f) => f.split(path.sep).join("/"))
      .sort()[0];
    expect(page).toBeDefined();
    const id = page.slice(0, -".md".length);
    expect(ruleDoc(id)).toBe(readFileSync(path.join(rulesDir, page), "utf8"));
  });

  it("returns null for a rule without a page", () => {
    expect(ruleDoc("test/no-such-rule")).toBeNull();
    expect(ruleDoc("../package")).toBeNull();
  });

  it("takes the first prose paragraph of a page", () => {
    expect(firstParagraph("# title\n\nFirst line\n  second line.\n\nNext paragraph.\n")).toBe("First line second line.");
    expect(firstParagraph("\uFEFF<!-- note\nmore -->\n## What\n\n```hcl\nx = 1\n```\n\n- item\n| a |\n> quote\n\nProse here.")).toBe("Prose here.");
    expect(firstParagraph("# only a title\n")).toBeNull();
    expect(firstParagraph("Para one\n```\ncode\n```\n")).toBe("Para one");
  });
});

describe("formatter registry", () => {
  it("lists every format and resolves each name", () => {
    expect(FORMAT_NAMES).toEqual(["text", "compact", "json", "sarif", "github", "checkstyle", "junit"]);
    for (const name of FORMAT_NAMES) expect(typeof getFormatter(name)).toBe("function");
    expect(getFormatter("text")).toBe(formatText);
    expect(getFormatter("stylish")).toBeUndefined();
    expect(getFormatter("toString")).toBeUndefined();
    expect(getFormatter("__proto__")).toBeUndefined();
  });

  it("handles a run with no modules", () => {
    const run = { modules: [], rules: [], cwd: "/w", repoRoot: "/w", toolVersion: "1.0.0", failOn: "error" as const };
    const out = (name: string) => getFormatter(name)!(run, { color: false, env: {} });
    expect(out("text")).toBe("");
    expect(out("compact")).toBe("");
    expect(out("github")).toBe("");
    expect(out("json")).toBe("[]\n");
    expect(out("checkstyle")).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n</checkstyle>\n');
    expect(out("junit")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tfcapi-lint" tests="0" failures="0" errors="0" time="0">\n</testsuites>\n',
    );
    expect(JSON.parse(out("sarif")).runs[0].results).toEqual([]);
  });
});

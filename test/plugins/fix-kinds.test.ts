/**
 * Fix kinds of plugin rules: a fix that does not say its kind is unsafe
 * (`--fix` leaves it, `--fix-unsafe` applies it); a fix declared safe is
 * applied by `--fix`; a fix of a kind its rule does not declare fails the
 * rule; a malformed `fixKinds` is a config error; `fixFixture` applies the
 * safe fixes unless told `unsafe: true`.
 */
import { describe, expect, it } from "vitest";
import { cpSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { hasStackTrace, REPO, runCli, tempDir, writeTree } from "../e2e/helpers.js";
import { fixFixture, lintFixture } from "../../src/testing.js";
import { checkPlugin } from "../../src/lint/plugins.js";

/** A rule that wants `# owner: pool` in the launch template; `kinds` is written into the rule and its fix as given. */
function ownerPlugin(kinds: { rule?: string; fix?: string }): string {
  return `
export default {
  name: "acme",
  rules: [
    {
      id: "acme/owner",
      severity: "warning",
      roles: ["machinepool"],
      summary: "Launch templates name their owner in a comment",
      fixable: true,${kinds.rule ? `\n      fixKinds: ${kinds.rule},` : ""}
      check(ctx) {
        for (const r of ctx.expressions.resources.values()) {
          if (r.type !== "aws_launch_template") continue;
          if (r.file.hcl.text.slice(r.block.range.start.offset, r.block.range.end.offset).includes("# owner: pool")) continue;
          const at = r.block.closeBraceRange.start.offset;
          ctx.report({
            message: r.address + " names no owner",
            file: r.file,
            range: r.block.labelRanges[1],
            fix: { description: "name the owner",${kinds.fix ? ` kind: ${kinds.fix},` : ""} edits: [{ file: r.file.path, start: at, end: at, text: "  # owner: pool\\n" }] },
          });
        }
      },
    },
  ],
};
`;
}

const ORIGINAL = readFileSync(path.join(REPO, "examples", "machinepool-aws", "main.tf"), "utf8");
const OWNED = ORIGINAL.replace(/(resource "aws_launch_template" "node" \{[\s\S]*?\n)(\}\n)/, (_m, body: string, close: string) => `${body}  # owner: pool\n${close}`);
const FINDING = "pool/main.tf:32:32: warning: aws_launch_template.node names no owner [acme/owner]\n";
const ROLE = "tfcapi-lint: pool: role machinepool (detected)\n";

function repo(plugin: string): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
  writeTree(root, { "lint/acme.mjs": plugin, ".tfcapi-lint.hcl": 'plugins = ["./lint/acme.mjs"]\n' });
  return root;
}

const compact = (root: string, args: string[]) => runCli(["--format", "compact", ...args, "pool"], { cwd: root });
const main = (root: string): string => readFileSync(path.join(root, "pool", "main.tf"), "utf8");

describe("plugin fix kinds through the CLI", () => {
  it("a fix that does not say its kind is unsafe: --fix leaves it and says so, --fix-unsafe applies it", () => {
    expect(OWNED).not.toBe(ORIGINAL);
    const root = repo(ownerPlugin({}));
    const fixed = compact(root, ["--fix"]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toBe(FINDING);
    expect(fixed.stderr).toBe(
      `${ROLE}tfcapi-lint: fixed 0 problems in 0 files\ntfcapi-lint: 1 unsafe fix left (it changes the plan): review it with --fix-dry-run --fix-unsafe, then apply it with --fix-unsafe\n`,
    );
    expect(main(root)).toBe(ORIGINAL);
    const unsafe = compact(root, ["--fix-unsafe"]);
    expect([unsafe.code, unsafe.stdout, unsafe.stderr]).toEqual([0, "", `${ROLE}tfcapi-lint: fixed 1 problem in 1 file\n`]);
    expect(main(root)).toBe(OWNED);
  });

  it("rules and explain show an undeclared plugin fix as unsafe", () => {
    const root = repo(ownerPlugin({}));
    const rules = runCli(["rules"], { cwd: root }).stdout.split("\n");
    const line = rules.find((l) => l.startsWith("acme/owner "))!;
    expect(line.slice(rules[0]!.indexOf("FIX"), rules[0]!.indexOf("SUMMARY")).trim()).toBe("unsafe");
    const json = JSON.parse(runCli(["rules", "--format", "json"], { cwd: root }).stdout) as { id: string; fixKinds: string[] }[];
    expect(json.find((r) => r.id === "acme/owner")!.fixKinds).toEqual(["unsafe"]);
    // A page that does not state the kind gets the line at the end.
    const explain = runCli(["explain", "acme/owner"], { cwd: root });
    expect(explain.code).toBe(0);
    expect(explain.stdout.endsWith("\n\nFix kind: unsafe (only `--fix-unsafe` applies it: it changes the plan).\n")).toBe(true);
  });

  it("a fix declared safe is applied by --fix", () => {
    const root = repo(ownerPlugin({ rule: '["safe"]', fix: '"safe"' }));
    const fixed = compact(root, ["--fix"]);
    expect([fixed.code, fixed.stdout, fixed.stderr]).toEqual([0, "", `${ROLE}tfcapi-lint: fixed 1 problem in 1 file\n`]);
    expect(main(root)).toBe(OWNED);
    const explain = runCli(["explain", "acme/owner"], { cwd: root });
    expect(explain.stdout.endsWith("\n\nFix kind: safe (`--fix` applies it: it cannot change what Terraform creates, updates, replaces or destroys).\n")).toBe(true);
  });

  it("a fix of a kind its rule does not declare is that rule's failure", () => {
    for (const [kinds, why] of [
      [{ rule: '["safe"]' }, "the fix does not say its kind, so it is unsafe, but the rule declares only safe fixes (fixKinds); set fix.kind or the rule's fixKinds"],
      [{ fix: '"safe"' }, "the fix is safe, but the rule declares only unsafe fixes (fixKinds); set fix.kind or the rule's fixKinds"],
      [{ rule: '["unsafe"]', fix: '"harmless"' }, 'fix.kind must be "safe" or "unsafe"'],
    ] as const) {
      const r = compact(repo(ownerPlugin(kinds)), ["--fix"]);
      expect(r.stderr).toContain(`tfcapi-lint: pool: rule acme/owner of plugin acme failed on .: report(): ${why} (report it to the plugin's authors)\n`);
      expect(hasStackTrace(r.stderr)).toBe(false);
      expect(r.code).toBe(2);
    }
  });

  it("a malformed fixKinds is a config error that says what to change", () => {
    const head = 'tfcapi-lint: config error:\nplugin "./lint/acme.mjs" (.tfcapi-lint.hcl:1:12): ';
    const load = (plugin: string) => {
      const r = compact(repo(plugin), []);
      expect([r.code, r.stdout]).toEqual([3, ""]);
      return r.stderr;
    };
    const list = 'rule "acme/owner": fixKinds must be a non-empty list of "safe" and "unsafe" (the kinds of fix its findings may carry)\n';
    expect(load(ownerPlugin({ rule: '"safe"' }))).toBe(head + list);
    expect(load(ownerPlugin({ rule: "[]" }))).toBe(head + list);
    expect(load(ownerPlugin({ rule: '["safe", "risky"]' }))).toBe(head + list);
    expect(load(ownerPlugin({ rule: '["safe"]' }).replace("fixable: true,", "fixable: false,"))).toBe(
      `${head}rule "acme/owner": fixKinds is set but fixable is not true; set fixable: true or drop fixKinds\n`,
    );
  });
});

describe("tfcapi-lint/testing and fix kinds", () => {
  const pluginOf = async (source: string): Promise<unknown> => {
    const root = tempDir();
    writeTree(root, { "p.mjs": source });
    return ((await import(path.join(root, "p.mjs"))) as { default: unknown }).default;
  };

  it("fixFixture applies the safe fixes, and the unsafe ones only with unsafe: true", async () => {
    const dir = path.join(REPO, "examples", "machinepool-aws");
    const undeclared = await pluginOf(ownerPlugin({}));
    expect(lintFixture(dir, { plugin: undeclared, role: "machinepool" }).map((f) => [f.ruleId, f.line])).toEqual([["acme/owner", 32]]);
    expect(fixFixture(dir, { plugin: undeclared, role: "machinepool" })).toEqual(new Map());
    expect(fixFixture(dir, { plugin: undeclared, role: "machinepool", unsafe: true })).toEqual(new Map([["main.tf", OWNED]]));
    const safe = await pluginOf(ownerPlugin({ rule: '["safe"]', fix: '"safe"' }));
    expect(fixFixture(dir, { plugin: safe, role: "machinepool" })).toEqual(new Map([["main.tf", OWNED]]));
    // The loader keeps the declared kinds, safe first and once each.
    const both = await pluginOf(ownerPlugin({ rule: '["unsafe", "safe", "unsafe"]' }));
    expect(checkPlugin(both, "p", "about:blank").rules[0]!.fixKinds).toEqual(["safe", "unsafe"]);
  });
});

/**
 * Helpers for testing rules on fixture modules: `import { lintFixture } from
 * "tfcapi-lint/testing"`. Plugin authors (and the built-in rules' own tests)
 * lint a directory with chosen rules and compare plain findings with what
 * they expect, in any test framework.
 */
import type { Role } from "./contract/roles-api.js";
import { lintModule } from "./api.js";
import { applyFixes, fixesByFile } from "./lint/apply-fixes.js";
import { BUILTIN_CATALOGUE } from "./catalogue.js";
import { checkPlugin } from "./lint/plugins.js";
import type { Finding, RuleDefinition, Severity } from "./lint/types.js";

/** A finding as a test compares it: positions are 1-based, columns in UTF-16 code units; line 0 for module-level findings. */
export interface FixtureFinding {
  ruleId: string;
  severity: Severity;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  /**
   * The path the rule followed (Finding.related), each hop's file, start
   * and label; present only on findings that have one.
   */
  related?: FixtureRelated[];
}

/** One hop of a finding's path as a test compares it. */
export interface FixtureRelated {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface LintFixtureOptions {
  /** The rules under test (made with defineRule), or */
  rules?: readonly RuleDefinition[];
  /** a whole plugin object `{ name, rules }`, checked exactly as the config loader checks it. */
  plugin?: unknown;
  /** The role to lint as; detected from the module when omitted (as the CLI does). */
  role?: Role;
  /** Also report the built-in rules' findings (default: only the rules under test). */
  builtins?: boolean;
  /** Honour inline ignore comments (default true). */
  inlineConfig?: boolean;
}

export interface FixFixtureOptions extends LintFixtureOptions {
  /**
   * Apply the unsafe fixes too, as `--fix-unsafe` does (default false: the
   * safe ones only, as `--fix`). A fix that does not say its kind is unsafe.
   */
  unsafe?: boolean;
}

function rulesOf(opts: LintFixtureOptions): RuleDefinition[] {
  const own: RuleDefinition[] = [...(opts.rules ?? [])];
  if (opts.plugin !== undefined) own.push(...checkPlugin(opts.plugin, "plugin under test", "about:blank").rules);
  if (own.length === 0) throw new Error("lintFixture needs rules or a plugin to test");
  return own;
}

function run(dir: string, opts: LintFixtureOptions) {
  const own = rulesOf(opts);
  const outcome = lintModule(dir, {
    ruleSet: [...BUILTIN_CATALOGUE.builtin, ...own],
    ...(opts.builtins ? {} : { only: own.map((r) => r.id) }),
    ...(opts.role ? { role: opts.role } : {}),
    ...(opts.inlineConfig === false ? { inlineConfig: false } : {}),
  });
  if (outcome.kind !== "report") throw new Error(`${dir}: ${outcome.message.replace(/pass --role cluster\|machine\|machinepool$/, 'pass { role: "cluster" | "machine" | "machinepool" } to lintFixture')}`);
  if (outcome.readErrors.length > 0) throw new Error(outcome.readErrors.map((e) => `${dir}${e.file ? `/${e.file}` : ""}: ${e.message}`).join("\n"));
  return outcome.report;
}

/** A finding as tests compare it. */
export const toFixtureFinding = (f: Finding): FixtureFinding => ({
  ruleId: f.ruleId,
  severity: f.severity,
  file: f.file,
  line: f.range.start.line,
  column: f.range.start.column,
  endLine: f.range.end.line,
  endColumn: f.range.end.column,
  message: f.message,
  ...(f.related && f.related.length > 0 ? { related: f.related.map(toFixtureRelated) } : {}),
});

const toFixtureRelated = (r: NonNullable<Finding["related"]>[number]): FixtureRelated => ({
  file: r.file,
  line: r.range.start.line,
  column: r.range.start.column,
  message: r.message,
});

/**
 * Lint the module in `dir` with the rules under test; the unsuppressed
 * findings in report order. Throws when the directory is not a module, the
 * role cannot be told, a file cannot be read, or a rule throws.
 */
export function lintFixture(dir: string, opts: LintFixtureOptions): FixtureFinding[] {
  return run(dir, opts)
    .findings.filter((f) => !f.suppressed)
    .map(toFixtureFinding);
}

/**
 * The module's files after one pass of the fixes of the rules under test
 * (nothing is written): relative path → new text, for the files that change.
 * Only the safe fixes, as `--fix`, unless `unsafe: true` (as `--fix-unsafe`).
 */
export function fixFixture(dir: string, opts: FixFixtureOptions): Map<string, string> {
  const report = run(dir, opts);
  const out = new Map<string, string>();
  for (const [file, fixes] of fixesByFile(report.findings, undefined, opts.unsafe === true ? "all" : "safe")) {
    const before = report.sources.get(file);
    if (before === undefined) continue;
    const after = applyFixes(before, file, fixes).text;
    if (after !== before) out.set(file, after);
  }
  return out;
}

/**
 * Runs the rules on one module: load, decide the role, run each applicable
 * rule on the root (and on every loaded child for scope "all"), apply
 * severity settings and inline ignores, sort. Produces a ModuleReport.
 */
import * as path from "node:path";
import type { Range } from "../hcl/ast.js";
import { plainRange } from "../hcl/source.js";
import type { Role } from "../contract/roles-api.js";
import { CONTRACT, detectRole, identifyingInputs, type WeakEvidence } from "../contract/roles.js";
import { loadModule, type LoadLog, type ParseCache } from "../terraform/load.js";
import { buildGraph } from "../terraform/graph.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { LoadResult, Module, ModuleUnit } from "../terraform/module-types.js";
import { SEVERITY_RANK, fixKindOf, fixKindsOf, type Finding, type Fix, type RelatedLocation, type ReportInput, type RuleContext, type RuleDefinition, type Severity, type SeveritySetting } from "./types.js";
import type { ModuleReport, RoleSource, Summary } from "./result.js";
import { ENGINE_SOURCE_ESCAPE, SOURCE_ESCAPE, META_RULES } from "./engine-rules.js";
import type { RuleCatalogue } from "./catalogue.js";
import { applySuppressions, collectSuppressions } from "./suppress.js";
import { enclosingNode } from "./apply-fixes.js";
import { visitorsOf, walkModule, type Subscriber } from "./shared-walk.js";
import { SubjectFinder } from "./subject.js";

export interface LintOptions {
  /** `--role` (wins over config and detection). */
  role?: Role;
  /** `role` from a config file, with where it was set (for the report). */
  configRole?: { role: Role; origin: string };
  /**
   * The module was found, not named (a directory `--recursive` walked into,
   * the directory of a module file named on its own): a detected role must
   * rest on enough evidence (`detectRole`'s `enough`), else the outcome is a
   * `usage-error` with `noRole` and a `skip` reason instead of a report.
   */
  requireRoleEvidence?: boolean;
  /** Per-rule severity settings (config merged with `--rule`; later wins). */
  severities?: ReadonlyMap<string, SeveritySetting>;
  /** `--allow-warning`: these rules' warnings become info. */
  allowWarnings?: readonly string[];
  /** Limit the run to these rule ids (fixture runner). */
  only?: readonly string[];
  /** Rule definitions to run instead of the built-in rules (tests, and modules whose config lists plugins). */
  ruleSet?: readonly RuleDefinition[];
  /** Honour inline ignore comments (default true; `--no-inline-config` sets false). */
  inlineConfig?: boolean;
  reportUnusedIgnores?: boolean;
  /** Lint this text in place of one module file (`--stdin`). */
  stdin?: { path: string; text: string };
  /** Texts in place of module files on disk, by absolute path (the language server's open documents). */
  overlay?: ReadonlyMap<string, string>;
  /** Parses kept across runs (the language server). */
  parseCache?: ParseCache;
  /** Told what loading the module reads from the file system (the CLI's result cache). */
  loadLog?: LoadLog;
  /** Drop findings in files matching (relative path, `/`-separated). */
  excludeFile?: (relPath: string) => boolean;
  /** The module path as the user gave it (defaults to `dir`). */
  displayPath?: string;
  /** Clock for ignore expiry (tests). */
  now?: Date;
  /**
   * The module's config lists plugins that were not loaded (the language
   * server with plugins off): an ignore comment naming a rule outside the
   * built-in groups may name one of theirs, and is not reported as unknown.
   */
  unloadedPlugins?: boolean;
}

/** What the engine runs with: the options, and the catalogue of the rules the run knows (built by the caller: the CLI, the language server, the library). */
export interface EngineOptions extends LintOptions {
  catalogue: RuleCatalogue;
}

export interface ReadError {
  file: string;
  message: string;
  /** Set when the problem is a rule that failed (threw or reported nonsense), not a file that could not be read. */
  kind?: "rule-failed";
  /** The rule that failed (with kind "rule-failed"). */
  ruleId?: string;
}

export type LintOutcome =
  | { kind: "report"; report: ModuleReport; load: LoadResult; readErrors: ReadError[] }
  /**
   * `noRole`: the module shows no sign of any CAPTF role (not merely an
   * ambiguous one), or, with `requireRoleEvidence`, too little of one;
   * `skip` then says why in a few words ("no CAPTF role detected").
   */
  | { kind: "usage-error"; message: string; evidence: string[]; noRole?: boolean; skip?: string }
  /** Nothing to lint: the directory holds no module file. */
  | { kind: "no-module"; message: string };

export function severityAtLeast(s: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[s] >= SEVERITY_RANK[threshold];
}

/** Compare strings by Unicode code point (= UTF-8 byte order). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

/**
 * The reference linter's order: file, line, rule id (byte order). Within one
 * rule on one line: column, then message (the reference sorts by message,
 * but our messages are our own anyway), then end position.
 */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareCodePoints(a.file, b.file) ||
    a.range.start.line - b.range.start.line ||
    compareCodePoints(a.ruleId, b.ruleId) ||
    a.range.start.column - b.range.start.column ||
    compareCodePoints(a.message, b.message) ||
    a.range.end.line - b.range.end.line ||
    a.range.end.column - b.range.end.column
  );
}

export const MODULE_RANGE: Range = {
  start: { line: 0, column: 0, offset: 0 },
  end: { line: 0, column: 0, offset: 0 },
};

function decideRole(unit: ModuleUnit, opts: LintOptions):
  | { role: Role; source: RoleSource; evidence: string[] }
  | { error: string; evidence: string[]; noRole: boolean; skip?: string } {
  if (opts.role) return { role: opts.role, source: "flag", evidence: [`--role ${opts.role}`] };
  if (opts.configRole) {
    return { role: opts.configRole.role, source: "config", evidence: [`role = "${opts.configRole.role}" (${opts.configRole.origin})`] };
  }
  const d = detectRole(unit);
  const pass = "pass --role cluster|machine|machinepool";
  if (d.role) {
    // A file that failed to parse may hide the declarations that would be
    // enough: such a module is linted on the role alone, so that a broken
    // CAPTF module is never skipped in silence.
    if (d.enough || opts.requireRoleEvidence !== true || unit.hasParseErrors) return { role: d.role, source: "detected", evidence: d.evidence };
    const skip = weakEvidenceText(d.role, d.weak);
    return { error: `not linted: ${skip} (found: ${d.evidence.join("; ")}); ${pass}`, evidence: d.evidence, noRole: true, skip };
  }
  if (d.reason === "none") {
    const found = d.evidence.length > 0 ? ` (it declares only ${d.evidence.join("; ")})` : "";
    return {
      error: `cannot tell which role the module implements: it declares none of the role-specific inputs or outputs${found}; ${pass}`,
      evidence: d.evidence,
      noRole: true,
      skip: "no CAPTF role detected",
    };
  }
  return {
    error: `cannot tell which role the module implements: it matches ${d.candidates.join(" and ")} equally (${d.evidence.join("; ")}); ${pass}`,
    evidence: d.evidence,
    noRole: false,
  };
}

/**
 * What role detection makes of a module directory, for `--print-config`:
 * the role it detects, on what evidence, and what a run does with the
 * directory named directly and found by a walk (`--recursive`, module files
 * named one by one).
 */
export interface DetectionView {
  role: Role | null;
  evidence: string[];
  /** Named directly: linted with `role`, or an error asking for `--role` (exit 3). */
  whenNamed: "lint" | "error";
  /** Found by a walk: linted, skipped with a note, or reported as of unknown role (exit 3). */
  whenFound: "lint" | "skip" | "error";
  /** The decision in a few words. */
  summary: string;
}

/** Role detection on the module in `dir` (null when it holds no module file). */
export function describeDetection(dir: string): DetectionView | null {
  const load = loadModule(path.resolve(dir));
  if (load.root.allFiles.length === 0) return null;
  const d = detectRole(load.root);
  if (d.role && d.enough) return { role: d.role, evidence: d.evidence, whenNamed: "lint", whenFound: "lint", summary: `${d.role}, on enough evidence: linted both when named directly and when found by --recursive` };
  if (d.role && load.root.hasParseErrors) {
    return {
      role: d.role,
      evidence: d.evidence,
      whenNamed: "lint",
      whenFound: "lint",
      summary: `${d.role} on too little evidence, but a file fails to parse (it may hide the rest): linted both when named directly and when found by --recursive`,
    };
  }
  if (d.role) {
    return {
      role: d.role,
      evidence: d.evidence,
      whenNamed: "lint",
      whenFound: "skip",
      summary: `${d.role} when named directly; --recursive skips it: ${weakEvidenceText(d.role, d.weak)}`,
    };
  }
  if (d.reason === "none") {
    return { role: null, evidence: d.evidence, whenNamed: "error", whenFound: "skip", summary: "no role: it declares none of the role-specific inputs or outputs; named directly it is an error, --recursive skips it" };
  }
  return { role: null, evidence: d.evidence, whenNamed: "error", whenFound: "error", summary: `no role: it matches ${d.candidates.join(" and ")} equally; it is not linted without a role (exit 3)` };
}

/** Why a module that looks like `role` is not taken for one, in a few words. */
function weakEvidenceText(role: Role, weak: WeakEvidence | undefined): string {
  if (weak?.kind === "wrapper") return `a wrapper of the local module "${weak.source}" that declares none of the contract's inputs`;
  return `too little evidence of a ${role} module: none of the reserved captf_* inputs and fewer than two of ${identifyingInputs(role).join(", ")}`;
}

const PARSE_RULE = "syntax/parse";

/** A diagnostic as one message line: "Summary: detail." */
function diagnosticText(summary: string, detail: string): string {
  const s = summary.trim();
  const d = detail.trim().replace(/\s*\n\s*/g, " ");
  return d === "" ? s : `${s}: ${d}`;
}

function summarize(findings: readonly Finding[]): Summary {
  const s: Summary = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (!f.suppressed) s[f.severity]++;
  return s;
}

const isPosition = (p: unknown): boolean => {
  const q = p as { line?: unknown; column?: unknown; offset?: unknown } | null;
  return !!q && Number.isInteger(q.line) && Number.isInteger(q.column) && Number.isInteger(q.offset);
};

/**
 * What a rule's check sees. Fields and methods of a class, with no closure
 * made per context: V8 keeps a closure created in a constructor (or an
 * object literal with a getter) in its old generation, and from there it
 * held each module's whole tree through every young-generation collection
 * until the next full one (measured: 5× the scavenge time of a
 * `--recursive` run). `report` is bound, so a rule may call it detached
 * (`const { report } = ctx`).
 */
class Context implements RuleContext {
  readonly contract = CONTRACT;
  readonly isRoot: boolean;
  readonly declarations: Module;
  readonly expressions: Module;
  readonly report: (input: ReportInput) => void;

  constructor(
    private readonly rule: RuleDefinition,
    readonly role: Role,
    readonly load: LoadResult,
    readonly unit: ModuleUnit,
    readonly graphOf: (m: Module) => DependencyGraph,
    private readonly findings: Finding[],
    private readonly knownFiles: ReadonlySet<string>,
  ) {
    this.isRoot = unit === load.root;
    this.declarations = unit.declarations;
    this.expressions = unit.expressions;
    this.report = this.reportFinding.bind(this);
  }

  get graph(): DependencyGraph {
    return this.graphOf(this.unit.expressions);
  }

  private reportFinding(input: ReportInput): void {
    this.findings.push(checkedFinding(this.rule, input, this.knownFiles, this.unit));
  }
}

/**
 * A rule's report as a finding. What a rule hands over is checked (a plugin's
 * mistake must not surface as a crash in a formatter): a bad report throws,
 * and the engine reports the rule as failed. `file` may be a path or the
 * SourceFile itself.
 */
function checkedFinding(rule: RuleDefinition, input: ReportInput, knownFiles: ReadonlySet<string>, unit: ModuleUnit): Finding {
  if (!input || typeof input !== "object") throw new Error("report() needs an object { message, file, range }");
  if (typeof input.message !== "string" || input.message === "") throw new Error("report() needs a non-empty message string");
  const raw: unknown = input.file;
  const file = raw && typeof raw === "object" && typeof (raw as { path?: unknown }).path === "string" ? (raw as { path: string }).path : raw ?? "";
  if (typeof file !== "string") throw new Error("report(): file must be a module file's path (or its SourceFile)");
  if (file !== "" && !knownFiles.has(file)) throw new Error(`report(): "${file}" is not a file of this module`);
  const range = input.range ?? MODULE_RANGE;
  if (!isPosition(range.start) || !isPosition(range.end)) throw new Error("report(): range must be { start, end } positions with line, column and offset");
  if (input.severity !== undefined && input.severity !== "error" && input.severity !== "warning" && input.severity !== "info") {
    throw new Error('report(): severity must be "error", "warning" or "info"');
  }
  if (input.fix !== undefined && !rule.fixable) throw new Error("report(): a fix was given but the rule is not declared fixable");
  if (input.subject !== undefined && (typeof input.subject !== "string" || input.subject.trim() === "")) throw new Error("report(): subject must be a non-empty string (an HCL address such as output.exports)");
  const fix = input.fix ? checkedFixKind(rule, input.fix) : undefined;
  return {
    ruleId: rule.id,
    severity: input.severity ?? rule.severity,
    file,
    range,
    message: input.message,
    ...(input.related !== undefined && input.related !== null ? relatedOf(checkedRelated(input.related, knownFiles)) : {}),
    ...(fix ? { fix: withinOf(fix, file === "" ? undefined : file, input.range, unit) } : {}),
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
  };
}

/**
 * The fix with its kind set: a fix that does not say is unsafe. A kind that
 * is not "safe" or "unsafe", or one the rule does not declare (fixKinds),
 * throws: the engine reports the rule as failed.
 */
function checkedFixKind(rule: RuleDefinition, fix: Fix): Fix {
  if (!fix || typeof fix !== "object") throw new Error("report(): fix must be an object { description, kind, edits }");
  if (fix.kind !== undefined && fix.kind !== "safe" && fix.kind !== "unsafe") throw new Error('report(): fix.kind must be "safe" or "unsafe"');
  const kind = fixKindOf(fix);
  const declared = fixKindsOf(rule);
  if (!declared.includes(kind)) {
    const given = fix.kind === undefined ? "the fix does not say its kind, so it is unsafe" : `the fix is ${kind}`;
    throw new Error(`report(): ${given}, but the rule declares only ${declared.join(" and ")} fixes (fixKinds); set fix.kind or the rule's fixKinds`);
  }
  return fix.kind === kind ? fix : { ...fix, kind };
}

/** An empty path is no path (formats then show nothing extra). */
function relatedOf(related: RelatedLocation[]): { related?: RelatedLocation[] } {
  return related.length > 0 ? { related } : {};
}

function checkedRelated(related: ReportInput["related"], knownFiles: ReadonlySet<string>): RelatedLocation[] {
  if (!Array.isArray(related)) throw new Error("report(): related must be an array of { file, range, message }");
  return related.map((r) => {
    const raw: unknown = r?.file;
    const file = raw && typeof raw === "object" && typeof (raw as { path?: unknown }).path === "string" ? (raw as { path: string }).path : raw;
    if (typeof file !== "string" || !knownFiles.has(file)) throw new Error(`report(): related file "${String(file)}" is not a file of this module`);
    if (!r.range || !isPosition(r.range.start) || !isPosition(r.range.end)) throw new Error("report(): a related range must be { start, end } positions");
    if (typeof r.message !== "string" || r.message === "") throw new Error("report(): a related location needs a non-empty message");
    return { file, range: r.range, message: r.message };
  });
}

/** Lint the module in `dir`. Never throws on user input. */
export function lintModule(dir: string, opts: EngineOptions): LintOutcome {
  const steps = lintSteps(dir, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * lintModule in steps: the generator yields after loading, after each
 * rule's checks and after each unit's shared walk (the visitors), so a
 * caller that must stay responsive (the language server) can yield to its
 * event loop there and abandon work a newer edit made stale (by not
 * resuming the generator).
 */
export function* lintSteps(dir: string, opts: EngineOptions): Generator<void, LintOutcome, void> {
  const absDir = path.resolve(dir);
  const loadOpts = {
    ...(opts.stdin ? { stdin: opts.stdin } : {}),
    ...(opts.overlay ? { overlay: opts.overlay } : {}),
    ...(opts.parseCache ? { parseCache: opts.parseCache } : {}),
    ...(opts.loadLog ? { log: opts.loadLog } : {}),
  };
  const load = loadModule(absDir, loadOpts);
  if (load.root.allFiles.length === 0) {
    const unreadable = load.problems.find((p) => p.file === "" && p.kind !== "source-escape");
    return { kind: "no-module", message: unreadable ? unreadable.message : "no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory" };
  }
  const decided = decideRole(load.root, opts);
  if ("error" in decided) {
    return { kind: "usage-error", message: decided.error, evidence: decided.evidence, noRole: decided.noRole, ...(decided.skip !== undefined ? { skip: decided.skip } : {}) };
  }
  const role = decided.role;
  yield;

  const activation = ruleActivation(opts);
  const run: RuleRun = { opts, load, role, ...activation, findings: [], ruleFailures: [] };
  const subscribers = yield* runChecks(run);
  yield* walkSubscribers(load, subscribers);
  reportParseDiagnostics(run);
  const readErrors = reportLoadProblems(run);
  const all = finishFindings(run);

  const sources = new Map<string, string>();
  for (const u of load.units) for (const f of u.allFiles) sources.set(f.path, f.hcl.text);

  const home = homeFiles(load.root.declarations);
  const report: ModuleReport = {
    ...(home ? { homeFiles: home } : {}),
    module: opts.displayPath ?? dir,
    dir: absDir,
    contract: CONTRACT.version,
    role,
    roleSource: decided.source,
    roleEvidence: decided.evidence,
    fileSet: load.root.expressions.fileSet,
    findings: all,
    summary: summarize(all),
    sources,
  };
  return { kind: "report", report, load, readErrors };
}

/** Which rules a run uses, their default severities, and whether a rule is on. */
interface RuleActivation {
  readonly catalogue: RuleCatalogue;
  readonly rules: readonly RuleDefinition[];
  readonly defaults: Map<string, Severity>;
  readonly active: (id: string) => boolean;
}

/** The state one lintSteps run shares between its steps. */
interface RuleRun extends RuleActivation {
  readonly opts: EngineOptions;
  readonly load: LoadResult;
  readonly role: Role;
  readonly findings: Finding[];
  readonly ruleFailures: ReadError[];
}

function ruleActivation(opts: EngineOptions): RuleActivation {
  // Plugin rules run only where a config lists them (opts.ruleSet).
  const catalogue = opts.catalogue;
  const rules = opts.ruleSet ?? catalogue.builtin;
  const only = opts.only ? new Set(opts.only) : null;
  const settingOf = (id: string, def: Severity): SeveritySetting => opts.severities?.get(id) ?? def;
  const defaults = defaultSeverities(catalogue, rules);
  const active = (id: string): boolean => {
    if (only && !only.has(id)) return false;
    const def = defaults.get(id);
    return def !== undefined && settingOf(id, def) !== "off";
  };
  return { catalogue, rules, defaults, active };
}

/** Default severities by rule id, made once per catalogue and rule list (a --recursive run lints every module with the same ones). */
const severityTables = new WeakMap<readonly RuleDefinition[], { catalogue: RuleCatalogue; defaults: Map<string, Severity> }>();
function defaultSeverities(catalogue: RuleCatalogue, rules: readonly RuleDefinition[]): Map<string, Severity> {
  const known = severityTables.get(rules);
  if (known && known.catalogue === catalogue) return known.defaults;
  const defaults = new Map<string, Severity>();
  for (const r of [...catalogue.lint, ...rules]) defaults.set(r.id, r.severity);
  severityTables.set(rules, { catalogue, defaults });
  return defaults;
}

/** Runs every active rule's check on its units, yielding after each rule; returns the visitors they subscribed. */
function* runChecks(run: RuleRun): Generator<void, Map<ModuleUnit, Subscriber[]>, void> {
  const { load, role, rules, active, findings, ruleFailures } = run;
  const graphs = new Map<Module, DependencyGraph>();
  const graphOf = (m: Module): DependencyGraph => {
    const cached = graphs.get(m);
    if (cached) return cached;
    const built: DependencyGraph = buildGraph(m);
    graphs.set(m, built);
    return built;
  };

  // What a finding may name: the module's files, and files that loading had a problem with.
  const knownFiles = new Set([...load.units.flatMap((u) => u.allFiles.map((f) => f.path)), ...load.problems.map((p) => p.file)]);
  // A rule that throws (in check or in a visitor) fails on that unit only:
  // the failure is reported as an error of the run (exit 2), naming the rule,
  // and every other rule's findings are kept.
  const failed = (rule: RuleDefinition, unit: ModuleUnit, err: unknown): void => {
    const msg = err instanceof Error ? err.message : String(err);
    const who = rule.plugin ? `rule ${rule.id} of plugin ${rule.plugin}` : `rule ${rule.id}`;
    const hint = rule.plugin ? "report it to the plugin's authors" : "this is a bug in tfcapi-lint, please report it";
    ruleFailures.push({ file: "", kind: "rule-failed", ruleId: rule.id, message: `${who} failed on ${unit.relDir || "."}: ${msg} (${hint})` });
  };
  // The rules that returned visitors, per unit, in rule order (src/lint/shared-walk.ts).
  const subscribers = new Map<ModuleUnit, Subscriber[]>();
  for (const rule of rules) {
    if (!rule.roles.includes(role) || !active(rule.id)) continue;
    const units = rule.scope === "all" ? load.units : [load.root];
    for (const unit of units) {
      if (rule.declarationCheck && unit.hasParseErrors) continue;
      const ctx = new Context(rule, role, load, unit, graphOf, findings, knownFiles);
      try {
        const visitors = visitorsOf(rule.check(ctx));
        if (visitors) {
          const list = subscribers.get(unit);
          const sub: Subscriber = { visitors, onError: (err) => failed(rule, unit, err) };
          if (list) list.push(sub);
          else subscribers.set(unit, [sub]);
        }
      } catch (err) {
        failed(rule, unit, err);
      }
    }
    yield;
  }
  return subscribers;
}

/** One walk per unit for every rule that subscribed to it, yielding after each walk. */
function* walkSubscribers(load: LoadResult, subscribers: Map<ModuleUnit, Subscriber[]>): Generator<void, void, void> {
  for (const unit of load.units) {
    const subs = subscribers.get(unit);
    if (!subs) continue;
    walkModule(unit.expressions, subs);
    yield;
  }
}

function reportParseDiagnostics(run: RuleRun): void {
  const { load, role, rules, active, findings } = run;
  // Module-model diagnostics (duplicate declarations, overrides without a
  // base: what `terraform validate` rejects) are syntax/parse errors. A file in
  // both file sets yields the same diagnostic twice: report it once.
  if (active(PARSE_RULE) && rules.some((r) => r.id === PARSE_RULE && r.roles.includes(role))) {
    const seenDiag = new Set<string>();
    const parseRule = rules.find((r) => r.id === PARSE_RULE)!;
    const units = parseRule.scope === "all" ? load.units : [load.root];
    for (const unit of units) {
      for (const d of [...unit.terraform.diagnostics, ...unit.opentofu.diagnostics]) {
        const message = diagnosticText(d.summary, d.detail);
        const key = `${d.file}\0${d.subject.start.offset}\0${d.subject.end.offset}\0${message}`;
        if (seenDiag.has(key)) continue;
        seenDiag.add(key);
        findings.push({ ruleId: PARSE_RULE, severity: d.severity === "warning" ? "warning" : parseRule.severity, file: d.file, range: d.subject, message });
      }
    }
  }
}

/** Loading's problems: source escapes become findings, the rest read errors (after the rules' failures). */
function reportLoadProblems(run: RuleRun): ReadError[] {
  const { load, rules, active, defaults, findings } = run;
  // A registry rule may report source escapes itself; otherwise the engine does.
  const escapeRule = rules.find((r) => r.id === SOURCE_ESCAPE);
  const engineReportsEscapes = escapeRule === undefined || escapeRule === ENGINE_SOURCE_ESCAPE;
  const readErrors: ReadError[] = [...run.ruleFailures];
  for (const p of load.problems) {
    if (p.kind === "source-escape") {
      if (engineReportsEscapes && active(SOURCE_ESCAPE)) {
        findings.push({ ruleId: SOURCE_ESCAPE, severity: defaults.get(SOURCE_ESCAPE) ?? "error", file: p.file, range: p.range ?? MODULE_RANGE, message: p.message });
      }
    } else {
      readErrors.push({ file: p.file, message: p.message });
    }
  }
  return readErrors;
}

/** Severities, inline suppressions, plain ranges, excluded files and order: the run's final findings. */
function finishFindings(run: RuleRun): Finding[] {
  const { opts, load, role, catalogue, rules, defaults, active, findings } = run;
  // Severity settings, then --allow-warning.
  const allowed = new Set(opts.allowWarnings ?? []);
  const adjust = (f: Finding): void => adjustSeverity(f, opts.severities, allowed);
  findings.forEach(adjust);

  let all = findings;
  if (opts.inlineConfig !== false) {
    const files = load.units.flatMap((u) => u.allFiles);
    const sups = collectSuppressions(files, opts.now ?? new Date());
    if (sups.length > 0) {
      const rootFiles = new Set(load.root.allFiles.map((f) => f.path));
      const meta = applySuppressions(findings, sups, {
        isKnownRule: (id) => catalogue.isKnown(id) || defaults.has(id) || (opts.unloadedPlugins === true && !catalogue.isBuiltinGroup(id.split("/")[0]!)),
        isActiveRule: (id) => active(id) && (rules.some((r) => r.id === id && r.roles.includes(role)) || id === SOURCE_ESCAPE),
        reportUnused: opts.reportUnusedIgnores === true,
        rootFiles,
      });
      for (const m of meta) {
        if (!active(m.ruleId)) continue;
        const def = META_RULES.find((r) => r.id === m.ruleId)!;
        const f: Finding = { ruleId: m.ruleId, severity: def.severity, file: m.file, range: m.range, message: m.message };
        adjust(f);
        all.push(f);
      }
    }
  }

  // Findings outlive the syntax tree (and cross threads): plain ranges, and
  // the subject (src/lint/subject.ts) taken while the tree is here.
  const subjects = new SubjectFinder(load);
  for (const f of all) {
    if (f.subject === undefined) f.subject = subjects.subjectAt(f.file, f.range);
    f.range = plainRange(f.range);
    if (f.related) for (const r of f.related) r.range = plainRange(r.range);
  }

  if (opts.excludeFile) {
    const ex = opts.excludeFile;
    all = all.filter((f) => f.file === "" || !ex(f.file));
  }
  all.sort(compareFindings);
  return all;
}

/**
 * A fix with the node it belongs to: as its rule gave it, else the innermost
 * block around the finding (a fix for another file than the finding's must
 * name its node, or it is refused).
 */
function withinOf(fix: Fix, file: string | undefined, range: Range | undefined, unit: ModuleUnit): Fix {
  if (fix.within) return fix;
  const source = file !== undefined && range !== undefined && fix.edits.every((e) => e.file === file) ? unit.allFiles.find((f) => f.path === file) : undefined;
  if (!source || !range) return { ...fix, within: { start: -1, end: -1 } };
  return { ...fix, within: enclosingNode(source.hcl, range.start.offset, range.end.offset) };
}

/** The file holding most of `files` (first in byte order on a tie), or null. */
function mostCommon(files: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f, (counts.get(f) ?? 0) + 1);
  let best: string | null = null;
  for (const [f, n] of counts) {
    const b = best === null ? 0 : counts.get(best)!;
    if (n > b || (n === b && compareCodePoints(f, best!) < 0)) best = f;
  }
  return best;
}

/** See ModuleReport.homeFiles. Only files directly in the module directory count. */
function homeFiles(mod: Module): ModuleReport["homeFiles"] {
  const names = mod.files.filter((f) => !f.isOverride).map((f) => f.path).sort(compareCodePoints);
  const first = names[0] ?? mod.files[0]?.path;
  if (first === undefined) return undefined;
  const pick = (declared: readonly { file: { path: string; isOverride: boolean } }[], conventional: string[]): string =>
    mostCommon(declared.filter((d) => !d.file.isOverride).map((d) => d.file.path)) ?? conventional.find((c) => names.includes(c)) ?? first;
  return {
    variable: pick([...mod.variables.values()], ["variables.tf", "variables.tf.json", "variables.tofu"]),
    output: pick([...mod.outputs.values()], ["outputs.tf", "outputs.tf.json", "outputs.tofu"]),
    terraform: pick(mod.terraformBlocks, ["versions.tf", "terraform.tf", "main.tf"]),
    first,
  };
}

/** A rule's severity setting (other than "off"), then `--allow-warning` (its warnings become info). */
export function adjustSeverity(f: Finding, severities: ReadonlyMap<string, SeveritySetting> | undefined, allowWarnings: ReadonlySet<string>): void {
  const setting = severities?.get(f.ruleId);
  if (setting && setting !== "off") f.severity = setting;
  if (f.severity === "warning" && allowWarnings.has(f.ruleId)) f.severity = "info";
}

/** Recount a report's summary (after filtering or fixing). */
export function recount(findings: readonly Finding[]): Summary {
  return summarize(findings);
}

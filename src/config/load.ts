/**
 * `.tfcapi-lint.hcl`: lookup (nearest file walking up from a module
 * directory, stopping at the repository root, or outside a repository at the
 * home or working directory), parsing, and validation
 * against schema/tfcapi-lint.schema.json (precompiled validator).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import type { Expression, Range } from "../hcl/ast.js";
import { parseHcl } from "../hcl/index.js";
import { repositoryRootOf } from "./repository.js";
import type { Role } from "../contract/roles-api.js";
import type { Severity, SeveritySetting } from "../lint/types.js";
import { maxWarningsProblem, ruleIdProblem } from "./values.js";
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { validate, type ConfigSchemaError } from "./validate-config.generated.js";
import { GlobSet } from "./glob.js";
import { errorText } from "../terraform/files.js";

export const CONFIG_FILE_NAME = ".tfcapi-lint.hcl";

export interface Setting<T> {
  value: T;
  /** Where the value came from: `file:line:column`, `default`, or the CLI flag. */
  origin: string;
}

export interface FileConfig {
  /** Absolute path of the config file. */
  path: string;
  /** Its directory (exclude patterns are relative to it). */
  dir: string;
  role?: Setting<Role>;
  rules: Map<string, Setting<SeveritySetting>>;
  exclude?: Setting<string[]>;
  failOn?: Setting<Severity>;
  maxWarnings?: Setting<number>;
  /** `baseline`: the baseline file, as an absolute path (written relative to the config file's directory). */
  baseline?: Setting<string>;
  /** `plugins`: each entry with where it is written. */
  plugins: { spec: string; origin: string }[];
  /**
   * Rule ids configured in `rule` blocks that are not built-in rules: a file that
   * lists plugins is checked once they are loaded (checkRuleIds).
   */
  pendingRuleIds: { id: string; origin: string }[];
  excludeSet: GlobSet;
}

/** A config problem; the message already names file:line:column. Exit 3. */
export class ConfigError extends Error {}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** A step of `constant`: make a list of the last `count` values (op null), or apply `op` to the last one. */
class ConstantStep {
  constructor(
    readonly op: "-" | "!" | null,
    readonly count: number,
  ) {}
}

/**
 * A constant value of the config language: literals, literal-only strings,
 * parentheses, `-` and `!` on a constant, lists of constants. Lists nest
 * without limit: an explicit stack of expressions and of steps that make a
 * list (or apply an operator) from the values computed last.
 */
function constant(root: Expression): { ok: true; value: Json } | { ok: false } {
  const work: (Expression | ConstantStep)[] = [root];
  const values: Json[] = [];
  while (work.length > 0) {
    const item = work.pop()!;
    if (item instanceof ConstantStep) {
      if (item.op === null) {
        values.push(values.splice(values.length - item.count, item.count));
        continue;
      }
      const v = values.pop()!;
      if (item.op === "-" && typeof v === "number") values.push(-v);
      else if (item.op === "!" && typeof v === "boolean") values.push(!v);
      else return { ok: false };
      continue;
    }
    const expr = item;
    switch (expr.kind) {
      case "LiteralValue":
        values.push(expr.value);
        break;
      case "Template": {
        let s = "";
        for (const part of expr.parts) {
          if (part.kind !== "TemplateLiteral") return { ok: false };
          s += part.value;
        }
        values.push(s);
        break;
      }
      case "Parentheses":
        work.push(expr.expr);
        break;
      case "UnaryOp":
        work.push(new ConstantStep(expr.op, 1), expr.operand);
        break;
      case "TupleCons":
        work.push(new ConstantStep(null, expr.exprs.length));
        for (let i = expr.exprs.length - 1; i >= 0; i--) work.push(expr.exprs[i]!);
        break;
      default:
        return { ok: false };
    }
  }
  return { ok: true, value: values[0]! };
}

function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

function describePointer(pointer: string): string {
  const parts = pointer.split("/").slice(1).map(unescapePointer);
  if (parts[0] === "rule" && parts.length >= 2) {
    return `rule "${parts[1]}"${parts.length > 2 ? ` ${parts.slice(2).join(".")}` : ""}`;
  }
  return parts.map((p, i) => (i > 0 && /^\d+$/.test(p) ? `[${p}]` : (i > 0 ? `.${p}` : p))).join("") || "config";
}

function schemaMessage(e: ConfigSchemaError): { pointer: string; message: string } {
  const where = describePointer(e.instancePath);
  switch (e.keyword) {
    case "additionalProperties": {
      const prop = String(e.params.additionalProperty);
      const pointer = `${e.instancePath}/${escapePointer(prop)}`;
      if (e.instancePath === "") return { pointer, message: `unknown setting "${prop}" (known: role, rule, exclude, fail_on, max_warnings, baseline, plugins)` };
      return { pointer, message: `unknown setting "${prop}" in ${where} (only "severity" is allowed)` };
    }
    case "enum":
      return { pointer: e.instancePath, message: `${where} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "required":
      return { pointer: e.instancePath, message: `${where} needs a "${String(e.params.missingProperty)}" setting` };
    case "propertyNames":
    case "pattern":
      if (e.propertyName !== undefined) {
        return { pointer: `${e.instancePath}/${escapePointer(e.propertyName)}`, message: `"${e.propertyName}" is not a valid rule id` };
      }
      return { pointer: e.instancePath, message: `${where} must be a non-empty pattern without surrounding spaces` };
    case "type":
      return { pointer: e.instancePath, message: `${where} must be ${e.params.type === "integer" ? "a whole number" : `of type ${String(e.params.type)}`}` };
    case "minimum":
      return { pointer: e.instancePath, message: `${where} must be ${String(e.params.limit)} or more` };
    default:
      return { pointer: e.instancePath, message: `${where} ${e.message ?? "is invalid"}` };
  }
}

function at(file: string, r: Range | undefined): string {
  return r ? `${file}:${r.start.line}:${r.start.column}` : `${file}:1:1`;
}

/** Read, parse and validate one config file. Throws ConfigError. */
export function readConfigFile(file: string): FileConfig {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${errorText(err)}`);
  }
  return parseConfigText(text, abs, file);
}

/** Parse and validate config text; `shown` is the path used in messages. */
export function parseConfigText(text: string, abs: string, shown: string = abs): FileConfig {
  const parsed = parseHcl(text, abs);
  const syntaxErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (syntaxErrors.length > 0) {
    throw new ConfigError(syntaxErrors.map((d) => `${at(shown, d.subject)}: ${d.summary}${d.detail ? `: ${d.detail}` : ""}`).join("\n"));
  }
  const problems: string[] = [];
  const ranges = new Map<string, Range>();
  const names = new Map<string, Range>();
  const data: { [k: string]: Json } = {};
  const body = parsed.file.body;
  for (const attr of body.attributes) {
    const pointer = `/${escapePointer(attr.name)}`;
    names.set(pointer, attr.nameRange);
    if (Object.hasOwn(data, attr.name)) {
      problems.push(`${at(shown, attr.nameRange)}: "${attr.name}" is set twice`);
      continue;
    }
    const c = constant(attr.expr);
    if (!c.ok) {
      problems.push(`${at(shown, attr.expr.range)}: ${attr.name} must be a constant value (no references or functions)`);
      continue;
    }
    data[attr.name] = c.value;
    ranges.set(pointer, attr.expr.range);
    if (attr.expr.kind === "TupleCons") attr.expr.exprs.forEach((e, i) => ranges.set(`${pointer}/${i}`, e.range));
  }
  for (const block of body.blocks) {
    if (block.type !== "rule") {
      names.set(`/${escapePointer(block.type)}`, block.typeRange);
      data[block.type] = {};
      continue;
    }
    if (block.labels.length !== 1) {
      problems.push(`${at(shown, block.typeRange)}: a rule block needs exactly one label, the rule id: rule "input/default" { severity = "off" }`);
      continue;
    }
    const id = block.labels[0]!;
    const rules = (data.rule ??= {}) as { [k: string]: Json };
    const pointer = `/rule/${escapePointer(id)}`;
    if (Object.hasOwn(rules, id)) {
      problems.push(`${at(shown, block.labelRanges[0])}: rule "${id}" is configured twice`);
      continue;
    }
    ranges.set(pointer, block.labelRanges[0]!);
    const entry: { [k: string]: Json } = {};
    for (const attr of block.body.attributes) {
      const c = constant(attr.expr);
      names.set(`${pointer}/${escapePointer(attr.name)}`, attr.nameRange);
      if (c.ok) ranges.set(`${pointer}/${escapePointer(attr.name)}`, attr.expr.range);
      if (!c.ok) {
        problems.push(`${at(shown, attr.expr.range)}: rule "${id}" ${attr.name} must be a constant value`);
        continue;
      }
      entry[attr.name] = c.value;
    }
    for (const nested of block.body.blocks) {
      names.set(`${pointer}/${escapePointer(nested.type)}`, nested.typeRange);
      entry[nested.type] = {};
    }
    rules[id] = entry;
  }
  if (problems.length === 0 && !validate(data)) {
    for (const e of validate.errors ?? []) {
      const { pointer, message } = schemaMessage(e);
      const byName = e.keyword === "additionalProperties";
      let r: Range | undefined;
      for (let p = pointer; !r && p !== ""; p = p.slice(0, p.lastIndexOf("/"))) {
        r = byName ? (names.get(p) ?? ranges.get(p)) : (ranges.get(p) ?? names.get(p));
      }
      problems.push(`${at(shown, r)}: ${message}`);
    }
  }
  const rulesData = (data.rule ?? {}) as { [k: string]: { severity?: SeveritySetting } };
  const hasPlugins = Array.isArray(data.plugins) && data.plugins.length > 0;
  const pendingRuleIds: { id: string; origin: string }[] = [];
  if (problems.length === 0) {
    for (const id of Object.keys(rulesData)) {
      const bad = ruleIdProblem(id, BUILTIN_CATALOGUE);
      if (bad === null) continue;
      const where = at(shown, ranges.get(`/rule/${escapePointer(id)}`));
      // A plugin listed here may define it: checked once plugins are loaded.
      if (hasPlugins && bad.startsWith("unknown rule")) pendingRuleIds.push({ id, origin: where });
      else problems.push(`${where}: ${bad}`);
    }
    if (Array.isArray(data.exclude)) {
      const dir = path.dirname(abs);
      data.exclude = (data.exclude as string[]).map((p, i) => {
        if (!path.isAbsolute(p)) return p;
        // An absolute pattern works when it is inside the config's
        // directory (it is made relative to it); elsewhere it could never
        // match, so it is an error rather than a silent no-op.
        const rel = path.relative(dir, p);
        if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
          problems.push(`${at(shown, ranges.get(`/exclude/${i}`))}: exclude pattern "${p}" is an absolute path outside ${dir}; patterns are relative to the directory of the config file`);
          return p;
        }
        return rel.split(path.sep).join("/");
      });
    }
    if (typeof data.max_warnings === "number") {
      const bad = maxWarningsProblem(data.max_warnings);
      if (bad !== null) problems.push(`${at(shown, ranges.get("/max_warnings"))}: max_warnings ${bad}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join("\n"));

  const origin = (pointer: string): string => at(shown, ranges.get(pointer));
  const config: FileConfig = { path: abs, dir: path.dirname(abs), rules: new Map(), plugins: [], pendingRuleIds, excludeSet: new GlobSet([]) };
  if (hasPlugins) config.plugins = (data.plugins as string[]).map((spec, i) => ({ spec, origin: origin(`/plugins/${i}`) }));
  if (typeof data.role === "string") config.role = { value: data.role as Role, origin: origin("/role") };
  for (const [id, r] of Object.entries(rulesData)) {
    config.rules.set(id, { value: r.severity!, origin: origin(`/rule/${escapePointer(id)}/severity`) });
  }
  if (Array.isArray(data.exclude)) {
    config.exclude = { value: data.exclude as string[], origin: origin("/exclude") };
    config.excludeSet = new GlobSet(data.exclude as string[]);
  }
  if (typeof data.fail_on === "string") config.failOn = { value: data.fail_on as Severity, origin: origin("/fail_on") };
  if (typeof data.max_warnings === "number") config.maxWarnings = { value: data.max_warnings, origin: origin("/max_warnings") };
  if (typeof data.baseline === "string") config.baseline = { value: path.resolve(config.dir, data.baseline), origin: origin("/baseline") };
  return config;
}


/** After a config file's plugins are loaded: its rule ids must all be in its catalogue now. Throws ConfigError. */
export function checkRuleIds(config: FileConfig, catalogue: RuleCatalogue): void {
  const unknown = config.pendingRuleIds.filter((r) => !catalogue.isKnown(r.id));
  if (unknown.length > 0) throw new ConfigError(unknown.map((r) => `${r.origin}: ${ruleIdProblem(r.id, catalogue)}; no plugin listed in the file defines it`).join("\n"));
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The file-system questions of the config lookup: whether a path exists, whether it is a directory. */
export interface LookupProbe {
  exists(p: string): boolean;
  isDir(p: string): boolean;
}

/** The names in a directory the lookup asks about. */
const LOOKUP_NAMES = [".git", CONFIG_FILE_NAME];

/** Asks the file system every time. */
const DIRECT_PROBE: LookupProbe = { exists: existsSync, isDir };

/**
 * Asks the file system once a path and remembers the answer: a
 * ConfigResolver's (one run's) lookups from many module directories share
 * the directories above them.
 */
function rememberingProbe(): LookupProbe & { listed(dir: string, names: ReadonlySet<string>): void } {
  const exists = new Map<string, boolean>();
  const dirs = new Map<string, boolean>();
  const ask = (m: Map<string, boolean>, p: string, f: (p: string) => boolean): boolean => {
    let v = m.get(p);
    if (v === undefined) m.set(p, (v = f(p)));
    return v;
  };
  return {
    exists: (p) => ask(exists, p, existsSync),
    isDir: (p) => ask(dirs, p, isDir),
    // A name a listing of the run does not hold does not exist there (one that it holds is still asked: a link may lead nowhere).
    listed: (dir, names) => {
      for (const n of LOOKUP_NAMES) if (!names.has(n)) exists.set(path.join(dir, n), false);
    },
  };
}

function isAtOrBelow(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Where the config lookup for `dir` stops (see findConfigFile). */
export function lookupBoundary(dir: string, stops: { cwd?: string; home?: string } = {}, probe: LookupProbe = DIRECT_PROBE): string {
  const start = path.resolve(dir);
  const repository = repositoryRootOf(start, probe.exists);
  if (repository !== null) return repository;
  // Outside a repository: the user's home when `dir` is under it, else the
  // working directory when `dir` is under that, else `dir` itself; never up
  // to `/` (a stray file in the system temp directory must not configure an
  // unrelated run).
  const candidates = [stops.home, stops.cwd ?? process.cwd()]
    .filter((s): s is string => s !== undefined && s !== "")
    .map((s) => path.resolve(s))
    .filter((s) => path.dirname(s) !== s && isAtOrBelow(start, s));
  return candidates[0] ?? start;
}

/**
 * The nearest `.tfcapi-lint.hcl` at or above `dir`, not looking above the
 * repository root (the nearest directory holding `.git`); outside a
 * repository not above the user's home (when `dir` is under it), else the
 * working directory (when `dir` is under it), else only `dir` itself.
 */
export function findConfigFile(dir: string, stops: { cwd?: string; home?: string } = {}, probe: LookupProbe = DIRECT_PROBE): string | null {
  const boundary = lookupBoundary(dir, stops, probe);
  let d = path.resolve(dir);
  for (;;) {
    const candidate = path.join(d, CONFIG_FILE_NAME);
    if (probe.exists(candidate) && !probe.isDir(candidate)) return candidate;
    if (d === boundary) return null;
    const parent = path.dirname(d);
    if (parent === d) return null;
    d = parent;
  }
}

/** `abs` relative to the working directory when it is below it (for messages). */
function shownPath(abs: string): string {
  const rel = path.relative(process.cwd(), abs);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : abs;
}

/** Resolves (and caches) the config that applies to each module directory. */
export class ConfigResolver {
  private readonly byFile = new Map<string, FileConfig>();
  private readonly byDir = new Map<string, string | null>();
  /** The lookup's file-system answers, shared by the directories of a run (see rememberingProbe). */
  private readonly probe = rememberingProbe();

  constructor(private readonly opts: { explicit?: string; disabled?: boolean; cwd?: string; home?: string }) {}

  /** Throws ConfigError. */
  forDir(dir: string): FileConfig | null {
    if (this.opts.disabled) return null;
    if (this.opts.explicit !== undefined) return this.load(this.opts.explicit);
    // A directory asked before (as its absolute path: the keys are) needs no resolving.
    let file = this.byDir.get(dir);
    const abs = file === undefined ? path.resolve(dir) : dir;
    if (file === undefined) file = this.byDir.get(abs);
    if (file === undefined) {
      file = findConfigFile(abs, { ...(this.opts.cwd !== undefined ? { cwd: this.opts.cwd } : {}), ...(this.opts.home !== undefined ? { home: this.opts.home } : {}) }, this.probe);
      this.byDir.set(abs, file);
    }
    return file === null ? null : this.load(file);
  }

  /**
   * What a listing of `dir` made in this run holds (the --recursive walk
   * lists every directory it enters): the lookup then need not ask whether
   * the names it looks for are there.
   */
  listed(dir: string, names: ReadonlySet<string>): void {
    this.probe.listed(path.resolve(dir), names);
  }

  private load(file: string): FileConfig {
    const key = path.resolve(file);
    let c = this.byFile.get(key);
    if (!c) {
      c = readConfigFile(this.opts.explicit !== undefined ? file : shownPath(key));
      this.byFile.set(key, c);
    }
    return c;
  }
}

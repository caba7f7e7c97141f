/**
 * The library's `lintModule`: the engine's, behind a check of what the
 * caller passed. The CLI and the language server check their own input and
 * call the engine directly; a program calling the library gets a TypeError
 * (wrong kind of value) or a RangeError (a value outside the allowed set)
 * naming the option, thrown here before anything is read, instead of a
 * crash deep inside the engine or a report that silently ignores a setting.
 * The engine runs with the built-in rule catalogue (the library reads no
 * config, so it loads no plugin; `ruleSet` may add rules of the caller's).
 */
import { statSync } from "node:fs";
import { ROLES } from "./contract/roles-api.js";
import { lintModule as lintChecked, type LintOptions, type LintOutcome } from "./lint/engine.js";
import type { RuleDefinition } from "./lint/types.js";
import { BUILTIN_CATALOGUE } from "./catalogue.js";

const SEVERITY_SETTINGS: readonly string[] = ["off", "info", "warning", "error"];

/** A Map, also one made in another realm (a vm context, a worker's clone). */
function isMap(v: unknown): v is Map<unknown, unknown> {
  return v instanceof Map || Object.prototype.toString.call(v) === "[object Map]";
}

/** What a value is, in a few words, for a message: "a plain object", "the number 3", "null". */
function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (isMap(v)) return "a Map";
  if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return `the ${typeof v} ${String(v)}`;
  if (typeof v === "function") return "a function";
  if (typeof v === "object") {
    const proto: unknown = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null ? "a plain object" : `an instance of ${(v as object).constructor?.name ?? "a class"}`;
  }
  return String(v);
}

function optionName(name: string): string {
  return `lintModule: options.${name}`;
}

function checkRole(name: string, v: unknown): void {
  if (typeof v !== "string") throw new TypeError(`${optionName(name)} must be one of ${ROLES.map((r) => `"${r}"`).join(", ")}, not ${describe(v)}`);
  if (!(ROLES as readonly string[]).includes(v)) {
    throw new RangeError(`${optionName(name)} is ${JSON.stringify(v)}, which is no CAPTF role: use ${ROLES.map((r) => `"${r}"`).join(", ")}, or leave it out to detect the role`);
  }
}

function checkRuleIds(name: string, ids: readonly string[], known: (id: string) => boolean): void {
  for (const id of ids) {
    if (typeof id !== "string") throw new TypeError(`${optionName(name)} must hold rule IDs (strings), not ${describe(id)}`);
    if (!known(id)) throw new RangeError(`${optionName(name)} names "${id}", which is no known rule (ALL_RULES lists the built-in ones; pass a plugin's rules in options.ruleSet)`);
  }
}

function checkStringArray(name: string, v: unknown): readonly string[] {
  if (!Array.isArray(v)) throw new TypeError(`${optionName(name)} must be an array of rule IDs, not ${describe(v)}`);
  return v as readonly string[];
}

function checkBoolean(name: string, v: unknown): void {
  if (v !== undefined && typeof v !== "boolean") throw new TypeError(`${optionName(name)} must be true or false, not ${describe(v)}`);
}

function checkString(name: string, v: unknown): void {
  if (v !== undefined && typeof v !== "string") throw new TypeError(`${optionName(name)} must be a string, not ${describe(v)}`);
}

/** Throws a TypeError or RangeError naming the first argument or option that is wrong. */
export function checkLintModuleInput(dir: unknown, opts: unknown): void {
  if (typeof dir !== "string" || dir === "") {
    throw new TypeError(`lintModule: dir must be the path of a module directory (a non-empty string), not ${describe(dir)}`);
  }
  if (opts !== undefined && (opts === null || typeof opts !== "object" || Array.isArray(opts))) {
    throw new TypeError(`lintModule: options must be an object (or left out), not ${describe(opts)}`);
  }
  const o = (opts ?? {}) as Record<keyof LintOptions, unknown>;

  let ruleSet: readonly RuleDefinition[] | undefined;
  if (o.ruleSet !== undefined) {
    if (!Array.isArray(o.ruleSet)) throw new TypeError(`${optionName("ruleSet")} must be an array of rule definitions (made with defineRule), not ${describe(o.ruleSet)}`);
    for (const r of o.ruleSet as unknown[]) {
      if (r === null || typeof r !== "object" || typeof (r as RuleDefinition).id !== "string" || typeof (r as RuleDefinition).check !== "function") {
        throw new TypeError(`${optionName("ruleSet")} must hold rule definitions made with defineRule (an id and a check function), not ${describe(r)}`);
      }
    }
    ruleSet = o.ruleSet as readonly RuleDefinition[];
  }
  const extra = new Set((ruleSet ?? []).map((r) => r.id));
  const catalogue = BUILTIN_CATALOGUE;
  const known = (id: string): boolean => catalogue.isKnown(id) || extra.has(id);

  if (o.role !== undefined) checkRole("role", o.role);
  if (o.configRole !== undefined) {
    const c = o.configRole as { role?: unknown; origin?: unknown } | null;
    if (c === null || typeof c !== "object") throw new TypeError(`${optionName("configRole")} must be { role, origin }, not ${describe(c)}`);
    checkRole("configRole.role", c.role);
    if (typeof c.origin !== "string") throw new TypeError(`${optionName("configRole.origin")} must be a string saying where the role was set, not ${describe(c.origin)}`);
  }
  if (o.severities !== undefined) {
    const s = o.severities;
    if (!isMap(s)) {
      const hint = describe(s) === "a plain object" ? "; for a plain object, pass new Map(Object.entries(object))" : "";
      throw new TypeError(`${optionName("severities")} must be a Map of rule ID to "off", "info", "warning" or "error", not ${describe(s)}${hint}`);
    }
    for (const [id, setting] of s as Map<unknown, unknown>) {
      if (typeof id !== "string") throw new TypeError(`${optionName("severities")} must be keyed by rule ID (a string), not ${describe(id)}`);
      if (typeof setting !== "string" || !SEVERITY_SETTINGS.includes(setting)) {
        throw new RangeError(`${optionName("severities")} sets "${id}" to ${describe(setting)}: a severity is "off", "info", "warning" or "error"`);
      }
    }
    checkRuleIds("severities", [...(s as Map<string, unknown>).keys()], known);
  }
  if (o.allowWarnings !== undefined) checkRuleIds("allowWarnings", checkStringArray("allowWarnings", o.allowWarnings), known);
  if (o.only !== undefined) checkRuleIds("only", checkStringArray("only", o.only), known);
  checkBoolean("inlineConfig", o.inlineConfig);
  checkBoolean("reportUnusedIgnores", o.reportUnusedIgnores);
  checkBoolean("requireRoleEvidence", o.requireRoleEvidence);
  checkString("displayPath", o.displayPath);
  if (o.stdin !== undefined) {
    const st = o.stdin as { path?: unknown; text?: unknown } | null;
    if (st === null || typeof st !== "object" || typeof st.path !== "string" || typeof st.text !== "string") {
      throw new TypeError(`${optionName("stdin")} must be { path, text } with two strings (the module file the text stands for, and its text), not ${describe(st)}`);
    }
  }
  if (o.overlay !== undefined && !isMap(o.overlay)) {
    throw new TypeError(`${optionName("overlay")} must be a Map of absolute file path to text, not ${describe(o.overlay)}`);
  }
  if (o.excludeFile !== undefined && typeof o.excludeFile !== "function") {
    throw new TypeError(`${optionName("excludeFile")} must be a function of a relative path, not ${describe(o.excludeFile)}`);
  }
  if (o.now !== undefined && !(Object.prototype.toString.call(o.now) === "[object Date]" && !Number.isNaN((o.now as Date).getTime()))) {
    throw new TypeError(`${optionName("now")} must be a valid Date, not ${describe(o.now)}`);
  }
}

/** A path that exists and is not a directory (a missing one is the report's read error, as in the CLI). */
function notADirectory(dir: string): boolean {
  try {
    return !statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Lint the module in `dir`. Throws a TypeError or RangeError naming the
 * argument or option when the input is wrong (see checkLintModuleInput);
 * never throws on what the module's files hold.
 */
export function lintModule(dir: string, opts?: LintOptions): LintOutcome {
  checkLintModuleInput(dir, opts);
  const outcome = lintChecked(dir, { ...opts, catalogue: BUILTIN_CATALOGUE });
  // Only a directory that gave nothing is worth a look (no cost on a module).
  if (outcome.kind === "no-module" && notADirectory(dir)) {
    throw new TypeError(`lintModule: dir must be a module directory, and ${dir} is a file: pass the directory that holds it`);
  }
  return outcome;
}

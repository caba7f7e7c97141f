/**
 * Rule plugins: `plugins = ["tfcapi-lint-plugin-acme", "./lint/rules.mjs"]`
 * in `.tfcapi-lint.hcl`. A plugin is an ES module (an npm package resolved
 * from the config file's directory, or a local file relative to it) whose
 * default export is `{ name, rules: [defineRule(...)] }`.
 *
 * Loading checks the shape of everything a plugin hands over, so a broken
 * plugin is a config error that names it (exit 3), never a stack trace.
 * The caller makes a rule catalogue (catalogue.ts) of the loaded rules, so
 * they take part in config validation, ignores, `rules`, `explain` and
 * SARIF metadata (their docs page and URL travel on the rule: `docs`,
 * `url`).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ROLES, type Role } from "../contract/roles-api.js";
import type { RuleCatalogue } from "./catalogue.js";
import { FIX_KINDS, type FixKind, type RuleDefinition } from "./types.js";
import { errorText } from "../terraform/files.js";

/** A `plugins` entry of a config file. */
export interface PluginSpec {
  /** As written: a package name (`tfcapi-lint-plugin-acme`, `@acme/tfcapi-lint-plugin`) or a path (`./lint/rules.mjs`). */
  spec: string;
  /** The directory of the config file that lists it (resolution starts there). */
  baseDir: string;
  /** Where it is listed, `file:line:column`, for messages. */
  origin: string;
}

export interface LoadedPlugin {
  name: string;
  /** The module file that was imported. */
  file: string;
  rules: readonly RuleDefinition[];
}

/** A plugin cannot be found, loaded or used; the message names it and where it is listed. Exit 3. */
export class PluginError extends Error {}

/** Set by scripts/build.mjs: true in the CommonJS CLI bundle, which cannot run import() itself. */
declare const __CLI_BUNDLE__: boolean | undefined;

/** Import an ES module by URL, from the CLI bundle as well as from ES modules. */
async function importUrl(url: string): Promise<unknown> {
  if (typeof __CLI_BUNDLE__ !== "undefined" && __CLI_BUNDLE__) {
    // dist/cli.cjs runs as a vm script, where import() is not available; this
    // small CommonJS file next to it (written by the build) imports for it.
    const load = require(path.join(__dirname, "esm-import.cjs")) as (u: string) => Promise<unknown>;
    return load(url);
  }
  return import(url);
}

const PLUGIN_NAME = /^[a-z0-9][a-z0-9-]*$/;
const RULE_ID = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)+$/;
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const SEVERITIES = new Set(["error", "warning", "info"]);

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The entry of `exports` for `subpath` under the import/node/default conditions. */
function exportTarget(exp: unknown, subpath: string): string | null {
  const pick = (v: unknown): string | null => {
    if (typeof v === "string") return v;
    if (Array.isArray(v)) {
      for (const x of v) {
        const t = pick(x);
        if (t) return t;
      }
      return null;
    }
    if (v && typeof v === "object") {
      for (const cond of ["import", "node", "default"]) {
        if (Object.hasOwn(v, cond)) {
          const t = pick((v as Record<string, unknown>)[cond]);
          if (t) return t;
        }
      }
    }
    return null;
  };
  if (typeof exp === "string" || Array.isArray(exp)) return subpath === "." ? pick(exp) : null;
  if (!exp || typeof exp !== "object") return null;
  const keys = Object.keys(exp);
  if (keys.length > 0 && keys.every((k) => !k.startsWith("."))) return subpath === "." ? pick(exp) : null;
  return Object.hasOwn(exp, subpath) ? pick((exp as Record<string, unknown>)[subpath]) : null;
}

/** Resolve a package name (with an optional subpath) from `baseDir` the way Node finds packages. */
function resolvePackage(spec: string, baseDir: string): string | { error: string } {
  const parts = spec.split("/");
  const nameParts = spec.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameParts).join("/");
  const subpath = parts.length > nameParts ? `./${parts.slice(nameParts).join("/")}` : ".";
  if (!PACKAGE_NAME.test(name)) return { error: `"${spec}" is neither a package name nor a path (a path starts with ./ or ../)` };
  for (let dir = path.resolve(baseDir); ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, "node_modules", ...name.split("/"));
    const manifest = path.join(pkgDir, "package.json");
    if (existsSync(manifest)) {
      let pkg: { exports?: unknown; main?: unknown };
      try {
        pkg = JSON.parse(readFileSync(manifest, "utf8")) as typeof pkg;
      } catch {
        return { error: `${manifest} is not valid JSON` };
      }
      let rel: string | null;
      if (pkg.exports !== undefined) {
        rel = exportTarget(pkg.exports, subpath);
        if (rel === null) return { error: `package "${name}" does not export "${subpath}"` };
      } else if (subpath !== ".") {
        rel = subpath;
      } else {
        rel = typeof pkg.main === "string" ? pkg.main : "index.js";
      }
      const file = path.resolve(pkgDir, rel);
      if (isFile(file)) return file;
      for (const ext of [".js", ".mjs", "/index.js"]) if (isFile(file + ext)) return file + ext;
      return { error: `package "${name}" points at ${rel}, which does not exist` };
    }
    if (path.dirname(dir) === dir) break;
  }
  return { error: `cannot find package "${name}" from ${baseDir} (install it next to the config file: npm install --save-dev ${name})` };
}

/** The file a spec names, or why it cannot be found. */
export function resolvePlugin(spec: string, baseDir: string): string | { error: string } {
  if (spec.startsWith("./") || spec.startsWith("../") || path.isAbsolute(spec)) {
    const file = path.resolve(baseDir, spec);
    if (isFile(file)) return file;
    return { error: existsSync(file) ? `${file} is not a file` : `${file} does not exist` };
  }
  return resolvePackage(spec, baseDir);
}

/**
 * A plugin rule's `fixKinds`: absent (a fixable rule then gives unsafe fixes
 * only), or a non-empty list of "safe" and "unsafe" on a fixable rule, in
 * that order; a string says what is wrong.
 */
function checkFixKinds(raw: unknown, fixable: boolean, id: string): readonly FixKind[] | undefined | string {
  if (raw === undefined) return undefined;
  const problem = `rule "${id}": fixKinds must be a non-empty list of "safe" and "unsafe" (the kinds of fix its findings may carry)`;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((k) => k === "safe" || k === "unsafe")) return problem;
  if (!fixable) return `rule "${id}": fixKinds is set but fixable is not true; set fixable: true or drop fixKinds`;
  return Object.freeze(FIX_KINDS.filter((k) => raw.includes(k)));
}

/** Check one rule a plugin hands over; returns the problem or the rule as the engine will run it. */
function checkRule(raw: unknown, index: number, plugin: string, url: string): RuleDefinition | string {
  const where = `rules[${index}]`;
  if (!raw || typeof raw !== "object") return `${where} is not a rule object (use defineRule({ id, severity, roles, summary, check }))`;
  const r = raw as Record<string, unknown>;
  const id = r.id;
  if (typeof id !== "string" || !RULE_ID.test(id)) return `${where}: id must be a string like "${plugin}/my-rule" (lower-case words joined by - and /)`;
  if (!id.startsWith(`${plugin}/`)) return `rule "${id}": its id must start with "${plugin}/", the plugin's name`;
  if (typeof r.severity !== "string" || !SEVERITIES.has(r.severity)) return `rule "${id}": severity must be "error", "warning" or "info"`;
  const roles = r.roles ?? ROLES;
  if (!Array.isArray(roles) || roles.length === 0 || !roles.every((x) => typeof x === "string" && (ROLES as readonly string[]).includes(x))) {
    return `rule "${id}": roles must be a non-empty list of ${ROLES.map((x) => `"${x}"`).join(", ")}`;
  }
  const scope = r.scope ?? "root";
  if (scope !== "root" && scope !== "all") return `rule "${id}": scope must be "root" or "all"`;
  if (typeof r.summary !== "string" || r.summary.trim() === "") return `rule "${id}": summary must be a non-empty string (one line: what it detects)`;
  const fixable = r.fixable ?? false;
  if (typeof fixable !== "boolean") return `rule "${id}": fixable must be true or false`;
  const fixKinds = checkFixKinds(r.fixKinds, fixable, id);
  if (typeof fixKinds === "string") return fixKinds;
  if (typeof r.check !== "function") return `rule "${id}": check must be a function (ctx) => void`;
  if (r.docs !== undefined && typeof r.docs !== "string") return `rule "${id}": docs must be a Markdown string`;
  if (r.url !== undefined && (typeof r.url !== "string" || !/^[a-z][a-z0-9+.-]*:/i.test(r.url))) return `rule "${id}": url must be an absolute URL`;
  if (r.tags !== undefined && (!Array.isArray(r.tags) || !r.tags.every((t) => typeof t === "string"))) return `rule "${id}": tags must be a list of strings`;
  const check = r.check as RuleDefinition["check"];
  return Object.freeze({
    id,
    severity: r.severity as RuleDefinition["severity"],
    roles: Object.freeze([...(roles as Role[])]),
    scope,
    summary: r.summary,
    fixable,
    ...(fixKinds ? { fixKinds } : {}),
    tags: Object.freeze(["plugin", plugin, ...((r.tags as string[] | undefined) ?? [])]),
    ...(typeof r.docs === "string" ? { docs: r.docs } : {}),
    url: typeof r.url === "string" ? r.url : url,
    plugin,
    check: (ctx: Parameters<RuleDefinition["check"]>[0]) => check.call(raw, ctx),
  });
}

/** The documentation URL of a plugin without its own: its package's homepage, else its file. */
function pluginHome(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { homepage?: unknown };
        if (typeof pkg.homepage === "string" && /^https?:\/\//.test(pkg.homepage)) return pkg.homepage;
      } catch {
        // not a usable manifest: fall back to the file
      }
      break;
    }
    if (path.dirname(dir) === dir || path.basename(dir) === "node_modules") break;
  }
  return pathToFileURL(file).href;
}

/**
 * Check what a plugin module exports by default and return its rules as the
 * engine runs them (tagged with the plugin's name). Throws PluginError.
 */
export function checkPlugin(value: unknown, label: string, home: string): { name: string; rules: RuleDefinition[] } {
  if (!value || typeof value !== "object") throw new PluginError(`${label}: its default export must be { name, rules } (export default { name: "acme", rules: [...] })`);
  const { name, rules } = value as { name?: unknown; rules?: unknown };
  if (typeof name !== "string" || !PLUGIN_NAME.test(name)) throw new PluginError(`${label}: name must be a lower-case word (letters, digits, -), the prefix of its rule ids`);
  if (!Array.isArray(rules)) throw new PluginError(`${label}: rules must be a list of rules made with defineRule(...)`);
  const checked: RuleDefinition[] = [];
  for (let i = 0; i < rules.length; i++) {
    const r = checkRule(rules[i], i, name, home);
    if (typeof r === "string") throw new PluginError(`${label}: ${r}`);
    if (checked.some((c) => c.id === r.id)) throw new PluginError(`${label}: rule "${r.id}" is defined twice`);
    checked.push(r);
  }
  return { name, rules: checked };
}

const byFile = new Map<string, Promise<LoadedPlugin>>();
const byName = new Map<string, string>();
/** How many times each plugin file failed to load (see importPlugin). */
const failures = new Map<string, number>();

/**
 * What a plugin's rules must not clash with: the built-in catalogue. (Two
 * plugins cannot clash with each other: a rule id starts with its plugin's
 * name, and a name belongs to one plugin file per process.)
 */
export type PluginBase = Pick<RuleCatalogue, "conflictOf">;

async function importPlugin(file: string, label: string, attempt: number, base: PluginBase): Promise<LoadedPlugin> {
  let mod: unknown;
  try {
    // After a failed import the module loader keeps the failure under the
    // file's URL: a later attempt (the language server, once the file is
    // fixed) asks for it under a URL of its own.
    const url = pathToFileURL(file).href + (attempt > 0 ? `?tfcapi-lint-attempt=${attempt}` : "");
    mod = await importUrl(url);
  } catch (err) {
    // A file system error in words ("permission denied"), not the system's text; a syntax error as the loader says it.
    const code = (err as NodeJS.ErrnoException | null)?.code;
    const msg = typeof code === "string" && /^E[A-Z]+$/.test(code) ? `${errorText(err)} (${file})` : err instanceof Error ? err.message.split("\n")[0]! : String(err);
    throw new PluginError(`${label}: cannot be loaded: ${msg}`);
  }
  const { name, rules: checked } = checkPlugin((mod as { default?: unknown } | null)?.default, label, pluginHome(file));
  const other = byName.get(name);
  if (other !== undefined && other !== file) throw new PluginError(`${label}: another plugin named "${name}" is already loaded from ${other}`);
  for (const r of checked) {
    const conflict = base.conflictOf(r);
    if (conflict !== null) throw new PluginError(`${label}: ${conflict}`);
  }
  byName.set(name, file);
  return { name, file, rules: checked };
}

/** Load one plugin (each module file once per process), its rules checked against `base`. Throws PluginError. */
export function loadPlugin(s: PluginSpec, base: PluginBase): Promise<LoadedPlugin> {
  const label = `plugin "${s.spec}" (${s.origin})`;
  const file = resolvePlugin(s.spec, s.baseDir);
  if (typeof file !== "string") return Promise.reject(new PluginError(`${label}: ${file.error}`));
  let p = byFile.get(file);
  if (!p) {
    const attempt = failures.get(file) ?? 0;
    const loading = importPlugin(file, label, attempt, base);
    p = loading;
    byFile.set(file, loading);
    // A failure is not kept: the next load of the file (a long-running
    // language server's next lint) tries again.
    loading.catch(() => {
      if (byFile.get(file) === loading) byFile.delete(file);
      failures.set(file, attempt + 1);
    });
  }
  return p;
}

/** Load plugins in order; the rules they add, in that order. Throws PluginError. */
export async function loadPlugins(specs: readonly PluginSpec[], base: PluginBase): Promise<RuleDefinition[]> {
  const out: RuleDefinition[] = [];
  for (const s of specs) {
    const p = await loadPlugin(s, base);
    for (const r of p.rules) if (!out.includes(r)) out.push(r);
  }
  return out;
}

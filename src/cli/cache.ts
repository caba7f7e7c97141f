/**
 * The result cache (`--cache`, `--cache-location`): a stage of the lint
 * pipeline between planning and linting. Each planned module gets a key
 * made of everything outside its files that can change its results (the
 * tool and its version, the config file's text and the settings in effect,
 * the lint options, the plugins' files, the rules the run knows); under the
 * key the cache keeps the module's outcome and what its lint read
 * (cache-inputs.ts). A stored outcome is reused only when every file the
 * lint read has the same contents (sha256; never file times) and every
 * directory lists the same module files. Anything else is a miss: the
 * module is linted (on a worker with --jobs) and stored.
 *
 * The file is JSON, written to a temporary file and renamed over the old
 * one: two runs at once may lose each other's entries, never corrupt the
 * file. A file that is not such a cache is ignored with a note, and
 * rewritten. --fix reads nothing from it (a module it may write is always
 * linted); --stdin does not use it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CONTRACT } from "../contract/roles.js";
import type { FileConfig } from "../config/load.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import type { EngineOptions } from "../lint/engine.js";
import type { RuleDefinition } from "../lint/types.js";
import type { CliArgs } from "./args.js";
import { changedInput, sha256, sourcesFrom, type ReadInputs, type RunListings } from "./cache-inputs.js";
import { toolVersion } from "./commands.js";
import { bundleFile } from "./bundle.js";
import type { Io } from "./io.js";
import type { LintedTarget } from "./lint-module.js";
import type { ModulePlan } from "./module-plans.js";

/** The cache file's name when --cache-location names none (or a directory). */
export const DEFAULT_CACHE_FILE = ".tfcapi-lint-cache";
/** The format of the file; another number is another format (ignored and rewritten). */
const FORMAT = 1;
const MARK = "tfcapi-lint-cache";

interface Entry {
  /** The module's absolute directory (a run keeps one entry per directory it lints). */
  dir: string;
  /** Set when the outcome holds only for this UTC day (ignore comments with an expiry date). */
  day?: string;
  inputs: ReadInputs;
  /** The outcome without its sources (rebuilt from the files read), as JSON. */
  result: { outcome: LintedTarget["outcome"]; nested: string[]; skipped?: true };
}

interface CacheFile {
  [MARK]: number;
  tool: string;
  entries: Record<string, Entry>;
}

/** Where the cache file is: --cache-location (a directory gets the default name), else the default name in the working directory. */
export function cacheFileOf(location: string | undefined, cwd: string): string {
  if (location === undefined) return path.resolve(cwd, DEFAULT_CACHE_FILE);
  const abs = path.resolve(cwd, location);
  let isDir = /[\\/]$/.test(location);
  try {
    isDir ||= fs.statSync(abs).isDirectory();
  } catch {
    // not there yet: a file
  }
  return isDir ? path.join(abs, DEFAULT_CACHE_FILE) : abs;
}

/** Reads a cache file: its entries, or why it is not one (null: there is none). */
function readCacheFile(file: string): { entries: Record<string, Entry> } | { problem: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    return { problem: code === "EISDIR" ? "it is a directory" : `it cannot be read (${code ?? String(err)})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: "it is not valid JSON" };
  }
  const d = data as Partial<CacheFile> | null;
  if (d === null || typeof d !== "object" || Array.isArray(d) || d[MARK] === undefined) return { problem: "it is not a tfcapi-lint cache" };
  if (d[MARK] !== FORMAT) return { problem: `it is in another format of the cache (${JSON.stringify(d[MARK])})` };
  if (d.entries === null || typeof d.entries !== "object" || Array.isArray(d.entries)) return { problem: "its entries are missing" };
  return { entries: d.entries };
}

/** A value as deterministic JSON: object keys sorted, Maps as sorted entry lists. */
function stable(value: unknown): unknown {
  if (value instanceof Map) return [...value].map(([k, v]) => [k, stable(v)]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  if (Array.isArray(value)) return value.map(stable);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = stable((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** The rules a run knows (ignore comments are judged against them), as data. */
function rulesKey(rules: readonly RuleDefinition[]): unknown {
  return rules.map((r) => [r.id, r.plugin ?? "", r.severity, r.scope, [...r.roles], r.fixable]);
}

/**
 * The engine options as data for the key; null when they hold something the
 * cache cannot account for (a text in place of a file, an unknown function).
 */
function optionsKey(opts: EngineOptions, catalogueKey: (c: RuleCatalogue) => unknown): unknown {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(opts).sort()) {
    const value = (opts as unknown as Record<string, unknown>)[name];
    if (value === undefined || name === "loadLog") continue;
    if (name === "stdin" || name === "overlay" || name === "parseCache" || name === "now") return null;
    if (name === "catalogue") out[name] = catalogueKey(value as RuleCatalogue);
    else if (name === "ruleSet") out[name] = rulesKey(value as readonly RuleDefinition[]);
    // The config's exclude patterns: in the key with the config (configKey).
    else if (name === "excludeFile") out[name] = "config";
    else if (typeof value === "function") return null;
    else out[name] = stable(value);
  }
  return out;
}

/** Extensions of the files hashed in a plugin's directory. */
const PLUGIN_FILES = /\.(?:m?js|cjs|json|m?ts|cts)$/;
const PLUGIN_MAX_FILES = 2000;
const PLUGIN_MAX_DEPTH = 6;

/** Every script and JSON file under a plugin's directory (not node_modules, nor hidden ones), with its hash. */
function pluginTree(root: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (dir: string, depth: number): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= PLUGIN_MAX_FILES || d.name.startsWith(".") || d.name === "node_modules") continue;
      const p = path.join(dir, d.name);
      if (d.isDirectory()) {
        if (depth < PLUGIN_MAX_DEPTH) walk(p, depth + 1);
      } else if (PLUGIN_FILES.test(d.name)) {
        try {
          out.push([path.relative(root, p), sha256(fs.readFileSync(p))]);
        } catch {
          out.push([path.relative(root, p), "unreadable"]);
        }
      }
    }
  };
  walk(root, 0);
  return out;
}

/** The directory of a plugin's files: its package's (the nearest package.json), else its entry file's. */
function pluginRoot(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir || path.basename(path.dirname(dir)) === "node_modules") break;
  }
  return path.dirname(file);
}

type PluginResolver = (spec: string, baseDir: string) => string | { error: string };

/** The result cache of one run (see the file's comment). */
export class ResultCache {
  private readonly stored: Record<string, Entry> = {};
  /** Directories linted this run: their older entries are dropped on save. */
  private readonly dirs = new Set<string>();
  private readonly keys = new Map<ModulePlan, string | null>();
  private readonly configKeys = new Map<string, unknown>();
  private readonly catalogueKeys = new WeakMap<RuleCatalogue, unknown>();
  private readonly debug: boolean;
  private hits = 0;
  private misses = 0;
  private changed = false;
  private toolKey: unknown;

  private constructor(
    readonly file: string,
    private readonly entries: Record<string, Entry>,
    private readonly io: Io,
    private readonly resolvePlugin: PluginResolver | null,
    private readonly listed: RunListings | undefined,
  ) {
    this.debug = io.env.TFCAPI_LINT_CACHE_DEBUG === "1";
  }

  /**
   * The run's cache: null without --cache, or with --stdin. A file that is
   * not a cache is said on stderr (it is rewritten on save). `listed`: the
   * directories this run's --recursive walk listed (see RunListings).
   */
  static async open(args: CliArgs, io: Io, plans: readonly ModulePlan[], listed?: RunListings): Promise<ResultCache | null> {
    if (!args.cache || args.stdin) return null;
    const file = cacheFileOf(args.cacheLocation, io.cwd);
    const read = readCacheFile(file);
    if (read !== null && "problem" in read) io.stderr(`tfcapi-lint: ignoring the cache file ${file}: ${read.problem}; it will be rewritten\n`);
    // Plugins are resolved as the config loader resolves them (loaded only when a config lists some).
    const resolver = plans.some((p) => (p.lint.config?.plugins.length ?? 0) > 0) ? (await import("../lint/plugins.js")).resolvePlugin : null;
    return new ResultCache(file, read !== null && "entries" in read ? read.entries : {}, io, resolver, listed);
  }

  /** The tool: its version, the bundle's contents (a local build), the contract and Node. */
  private tool(): unknown {
    if (this.toolKey === undefined) {
      const bundle = bundleFile("cli.cjs");
      let bundleHash = "sources";
      if (bundle !== undefined) {
        try {
          bundleHash = sha256(fs.readFileSync(bundle));
        } catch {
          bundleHash = "unreadable";
        }
      }
      this.toolKey = sha256(JSON.stringify({ version: toolVersion(), bundle: bundleHash, contract: CONTRACT.version, node: process.version }));
    }
    return this.toolKey;
  }

  /** A catalogue's rules, hashed once per catalogue (every plan of a run shares one). */
  private catalogueKey = (c: RuleCatalogue): unknown => {
    let k = this.catalogueKeys.get(c);
    if (k === undefined) this.catalogueKeys.set(c, (k = sha256(JSON.stringify(rulesKey(c.all)))));
    return k;
  };

  /** A config file: its path, its text's hash, and its plugins' files. */
  private configKey(config: FileConfig | null): unknown {
    if (config === null) return null;
    let k = this.configKeys.get(config.path);
    if (k === undefined) {
      let text = "unreadable";
      try {
        text = sha256(fs.readFileSync(config.path));
      } catch {
        // the key then changes when it is readable again
      }
      const plugins = config.plugins.map((s) => {
        const file = this.resolvePlugin?.(s.spec, config.dir) ?? { error: "not resolved" };
        if (typeof file !== "string") return [s.spec, file.error];
        // A local plugin's own directory (not the repository's package around it); a package's directory.
        const local = s.spec.startsWith("./") || s.spec.startsWith("../") || path.isAbsolute(s.spec);
        return [s.spec, file, pluginTree(local ? path.dirname(file) : pluginRoot(file))];
      });
      this.configKeys.set(config.path, (k = sha256(JSON.stringify({ path: config.path, sha256: text, plugins }))));
    }
    return k;
  }

  /** The key of a plan (null: it cannot be cached). */
  private keyOf(plan: ModulePlan, onlyIfLoads: readonly string[] | undefined): string | null {
    if (this.keys.has(plan)) return this.keys.get(plan)!;
    const options = optionsKey(plan.lint.options, this.catalogueKey);
    const key =
      options === null
        ? null
        : sha256(
            JSON.stringify({
              tool: this.tool(),
              dir: path.resolve(plan.target.dir),
              target: stable(plan.target),
              config: this.configKey(plan.lint.config),
              effective: stable(plan.lint.effective),
              options,
              onlyIfLoads: onlyIfLoads ?? null,
            }),
          );
    this.keys.set(plan, key);
    return key;
  }

  private say(text: string): void {
    if (this.debug) this.io.stderr(`tfcapi-lint: cache: ${text}\n`);
  }

  /** The stored outcome of a plan when it still holds, else null (a miss). */
  lookup(plan: ModulePlan, onlyIfLoads: readonly string[] | undefined): LintedTarget | null {
    const key = this.keyOf(plan, onlyIfLoads);
    const shown = plan.target.display;
    const entry = key === null ? undefined : this.entries[key];
    const texts = new Map<string, Buffer>();
    const why = key === null ? "not cacheable" : entry === undefined ? "not in the cache" : stale(entry, texts, this.listed);
    const hit = why === null ? reuse(entry!, texts) : null;
    if (hit === null) {
      this.misses++;
      this.say(`linted ${shown} (${why ?? "stored result unusable"})`);
      return null;
    }
    this.hits++;
    this.stored[key!] = entry!;
    this.dirs.add(entry!.dir);
    this.say(`reused ${shown}`);
    return hit;
  }

  /** Store a plan's outcome (when its lint recorded what it read). */
  store(plan: ModulePlan, onlyIfLoads: readonly string[] | undefined, linted: LintedTarget): void {
    const key = this.keyOf(plan, onlyIfLoads);
    if (key === null || linted.inputs === undefined) return;
    const dir = path.resolve(plan.target.dir);
    const outcome = linted.outcome;
    // Serialised now: the report stage changes reports in place (--quiet).
    const saved = outcome.kind === "report" ? { ...outcome, report: { ...outcome.report, sources: undefined } } : outcome;
    const result = JSON.parse(JSON.stringify({ outcome: saved, nested: linted.nested, ...(linted.skipped ? { skipped: true } : {}) })) as Entry["result"];
    this.stored[key] = { dir, ...(linted.inputs.day !== null ? { day: linted.inputs.day } : {}), inputs: linted.inputs, result };
    this.dirs.add(dir);
    this.changed = true;
  }

  /**
   * Writes the file: the entries of this run, and those of the file as it is
   * now (another run may have written it since) for directories this run
   * did not lint. A failure is said on stderr; the run goes on.
   */
  save(): void {
    this.say(`${this.hits} reused, ${this.misses} linted`);
    if (!this.changed) return;
    const now = readCacheFile(this.file);
    const entries: Record<string, Entry> = {};
    for (const [k, e] of Object.entries(now !== null && "entries" in now ? now.entries : this.entries)) {
      if (e !== null && typeof e === "object" && !this.dirs.has(e.dir)) entries[k] = e;
    }
    Object.assign(entries, this.stored);
    const data: CacheFile = { [MARK]: FORMAT, tool: `tfcapi-lint ${toolVersion()}`, entries };
    const tmp = `${this.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(data), { mode: 0o644 });
      fs.renameSync(tmp, this.file);
    } catch (err) {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing left to clean
      }
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ENOENT" ? "its directory does not exist" : code === "EISDIR" ? "it is a directory" : (code ?? String(err));
      this.io.stderr(`tfcapi-lint: cannot write the cache file ${this.file}: ${why} (the results of this run are not cached)\n`);
    }
  }
}

/** Today's date in UTC, as ignore comments' expiry dates are judged. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Why an entry no longer holds (null: it does); the bytes of its sources go to `texts`. */
function stale(entry: Entry, texts: Map<string, Buffer>, listed: RunListings | undefined): string | null {
  if (entry.day !== undefined && entry.day !== today()) return "an ignore comment's expiry date may have passed";
  try {
    return changedInput(entry.inputs, texts, listed);
  } catch {
    return "malformed entry";
  }
}

/** The LintedTarget of an entry that holds, its sources rebuilt from the bytes just checked; null when the entry is malformed. */
function reuse(entry: Entry, texts: ReadonlyMap<string, Buffer>): LintedTarget | null {
  try {
    const r = entry.result;
    let outcome = r.outcome;
    if (outcome.kind === "report") {
      const sources = sourcesFrom(entry.inputs, texts);
      if (sources === null) return null;
      // The report stage sets fields of a report (--quiet): the entry keeps its own.
      outcome = { ...outcome, report: { ...outcome.report, sources } };
    }
    return { outcome, nested: [...r.nested], ...(r.skipped ? { skipped: true as const } : {}) };
  } catch {
    return null;
  }
}

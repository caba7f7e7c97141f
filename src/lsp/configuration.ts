/**
 * The configuration room: the settings the client gives at initialize, the
 * config file of each module (found as the CLI finds it: the nearest
 * .tfcapi-lint.hcl up to the repository root; re-read when it changes, from
 * the open document when the editor has it open), its plugins, and the lint
 * options a module is linted with. A config error is a diagnostic on the
 * config file, and the module is linted with the defaults meanwhile. The
 * options come from the CLI's `plan` (src/cli/plan.ts), so a setting means
 * the same in the editor as on the command line.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import type { Diagnostic, InitializeParams, Range } from "vscode-languageserver/node.js";
import { ConfigError, findConfigFile, parseConfigText, readConfigFile, type FileConfig } from "../config/load.js";
import { catalogueOf } from "../config/plugins.js";
import { plan } from "../cli/plan.js";
import type { EngineOptions as LintOptions } from "../lint/engine.js";
import type { RuleCatalogue } from "../lint/catalogue.js";
import { SOURCE, type DiagnosticsBoard, type ModuleBaseline } from "./diagnostics.js";
import * as path from "node:path";
import { BASELINE_FILE_NAME, BaselineError, entryKey, parseBaseline } from "../lint/baseline.js";
import { repositoryRootOf } from "../config/repository.js";
import { relativePath } from "../report/util.js";
import type { Documents } from "./documents.js";
import { chooseEncoding, TextPositions, type PositionEncoding } from "./positions.js";

/** Work done between two yields of a run to the event loop, by default (initializationOptions.sliceMs overrides it). */
export const DEFAULT_SLICE_MS = 8;

/**
 * Default burst window (initializationOptions.debounceMs overrides it): a
 * change within this many milliseconds after a module's last run, or during
 * one, is part of a burst, linted this long after the burst's last change;
 * any other change is linted at once (scheduler.ts).
 */
export const DEFAULT_DEBOUNCE_MS = 75;

export interface ServerOptions {
  /** false: load no plugin a config lists (`--no-plugins`); initializationOptions cannot turn them back on. */
  plugins?: boolean;
}

/** What the server was started with and what the client said at initialize. */
export interface Settings {
  encoding: PositionEncoding;
  /** The burst window (DEFAULT_DEBOUNCE_MS). */
  debounceMs: number;
  /** Work between two yields of a run to the event loop (initializationOptions.sliceMs; 0: yield at every step). */
  sliceMs: number;
  reportUnusedIgnores: boolean;
  /** The client lets the server register file watchers. */
  watchDynamically: boolean;
  /** Whether configs' plugins are loaded: off with --no-plugins or initializationOptions.plugins = false. */
  pluginsOn: boolean;
  /** Why plugins are off, for the message. */
  pluginsOffBy: string;
  /** The client shows a diagnostic's relatedInformation (the path a finding followed). */
  relatedInformation: boolean;
  /** Findings in the baseline are shown as hints (initializationOptions.showBaselined false hides them). */
  showBaselined: boolean;
}

export function startSettings(options: ServerOptions): Settings {
  return {
    encoding: "utf-16",
    debounceMs: DEFAULT_DEBOUNCE_MS,
    sliceMs: DEFAULT_SLICE_MS,
    reportUnusedIgnores: false,
    watchDynamically: false,
    pluginsOn: options.plugins !== false,
    pluginsOffBy: "--no-plugins",
    relatedInformation: false,
    showBaselined: true,
  };
}

/** Take the client's capabilities and initializationOptions into the settings. */
export function initializeSettings(settings: Settings, params: InitializeParams): void {
  settings.encoding = chooseEncoding(params.capabilities.general?.positionEncodings);
  const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; sliceMs?: unknown; reportUnusedIgnores?: unknown; plugins?: unknown; showBaselined?: unknown };
  if (typeof init.showBaselined === "boolean") settings.showBaselined = init.showBaselined;
  if (typeof init.debounceMs === "number" && init.debounceMs >= 0 && Number.isFinite(init.debounceMs)) settings.debounceMs = init.debounceMs;
  if (typeof init.sliceMs === "number" && init.sliceMs >= 0 && Number.isFinite(init.sliceMs)) settings.sliceMs = init.sliceMs;
  if (typeof init.reportUnusedIgnores === "boolean") settings.reportUnusedIgnores = init.reportUnusedIgnores;
  if (init.plugins === false && settings.pluginsOn) {
    settings.pluginsOn = false;
    settings.pluginsOffBy = "initializationOptions.plugins is false";
  }
  settings.watchDynamically = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  settings.relatedInformation = params.capabilities.textDocument?.publishDiagnostics?.relatedInformation === true;
}

interface ConfigEntry {
  /** Modification time of the file when read (null: from the open document). */
  mtimeMs: number | null;
  config: FileConfig | null;
  error: { message: string; text: string | null } | null;
}

/** A config error ("FILE:LINE:COL: message" lines) as diagnostics on the config file. */
function configDiagnostics(file: string, message: string, text: string | null, encoding: PositionEncoding): Diagnostic[] {
  const ix = new TextPositions(text ?? "", encoding);
  const out: Diagnostic[] = [];
  for (const line of message.split("\n")) {
    let rest = line.startsWith(`${file}:`) ? line.slice(file.length + 1) : line;
    const m = /^(\d+):(\d+): ([\s\S]*)$/.exec(rest);
    let range: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (m) {
      const start = ix.positionAt(Number(m[1]), Number(m[2]));
      range = { start, end: ix.positionAt(Number(m[1]), ix.lineText(start.line).length + 1) };
      rest = m[3]!;
    } else {
      rest = rest.trim();
    }
    out.push({ range, severity: 1, source: SOURCE, message: `config error: ${rest}` });
  }
  return out;
}

/** The config files of the tracked modules, their plugins, and the lint options they give. */
export class Configuration {
  private readonly configs = new Map<string, ConfigEntry>();
  /** The rule catalogue of each config file whose plugins are loaded (see loadPluginsFor); the built-in one for the others. */
  private readonly catalogues = new WeakMap<FileConfig, RuleCatalogue>();
  /** Configs whose plugins failed to load last time (their error is shown on the config file). */
  private readonly pluginFailed = new WeakSet<FileConfig>();
  /** Config files (by path) whose unloaded plugins the user was told about. */
  private readonly toldPluginsOff = new Set<string>();

  constructor(
    private readonly settings: Settings,
    private readonly documents: Documents,
    private readonly board: DiagnosticsBoard,
    /** Show the user a warning (window/showMessage). */
    private readonly warn: (message: string) => void,
  ) {}

  /** Forget every config read: the next lint of each module reads them again. */
  clear(): void {
    this.configs.clear();
  }

  /** The text of a config file, from its open document or the disk (null when unreadable). */
  private textOf(file: string): string | null {
    const doc = this.documents.get(file);
    if (doc) return doc.getText();
    try {
      return readFileSync(file, "utf8");
    } catch {
      return null;
    }
  }

  private showErrors(file: string, diags: Diagnostic[]): void {
    this.board.contribute(`config:${file}`, new Map([[this.documents.uriOf(file), diags]]));
  }

  /** The config of a module directory (null: none, or one with errors, shown on it). */
  configFor(dir: string): FileConfig | null {
    // The same lookup as the CLI's: up to the repository root; outside git up
    // to the home directory, else the server's working directory.
    const file = findConfigFile(dir, { home: process.env.HOME ?? homedir(), cwd: process.cwd() });
    // A config file that is gone takes its diagnostics with it.
    for (const known of [...this.configs.keys()]) {
      if (known !== file && !existsSync(known) && !this.documents.has(known)) {
        this.configs.delete(known);
        this.board.contribute(`config:${known}`, new Map());
      }
    }
    if (file === null) return null;
    const doc = this.documents.get(file);
    let mtimeMs: number | null = null;
    if (!doc) {
      try {
        mtimeMs = statSync(file).mtimeMs;
      } catch {
        mtimeMs = null;
      }
    }
    let entry = this.configs.get(file);
    // Clients that watch no files: a changed modification time is a change too.
    if (entry && entry.mtimeMs !== mtimeMs) entry = undefined;
    if (!entry) {
      entry = this.read(file, doc ? doc.getText() : null, mtimeMs);
      this.configs.set(file, entry);
      this.showErrors(file, entry.error ? configDiagnostics(file, entry.error.message, entry.error.text, this.settings.encoding) : []);
    }
    return entry.config;
  }

  private read(file: string, text: string | null, mtimeMs: number | null): ConfigEntry {
    try {
      const config = text !== null ? parseConfigText(text, file, file) : readConfigFile(file);
      return { mtimeMs, config, error: null };
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return { mtimeMs, config: null, error: { message: err.message, text: text ?? this.textOf(file) } };
    }
  }

  /**
   * What a lint of `dir` waits for first: loading its config's plugins (once
   * per config file, and again after a failure until they load); null when
   * nothing is to wait for. With plugins off, the user is told once that
   * they are not loaded.
   */
  prepare(dir: string): Promise<void> | null {
    const config = this.configFor(dir);
    if (!config || config.plugins.length === 0) return null;
    if (!this.settings.pluginsOn) {
      this.tellPluginsOff(config);
      return null;
    }
    return this.catalogues.has(config) ? null : this.loadPluginsFor(dir);
  }

  /** With plugins off: say once per config file that its plugins are not loaded, and why. */
  private tellPluginsOff(config: FileConfig): void {
    if (this.toldPluginsOff.has(config.path)) return;
    this.toldPluginsOff.add(config.path);
    const specs = config.plugins.map((p) => p.spec).join(", ");
    const n = config.plugins.length;
    this.warn(
      `tfcapi-lint: plugins are off (${this.settings.pluginsOffBy}), so the ${n === 1 ? "plugin" : `${n} plugins`} listed in ${config.path} (${specs}) ` +
        `${n === 1 ? "was" : "were"} not loaded and ${n === 1 ? "its" : "their"} rules do not run. Plugins are code from the folder: turn them on only for a folder you trust.`,
    );
  }

  /**
   * Load the plugins the module's config lists, as the CLI does; a plugin
   * that cannot be loaded is shown on the config file (and the module is
   * linted with the built-in rules meanwhile).
   */
  private async loadPluginsFor(dir: string): Promise<void> {
    const config = this.configFor(dir);
    if (!this.settings.pluginsOn || !config || config.plugins.length === 0 || this.catalogues.has(config)) return;
    try {
      this.catalogues.set(config, await catalogueOf(config));
      if (this.pluginFailed.delete(config)) this.showErrors(config.path, []);
    } catch (err) {
      // No catalogue kept for the config: the next lint tries again, so a
      // plugin fixed on disk is picked up without a restart.
      this.pluginFailed.add(config);
      if (!(err instanceof ConfigError)) throw err;
      const text = this.textOf(config.path);
      // `plugin "X" (FILE:LINE:COL): why` -> `FILE:LINE:COL: plugin "X": why`, placed on the entry.
      const message = err.message.replace(/^(plugin "[^"\n]*") \(([^\n]+):(\d+):(\d+)\): /gm, (_m, what: string, file: string, line: string, col: string) => `${file}:${line}:${col}: ${what}: `);
      this.showErrors(config.path, configDiagnostics(config.path, message, text, this.settings.encoding));
    }
  }

  /**
   * The baseline a module directory uses, as the CLI finds it without flags:
   * the config's `baseline` setting, else .tfcapi-lint-baseline.json beside
   * the config file, else at the repository root (where pre-commit and CI
   * run), else in the module's directory. Read on every lint (it is small
   * and may change under the editor); a file that cannot be used gets a
   * diagnostic of its own and the module is shown without a baseline.
   */
  baselineFor(dir: string): ModuleBaseline | null {
    const config = this.configFor(dir);
    const file = config?.baseline?.value ?? path.join(config ? config.dir : (repositoryRootOf(dir) ?? dir), BASELINE_FILE_NAME);
    const owner = `baseline:${file}`;
    let text: string | null;
    try {
      text = this.documents.get(file)?.getText() ?? readFileSync(file, "utf8");
    } catch {
      text = null;
    }
    if (text === null) {
      if (this.board.owners().includes(owner)) this.board.contribute(owner, new Map());
      return null;
    }
    try {
      const entries = parseBaseline(text, file);
      if (this.board.owners().includes(owner)) this.board.contribute(owner, new Map());
      return { shown: file, key: relativePath(path.dirname(file), dir), entries: new Map(entries.map((e) => [entryKey(e), e])), hide: !this.settings.showBaselined };
    } catch (err) {
      if (!(err instanceof BaselineError)) throw err;
      this.board.contribute(owner, new Map([[this.documents.uriOf(file), [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, source: SOURCE, message: err.message }]]]));
      return null;
    }
  }

  /** The options a module directory is linted with now (open documents in place of the files on disk), planned as the CLI plans them. */
  optionsFor(dir: string): LintOptions {
    const config = this.configFor(dir);
    const pluginsOn = this.settings.pluginsOn;
    return plan(config, {
      dir,
      displayPath: dir,
      ...(config && pluginsOn && this.catalogues.has(config) ? { catalogue: this.catalogues.get(config)! } : {}),
      unloadedPlugins: config !== null && !pluginsOn && config.plugins.length > 0,
      inlineConfig: true,
      reportUnusedIgnores: this.settings.reportUnusedIgnores,
      overlay: this.documents.overlay(),
    }).options;
  }
}

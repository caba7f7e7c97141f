/**
 * `tfcapi-lint lsp`: the Language Server Protocol over stdin/stdout
 * (vscode-languageserver). Built as its own bundle, dist/lsp.cjs, which
 * src/cli/lsp.ts loads only for this command.
 *
 * - Every open module file (.tf, .tf.json, .tofu, .tofu.json) makes its
 *   directory a tracked module. A module is linted whole, with the text of
 *   every open document in place of the file on disk, a short while
 *   (debounce) after the last change to any file it loaded.
 * - Diagnostics are published for every file of the module that has
 *   findings, and cleared when they go away. A file can get diagnostics from
 *   several tracked modules (a child module's files from its parent's lint
 *   and its own); the client sees their union.
 * - Linting runs in steps (lint/engine.ts lintSteps): after a slice of work
 *   the server yields to its event loop, and a run whose module changed
 *   meanwhile is abandoned; a finished run whose module changed is not
 *   published.
 * - The configuration is found as the CLI finds it (the nearest
 *   .tfcapi-lint.hcl up to the repository root), re-read when the client
 *   reports a change (workspace/didChangeWatchedFiles, or an edit of the
 *   config file open in the editor); a config error is a diagnostic on the
 *   config file and the module is linted with the defaults meanwhile.
 * - No request handler lets an exception escape: it is logged and answered
 *   with an empty result.
 * - Plugins can be turned off (`tfcapi-lint lsp --no-plugins`, or
 *   `initializationOptions.plugins: false`), for a folder whose code the
 *   user does not trust: a config that lists plugins then loads none, and
 *   the user is told so once per config file (window/showMessage).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Diagnostic,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  type Range,
} from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";
import { lintModule, lintSteps, type LintOptions, type LintOutcome } from "../lint/engine.js";
import { fixesByFile, fixFileText, MAX_FIX_PASSES } from "../lint/apply-fixes.js";
import type { ModuleReport } from "../lint/result.js";
import { CONFIG_FILE_NAME, ConfigError, findConfigFile, parseConfigText, readConfigFile, type FileConfig } from "../config/load.js";
import { effectiveConfig, severityMap } from "../config/effective.js";
import { pluginRulesOf } from "../config/plugins.js";
import { BUILTIN_RULES } from "../lint/meta-rules.js";
import type { RuleDefinition } from "../lint/types.js";
import { ruleDoc, ruleDocUrl } from "../report/docs.js";
import { isIgnoredFileName, moduleFileExtension } from "../terraform/files.js";
import type { ParseCache } from "../terraform/load.js";
import type { SourceFile } from "../terraform/module-types.js";
import { fileUri, fixChanges, ignoreEdit, Indexes, minimalEdit, placeFindings, SOURCE, type Placed } from "./analysis.js";
import { chooseEncoding, contains, LineIndex, rangesTouch, type PositionEncoding } from "./positions.js";

/** Default wait after the last change before linting (initializationOptions.debounceMs overrides it). */
export const DEFAULT_DEBOUNCE_MS = 75;
/** Work between two yields to the event loop while linting. */
const SLICE_MS = 8;

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.tfcapi-lint`;

interface Result {
  generation: number;
  outcome: LintOutcome;
  opts: LintOptions;
  indexes: Indexes | null;
  /** Shown findings by file path relative to the module directory. */
  placed: Map<string, Placed[]>;
  /** The loaded files by path relative to the module directory. */
  files: Map<string, SourceFile>;
  /** Absolute paths of every file the lint read. */
  read: Set<string>;
}

interface Tracked {
  dir: string;
  generation: number;
  /** Syntax trees of the files as last linted (only changed files are parsed again). */
  parseCache: ParseCache;
  timer: NodeJS.Timeout | null;
  result: Result | null;
}

interface ConfigEntry {
  /** Modification time of the file when read (null: from the open document). */
  mtimeMs: number | null;
  config: FileConfig | null;
  error: { message: string; text: string | null } | null;
}

function isModuleFile(abs: string): boolean {
  const name = path.basename(abs);
  return moduleFileExtension(name) !== null && !isIgnoredFileName(name);
}

function pathOf(uri: string): string | null {
  if (!uri.startsWith("file:")) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function diagKey(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}:${d.range.end.line}:${d.range.end.character}:${String(d.code)}:${d.message}`;
}

export interface ServerOptions {
  /** false: load no plugin a config lists (`--no-plugins`); initializationOptions cannot turn them back on. */
  plugins?: boolean;
}

/** Start the server on stdin/stdout; it ends the process on `exit`. */
export function runServer(options: ServerOptions = {}): Promise<never> {
  // The reader is made here to say, on stderr, what is wrong when whoever
  // runs the server does not speak LSP to it (a person trying the command,
  // a misconfigured editor) instead of exiting without a word.
  const reader = new StreamMessageReader(process.stdin);
  const writer = new StreamMessageWriter(process.stdout);
  let heard = false;
  let complained = false;
  const complain = (what: string): void => {
    if (complained) return;
    complained = true;
    process.stderr.write(
      `tfcapi-lint lsp: ${what}. This is the language server: an editor starts it and speaks the Language Server Protocol on its standard input and output (see the README's Editors section).\n`,
    );
  };
  reader.onError((err) => complain(`the input is not a Language Server Protocol message (${errorText(err).replace(/\s+/g, " ")})`));
  let shutdownReceived = false;
  process.stdin.on("end", () => {
    if (!heard) complain("the input ended before any message");
    // As the protocol asks of a server whose client went away: 0 after a
    // shutdown request, else 1.
    process.exit(shutdownReceived ? 0 : 1);
  });
  const listen = reader.listen.bind(reader);
  reader.listen = (callback) =>
    listen((message) => {
      heard = true;
      callback(message);
    });
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  const documents = new TextDocuments(TextDocument);
  const modules = new Map<string, Tracked>();
  /** Diagnostics by URI, by who contributed them (a module, a config file). */
  const contributions = new Map<string, Map<string, Diagnostic[]>>();
  const ownerUris = new Map<string, Set<string>>();
  const configs = new Map<string, ConfigEntry>();
  /** Lint runs: finished, abandoned; wall-clock and CPU milliseconds of the last finished one (yields excluded). */
  const stats = { runs: 0, abandoned: 0, lastWorkMs: 0, lastCpuMs: 0, workMs: [] as number[] };
  let encoding: PositionEncoding = "utf-16";
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  let reportUnusedIgnores = false;
  let watchDynamically = false;
  /** Whether configs' plugins are loaded: off with --no-plugins or initializationOptions.plugins = false. */
  let pluginsOn = options.plugins !== false;
  /** Why plugins are off, for the message. */
  let pluginsOffBy = "--no-plugins";
  /** The client shows a diagnostic's relatedInformation (the path a finding followed). */
  let relatedInformation = false;

  const log = (text: string): void => {
    try {
      connection.console.error(`tfcapi-lint: ${text}`);
    } catch {
      // the connection is gone
    }
  };

  function safe<P, R>(what: string, fallback: R, fn: (p: P) => R): (p: P) => R {
    return (p: P) => {
      try {
        return fn(p);
      } catch (err) {
        log(`${what} failed: ${errorText(err)}`);
        return fallback;
      }
    };
  }

  // --- Documents -----------------------------------------------------------

  /** The open document of an absolute path. */
  const openDocs = new Map<string, TextDocument>();

  function overlay(): Map<string, string> {
    const m = new Map<string, string>();
    for (const [abs, doc] of openDocs) if (isModuleFile(abs)) m.set(abs, doc.getText());
    return m;
  }

  function uriOf(abs: string): string {
    return openDocs.get(abs)?.uri ?? fileUri(abs);
  }

  // --- Publishing ------------------------------------------------------------

  function publish(uri: string): void {
    const byOwner = contributions.get(uri);
    const seen = new Set<string>();
    const all: Diagnostic[] = [];
    for (const list of byOwner?.values() ?? []) {
      for (const d of list) {
        const k = diagKey(d);
        if (seen.has(k)) continue;
        seen.add(k);
        all.push(d);
      }
    }
    if (byOwner && byOwner.size === 0) contributions.delete(uri);
    // The version of an open document: the one linted (a change since would have made the run stale).
    const abs = pathOf(uri);
    const doc = abs === null ? undefined : openDocs.get(abs);
    void connection.sendDiagnostics(doc && doc.uri === uri ? { uri, version: doc.version, diagnostics: all } : { uri, diagnostics: all });
  }

  /**
   * Replace everything `owner` shows: the given URIs get these diagnostics,
   * its other URIs none. Only what changed is sent, except for the URIs in
   * `always` (the open documents just linted: the client learns that their
   * new version was linted).
   */
  function contribute(owner: string, next: Map<string, Diagnostic[]>, always: ReadonlySet<string> = new Set()): void {
    const before = ownerUris.get(owner) ?? new Set<string>();
    const changed = new Set<string>();
    for (const uri of before) {
      if (next.has(uri)) continue;
      contributions.get(uri)?.delete(owner);
      changed.add(uri);
    }
    for (const [uri, list] of next) {
      let byOwner = contributions.get(uri);
      if (!byOwner) contributions.set(uri, (byOwner = new Map()));
      const old = byOwner.get(owner);
      byOwner.set(owner, list);
      if (!always.has(uri) && before.has(uri) && old && old.length === list.length && old.every((d, i) => diagKey(d) === diagKey(list[i]!))) continue;
      changed.add(uri);
    }
    if (next.size === 0) ownerUris.delete(owner);
    else ownerUris.set(owner, new Set(next.keys()));
    for (const uri of changed) publish(uri);
  }

  // --- Configuration ---------------------------------------------------------

  /** A config error ("FILE:LINE:COL: message" lines) as diagnostics on the config file. */
  function configDiagnostics(file: string, message: string, text: string | null): Diagnostic[] {
    const ix = new LineIndex(text ?? "", encoding);
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

  function configFor(dir: string): FileConfig | null {
    // The same lookup as the CLI's: up to the repository root; outside git up
    // to the home directory, else the server's working directory.
    const file = findConfigFile(dir, { home: process.env.HOME ?? homedir(), cwd: process.cwd() });
    // A config file that is gone takes its diagnostics with it.
    for (const known of [...configs.keys()]) {
      if (known !== file && !existsSync(known) && !openDocs.has(known)) {
        configs.delete(known);
        contribute(`config:${known}`, new Map());
      }
    }
    if (file === null) return null;
    const doc = openDocs.get(file);
    let mtimeMs: number | null = null;
    if (!doc) {
      try {
        mtimeMs = statSync(file).mtimeMs;
      } catch {
        mtimeMs = null;
      }
    }
    let entry = configs.get(file);
    // Clients that watch no files: a changed modification time is a change too.
    if (entry && entry.mtimeMs !== mtimeMs) entry = undefined;
    if (!entry) {
      let text: string | null = doc ? doc.getText() : null;
      try {
        const config = text !== null ? parseConfigText(text, file, file) : readConfigFile(file);
        entry = { mtimeMs, config, error: null };
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        if (text === null) {
          try {
            text = readConfigFileText(file);
          } catch {
            text = null;
          }
        }
        entry = { mtimeMs, config: null, error: { message: err.message, text } };
      }
      configs.set(file, entry);
      const diags = entry.error ? configDiagnostics(file, entry.error.message, entry.error.text) : [];
      contribute(`config:${file}`, new Map([[uriOf(file), diags]]));
    }
    return entry.config;
  }

  /** The rules of the plugins a config file lists, once loaded (see loadPluginsFor). */
  const pluginRules = new WeakMap<FileConfig, readonly RuleDefinition[]>();
  /** Configs whose plugins failed to load last time (their error is shown on the config file). */
  const pluginFailed = new WeakSet<FileConfig>();
  /** Config files (by path) whose unloaded plugins the user was told about. */
  const toldPluginsOff = new Set<string>();

  /** With plugins off: say once per config file that its plugins are not loaded, and why. */
  function tellPluginsOff(config: FileConfig): void {
    if (toldPluginsOff.has(config.path)) return;
    toldPluginsOff.add(config.path);
    const specs = config.plugins.map((p) => p.spec).join(", ");
    const n = config.plugins.length;
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Warning,
      message: `tfcapi-lint: plugins are off (${pluginsOffBy}), so the ${n === 1 ? "plugin" : `${n} plugins`} listed in ${config.path} (${specs}) ` +
        `${n === 1 ? "was" : "were"} not loaded and ${n === 1 ? "its" : "their"} rules do not run. Plugins are code from the folder: turn them on only for a folder you trust.`,
    });
  }

  /**
   * Load the plugins the module's config lists, as the CLI does; a plugin
   * that cannot be loaded is shown on the config file (and the module is
   * linted with the built-in rules meanwhile).
   */
  async function loadPluginsFor(dir: string): Promise<void> {
    const config = configFor(dir);
    if (!pluginsOn || !config || config.plugins.length === 0 || pluginRules.has(config)) return;
    try {
      pluginRules.set(config, await pluginRulesOf(config));
      if (pluginFailed.delete(config)) contribute(`config:${config.path}`, new Map([[uriOf(config.path), []]]));
    } catch (err) {
      // Not kept as the config's rules: the next lint tries again, so a
      // plugin fixed on disk is picked up without a restart.
      pluginFailed.add(config);
      if (!(err instanceof ConfigError)) throw err;
      const doc = openDocs.get(config.path);
      let text: string | null = doc ? doc.getText() : null;
      if (text === null) {
        try {
          text = readConfigFileText(config.path);
        } catch {
          text = null;
        }
      }
      // `plugin "X" (FILE:LINE:COL): why` -> `FILE:LINE:COL: plugin "X": why`, placed on the entry.
      const message = err.message.replace(/^(plugin "[^"\n]*") \(([^\n]+):(\d+):(\d+)\): /gm, (_m, what: string, file: string, line: string, col: string) => `${file}:${line}:${col}: ${what}: `);
      contribute(`config:${config.path}`, new Map([[uriOf(config.path), configDiagnostics(config.path, message, text)]]));
    }
  }

  function optionsFor(dir: string): LintOptions {
    const config = configFor(dir);
    const e = effectiveConfig(config, { rules: [], strict: false });
    const plugins = config && pluginsOn ? (pluginRules.get(config) ?? []) : [];
    const opts: LintOptions = {
      ...(plugins.length > 0 ? { ruleSet: [...BUILTIN_RULES, ...plugins] } : {}),
      // Ignore comments may name the rules of plugins that were not loaded.
      ...(config && !pluginsOn && config.plugins.length > 0 ? { unloadedPlugins: true } : {}),
      severities: severityMap(e),
      inlineConfig: true,
      reportUnusedIgnores,
      displayPath: dir,
      overlay: overlay(),
    };
    if (e.role) opts.configRole = { role: e.role.value, origin: e.role.origin };
    if (config && !config.excludeSet.empty) {
      opts.excludeFile = (rel) => config.excludeSet.matches(path.relative(config.dir, path.join(dir, ...rel.split("/"))).split(path.sep).join("/"));
    }
    return opts;
  }

  // --- Linting -----------------------------------------------------------------

  function track(dir: string): Tracked {
    let m = modules.get(dir);
    if (!m) modules.set(dir, (m = { dir, generation: 0, parseCache: new Map(), timer: null, result: null }));
    return m;
  }

  function schedule(m: Tracked): void {
    m.generation++;
    if (m.timer) clearTimeout(m.timer);
    m.timer = setTimeout(() => {
      m.timer = null;
      void lintAsync(m);
    }, debounceMs);
  }

  /** Re-lint every tracked module that reads `abs`, and the module of its directory. */
  function changed(abs: string): void {
    const dir = path.dirname(abs);
    for (const m of modules.values()) {
      if (m.dir === dir || m.result?.read.has(abs)) schedule(m);
    }
  }

  /**
   * A module that shows no role yet (a new file, a helper module): the
   * contract rules cannot run, but what Terraform would reject can.
   */
  function syntaxOnlyWithoutRole(m: Tracked, outcome: LintOutcome, opts: LintOptions): LintOutcome {
    if (outcome.kind !== "usage-error" || outcome.noRole !== true) return outcome;
    return lintModule(m.dir, { ...opts, parseCache: m.parseCache, role: "cluster", only: ["syntax/parse", "syntax/one-line-block"] });
  }

  function makeResult(generation: number, outcome: LintOutcome, opts: LintOptions): Result {
    const result: Result = { generation, outcome, opts, indexes: null, placed: new Map(), files: new Map(), read: new Set() };
    if (outcome.kind === "report") {
      result.indexes = new Indexes(outcome.report.sources, encoding);
      const dir = outcome.report.dir;
      result.placed = placeFindings(
        outcome.report,
        result.indexes,
        relatedInformation ? (file) => uriOf(path.join(dir, ...file.split("/"))) : undefined,
      );
      for (const u of outcome.load.units) {
        for (const f of u.allFiles) {
          result.files.set(f.path, f);
          result.read.add(f.absPath);
        }
      }
    }
    return result;
  }

  function show(m: Tracked, result: Result): void {
    const next = new Map<string, Diagnostic[]>();
    const outcome = result.outcome;
    const abs = (rel: string): string => path.join(m.dir, ...rel.split("/"));
    if (outcome.kind === "report") {
      for (const [rel, list] of result.placed) next.set(uriOf(abs(rel)), list.map((p) => p.diagnostic));
      for (const e of outcome.readErrors) {
        if (e.file === "") continue;
        const uri = uriOf(abs(e.file));
        const list = next.get(uri) ?? [];
        list.push({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, source: SOURCE, message: e.message });
        next.set(uri, list);
      }
    } else if (outcome.kind === "usage-error" && outcome.noRole !== true) {
      // An ambiguous role: say so on the open documents of the module.
      for (const [p, doc] of openDocs) {
        if (path.dirname(p) !== m.dir || !isModuleFile(p)) continue;
        next.set(doc.uri, [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 2, source: SOURCE, message: `${outcome.message} (or set role in ${CONFIG_FILE_NAME})` },
        ]);
      }
    }
    // Open documents of the module without findings get an empty list.
    const linted = new Set<string>();
    for (const [p, doc] of openDocs) {
      if (path.dirname(p) !== m.dir || !isModuleFile(p)) continue;
      linted.add(doc.uri);
      if (!next.has(doc.uri)) next.set(doc.uri, []);
    }
    contribute(`module:${m.dir}`, next, linted);
  }

  async function lintAsync(m: Tracked): Promise<void> {
    const generation = m.generation;
    try {
      // Plugins load once per config file (an await only the first time, and
      // after a failure, until they load).
      const config = configFor(m.dir);
      if (config && config.plugins.length > 0 && !pluginsOn) {
        tellPluginsOff(config);
      } else if (config && config.plugins.length > 0 && !pluginRules.has(config)) {
        await loadPluginsFor(m.dir);
        if (m.generation !== generation || modules.get(m.dir) !== m) {
          stats.abandoned++;
          return;
        }
      }
      let t = performance.now();
      let work = 0;
      let cpu = process.cpuUsage();
      let cpuMicros = 0;
      const opts = optionsFor(m.dir);
      const steps = lintSteps(m.dir, { ...opts, parseCache: m.parseCache });
      let outcome: LintOutcome;
      for (;;) {
        const r = steps.next();
        if (r.done) {
          outcome = r.value;
          break;
        }
        if (performance.now() - t >= SLICE_MS) {
          work += performance.now() - t;
          const d = process.cpuUsage(cpu);
          cpuMicros += d.user + d.system;
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (m.generation !== generation || modules.get(m.dir) !== m) {
            steps.return(undefined as unknown as LintOutcome);
            stats.abandoned++;
            return;
          }
          t = performance.now();
          cpu = process.cpuUsage();
        }
      }
      outcome = syntaxOnlyWithoutRole(m, outcome, opts);
      work += performance.now() - t;
      const d = process.cpuUsage(cpu);
      cpuMicros += d.user + d.system;
      if (m.generation !== generation || modules.get(m.dir) !== m) {
        stats.abandoned++;
        return;
      }
      m.result = makeResult(generation, outcome, opts);
      stats.runs++;
      stats.lastWorkMs = work;
      stats.lastCpuMs = cpuMicros / 1000;
      stats.workMs.push(work);
      if (stats.workMs.length > 1000) stats.workMs.shift();
      show(m, m.result);
    } catch (err) {
      log(`linting ${m.dir} failed: ${errorText(err)}`);
    }
  }

  /** The module's result for its current state, linting now when the last one is stale. */
  function current(m: Tracked): Result | null {
    if (m.result && m.result.generation === m.generation) return m.result;
    const opts = optionsFor(m.dir);
    const result = makeResult(m.generation, syntaxOnlyWithoutRole(m, lintModule(m.dir, { ...opts, parseCache: m.parseCache }), opts), opts);
    m.result = result;
    show(m, result);
    return result;
  }

  /** Findings shown in the file `abs`, with the module result they come from (its own module first). */
  function shownIn(abs: string): { m: Tracked; result: Result; rel: string; list: Placed[] }[] {
    const out: { m: Tracked; result: Result; rel: string; list: Placed[] }[] = [];
    const own = modules.get(path.dirname(abs));
    const order = own ? [own, ...[...modules.values()].filter((x) => x !== own)] : [...modules.values()];
    for (const m of order) {
      const rel = path.relative(m.dir, abs).split(path.sep).join("/");
      if (rel.startsWith("../") || path.isAbsolute(rel)) continue;
      if (m !== own && !m.result?.read.has(abs)) continue;
      const result = current(m);
      if (!result) continue;
      const list = result.placed.get(rel);
      if (list && list.length > 0) out.push({ m, result, rel, list });
    }
    return out;
  }

  // --- Code actions ------------------------------------------------------------

  /** Rule ids whose unsettled fixes the user was told about (once each). */
  const toldUnsettled = new Set<string>();

  /**
   * Fix all in one file, in passes as --fix does: a rule whose fixes still
   * change the file after MAX_FIX_PASSES passes is left out (with one
   * warning naming it), never applied that many times.
   */
  function fixAllText(m: Tracked, result: Result, rel: string): string | null {
    if (result.outcome.kind !== "report") return null;
    const original = result.outcome.report.sources.get(rel);
    if (original === undefined) return null;
    const first = result.outcome.report;
    const abs = path.join(m.dir, ...rel.split("/"));
    const skip = new Set<string>();
    for (;;) {
      let text = original;
      let report: ModuleReport = first;
      let settled = false;
      for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
        const fixes = fixesByFile(report.findings.filter((f) => !skip.has(f.ruleId))).get(rel);
        // The same checks as --fix: no fix on a file with syntax errors, none that adds one.
        const r = fixes ? fixFileText(rel, text, fixes) : null;
        if (!r || r.kind !== "fixed") {
          settled = true;
          break;
        }
        text = r.text;
        const ov = new Map(result.opts.overlay ?? []);
        ov.set(abs, text);
        const again = lintModule(m.dir, { ...result.opts, overlay: ov });
        if (again.kind !== "report") {
          settled = true;
          break;
        }
        report = again.report;
      }
      const unsettled = settled ? [] : [...new Set(report.findings.filter((f) => f.fix && !f.suppressed && !skip.has(f.ruleId)).map((f) => f.ruleId))].filter((id) => {
        const own = fixesByFile(report.findings.filter((f) => f.ruleId === id)).get(rel);
        return own !== undefined && fixFileText(rel, text, own).kind === "fixed";
      });
      if (unsettled.length === 0) return text === original ? null : text;
      for (const id of unsettled.sort()) {
        skip.add(id);
        if (toldUnsettled.has(id)) continue;
        toldUnsettled.add(id);
        void connection.sendNotification(ShowMessageNotification.type, {
          type: MessageType.Warning,
          message: `tfcapi-lint: the fixes of rule ${id} did not settle in ${MAX_FIX_PASSES} passes (each pass changed ${rel} again); Fix all leaves them out and applies the other rules' fixes`,
        });
      }
    }
  }

  function codeActions(uri: string, range: Range, only: readonly string[] | undefined): CodeAction[] {
    const abs = pathOf(uri);
    if (abs === null || !isModuleFile(abs)) return [];
    const wanted = (kind: string): boolean => !only || only.length === 0 || only.some((o) => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];
    const titles = new Set<string>();
    const add = (a: CodeAction): void => {
      if (titles.has(a.title) || !wanted(a.kind!)) return;
      titles.add(a.title);
      actions.push(a);
    };
    const ignores: CodeAction[] = [];
    for (const { m, result, rel, list } of shownIn(abs)) {
      const file = result.files.get(rel);
      const ix = result.indexes?.get(rel);
      if (!file || !ix || !result.indexes) continue;
      for (const p of list) {
        if (!rangesTouch(p.diagnostic.range, range)) continue;
        const f = p.finding;
        if (f.fix) {
          const changes = fixChanges(f.fix, m.dir, result.indexes);
          if (changes) add({ title: f.fix.description, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], isPreferred: true, edit: { changes } });
        }
        const targetUri = uriOf(abs);
        if (!p.moduleLevel) {
          const edit = ignoreEdit(file, f, false, ix);
          if (edit) ignores.push({ title: `Ignore ${f.ruleId} on this line/block`, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], edit: { changes: { [targetUri]: [edit] } } });
        }
        const fileEdit = ignoreEdit(file, f, true, ix);
        if (fileEdit) ignores.push({ title: `Ignore ${f.ruleId} in this file`, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], edit: { changes: { [targetUri]: [fileEdit] } } });
      }
    }
    for (const a of ignores) add(a);
    if (wanted(FIX_ALL_KIND)) {
      const own = modules.get(path.dirname(abs));
      const result = own ? current(own) : null;
      const name = path.basename(abs);
      if (own && result && result.outcome.kind === "report" && fixesByFile(result.outcome.report.findings).has(name)) {
        const after = fixAllText(own, result, name);
        const ix = result.indexes?.get(name);
        const before = result.outcome.report.sources.get(name);
        const edit = after !== null && ix && before !== undefined ? minimalEdit(before, after, ix) : null;
        if (edit) add({ title: "Fix all auto-fixable tfcapi-lint findings in this file", kind: FIX_ALL_KIND, edit: { changes: { [uriOf(abs)]: [edit] } } });
      }
    }
    return actions;
  }

  // --- Hover -------------------------------------------------------------------

  function hover(uri: string, pos: { line: number; character: number }): Hover | null {
    const abs = pathOf(uri);
    if (abs === null || !isModuleFile(abs)) return null;
    const parts: string[] = [];
    const docs = new Set<string>();
    let range: Range | undefined;
    for (const { list } of shownIn(abs)) {
      for (const p of list) {
        if (!contains(p.diagnostic.range, pos)) continue;
        const f = p.finding;
        const key = `${f.ruleId}\0${f.message}`;
        if (docs.has(key)) continue;
        docs.add(key);
        range ??= p.diagnostic.range;
        let part = `**${f.ruleId}** (${f.severity}): ${f.message}`;
        if (!docs.has(f.ruleId)) {
          docs.add(f.ruleId);
          const page = ruleDoc(f.ruleId);
          if (page !== null) part += `\n\n---\n\n${page.trim()}`;
          part += `\n\n[${f.ruleId} documentation](${ruleDocUrl(f.ruleId)})`;
        }
        parts.push(part);
      }
    }
    if (parts.length === 0) return null;
    return { contents: { kind: "markdown", value: parts.join("\n\n---\n\n") }, ...(range ? { range } : {}) };
  }

  // --- Wiring ----------------------------------------------------------------

  connection.onInitialize(
    safe("initialize", { capabilities: {} } as InitializeResult, (params: InitializeParams): InitializeResult => {
      encoding = chooseEncoding(params.capabilities.general?.positionEncodings);
      const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; reportUnusedIgnores?: unknown; plugins?: unknown };
      if (typeof init.debounceMs === "number" && init.debounceMs >= 0 && Number.isFinite(init.debounceMs)) debounceMs = init.debounceMs;
      if (typeof init.reportUnusedIgnores === "boolean") reportUnusedIgnores = init.reportUnusedIgnores;
      if (init.plugins === false && pluginsOn) {
        pluginsOn = false;
        pluginsOffBy = "initializationOptions.plugins is false";
      }
      watchDynamically = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
      relatedInformation = params.capabilities.textDocument?.publishDiagnostics?.relatedInformation === true;
      return {
        capabilities: {
          positionEncoding: encoding,
          textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
          hoverProvider: true,
        },
        serverInfo: { name: "tfcapi-lint" },
      };
    }),
  );

  connection.onInitialized(
    safe("initialized", undefined, () => {
      if (!watchDynamically) return;
      connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: `**/${CONFIG_FILE_NAME}` }, { globPattern: "**/*.{tf,tf.json,tofu,tofu.json}" }],
        })
        .catch((err: unknown) => log(`cannot register the file watcher: ${errorText(err)}`));
    }),
  );

  documents.onDidOpen(
    safe("didOpen", undefined, ({ document }) => {
      const abs = pathOf(document.uri);
      if (abs === null) return;
      openDocs.set(abs, document);
      if (path.basename(abs) === CONFIG_FILE_NAME) {
        configChanged();
        return;
      }
      if (!isModuleFile(abs)) return;
      track(path.dirname(abs));
      changed(abs);
    }),
  );

  documents.onDidChangeContent(
    safe("didChange", undefined, ({ document }) => {
      const abs = pathOf(document.uri);
      if (abs === null || !openDocs.has(abs)) return;
      openDocs.set(abs, document);
      if (path.basename(abs) === CONFIG_FILE_NAME) configChanged();
      else if (isModuleFile(abs)) changed(abs);
    }),
  );

  documents.onDidClose(
    safe("didClose", undefined, ({ document }) => {
      const abs = pathOf(document.uri);
      if (abs === null) return;
      openDocs.delete(abs);
      if (path.basename(abs) === CONFIG_FILE_NAME) {
        configChanged();
        return;
      }
      if (!isModuleFile(abs)) return;
      const dir = path.dirname(abs);
      const stillOpen = [...openDocs.keys()].some((p) => path.dirname(p) === dir && isModuleFile(p));
      if (!stillOpen) {
        const m = modules.get(dir);
        if (m?.timer) clearTimeout(m.timer);
        modules.delete(dir);
        contribute(`module:${dir}`, new Map());
      }
      changed(abs);
    }),
  );

  function configChanged(): void {
    configs.clear();
    for (const m of modules.values()) schedule(m);
  }

  connection.onDidChangeWatchedFiles(
    safe("didChangeWatchedFiles", undefined, (params) => {
      let config = false;
      for (const c of params.changes) {
        const abs = pathOf(c.uri);
        if (abs === null) continue;
        if (path.basename(abs) === CONFIG_FILE_NAME) config = true;
        else if (isModuleFile(abs) && !openDocs.has(abs)) changed(abs);
      }
      if (config) {
        // A config file that went away takes its diagnostics with it.
        for (const owner of [...ownerUris.keys()]) if (owner.startsWith("config:")) contribute(owner, new Map());
        configChanged();
      }
    }),
  );

  connection.onCodeAction(safe("codeAction", [] as CodeAction[], (p) => codeActions(p.textDocument.uri, p.range, p.context.only)));
  connection.onHover(safe("hover", null as Hover | null, (p) => hover(p.textDocument.uri, p.position)));
  connection.onRequest(
    "tfcapi-lint/stats",
    safe("stats", null, () => ({ runs: stats.runs, abandoned: stats.abandoned, lastWorkMs: stats.lastWorkMs, lastCpuMs: stats.lastCpuMs, workMs: [...stats.workMs], encoding, debounceMs, plugins: pluginsOn })),
  );
  connection.onShutdown(() => {
    shutdownReceived = true;
    for (const m of modules.values()) if (m.timer) clearTimeout(m.timer);
    modules.clear();
  });

  process.on("uncaughtException", (err) => log(`internal error: ${errorText(err)}`));
  process.on("unhandledRejection", (err) => log(`internal error: ${errorText(err)}`));

  documents.listen(connection);
  connection.listen();
  return new Promise<never>(() => {});
}

function readConfigFileText(file: string): string {
  return readFileSync(file, "utf8");
}

/**
 * Argument parsing with Node's own `util.parseArgs` (strict: unknown options
 * and values given to flags are errors). Produces a plain description of
 * what was asked, or a usage error. Values are checked (here and in
 * options.ts) with the same functions the config file uses
 * (config/values.ts).
 */
import { parseArgs as parseArgv, type ParseArgsConfig } from "node:util";
import type { SeveritySetting } from "../lint/types.js";
import { maxWarningsProblem, severityProblem } from "../config/values.js";

/**
 * The sub-commands, by the word that selects them (the first positional
 * argument). `lint` is the default (no command word). main.ts maps each to
 * its handler.
 */
export const COMMAND_WORDS = ["module", "image", "rules", "explain", "version", "help"] as const;

export type Command = "lint" | (typeof COMMAND_WORDS)[number];

export interface CliArgs {
  command: Command;
  /** Positional arguments after the command word (paths, rule id). */
  positionals: string[];
  role?: string;
  contract?: string;
  format?: string;
  outputFile?: string;
  /** `--also-write FORMAT=PATH`: more reports of the same run, in order. */
  alsoWrite: { format: string; path: string }[];
  /** `--full-report FORMAT=PATH`: reports of every finding, whatever `--quiet` hides (for CI wrappers that count). */
  fullReport: { format: string; path: string }[];
  strict: boolean;
  maxWarnings?: number;
  allowWarnings: string[];
  /** `--rule id=severity`, in order. */
  ruleSettings: { id: string; severity: SeveritySetting }[];
  recursive: boolean;
  /** `--jobs N`: worker threads linting modules at once (1: one after another on this thread). */
  jobs?: number;
  config?: string;
  noConfig: boolean;
  printConfig?: string;
  noInlineConfig: boolean;
  reportUnusedIgnores: boolean;
  fix: boolean;
  fixDryRun: boolean;
  /** `--baseline FILE`: the baseline file to use (relative to the working directory). */
  baseline?: string;
  /** `--no-baseline`: use no baseline file. */
  noBaseline: boolean;
  /** `--update-baseline`: write every current error and warning into the baseline. */
  updateBaseline: boolean;
  /** `--prune-baseline`: drop the baseline entries that match nothing. */
  pruneBaseline: boolean;
  /** `--fix-unsafe`: fixes that change the plan too (with --fix-dry-run: shown, not written; alone: implies --fix). */
  fixUnsafe: boolean;
  /** `--cache`: reuse each module's stored results when nothing they depend on changed (cache.ts). */
  cache: boolean;
  /** `--cache-location PATH`: the cache file, or a directory to keep it in. */
  cacheLocation?: string;
  stdin: boolean;
  stdinFilename?: string;
  color?: boolean;
  quiet: boolean;
  help: boolean;
  version: boolean;
  json: boolean;
  /** image: `--platform OS/ARCH[/VARIANT]`. */
  platform?: string;
  /** image: check every platform of an index. */
  allPlatforms: boolean;
  /** image: plain HTTP to the registry. */
  insecure: boolean;
}

export class UsageError extends Error {}

const OPTIONS = {
  role: { type: "string" },
  contract: { type: "string" },
  format: { type: "string", short: "f" },
  "output-file": { type: "string", short: "o" },
  "also-write": { type: "string", multiple: true },
  "full-report": { type: "string", multiple: true },
  "max-warnings": { type: "string" },
  jobs: { type: "string", short: "j" },
  "allow-warning": { type: "string", multiple: true },
  rule: { type: "string", multiple: true },
  config: { type: "string", short: "c" },
  "print-config": { type: "string" },
  "stdin-filename": { type: "string" },
  baseline: { type: "string" },
  "no-baseline": { type: "boolean" },
  "update-baseline": { type: "boolean" },
  "prune-baseline": { type: "boolean" },
  platform: { type: "string" },
  "all-platforms": { type: "boolean" },
  insecure: { type: "boolean" },
  json: { type: "boolean" },
  strict: { type: "boolean" },
  recursive: { type: "boolean", short: "r" },
  "no-config": { type: "boolean" },
  "no-inline-config": { type: "boolean" },
  "report-unused-ignores": { type: "boolean" },
  fix: { type: "boolean" },
  "fix-dry-run": { type: "boolean" },
  "fix-unsafe": { type: "boolean" },
  cache: { type: "boolean" },
  "cache-location": { type: "string" },
  stdin: { type: "boolean" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} satisfies NonNullable<ParseArgsConfig["options"]>;

type OptionName = keyof typeof OPTIONS;

function parseRuleSetting(text: string): { id: string; severity: SeveritySetting } {
  const eq = text.lastIndexOf("=");
  const sep = eq >= 0 ? eq : text.lastIndexOf(":");
  if (sep <= 0) throw new UsageError(`--rule expects ID=SEVERITY (e.g. --rule input/default=off), got "${text}"`);
  const id = text.slice(0, sep).trim();
  const severity = text.slice(sep + 1).trim();
  const bad = severityProblem(severity);
  if (bad !== null) throw new UsageError(`--rule ${id}: ${bad}`);
  return { id, severity: severity as SeveritySetting };
}

/** The option's long name from one of parseArgs' error messages. */
function optionIn(message: string): string {
  return /--[A-Za-z0-9-]+/.exec(message)?.[0] ?? /'(-[^' ]+)/.exec(message)?.[1] ?? "?";
}

/** parseArgs' errors, in this tool's words. */
function usageErrorOf(err: unknown): UsageError {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new UsageError(`unknown option ${/'(-[^']*)'/.exec(message)?.[1] ?? optionIn(message)}`);
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = optionIn(message);
    if (message.includes("does not take an argument")) return new UsageError(`option ${name} takes no value`);
    if (message.includes("ambiguous")) {
      return new UsageError(`option ${name} needs a value, but the next argument is an option (write ${name}=VALUE for a value starting with "-")`);
    }
    return new UsageError(`option ${name} needs a value`);
  }
  return new UsageError(message.split("\n")[0]!);
}

const NEEDS_VALUE = new Set(
  Object.entries(OPTIONS).flatMap(([name, o]) => (o.type === "string" ? [`--${name}`, ...("short" in o ? [`-${o.short}`] : [])] : [])),
);

/**
 * `--max-warnings -5` is a (wrong) value, not an option: join a negative
 * number to the option before it so the value check can say what is wrong.
 */
function joinNegativeNumbers(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (NEEDS_VALUE.has(token) && next !== undefined && /^-\d/.test(next)) {
      out.push(token.startsWith("--") ? `${token}=${next}` : `${token}${next}`);
      i++;
    } else {
      out.push(token);
    }
  }
  return out;
}

/** Parse argv (without node and script). Throws UsageError. */
export function parseArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgv({ args: joinNegativeNumbers(argv), options: OPTIONS, strict: true, allowPositionals: true, tokens: true });
  } catch (err) {
    throw usageErrorOf(err);
  }
  const args: CliArgs = {
    command: "lint",
    positionals: [],
    alsoWrite: [],
    fullReport: [],
    strict: false,
    allowWarnings: [],
    ruleSettings: [],
    recursive: false,
    noConfig: false,
    noInlineConfig: false,
    reportUnusedIgnores: false,
    fix: false,
    fixDryRun: false,
    noBaseline: false,
    updateBaseline: false,
    pruneBaseline: false,
    fixUnsafe: false,
    cache: false,
    stdin: false,
    quiet: false,
    help: false,
    version: false,
    json: false,
    allPlatforms: false,
    insecure: false,
  };
  let optionsEnded = false;
  for (const token of parsed.tokens) {
    if (token.kind === "option-terminator") {
      optionsEnded = true;
      continue;
    }
    if (token.kind === "positional") {
      const word = token.value;
      if (!optionsEnded && args.command === "lint" && args.positionals.length === 0 && (COMMAND_WORDS as readonly string[]).includes(word)) {
        args.command = word as Command;
      } else {
        args.positionals.push(word);
      }
      continue;
    }
    applyOption(args, token.name as OptionName, token.value, token.rawName);
  }
  // --fix-unsafe writes (as --fix does) unless it only widens --fix-dry-run.
  if (args.fixUnsafe && !args.fixDryRun) args.fix = true;
  return args;
}

function applyOption(args: CliArgs, name: OptionName, value: string | undefined, raw: string): void {
  const v = value ?? "";
  switch (name) {
    case "role":
      args.role = v;
      break;
    case "contract":
      args.contract = v;
      break;
    case "format":
      args.format = v;
      break;
    case "output-file":
      args.outputFile = v;
      break;
    case "also-write":
    case "full-report": {
      const eq = v.indexOf("=");
      if (eq <= 0 || eq === v.length - 1) throw new UsageError(`--${name} expects FORMAT=PATH (e.g. --${name} ${name === "full-report" ? "json=report.json" : "sarif=report.sarif"}), got "${v}"`);
      (name === "full-report" ? args.fullReport : args.alsoWrite).push({ format: v.slice(0, eq), path: v.slice(eq + 1) });
      break;
    }
    case "max-warnings": {
      const text = v.trim();
      if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`--max-warnings expects a whole number, got "${v}"`);
      const n = Number(text);
      const bad = maxWarningsProblem(n);
      if (bad !== null) throw new UsageError(`--max-warnings ${bad} (got "${v}"), as max_warnings in the config file`);
      args.maxWarnings = n;
      break;
    }
    case "jobs": {
      const text = v.trim();
      if (!/^\+?\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
        throw new UsageError(`--jobs expects a whole number of 1 or more, got "${v}"`);
      }
      args.jobs = Number(text);
      break;
    }
    case "allow-warning":
      for (const part of v.split(",")) {
        const id = part.trim();
        if (id !== "") args.allowWarnings.push(id);
      }
      break;
    case "rule":
      args.ruleSettings.push(parseRuleSetting(v));
      break;
    case "config":
      args.config = v;
      break;
    case "print-config":
      args.printConfig = v;
      break;
    case "stdin-filename":
      args.stdinFilename = v;
      break;
    case "baseline":
      args.baseline = v;
      break;
    case "no-baseline":
      args.noBaseline = true;
      break;
    case "update-baseline":
      args.updateBaseline = true;
      break;
    case "prune-baseline":
      args.pruneBaseline = true;
      break;
    case "platform":
      args.platform = v;
      break;
    case "json":
      args.json = true;
      break;
    case "strict":
      args.strict = true;
      break;
    case "recursive":
      args.recursive = true;
      break;
    case "no-config":
      args.noConfig = true;
      break;
    case "no-inline-config":
      args.noInlineConfig = true;
      break;
    case "report-unused-ignores":
      args.reportUnusedIgnores = true;
      break;
    case "fix":
      args.fix = true;
      break;
    case "fix-dry-run":
      args.fixDryRun = true;
      break;
    case "fix-unsafe":
      args.fixUnsafe = true;
      break;
    case "cache":
      args.cache = true;
      break;
    case "cache-location":
      args.cacheLocation = v;
      break;
    case "stdin":
      args.stdin = true;
      break;
    case "color":
      args.color = true;
      break;
    case "no-color":
      args.color = false;
      break;
    case "quiet":
      args.quiet = true;
      break;
    case "help":
      args.help = true;
      break;
    case "version":
      args.version = true;
      break;
    case "all-platforms":
      args.allPlatforms = true;
      break;
    case "insecure":
      args.insecure = true;
      break;
    default:
      throw new UsageError(`unknown option ${raw}`);
  }
}

export const HELP = `Usage: tfcapi-lint [options] [paths...]
       tfcapi-lint module <dir> [options]
       tfcapi-lint image <ref> [options]
       tfcapi-lint schema --role ROLE <dir>
       tfcapi-lint lsp [--stdio] [--no-plugins]  (the language server, for editors)
       tfcapi-lint rules [--format json]
       tfcapi-lint explain <rule-id> [--format json]
       tfcapi-lint version [--json]

Lint CAPTF (Cluster API Provider Terraform) modules against the module
contract. A path is a module directory or a file inside one (default ".").

Options:
  --role ROLE               cluster, machine or machinepool (default: config
                            file "role", else detected from the module)
  --contract VERSION        contract version (only v1alpha1)
  --format, -f FORMAT       text (default), compact, json, sarif, github,
                            checkstyle, junit
  --json                    same as --format json
  --output-file, -o FILE    write the report to FILE instead of stdout
  --also-write FORMAT=FILE  also write the same run's report in FORMAT to
                            FILE (repeatable; e.g. sarif=tfcapi-lint.sarif)
  --full-report FORMAT=FILE as --also-write, with every finding whatever
                            --quiet hides (for CI steps that count them)
  --strict                  warnings fail the run too
  --max-warnings N          fail when there are more than N warnings
  --allow-warning ID[,ID]   report these rules' warnings as info (repeatable)
  --rule ID=SEVERITY        set a rule's severity: off, info, warning, error
                            (repeatable; overrides the config file)
  --recursive, -r           lint every module directory under the paths
  --jobs, -j N              lint up to N modules at once on worker threads
                            (default: 1, one after another on this thread,
                            unless 4 or more cores are free to use and the
                            run has 1 MB and 2 modules per worker; then one
                            per core but one)
  --config, -c FILE         use this config file (no lookup)
  --no-config               ignore .tfcapi-lint.hcl files
  --print-config PATH       print the effective config for PATH and exit
  --no-inline-config        ignore tfcapi-lint-ignore comments
  --report-unused-ignores   report ignore comments that suppress nothing
  --fix                     apply the safe automatic fixes (they cannot
                            change the plan), then report what remains
  --fix-unsafe              apply the unsafe fixes too (they change the
                            plan: ignore_changes, sensitive, ...); implies
                            --fix, or with --fix-dry-run shows them too
  --fix-dry-run             print the fixes as a diff without writing
  --baseline FILE           known findings to accept (default:
                            .tfcapi-lint-baseline.json beside the config
                            file, else in the working directory, if present)
  --no-baseline             use no baseline file
  --update-baseline         write every current error and warning into the
                            baseline (keeps reasons and expiry dates)
  --prune-baseline          drop baseline entries that match nothing
  --cache                   reuse each module's results from the last run
                            when nothing they depend on changed (contents,
                            never file times; not with --stdin)
  --cache-location PATH     the cache file, or a directory for it
                            (default: .tfcapi-lint-cache in the working
                            directory)
  --stdin                   read one file's text from standard input
  --stdin-filename PATH     the file the --stdin text stands for
  --color, --no-color       force or disable colours
  --quiet, -q               print errors only (the exit code is unchanged)
  --version, -v             print the version
  --help, -h                print this help

Image options (tfcapi-lint image oci:DIR | host[:port]/repo[:tag|@digest]):
  --platform OS/ARCH        the platform to check (default linux/amd64)
  --all-platforms           check every platform of an index
  --insecure                HTTPS without certificate checks, or plain HTTP

Exit codes: 0 nothing failing, 1 findings at or above the threshold,
2 something could not be read (or internal error), 3 usage or config error.
`;

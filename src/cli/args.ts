/**
 * Hand-written argument parsing (no dependency: start-up time matters).
 * Produces a plain description of what was asked, or a usage error.
 */
import type { SeveritySetting } from "../lint/types.js";

export type Command = "lint" | "module" | "image" | "rules" | "explain" | "version" | "help";

export interface CliArgs {
  command: Command;
  /** Positional arguments after the command word (paths, rule id). */
  positionals: string[];
  role?: string;
  contract?: string;
  format?: string;
  outputFile?: string;
  strict: boolean;
  maxWarnings?: number;
  allowWarnings: string[];
  /** `--rule id=severity`, in order. */
  ruleSettings: { id: string; severity: SeveritySetting }[];
  recursive: boolean;
  config?: string;
  noConfig: boolean;
  printConfig?: string;
  noInlineConfig: boolean;
  reportUnusedIgnores: boolean;
  fix: boolean;
  fixDryRun: boolean;
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

const VALUE_OPTIONS = new Set([
  "--role", "--contract", "--format", "-f", "--output-file", "-o", "--max-warnings", "--allow-warning",
  "--rule", "--config", "-c", "--print-config", "--stdin-filename", "--platform",
]);

const FLAG_OPTIONS = new Set([
  "--json", "--strict", "--recursive", "-r", "--no-config", "--no-inline-config", "--report-unused-ignores",
  "--fix", "--fix-dry-run", "--stdin", "--no-color", "--color", "--quiet", "-q", "--help", "-h", "--version", "-v",
  "--all-platforms", "--insecure",
]);

const COMMANDS: Record<string, Command> = { module: "module", image: "image", rules: "rules", explain: "explain", version: "version", help: "help" };

const SEVERITIES: readonly string[] = ["off", "info", "warning", "error"];

function parseRuleSetting(text: string): { id: string; severity: SeveritySetting } {
  const eq = text.lastIndexOf("=");
  const sep = eq >= 0 ? eq : text.lastIndexOf(":");
  if (sep <= 0) throw new UsageError(`--rule expects ID=SEVERITY (e.g. --rule input/default=off), got "${text}"`);
  const id = text.slice(0, sep).trim();
  const severity = text.slice(sep + 1).trim();
  if (!SEVERITIES.includes(severity)) {
    throw new UsageError(`--rule ${id}: severity must be one of off, info, warning, error (got "${severity}")`);
  }
  return { id, severity: severity as SeveritySetting };
}

/** Parse argv (without node and script). Throws UsageError. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = {
    command: "lint",
    positionals: [],
    strict: false,
    allowWarnings: [],
    ruleSettings: [],
    recursive: false,
    noConfig: false,
    noInlineConfig: false,
    reportUnusedIgnores: false,
    fix: false,
    fixDryRun: false,
    stdin: false,
    quiet: false,
    help: false,
    version: false,
    json: false,
    allPlatforms: false,
    insecure: false,
  };
  let commandSeen = false;
  let optionsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (optionsEnded || !token.startsWith("-") || token === "-") {
      if (!commandSeen && args.positionals.length === 0 && !optionsEnded && Object.hasOwn(COMMANDS, token)) {
        args.command = COMMANDS[token]!;
        commandSeen = true;
      } else {
        args.positionals.push(token);
      }
      continue;
    }
    if (token === "--") {
      optionsEnded = true;
      continue;
    }
    let name = token;
    let value: string | undefined;
    const eq = token.indexOf("=");
    if (token.startsWith("--") && eq > 0) {
      name = token.slice(0, eq);
      value = token.slice(eq + 1);
    }
    if (VALUE_OPTIONS.has(name)) {
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`option ${name} needs a value`);
        value = argv[++i]!;
      }
      applyValue(args, name, value);
    } else if (FLAG_OPTIONS.has(name)) {
      if (value !== undefined) throw new UsageError(`option ${name} takes no value`);
      applyFlag(args, name);
    } else {
      throw new UsageError(`unknown option ${name}`);
    }
  }
  return args;
}

function applyValue(args: CliArgs, name: string, value: string): void {
  switch (name) {
    case "--role":
      args.role = value;
      break;
    case "--contract":
      args.contract = value;
      break;
    case "--format":
    case "-f":
      args.format = value;
      break;
    case "--output-file":
    case "-o":
      args.outputFile = value;
      break;
    case "--max-warnings": {
      if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--max-warnings expects a whole number, got "${value}"`);
      const n = Number(value);
      args.maxWarnings = n < 0 ? undefined : n;
      break;
    }
    case "--allow-warning":
      for (const id of value.split(",")) if (id.trim() !== "") args.allowWarnings.push(id.trim());
      break;
    case "--rule":
      args.ruleSettings.push(parseRuleSetting(value));
      break;
    case "--config":
    case "-c":
      args.config = value;
      break;
    case "--print-config":
      args.printConfig = value;
      break;
    case "--stdin-filename":
      args.stdinFilename = value;
      break;
    case "--platform":
      args.platform = value;
      break;
  }
}

function applyFlag(args: CliArgs, name: string): void {
  switch (name) {
    case "--json":
      args.json = true;
      break;
    case "--strict":
      args.strict = true;
      break;
    case "--recursive":
    case "-r":
      args.recursive = true;
      break;
    case "--no-config":
      args.noConfig = true;
      break;
    case "--no-inline-config":
      args.noInlineConfig = true;
      break;
    case "--report-unused-ignores":
      args.reportUnusedIgnores = true;
      break;
    case "--fix":
      args.fix = true;
      break;
    case "--fix-dry-run":
      args.fixDryRun = true;
      break;
    case "--stdin":
      args.stdin = true;
      break;
    case "--no-color":
      args.color = false;
      break;
    case "--color":
      args.color = true;
      break;
    case "--quiet":
    case "-q":
      args.quiet = true;
      break;
    case "--help":
    case "-h":
      args.help = true;
      break;
    case "--version":
    case "-v":
      args.version = true;
      break;
    case "--all-platforms":
      args.allPlatforms = true;
      break;
    case "--insecure":
      args.insecure = true;
      break;
  }
}

export const HELP = `Usage: tfcapi-lint [options] [paths...]
       tfcapi-lint module <dir> [options]
       tfcapi-lint image <ref> [options]
       tfcapi-lint rules [--format json]
       tfcapi-lint explain <rule-id>
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
  --strict                  warnings fail the run too
  --max-warnings N          fail when there are more than N warnings
  --allow-warning ID[,ID]   report these rules' warnings as info (repeatable)
  --rule ID=SEVERITY        set a rule's severity: off, info, warning, error
                            (repeatable; overrides the config file)
  --recursive, -r           lint every module directory under the paths
  --config, -c FILE         use this config file (no lookup)
  --no-config               ignore .tfcapi-lint.hcl files
  --print-config PATH       print the effective config for PATH and exit
  --no-inline-config        ignore tfcapi-lint-ignore comments
  --report-unused-ignores   report ignore comments that suppress nothing
  --fix                     apply automatic fixes, then report what remains
  --fix-dry-run             print the fixes as a diff without writing
  --stdin                   read one file's text from standard input
  --stdin-filename PATH     the file the --stdin text stands for
  --color, --no-color       force or disable colours
  --quiet, -q               report errors only

Image options (tfcapi-lint image oci:DIR | host[:port]/repo[:tag|@digest]):
  --platform OS/ARCH        the platform to check (default linux/amd64)
  --all-platforms           check every platform of an index
  --insecure                plain HTTP to the registry
  --version, -v             print the version
  --help, -h                print this help

Exit codes: 0 nothing failing, 1 findings at or above the threshold,
2 a path cannot be read or internal error, 3 usage or config error.
`;

/**
 * The command-line entry point: `main(argv)` returns the exit code
 * (bin/tfcapi-lint.js sets it). Argument parsing is in args.ts, the lint
 * command in run.ts, the image command in image-command.ts (loaded through
 * image-loader.ts).
 */
import { fstatSync, statSync, writeSync } from "node:fs";
import { type CliArgs, type Command, HELP, parseArgs, UsageError } from "./args.js";
import { explainText, rulesText, versionText } from "./commands.js";
import { runSchema } from "./schema.js";
import { EXIT_OK, EXIT_READ, EXIT_USAGE, readAll, type Io } from "./io.js";
import { catalogueForCwd } from "./module-plans.js";
import { runLint } from "./run.js";
import { ConfigError } from "../config/load.js";
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import { loadImageCommand } from "./image-loader.js";
import { isLspCommand, startLsp } from "./lsp.js";

/**
 * Output goes straight to file descriptors 1 and 2 with synchronous writes:
 * touching process.stdout would load Node's stream machinery (~10 ms of a
 * start that runs on every save). A reader that goes away early
 * (`tfcapi-lint ... | head`) closes the pipe: writing then stops quietly.
 */
const closedFds = new Set<number>();

function writeAll(fd: number, text: string): void {
  if (text === "" || closedFds.has(fd)) return;
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        // A non-blocking pipe set up by the parent is full: wait a moment.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      if (code === "EPIPE") {
        closedFds.add(fd);
        return;
      }
      throw err;
    }
  }
}

/** Whether stdout is a terminal (a character device other than /dev/null), without loading node:tty. */
function stdoutIsTerminal(): boolean {
  let st;
  try {
    st = fstatSync(1);
  } catch {
    return false;
  }
  if (!st.isCharacterDevice()) return false;
  try {
    return statSync("/dev/null").rdev !== st.rdev;
  } catch {
    return true;
  }
}

function defaultIo(): Io {
  return {
    stdout: (t) => writeAll(1, t),
    stderr: (t) => writeAll(2, t),
    readStdin: () => readAll(process.stdin),
    env: process.env,
    cwd: process.cwd(),
    isTTY: stdoutIsTerminal(),
  };
}

/** `rules` and `explain` print text or JSON. */
function textOrJson(args: CliArgs, command: string): boolean {
  const format = args.json ? "json" : (args.format ?? "text");
  if (format !== "json" && format !== "text") throw new UsageError(`${command} supports --format text or json, not "${format}"`);
  return format === "json";
}

type Handler = (args: CliArgs, io: Io) => number | Promise<number>;

/** What each command word runs (`lint` is the default: no command word). */
const COMMANDS: Record<Command, Handler> = {
  lint: runLint,
  module: runLint,
  help(_args, io) {
    io.stdout(HELP);
    return EXIT_OK;
  },
  version(args, io) {
    if (args.positionals.length > 0) throw new UsageError("version takes no arguments");
    io.stdout(versionText(textOrJson(args, "version")));
    return EXIT_OK;
  },
  async rules(args, io) {
    if (args.positionals.length > 0) throw new UsageError("rules takes no arguments");
    const json = textOrJson(args, "rules");
    io.stdout(rulesText(await catalogueForCwd(args, io), json));
    return EXIT_OK;
  },
  async image(args, io) {
    return (await loadImageCommand()).runImage(args, io);
  },
  async explain(args, io) {
    if (args.positionals.length !== 1) throw new UsageError("explain takes exactly one rule id, e.g. tfcapi-lint explain input/default");
    const json = textOrJson(args, "explain");
    // A built-in rule is explained without the plugins (one that cannot load
    // must not hide the docs of input/default); only another id needs them.
    let text = explainText(BUILTIN_CATALOGUE, args.positionals[0]!, json);
    if (text === null) text = explainText(await catalogueForCwd(args, io), args.positionals[0]!, json);
    if (text === null) throw new UsageError(`unknown rule "${args.positionals[0]}" (run "tfcapi-lint rules" for the list)`);
    io.stdout(text);
    return EXIT_OK;
  },
};

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  // `lsp` and `schema` parse their own arguments (lsp.ts, schema.ts).
  if (isLspCommand(argv)) return startLsp(argv);
  if (argv[0] === "schema") return runSchema(argv.slice(1), io);
  const args = parseArgs(argv);
  if (args.help) return COMMANDS.help(args, io);
  if (args.version && args.command === "lint") {
    io.stdout(versionText(args.json));
    return EXIT_OK;
  }
  return COMMANDS[args.command](args, io);
}

/** The entry point of the worker threads (worker-pool.ts; exported by the bundle's loader). */
export { lintWorkerRequest } from "./worker-pool.js";

export async function main(argv: readonly string[], io: Io = defaultIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`tfcapi-lint: ${err.message}\nRun tfcapi-lint --help for usage.\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      io.stderr(`tfcapi-lint: config error:\n${err.message}\n`);
      return EXIT_USAGE;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`tfcapi-lint: internal error: ${message.split("\n")[0]}\n`);
    if (io.env.TFCAPI_LINT_DEBUG === "1" && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    return EXIT_READ;
  }
}

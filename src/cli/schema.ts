/**
 * `tfcapi-lint schema --role ROLE DIR`: print the JSON Schema of the
 * module's user variables, one compact line (the value of the image label
 * `io.captf.variables-schema`).
 *
 * Exit codes: 0 printed; 1 the schema is over the label limit (nothing on
 * stdout); 2 the module cannot be loaded (missing or unreadable directory,
 * no module files, a file that cannot be read or parsed (a looping link), a variable
 * declared twice); 3 usage errors. Its own option parsing, kept apart from
 * the lint command's.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { isRole } from "../contract/roles.js";
import { errorText } from "../terraform/files.js";
import { loadModule } from "../terraform/load.js";
import { schemaSizeError, variablesSchema } from "../contract/variables-schema.js";
import type { Io } from "./io.js";

const EXIT_OK = 0;
const EXIT_TOO_LARGE = 1;
const EXIT_LOAD = 2;
const EXIT_USAGE = 3;

export const SCHEMA_HELP = `Usage: tfcapi-lint schema --role ROLE DIR

Print the JSON Schema of the module's user variables (root variables that
are neither captf_* nor contract inputs of ROLE) as one line of compact
JSON: the value of the image label io.captf.variables-schema.

Options:
  --role ROLE   cluster, machine or machinepool (required)
  -h, --help    show this help

Exit codes: 0 printed; 1 over the 32 KiB label limit; 2 the module cannot
be loaded; 3 usage error.
`;

function usage(io: Io, message: string): number {
  io.stderr(`tfcapi-lint schema: ${message}\nRun tfcapi-lint schema --help for usage.\n`);
  return EXIT_USAGE;
}

export function runSchema(argv: readonly string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { role: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return usage(io, optionErrorText(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(SCHEMA_HELP);
    return EXIT_OK;
  }
  const role = values.role;
  if (role === undefined) return usage(io, "--role is required (cluster, machine or machinepool)");
  if (!isRole(role)) return usage(io, `unknown role "${role}" (use cluster, machine or machinepool)`);
  if (positionals.length === 0) return usage(io, "missing the module directory");
  if (positionals.length > 1) return usage(io, `takes exactly one module directory (got ${positionals.length}: ${positionals.join(" ")})`);
  const dir = positionals[0]!;

  const loaded = loadForSchema(path.resolve(io.cwd, dir));
  if (typeof loaded === "string") {
    io.stderr(`tfcapi-lint schema: cannot load the module in ${dir}: ${loaded}\n`);
    return EXIT_LOAD;
  }
  const schema = variablesSchema(loaded, role);
  const tooLarge = schemaSizeError(schema);
  if (tooLarge !== null) {
    io.stderr(`tfcapi-lint schema: ${tooLarge}\n`);
    return EXIT_TOO_LARGE;
  }
  io.stdout(`${schema}\n`);
  return EXIT_OK;
}

/** The loaded module, or why it cannot be used for a schema. */
function loadForSchema(dir: string): ReturnType<typeof loadModule> | string {
  try {
    if (!statSync(dir).isDirectory()) return "not a directory";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "no such directory";
    if (code === "ENOTDIR") return "a component of the path is not a directory";
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    return errorText(err);
  }
  const load = loadModule(dir);
  const root = load.root;
  const rootProblem = load.problems.find((p) => p.file === "" && p.kind !== "source-escape");
  if (rootProblem) return rootProblem.message;
  // Only the root's own files matter: the schema describes its variables.
  // A link that cannot be resolved (a loop) is a file that cannot be read:
  // whatever it should declare is unknown, as for any unreadable file.
  const fileProblem = load.problems.find((p) => (p.kind !== "source-escape" || p.unresolved === true) && !p.file.includes("/"));
  if (fileProblem) return fileProblem.message.includes(fileProblem.file) ? fileProblem.message : `${fileProblem.file}: ${fileProblem.message}`;
  if (root.allFiles.length === 0) return "no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory";
  for (const f of root.declarations.files) {
    // In JSON syntax only the JSON text and its block structure must be
    // valid to load: the native expressions inside strings (a variable's
    // type among them) are read later, and an unreadable type is `{}`.
    const json = f.extension.endsWith(".json");
    const err = f.diagnostics.find((d) => d.severity === "error" && (!json || d.code === "json-syntax" || d.code === "json-structure"));
    if (err) {
      const where = err.subject ? `${f.path}:${err.subject.start.line}` : f.path;
      return `${where}: ${err.summary}${err.detail ? `: ${err.detail.trim().replace(/\s*\n\s*/g, " ")}` : ""}`;
    }
  }
  const dup = root.declarations.diagnostics.find((d) => d.code === "duplicate-declaration" && d.summary === "Duplicate variable");
  if (dup) return `${dup.file}:${dup.subject?.start.line ?? 0}: ${dup.detail}`;
  return load;
}

function optionErrorText(err: unknown): string {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const m = /Unknown option '([^']+)'/.exec(message);
    return `unknown option ${m ? m[1] : ""}`.trim();
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return message.includes("--role") ? "--role needs a value (cluster, machine or machinepool)" : message.split("\n")[0]!;
  }
  return message.split("\n")[0]!;
}

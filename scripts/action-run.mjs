// The body of the tfcapi-lint GitHub Action (action.yml runs this file with
// Node). Inputs arrive as INPUT_* environment variables, as the runner sets
// them for the step; results go to stdout (the log: annotations with the
// "github" format), $GITHUB_STEP_SUMMARY (written by the CLI with
// "github"), $GITHUB_OUTPUT and, when asked, a SARIF file.
//
// The CLI runs once: the log format on stdout, plus `--also-write` for the
// SARIF file and `--full-report` for the JSON report the counts come from.
// The Action asks for that report itself, after every argument of `args`:
// `-q` may hide warnings from the log and `-o` or `--format` may send it
// elsewhere, but the counts, the outputs and the verdict always cover every
// finding, as the CLI's own exit code does. No shell is involved, so paths
// and arguments with spaces, quotes or newlines reach the CLI intact.
//
// The CLI is always this action's own checkout (GITHUB_ACTION_PATH): nothing
// is fetched by name. The `version` input only states which version the
// workflow expects; any other version than the checkout's is an input error.
//
// Inputs (see action.yml and the README for the full table):
//   this action's own: path, role, recursive, format, fail-on, config,
//     sarif-file, version (checked against the checkout's), args, baseline
//   the Go tfcapi-lint action's: command (module | image), target, strict,
//     allow-warnings, contract, platform, all-platforms, insecure, json
//     (role and args are shared)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;
const here = path.dirname(fileURLToPath(import.meta.url));

class InputError extends Error {
  constructor(message, code = 3) {
    super(message);
    this.code = code;
  }
}

/** The value of an input, as the runner passes it (INPUT_<NAME>, dashes kept or as underscores). */
export function input(name) {
  const upper = name.toUpperCase();
  for (const key of [`INPUT_${upper.replace(/ /g, "_")}`, `INPUT_${upper.replace(/[- ]/g, "_")}`]) {
    if (env[key] !== undefined) return env[key];
  }
  return "";
}

/**
 * Split a list input into words: whitespace (spaces, tabs, newlines)
 * separates words; single quotes keep everything up to the next one,
 * double quotes keep everything but `\"` and `\\` escapes; a backslash
 * outside quotes keeps the next character. Never runs a shell.
 */
export function splitWords(text, what) {
  const words = [];
  let word = null;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new InputError(`${what}: a single quote is not closed`);
      word = (word ?? "") + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = "";
      while (j < text.length && text[j] !== '"') {
        if (text[j] === "\\" && (text[j + 1] === '"' || text[j + 1] === "\\")) {
          s += text[j + 1];
          j += 2;
        } else s += text[j++];
      }
      if (j >= text.length) throw new InputError(`${what}: a double quote is not closed`);
      word = (word ?? "") + s;
      i = j + 1;
    } else if (c === "\\" && i + 1 < text.length) {
      word = (word ?? "") + text[i + 1];
      i += 2;
    } else {
      word = (word ?? "") + c;
      i++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

function bool(name, fallback = false) {
  const v = input(name).trim();
  if (v === "") return fallback;
  if (["true", "True", "TRUE", "1", "yes"].includes(v)) return true;
  if (["false", "False", "FALSE", "0", "no"].includes(v)) return false;
  throw new InputError(`${name} must be true or false, got "${v}"`);
}

/** The CLI argument list the inputs ask for (without the CLI itself). */
export function buildArgs() {
  const command = input("command").trim();
  if (!["", "module", "image"].includes(command)) throw new InputError(`command must be module or image, got "${command}"`);
  const imageOnly = [
    ["platform", input("platform").trim() !== ""],
    ["all-platforms", bool("all-platforms")],
    ["insecure", bool("insecure")],
  ];
  if (command !== "image") {
    for (const [name, set] of imageOnly) if (set) throw new InputError(`${name} is only for command: image`);
  }
  if (imageOnly[0][1] && imageOnly[1][1]) throw new InputError("set either platform or all-platforms, not both");

  // What to lint: target (the Go action's input) or path.
  const target = input("target").trim();
  const pathInput = input("path");
  const paths = splitWords(pathInput, "path");
  let targets;
  if (target !== "") {
    if (paths.length > 0 && !(paths.length === 1 && paths[0] === ".")) throw new InputError("use either target or path, not both");
    targets = [target];
  } else {
    targets = paths.length > 0 ? paths : ["."];
  }
  if (command === "image" && target === "") throw new InputError("command: image needs target (oci:DIR or a registry reference)");
  if (command === "module" && targets.length !== 1) throw new InputError(`command: module lints one directory, got ${targets.length}`);

  const args = command === "" ? [] : [command];
  const role = input("role").trim();
  if (role !== "") args.push("--role", role);
  const contract = input("contract").trim();
  if (contract !== "") args.push("--contract", contract);
  if (bool("recursive")) {
    if (command !== "") throw new InputError(`recursive cannot be combined with command: ${command}`);
    args.push("--recursive");
  }
  if (bool("strict")) args.push("--strict");
  for (const id of splitWords(input("allow-warnings").replace(/,/g, " "), "allow-warnings")) args.push("--allow-warning", id);
  if (command === "image") {
    const platform = input("platform").trim();
    if (platform !== "") args.push("--platform", platform);
    if (bool("all-platforms")) args.push("--all-platforms");
    if (bool("insecure")) args.push("--insecure");
  }
  const config = input("config").trim();
  if (config !== "" && command === "image") throw new InputError("config is not used with command: image (an image is checked without .tfcapi-lint.hcl)");
  if (config !== "") args.push("--config", config);
  const baseline = input("baseline").trim();
  if (baseline !== "" && command === "image") throw new InputError("baseline is not used with command: image");
  if (baseline === "none") args.push("--no-baseline");
  else if (baseline !== "") args.push("--baseline", baseline);
  args.push(...splitWords(input("args"), "args"));

  const json = bool("json");
  const format = json ? "json" : input("format").trim() || "github";
  if (json && input("format").trim() !== "" && input("format").trim() !== "github" && input("format").trim() !== "json") {
    throw new InputError(`json: true conflicts with format: ${input("format").trim()}`);
  }
  args.push("--format", format);

  const failOn = input("fail-on").trim();
  if (!["", "error", "warning", "info", "never"].includes(failOn)) throw new InputError(`fail-on must be error, warning, info or never, got "${failOn}"`);

  const sarifFile = input("sarif-file").trim();
  return { args, targets, format, failOn, sarifFile, command };
}

/** The version in the action checkout's package.json, or null when it cannot be read. */
function checkoutVersion(actionPath) {
  try {
    const v = JSON.parse(readFileSync(path.join(actionPath, "package.json"), "utf8")).version;
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

/**
 * The CLI of this action's own checkout, never a package fetched by name.
 * `version`, when set, must be the checkout's own version ("v" prefix
 * allowed): the version is chosen by the ref in `uses:`.
 */
function cliCommand() {
  const actionPath = env.GITHUB_ACTION_PATH || path.resolve(here, "..");
  const version = input("version").trim();
  if (version !== "" && version !== "bundled") {
    const own = checkoutVersion(actionPath);
    if (own === null || version.replace(/^v/, "") !== own) {
      throw new InputError(
        `version: "${version}" is not this action's version (${own ?? "unknown"}): the action runs only its own checkout and fetches nothing by name; ` +
          "choose the version with the ref in uses: (for example captf-io/tfcapi-lint@<tag or commit>) and leave version empty",
      );
    }
  }
  const built = path.join(actionPath, "dist", "cli.js");
  if (!existsSync(built)) {
    throw new InputError(`the bundled CLI is not built (${built} is missing): run npm ci && npm run build in the action directory`, 2);
  }
  return [process.execPath, path.join(actionPath, "bin", "tfcapi-lint.js")];
}

function writeOutputs(values) {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  let text = "";
  for (const [k, v] of Object.entries(values)) text += `${k}=${v}\n`;
  appendFileSync(file, text);
}

function counts(reportFile) {
  let docs;
  try {
    docs = [].concat(JSON.parse(readFileSync(reportFile, "utf8")));
  } catch (err) {
    throw new InputError(`cannot read the JSON report of the run (${err.message})`, 2);
  }
  const sum = { error: 0, warning: 0, info: 0 };
  for (const d of docs) for (const k of Object.keys(sum)) sum[k] += d.summary[k];
  // Findings in the baseline are listed apart (only when a baseline is in use): never in the summary.
  const baselined = docs.reduce((n, d) => n + (Array.isArray(d.baselined) ? d.baselined.length : 0), 0);
  // A path that could not be read has a document of its own, with no role: not a linted module.
  return { ...sum, baselined, modules: docs.filter((d) => d.role !== "").length };
}

/** The step's outputs: the counts (when there are any to give), the SARIF file and the exit code. */
function outputValues(c, sarifFile, status) {
  return {
    ...(c ? { findings: c.error + c.warning + c.info, errors: c.error, warnings: c.warning, notices: c.info, baselined: c.baselined, modules: c.modules } : {}),
    "sarif-file": sarifFile,
    "exit-code": status,
  };
}

function main() {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  try {
    process.chdir(workspace);
  } catch {
    throw new InputError(`cannot enter the workspace ${workspace}`, 2);
  }
  const plan = buildArgs();
  const cli = cliCommand();
  const tmp = mkdtempSync(path.join(env.RUNNER_TEMP || tmpdir(), "tfcapi-lint-"));
  try {
    const report = path.join(tmp, "report.json");
    const args = [...plan.args];
    if (plan.sarifFile !== "") {
      mkdirSync(path.dirname(path.resolve(plan.sarifFile)), { recursive: true });
      args.push("--also-write", `sarif=${plan.sarifFile}`);
    }
    // Every finding, whatever -q in args hides from the log: the counts.
    args.push("--full-report", `json=${report}`);
    args.push("--", ...plan.targets);
    const r = spawnSync(cli[0], [...cli.slice(1), ...args], { stdio: "inherit" });
    if (r.error) throw new InputError(`cannot run ${cli.join(" ")}: ${r.error.message}`, 2);
    const status = r.status ?? 2;
    if (status >= 2) {
      // A later step may still read what the run did: its exit code always,
      // and the counts and the SARIF file when the run got to write them (a
      // path that cannot be read still leaves a report of the others).
      let c = null;
      try {
        if (existsSync(report)) c = counts(report);
      } catch {
        c = null;
      }
      writeOutputs(outputValues(c, plan.sarifFile !== "" && existsSync(plan.sarifFile) ? plan.sarifFile : "", status));
      throw new InputError(`tfcapi-lint could not lint ${plan.targets.join(" ")} (exit ${status})`, status);
    }
    const c = counts(report);
    writeOutputs(outputValues(c, plan.sarifFile, status));
    switch (plan.failOn) {
      case "":
        return status;
      case "never":
        return 0;
      case "error":
        return c.error > 0 ? 1 : 0;
      case "warning":
        return c.error + c.warning > 0 ? 1 : 0;
      default:
        return c.error + c.warning + c.info > 0 ? 1 : 0;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let code;
  try {
    code = main();
  } catch (caught) {
    const err = caught instanceof InputError ? caught : new InputError(`internal error: ${caught instanceof Error ? caught.message : String(caught)}`, 2);
    process.stdout.write(`::error title=tfcapi-lint action::${err.message.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}\n`);
    code = err.code;
  }
  process.exitCode = code;
}

/**
 * The output formats for the CLI, loaded on demand: a run evaluates only the
 * formatter it uses (SARIF, for instance, loads node:crypto, which costs a
 * few milliseconds of every start). src/report/index.ts is the eager table
 * the library exports; a test keeps the two lists equal.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Formatter, RunReport } from "../lint/result.js";

/** Every format name, in the order help text lists them (`text` is the default). */
export const FORMAT_NAMES: readonly string[] = Object.freeze(["text", "compact", "json", "sarif", "github", "checkstyle", "junit"]);

export function isFormatName(name: string): boolean {
  return FORMAT_NAMES.includes(name);
}

/** The formatter of a format name, or undefined when there is no such format. */
export async function loadFormatter(name: string): Promise<Formatter | undefined> {
  switch (name) {
    case "text":
      return (await import("../report/text.js")).formatText;
    case "compact":
      return (await import("../report/compact.js")).formatCompact;
    case "json":
      return (await import("../report/json.js")).formatJson;
    case "sarif":
      return (await import("../report/sarif.js")).formatSarif;
    case "github":
      return (await import("../report/github.js")).formatGithub;
    case "checkstyle":
      return (await import("../report/checkstyle.js")).formatCheckstyle;
    case "junit":
      return (await import("../report/junit.js")).formatJunit;
    default:
      return undefined;
  }
}

/** The `github` format's job summary (see report/github.ts). */
export async function writeStepSummary(run: RunReport, env: Record<string, string | undefined>): Promise<{ path: string; error?: string } | null> {
  return (await import("../report/step-summary.js")).writeStepSummary(run, env);
}

/** Why a report file could not be written, in words. */
export function outputErrorText(err: unknown, file: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `directory ${path.dirname(file)} does not exist`;
  if (code === "ENOTDIR") return `a component of ${path.dirname(file)} is not a directory`;
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code ?? (err instanceof Error ? err.message : String(err));
}

/**
 * The report of a run: `text` on stdout or in `-o FILE`, then each
 * `--also-write FORMAT=FILE` copy of the same run, then each `--full-report
 * FORMAT=FILE` of `full` (the same run with what `--quiet` hid; `run` itself
 * without --quiet). Returns false (after saying why on stderr) when a file
 * could not be written: exit 2.
 */
export async function writeReports(
  run: RunReport,
  text: string,
  opts: { outputFile?: string; alsoWrite: readonly { format: string; path: string }[]; fullReport?: readonly { format: string; path: string }[] },
  io: { stdout(t: string): void; stderr(t: string): void; env: Record<string, string | undefined> },
  full: RunReport = run,
): Promise<boolean> {
  if (opts.outputFile !== undefined) {
    try {
      writeFileSync(opts.outputFile, text);
    } catch (err) {
      io.stderr(`tfcapi-lint: cannot write the report to ${opts.outputFile}: ${outputErrorText(err, opts.outputFile)}\n`);
      return false;
    }
  } else {
    io.stdout(text);
  }
  const copies = [...opts.alsoWrite.map((a) => ({ ...a, of: run })), ...(opts.fullReport ?? []).map((a) => ({ ...a, of: full }))];
  for (const a of copies) {
    const also = (await loadFormatter(a.format))!;
    try {
      writeFileSync(a.path, also(a.of, { color: false, env: io.env }));
    } catch (err) {
      io.stderr(`tfcapi-lint: cannot write the ${a.format} report to ${a.path}: ${outputErrorText(err, a.path)}\n`);
      return false;
    }
  }
  return true;
}

/**
 * The output formats for the CLI, loaded on demand: a run evaluates only the
 * formatter it uses (SARIF, for instance, loads node:crypto, which costs a
 * few milliseconds of every start). src/report/index.ts is the eager table
 * the library exports; a test keeps the two lists equal.
 */
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

/**
 * The output formats by name. Each formatter is a pure function of the run
 * report and options; the one side effect of the `github` format (the job
 * summary) is `writeStepSummary`, called by the CLI.
 */
import type { Formatter } from "../lint/result.js";
import { formatCheckstyle } from "./checkstyle.js";
import { formatCompact } from "./compact.js";
import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatSarif } from "./sarif.js";
import { formatText } from "./text.js";

const FORMATTERS: Record<string, Formatter> = {
  text: formatText,
  compact: formatCompact,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  checkstyle: formatCheckstyle,
  junit: formatJunit,
};

/** Every format name, in the order help text lists them (`text` is the default). */
export const FORMAT_NAMES: readonly string[] = Object.freeze(Object.keys(FORMATTERS));

export function getFormatter(name: string): Formatter | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATTERS, name) ? FORMATTERS[name] : undefined;
}

export { writeStepSummary, stepSummaryMarkdown } from "./github.js";
export { ruleDoc, ruleDocUrl } from "./docs.js";
export { COMPACT_PATTERN } from "./compact.js";

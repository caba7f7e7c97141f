/**
 * What a lint run produces, handed to the formatters (src/report/). A
 * formatter knows these types and nothing of the module model.
 */
import type { Role } from "../contract/roles-api.js";
import type { FileSetName } from "../terraform/module-types.js";
import type { Finding, RuleDefinition, Severity } from "./types.js";

/** `label`: the image command took the role from the image's io.captf.role label. */
export type RoleSource = "flag" | "config" | "detected" | "label";

export interface Summary {
  error: number;
  warning: number;
  info: number;
}

export interface ModuleReport {
  /** The module path as the user gave it (reference JSON `module`). */
  module: string;
  /** Absolute directory. */
  dir: string;
  contract: "v1alpha1";
  role: Role;
  roleSource: RoleSource;
  /** Why the role was chosen (detection evidence), human-readable. */
  roleEvidence: string[];
  /** The file set expression checks read (`terraform` or `opentofu`). */
  fileSet: FileSetName;
  /** Sorted findings, including suppressed ones (`finding.suppressed` set). */
  findings: Finding[];
  /** Counts of unsuppressed findings. */
  summary: Summary;
  /** Source text of each module file by its relative path (for code frames). */
  sources: Map<string, string>;
  /**
   * Where a declaration of each kind belongs in the root module (a finding
   * about a missing one is shown there, e.g. in SARIF): the file holding
   * most such declarations, else the conventional file when it exists, else
   * the module's first file. Absent when the module has no file.
   */
  homeFiles?: { variable: string; output: string; terraform: string; first: string };
  /** Set under `--quiet` when it left findings out of `findings` (they still count for the exit code). */
  quietHidden?: QuietHidden;
  /**
   * Findings a baseline entry matched, in report order: left out of
   * `findings` and `summary`, never counted for the exit code. Set only when
   * a baseline is in use (RunReport.baseline).
   */
  baselined?: Finding[];
  /** The `reason` of the entry that matched each of `baselined`, in the same order ("" when it gives none). */
  baselineReasons?: string[];
  /** The baseline file the module uses, as shown (set with `baselined`). */
  baselineFile?: string;
  /**
   * Set for the image command's report: findings' files are absolute paths
   * inside the image (`/captf/module/main.tf`), or "" for the image itself.
   */
  image?: ImageInfo;
}

export interface ImageInfo {
  ref: string;
  digest: string;
  platforms: string[];
}

/**
 * Something the run could not read (a path, a directory, a module file, the
 * --stdin text): the run is incomplete, exits 2, and every format shows it.
 */
export interface ReadProblem {
  /** Absolute path of the file or directory. */
  path: string;
  /** It is a directory (SARIF and checkstyle name it differently). */
  directory: boolean;
  /** In plain words, naming the path as the user gave it: "permission denied: nox/main.tf". */
  message: string;
  /** Absolute directory of the module report it belongs to, when one was linted. */
  moduleDir?: string;
  /** Not something unread but a rule that failed (threw, or reported something that is no finding). */
  ruleFailure?: boolean;
  /** The rule that failed, when `ruleFailure` is set (JUnit fails that rule's test case). */
  ruleId?: string;
  /** Not something unread but a module found by --recursive whose role cannot be told (it matches two roles equally): exit 3. */
  roleUnknown?: boolean;
  /**
   * The name to show in place of a path, for what is no file: an image
   * reference in a registry (`path` is then the working directory).
   */
  shownAs?: string;
}

/** What a report calls a problem of the run: `read-error`, `rule-error` for a rule that failed, `role-error` for a module of unknown role. */
export function problemId(e: ReadProblem): "read-error" | "rule-error" | "role-error" {
  return e.ruleFailure === true ? "rule-error" : e.roleUnknown === true ? "role-error" : "read-error";
}

/**
 * What `--quiet` left out of a module's report: unsuppressed warnings and
 * info. `failing` counts those at or above the run's failing severity
 * (`--strict`, `fail_on`), which fail the run although no finding is shown.
 */
export interface QuietHidden {
  hidden: { warning: number; info: number };
  failing: { warning: number; info: number };
  /** What makes them fail, as the user set it: `--strict`, `fail_on = "warning"`. */
  failSetting: string;
}

/**
 * `--quiet`: the findings to show (errors, and suppressed ones of any
 * severity stay out of the counts anyway), and what was hidden, for the
 * report to say why a run with nothing shown fails.
 */
export function quietFilter(findings: readonly Finding[], failOn: Severity, failSetting: string): { shown: Finding[]; hidden?: QuietHidden } {
  const shown = findings.filter((f) => f.severity === "error");
  const hidden = { warning: 0, info: 0 };
  const failing = { warning: 0, info: 0 };
  for (const f of findings) {
    if (f.suppressed || f.severity === "error") continue;
    hidden[f.severity]++;
    if (f.severity === "warning" ? failOn !== "error" : failOn === "info") failing[f.severity]++;
  }
  if (hidden.warning + hidden.info === 0) return { shown };
  return { shown, hidden: { hidden, failing, failSetting } };
}

/** How a fail_on setting reads to the user: `--strict`, or `fail_on = "warning"`. */
export function failSettingText(failOn: Severity, origin: string): string {
  return origin === "--strict" ? "--strict" : `fail_on = "${failOn}"`;
}

/** More warnings than `--max-warnings` / `max_warnings` allow (fails the run). */
export interface WarningLimit {
  warnings: number;
  max: number;
  /** How the limit was set: `--max-warnings` or `max_warnings` (config). */
  setting: string;
  /** How many of the counted warnings `--quiet` left out of the report. */
  hidden?: number;
}

/** A baseline entry as a report shows it: which file, what it keys on, its count and how many findings it matched. */
export interface BaselineEntryState {
  /** The baseline file, as shown to the user. */
  file: string;
  /** The entry's module directory as written in the file (relative to it). */
  module: string;
  /** The linted module it belongs to (absolute directory). */
  moduleDir: string;
  rule: string;
  subject: string;
  count: number;
  matched: number;
  reason?: string;
  expires?: string;
}

/** What the baseline did in a run (RunReport.baseline). */
export interface BaselineReport {
  /** The baseline files in use, as shown. */
  files: string[];
  /** Findings the baseline matched (the modules' `baselined`). */
  baselined: number;
  /** Entries of the linted modules that match fewer findings than their count (matching nothing, or fewer). */
  unmatched: BaselineEntryState[];
  /** Entries past their `expires` day that still match findings: those findings are reported as new. */
  expired: BaselineEntryState[];
  /** The command that drops the unmatched entries (`tfcapi-lint --prune-baseline ...`). */
  pruneCommand: string;
  /** What --update-baseline or --prune-baseline wrote: each file with its number of entries. */
  written?: { file: string; entries: number; changed: boolean }[];
}

export interface RunReport {
  modules: ModuleReport[];
  /** Set only when a baseline is in use; outputs without one stay as they were. */
  baseline?: BaselineReport;
  /** What could not be read (absent or empty: everything was read). */
  readErrors?: ReadProblem[];
  /** Set when the warning limit was exceeded. */
  warningLimit?: WarningLimit;
  /** Rule definitions of the run (for SARIF metadata). */
  rules: readonly RuleDefinition[];
  /** Working directory of the run (absolute). */
  cwd: string;
  /**
   * Repository root (nearest ancestor with `.git`, or GITHUB_WORKSPACE, else
   * cwd): SARIF URIs are relative to it.
   */
  repoRoot: string;
  toolVersion: string;
  /** Lowest severity that fails the run. */
  failOn: Severity;
}

export interface FormatOptions {
  color: boolean;
  /** Environment (GITHUB_STEP_SUMMARY etc.); defaults to process.env. */
  env?: Record<string, string | undefined>;
}

export type Formatter = (run: RunReport, opts: FormatOptions) => string;

/** How a module's role was chosen, in a few words: "from --role", "from the config file", "detected". */
export function roleSourceText(mod: Pick<ModuleReport, "roleSource">): string {
  if (mod.roleSource === "flag") return "from --role";
  if (mod.roleSource === "config") return "from the config file";
  if (mod.roleSource === "label") return "from the io.captf.role label";
  return "detected";
}

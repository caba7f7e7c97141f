/**
 * `tfcapi-lint image <ref>`, the command line around src/image/: check the
 * options, open the image, choose its platform(s), plan the module lint
 * (plan.ts: the image command reads no config), inspect the image
 * (src/image/inspect.ts), apply the severity settings to the image checks,
 * and report in any output format. Built as its own bundle (dist/image.cjs),
 * loaded by image-loader.ts only for this command, so module linting never
 * pays for tar, gzip and zstd code.
 *
 * Exit codes: 0/1 as for `module`; 2 the image cannot be read; 3 an invalid
 * reference, `--platform` or option.
 */
import { isatty } from "node:tty";
import * as path from "node:path";
import { CONTRACT_VERSIONS } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import { adjustSeverity, compareFindings, recount, severityAtLeast } from "../lint/engine.js";
import { BUILTIN_CATALOGUE } from "../catalogue.js";
import { quietFilter, type ModuleReport, type QuietHidden, type RunReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";
import { DEFAULT_CAPS, type Caps, type Progress } from "../image/fs.js";
import { inspectImage, openSource, type Inspection } from "../image/inspect.js";
import { splitLayoutRef } from "../image/layout.js";
import { parsePlatform, selectImages } from "../image/manifest.js";
import { ImageReadError, ImageRefError, ImageUsageError, type ImageSource } from "../image/source.js";
import type { openRegistrySource } from "../image/registry.js";
import { type CliArgs, UsageError } from "./args.js";
import { toolVersion } from "./commands.js";
import { EXIT_FINDINGS, EXIT_OK, EXIT_READ, EXIT_USAGE, type Io } from "./io.js";
import { checkLintOptions, checkRuleFlags } from "./options.js";
import { plan, type LintPlan } from "./plan.js";
import { writeRun } from "./report.js";

export interface ImageCommandOptions {
  /** Size caps (tests make them small). */
  caps?: Caps;
  /** Opens a registry reference (tests may substitute; default: src/image/registry.ts). */
  openRegistry?: typeof openRegistrySource;
  /** Layers at least this large (stored bytes) show progress on a terminal. */
  progressMinBytes?: number;
}

const PROGRESS_MIN = 4 * 1024 * 1024;

function checkArgs(args: CliArgs): { role?: Role; contract: string; format: string } {
  if (args.positionals.length !== 1) {
    throw new UsageError(`image takes exactly one reference, oci:DIR or host/repo[:tag|@digest] (got ${args.positionals.length})`);
  }
  const unsupported: [boolean, string][] = [
    [args.fixUnsafe, "--fix-unsafe"],
    [args.fix, "--fix"],
    [args.fixDryRun, "--fix-dry-run"],
    [args.recursive, "--recursive"],
    [args.stdin, "--stdin"],
    [args.stdinFilename !== undefined, "--stdin-filename"],
    [args.printConfig !== undefined, "--print-config"],
    [args.baseline !== undefined, "--baseline"],
    [args.updateBaseline, "--update-baseline"],
    [args.pruneBaseline, "--prune-baseline"],
    [args.cache, "--cache"],
    [args.cacheLocation !== undefined, "--cache-location"],
  ];
  for (const [set, name] of unsupported) if (set) throw new UsageError(`${name} cannot be used with the image command`);
  const { role, format } = checkLintOptions(args);
  // No config, no plugins: the built-in rules are the image command's catalogue.
  checkRuleFlags(args, BUILTIN_CATALOGUE);
  // The image command reads no config file: say so rather than ignore one named.
  if (args.config !== undefined) throw new UsageError("--config cannot be used with the image command (it reads no .tfcapi-lint.hcl; use --rule and --allow-warning)");
  if (args.platform !== undefined && args.allPlatforms) throw new UsageError("use either --platform or --all-platforms, not both");
  return { ...(role ? { role } : {}), contract: args.contract ?? CONTRACT_VERSIONS[0]!, format };
}

/**
 * The report on stdout (or `-o`), the `--also-write` copies and the job
 * summary. Returns an exit code when a report could not be written, else null.
 */
async function writeReports(run: RunReport, format: string, args: CliArgs, io: Io, full: RunReport = run): Promise<number | null> {
  return (await writeRun(run, format, args, io, { full })) ? null : EXIT_READ;
}

function progressPrinter(io: Io, minBytes: number): Progress | undefined {
  const tty = io.stderrIsTTY ?? isStderrTTY();
  if (!tty) return undefined;
  let last = 0;
  let shown = false;
  const mib = (n: number): string => (n / 1024 / 1024).toFixed(1);
  return ({ layer, index, count, read, done }) => {
    if (layer.size < minBytes) return;
    const now = Date.now();
    if (!done && now - last < 100 && shown) return;
    last = now;
    shown = true;
    const line = `pulling layer ${index + 1}/${count} ${layer.digest.slice(7, 19)}  ${mib(read)}/${mib(layer.size)} MiB`;
    io.stderr(`\r\u001b[2K${line}${done ? "\n" : ""}`);
  };
}

function isStderrTTY(): boolean {
  return isatty(2);
}

/** Runs the image command. Never throws for bad input: returns the exit code. */
export async function runImage(args: CliArgs, io: Io, opts: ImageCommandOptions = {}): Promise<number> {
  let source: ImageSource | null = null;
  /** The output format, once the options are known to be valid. */
  let format: string | null = null;
  try {
    const checked = checkArgs(args);
    format = checked.format;
    const ref = args.positionals[0]!;
    const want = parsePlatform(args.platform ?? "linux/amd64");
    source = await openSource(ref, args.insecure, io.env as NodeJS.ProcessEnv, opts);
    const selection = await selectImages(source, want, args.platform !== undefined, args.allPlatforms);
    // The image command reads no config: the command line's settings alone (the module's own directory is not known yet, nor needed).
    const planned = plan(null, {
      dir: path.resolve(io.cwd),
      overrides: { rules: args.ruleSettings, strict: args.strict },
      allowWarnings: args.allowWarnings,
      inlineConfig: !args.noInlineConfig,
      reportUnusedIgnores: args.reportUnusedIgnores,
    });

    const progress = selection.kind === "platform-mismatch" ? undefined : progressPrinter(io, opts.progressMinBytes ?? PROGRESS_MIN);
    const inspected = await inspectImage(source, selection, {
      ref,
      ...(checked.role ? { role: checked.role } : {}),
      contract: checked.contract,
      allPlatforms: args.allPlatforms,
      lintOptions: planned.options,
      caps: opts.caps ?? DEFAULT_CAPS,
      ...(progress ? { onProgress: progress } : {}),
    });

    const { run, full, failed } = imageRun(args, io, ref, planned, inspected);
    const written = await writeReports(run, checked.format, args, io, full);
    if (written !== null) return written;
    if (inspected.readErrors.length > 0) {
      for (const e of inspected.readErrors) io.stderr(`tfcapi-lint: ${e}\n`);
      return EXIT_READ;
    }
    return failed ? EXIT_FINDINGS : EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ImageUsageError) {
      // A mistake in the command line, said as the module command says it.
      io.stderr(`tfcapi-lint: ${err.message}\nRun tfcapi-lint --help for usage.\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ImageRefError) {
      // A reference that names nothing (no such tag, no directory): the message says what is there.
      io.stderr(`tfcapi-lint: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ImageReadError) return await unreadable(err, args, io, format);
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`tfcapi-lint: image ${args.positionals[0] ?? ""}: ${message.split("\n")[0]}\n`);
    return EXIT_READ;
  } finally {
    await source?.close().catch(() => {});
  }
}

/**
 * The image checks' findings with the severity settings and --allow-warning
 * applied (the module lint applied its own), the report of the image, the
 * one --full-report shows (what --quiet hid included), and whether the
 * findings or the warning limit fail the run.
 */
function imageRun(args: CliArgs, io: Io, ref: string, planned: LintPlan, inspected: Inspection): { run: RunReport; full: RunReport; failed: boolean } {
  const { results, platforms, digest } = inspected;
  const severities = planned.options.severities!;
  const allowed = new Set(args.allowWarnings);
  const catalogue = planned.options.catalogue;
  const imageRuleIds = new Set(catalogue.all.filter((r) => r.tags?.includes("image")).map((r) => r.id));
  let all: Finding[] = [];
  for (const r of results) {
    for (const f of r.findings) {
      if (imageRuleIds.has(f.ruleId)) {
        if (severities.get(f.ruleId) === "off") continue;
        adjustSeverity(f, severities, allowed);
      }
      all.push(f);
    }
  }
  // --max-warnings counts warnings even under --quiet (which only hides them).
  const warnings = all.filter((f) => !f.suppressed && f.severity === "warning").length;
  const failOn = planned.effective.failOn.value;
  all.sort(compareFindings);
  // Every finding, for --full-report; --quiet shows errors only, and the report says what the hidden ones do.
  const unfiltered = all;
  let quietHidden: QuietHidden | undefined;
  if (args.quiet) {
    const q = quietFilter(all, failOn, "--strict");
    quietHidden = q.hidden;
    all = q.shown;
  }

  const first = results[0]!;
  const sources = new Map<string, string>();
  for (const r of results) for (const [k, v] of r.sources) sources.set(k, v);
  const report: ModuleReport = {
    module: ref,
    dir: path.resolve(io.cwd),
    contract: "v1alpha1",
    role: first.role,
    roleSource: first.roleSource,
    roleEvidence: first.roleEvidence,
    fileSet: first.fileSet,
    findings: all,
    summary: recount(all),
    sources,
    image: { ref, digest, platforms },
    ...(quietHidden ? { quietHidden } : {}),
  };
  const overLimit = args.maxWarnings !== undefined && warnings > args.maxWarnings;
  const run: RunReport = {
    modules: [report],
    ...(overLimit ? { warningLimit: { warnings, max: args.maxWarnings!, setting: "--max-warnings", ...(quietHidden && quietHidden.hidden.warning > 0 ? { hidden: quietHidden.hidden.warning } : {}) } } : {}),
    rules: catalogue.all,
    cwd: path.resolve(io.cwd),
    repoRoot: path.resolve(io.cwd),
    toolVersion: toolVersion(),
    failOn,
  };
  const { quietHidden: _hidden, ...shownReport } = report;
  const full: RunReport = all === unfiltered ? run : { ...run, modules: [{ ...shownReport, findings: unfiltered, summary: recount(unfiltered) }] };
  // --quiet only hides: what fails the run is decided on every finding.
  const failed = overLimit || unfiltered.some((f) => !f.suppressed && severityAtLeast(f.severity, failOn));
  return { run, full, failed };
}

/** An image that cannot be read: exit 2 (`format` is null when the options were not valid: no report). */
async function unreadable(err: ImageReadError, args: CliArgs, io: Io, format: string | null): Promise<number> {
  const ref = args.positionals[0] ?? "";
  const message = `cannot read image ${ref}: ${err.message}`;
  // The report still says so, in the format asked for (a CI step that
  // uploads the SARIF file must find one).
  if (format !== null) {
    const layout = ref.startsWith("oci:") ? path.resolve(io.cwd, splitLayoutRef(ref.slice(4)).dir) : null;
    const run: RunReport = {
      modules: [],
      // A registry image has no path: it is shown by its reference (compact REF:0:0, SARIF a logical location).
      readErrors: [layout !== null ? { path: layout, directory: true, message } : { path: path.resolve(io.cwd), directory: true, message, shownAs: ref }],
      rules: BUILTIN_CATALOGUE.all,
      cwd: path.resolve(io.cwd),
      repoRoot: path.resolve(io.cwd),
      toolVersion: toolVersion(),
      failOn: args.strict ? "warning" : "error",
    };
    await writeReports(run, format, args, io);
  }
  io.stderr(`tfcapi-lint: ${message}\n`);
  return EXIT_READ;
}

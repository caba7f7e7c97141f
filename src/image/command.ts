/**
 * `tfcapi-lint image <ref>`: read an image (an OCI layout `oci:DIR[:TAG]`, or
 * a registry reference), choose its platform(s), rebuild its filesystem,
 * run the image checks and the module lint of /captf/module, and report in
 * any output format. Built as its own bundle (dist/image.cjs), loaded only by
 * this command, so module linting never pays for tar, gzip and zstd code.
 *
 * Exit codes: 0/1 as for `module`; 2 the image cannot be read; 3 an invalid
 * reference, `--platform` or option.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { isatty } from "node:tty";
import { fileURLToPath } from "node:url";
import * as path from "node:path";
import * as posix from "node:path/posix";
import { CONTRACT_VERSIONS, isRole } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import { adjustSeverity, compareFindings, lintModule, recount, severityAtLeast, MODULE_RANGE, type LintOptions } from "../lint/engine.js";
import { REGISTRY } from "../lint/meta-rules.js";
import { quietFilter, type ModuleReport, type QuietHidden, type RunReport } from "../lint/result.js";
import type { Finding, Severity, SeveritySetting } from "../lint/types.js";
import type { LoadResult } from "../terraform/module-types.js";
import { type CliArgs, UsageError } from "../cli/args.js";
import { checkLintOptions, checkRuleFlags } from "../cli/options.js";
import { loadFormatter, writeReports as writeReportFiles, writeStepSummary } from "../cli/formats.js";
import { toolVersion } from "../cli/commands.js";
import { quietFailureText } from "../report/util.js";
import { nestingLimit, nestingLimitHits, setNestingLimit } from "../hcl/parser-core.js";
import { DEEP_NESTING_LIMIT, DEEP_STACK_MB } from "../cli/deep.js";
import { EXIT_FINDINGS, EXIT_OK, EXIT_READ, EXIT_USAGE, type Io } from "../cli/run.js";
import { LABEL, runImageChecks, scanModule, type ModuleFiles } from "./checks.js";
import { buildFs, DEFAULT_CAPS, MODULE_DIR, type Caps, type Progress } from "./fs.js";
import { openLayoutSource, splitLayoutRef } from "./layout.js";
import { parsePlatform, selectImages, type SelectedImage } from "./manifest.js";
import { ImageReadError, ImageRefError, type ImageSource } from "./source.js";
import { openRegistrySource } from "./registry.js";
import { useColor } from "../report/color.js";

export interface ImageCommandOptions {
  /** Size caps (tests make them small). */
  caps?: Caps;
  /** Opens a registry reference (tests may substitute; default: src/image/registry.ts). */
  openRegistry?: typeof openRegistrySource;
  /** Layers at least this large (stored bytes) show progress on a terminal. */
  progressMinBytes?: number;
  /** Set on the large-stack worker (imageOnDeepStack): parse up to DEEP_NESTING_LIMIT levels, never hand over again. */
  deep?: boolean;
}

const PROGRESS_MIN = 4 * 1024 * 1024;

/** Opens the source a reference names: `oci:` layouts here, anything else through the registry client. */
export async function openSource(ref: string, insecure: boolean, env: NodeJS.ProcessEnv, opts: ImageCommandOptions = {}): Promise<ImageSource> {
  if (ref.startsWith("oci:")) {
    const { dir, tag } = splitLayoutRef(ref.slice(4));
    return openLayoutSource(ref, dir, tag);
  }
  if (ref === "") throw new ImageRefError("the image reference is empty");
  const open = opts.openRegistry ?? openRegistrySource;
  return open(ref, { insecure, env });
}

function checkArgs(args: CliArgs): { role?: Role; contract: string; format: string } {
  if (args.positionals.length !== 1) {
    throw new UsageError(`image takes exactly one reference, oci:DIR or host/repo[:tag|@digest] (got ${args.positionals.length})`);
  }
  const unsupported: [boolean, string][] = [
    [args.fix, "--fix"],
    [args.fixDryRun, "--fix-dry-run"],
    [args.recursive, "--recursive"],
    [args.stdin, "--stdin"],
    [args.stdinFilename !== undefined, "--stdin-filename"],
    [args.printConfig !== undefined, "--print-config"],
  ];
  for (const [set, name] of unsupported) if (set) throw new UsageError(`${name} cannot be used with the image command`);
  const { role, format } = checkLintOptions(args);
  checkRuleFlags(args);
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
  const formatter = (await loadFormatter(format))!;
  const text = formatter(run, { color: useColor(args, io), env: io.env });
  if (!(await writeReportFiles(run, text, args, io, full))) return EXIT_READ;
  if (format === "compact" || format === "sarif" || format === "checkstyle") {
    // No place for it in these formats: findings --quiet hid that fail the run are said on stderr.
    const why = quietFailureText(run, run.modules);
    if (why !== null) io.stderr(`tfcapi-lint: ${why}\n`);
  }
  if (format === "github") {
    const r = await writeStepSummary(run, io.env);
    if (r?.error) io.stderr(`tfcapi-lint: cannot write the job summary to ${r.path}: ${r.error}\n`);
  }
  return null;
}

/** Writes the module files to a fresh directory (links to directories inside the module become relative links). */
function materialise(files: ModuleFiles): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-image-"));
  for (const [rel, content] of files.files) {
    const abs = path.join(dir, ...rel.split("/"));
    try {
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    } catch {
      // a path that is both a file and a directory in the image: keep the first
    }
  }
  for (const [rel, target] of files.dirLinks) {
    const abs = path.join(dir, ...rel.split("/"));
    mkdirSync(path.dirname(abs), { recursive: true });
    const from = posix.dirname(rel);
    const link = posix.relative(from === "." ? "" : from, target === "." ? "" : target) || ".";
    try {
      symlinkSync(link, abs);
    } catch {
      // a file of the same name already materialised: keep it
    }
  }
  return dir;
}

interface PlatformResult {
  image: SelectedImage;
  findings: Finding[];
  role: Role;
  roleSource: ModuleReport["roleSource"];
  roleEvidence: string[];
  fileSet: ModuleReport["fileSet"];
  sources: Map<string, string>;
}

function moduleLintFindings(
  files: ModuleFiles,
  role: Role | undefined,
  lintOpts: LintOptions,
): { findings: Finding[]; role: Role; roleSource: ModuleReport["roleSource"]; evidence: string[]; load: LoadResult; fileSet: ModuleReport["fileSet"]; sources: Map<string, string>; readErrors: string[] } | { usage: string } {
  const dir = materialise(files);
  try {
    const outcome = lintModule(dir, { ...lintOpts, ...(role ? { role } : {}), displayPath: MODULE_DIR });
    if (outcome.kind === "usage-error") return { usage: `${MODULE_DIR}: ${outcome.message}` };
    if (outcome.kind === "no-module") return { usage: `${MODULE_DIR}: ${outcome.message}` };
    const inImage = (f: string): string => (f === "" ? MODULE_DIR : `${MODULE_DIR}/${f}`);
    const findings = outcome.report.findings.map((f) => ({
      ...f,
      file: inImage(f.file),
      ...(f.related ? { related: f.related.map((r) => ({ ...r, file: inImage(r.file) })) } : {}),
      ...(f.suppressed ? { suppressed: { ...f.suppressed, file: inImage(f.suppressed.file) } } : {}),
    }));
    const sources = new Map<string, string>();
    for (const [k, v] of outcome.report.sources) sources.set(inImage(k), v);
    return {
      findings,
      role: outcome.report.role,
      roleSource: outcome.report.roleSource,
      evidence: outcome.report.roleEvidence,
      load: outcome.load,
      fileSet: outcome.report.fileSet,
      sources,
      readErrors: outcome.readErrors.map((e) => `${inImage(e.file)}: ${e.message}`),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

function severityOverrides(args: CliArgs): Map<string, SeveritySetting> {
  const m = new Map<string, SeveritySetting>();
  for (const r of args.ruleSettings) m.set(r.id, r.severity);
  return m;
}

/** Runs the image command. Never throws for bad input: returns the exit code. */
export async function runImage(args: CliArgs, io: Io, opts: ImageCommandOptions = {}): Promise<number> {
  if (opts.deep === true) setNestingLimit(DEEP_NESTING_LIMIT);
  const hits = nestingLimitHits();
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
    const severities = severityOverrides(args);
    const allowed = new Set(args.allowWarnings);
    const lintOpts: LintOptions = { severities, allowWarnings: args.allowWarnings, inlineConfig: !args.noInlineConfig, reportUnusedIgnores: args.reportUnusedIgnores };

    const results: PlatformResult[] = [];
    const readErrors: string[] = [];
    const digest = selection.digest;
    let platforms: string[];
    let role: Role | undefined = checked.role;
    if (selection.kind === "platform-mismatch") {
      platforms = selection.platforms;
      const finding: Finding = { ruleId: "image/platform", severity: "error", file: "", range: MODULE_RANGE, message: selection.message };
      // Nothing is checked: the role is --role, else the image's label (for the report only).
      const labelRole = selection.labels?.[LABEL.role];
      const shownRole: Role = role ?? (labelRole !== undefined && isRole(labelRole) ? labelRole : "cluster");
      results.push({
        image: null as unknown as SelectedImage,
        findings: [finding],
        role: shownRole,
        roleSource: role ? "flag" : labelRole !== undefined && isRole(labelRole) ? "label" : "detected",
        roleEvidence: role ? [`--role ${role}`] : labelRole !== undefined && isRole(labelRole) ? [`label ${LABEL.role}=${labelRole}`] : [],
        fileSet: "terraform",
        sources: new Map(),
      });
    } else {
      platforms = selection.images.map((i) => i.platform);
      const many = args.allPlatforms;
      const progress = progressPrinter(io, opts.progressMinBytes ?? PROGRESS_MIN);
      for (const image of selection.images) {
        const fs = await buildFs(source, image.layers, { caps: opts.caps ?? DEFAULT_CAPS, ...(progress ? { onProgress: progress } : {}) });
        const scanned = scanModule(fs);
        const labels = image.config.Labels ?? {};
        // The role: --role, else the image's label, else detected from the module.
        let imageRole: Role | undefined = role;
        let roleSource: ModuleReport["roleSource"] = "flag";
        let evidence = role ? [`--role ${role}`] : [];
        const labelRole = labels[LABEL.role];
        if (!imageRole && labelRole !== undefined && isRole(labelRole)) {
          imageRole = labelRole;
          roleSource = "label";
          evidence = [`label ${LABEL.role}=${labelRole}`];
        }
        let load: LoadResult | null = null;
        let findings: Finding[] = [...scanned.findings];
        let fileSet: ModuleReport["fileSet"] = "terraform";
        let sources = new Map<string, string>();
        if (scanned.module.hasTopLevel) {
          const lint = moduleLintFindings(scanned.module, imageRole, lintOpts);
          if ("usage" in lint) throw new UsageError(lint.usage);
          if (!imageRole) {
            roleSource = lint.roleSource;
            evidence = lint.evidence;
          }
          imageRole = lint.role;
          load = lint.load;
          fileSet = lint.fileSet;
          sources = lint.sources;
          findings.push(...lint.findings);
          readErrors.push(...lint.readErrors);
        }
        if (!imageRole) throw new UsageError(`${ref}: cannot tell which role the image is for (no ${LABEL.role} label and no module to detect it from); pass --role`);
        const imageFindings = runImageChecks(
          {
            fs,
            config: image.config,
            os: image.os,
            architecture: image.architecture,
            role: imageRole,
            ...(checked.role ? { roleFlag: checked.role } : {}),
            contract: checked.contract,
            load,
          },
          scanned.module,
        );
        findings.push(...imageFindings);
        if (many) findings = findings.map((f) => ({ ...f, message: `[${image.os}/${image.architecture}] ${f.message}` }));
        results.push({ image, findings, role: imageRole, roleSource, roleEvidence: evidence, fileSet, sources });
        if (!role) role = imageRole;
      }
      // Labels that describe the node differ between platforms.
      if (selection.images.length > 1 && role === "machine") {
        for (const key of [LABEL.capacity, LABEL.nodeInfo]) {
          const values = new Set(selection.images.map((i) => i.config.Labels?.[key] ?? ""));
          if (values.size > 1) {
            results[0]!.findings.push({
              ruleId: "image/label-capacity",
              severity: "warning",
              file: "",
              range: MODULE_RANGE,
              message: `the ${key} label differs between the platforms (${selection.images.map((i) => `${i.platform}: ${i.config.Labels?.[key] ?? "unset"}`).join("; ")})`,
            });
          }
        }
      }
    }

    // Severity settings and --allow-warning for the image checks (the module lint applied its own).
    const imageRuleIds = new Set(REGISTRY.filter((r) => r.tags?.includes("image")).map((r) => r.id));
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
    const failOn: Severity = args.strict ? "warning" : "error";
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
      rules: REGISTRY,
      cwd: path.resolve(io.cwd),
      repoRoot: path.resolve(io.cwd),
      toolVersion: toolVersion(),
      failOn,
    };
    if (nestingLimitHits() > hits && nestingLimit() < DEEP_NESTING_LIMIT) {
      // The module is nested deeper than this thread's stack allows: the
      // whole command again on a thread with a large stack, as `module` and
      // `schema` do (src/cli/deep.ts). Nothing was written yet.
      const again = imageOnDeepStack(args, io, opts);
      if (again !== null) return await again;
    }
    const { quietHidden: _hidden, ...shownReport } = report;
    const full: RunReport = all === unfiltered ? run : { ...run, modules: [{ ...shownReport, findings: unfiltered, summary: recount(unfiltered) }] };
    const written = await writeReports(run, checked.format, args, io, full);
    if (written !== null) return written;
    if (readErrors.length > 0) {
      for (const e of readErrors) io.stderr(`tfcapi-lint: ${e}\n`);
      return EXIT_READ;
    }
    // --quiet only hides: what fails the run is decided on every finding.
    let failed = unfiltered.some((f) => !f.suppressed && severityAtLeast(f.severity, failOn));
    if (overLimit) failed = true;
    return failed ? EXIT_FINDINGS : EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError) {
      // A mistake in the command line, said as the module command says it.
      io.stderr(`tfcapi-lint: ${err.message}\nRun tfcapi-lint --help for usage.\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ImageRefError) {
      // A reference that names nothing (no such tag, no directory): the message says what is there.
      io.stderr(`tfcapi-lint: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ImageReadError) {
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
          rules: REGISTRY,
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
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`tfcapi-lint: image ${args.positionals[0] ?? ""}: ${message.split("\n")[0]}\n`);
    return EXIT_READ;
  } finally {
    await source?.close().catch(() => {});
  }
}

// Runs in the worker: this bundle's runImage with the same arguments and a deep nesting limit.
const DEEP_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const image = require(workerData.bundle);
let stdout = "";
let stderr = "";
const io = { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, readStdin: async () => "", env: workerData.env, cwd: workerData.cwd, isTTY: workerData.isTTY, stderrIsTTY: false };
image.runImage(workerData.args, io, { ...workerData.opts, deep: true }).then(
  (code) => parentPort.postMessage({ code, stdout, stderr }),
  (err) => parentPort.postMessage({ code: 2, stdout, stderr: stderr + "tfcapi-lint: " + (err && err.message ? err.message : String(err)) + "\\n" }),
);
`;

/**
 * The image command on a worker thread with a large stack; null when not
 * running from the bundle (dist/image.cjs), where no worker can load it.
 */
function imageOnDeepStack(args: CliArgs, io: Io, opts: ImageCommandOptions): Promise<number> | null {
  let file: string;
  try {
    file = fileURLToPath(import.meta.url);
  } catch {
    return null;
  }
  if (path.basename(file) !== "image.cjs") return null;
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  return new Promise((resolve) => {
    let reply: { code: number; stdout: string; stderr: string } | undefined;
    const worker = new Worker(DEEP_WORKER_SOURCE, {
      eval: true,
      workerData: {
        bundle: file,
        args,
        env: { ...io.env },
        cwd: io.cwd,
        isTTY: io.isTTY,
        // What can cross the thread boundary (a substituted registry client cannot).
        opts: { ...(opts.caps ? { caps: opts.caps } : {}), ...(opts.progressMinBytes !== undefined ? { progressMinBytes: opts.progressMinBytes } : {}) },
      },
      resourceLimits: { stackSizeMb: DEEP_STACK_MB },
      stdout: false,
      stderr: false,
    });
    worker.on("message", (m: typeof reply) => {
      reply = m;
    });
    worker.on("error", (err) => {
      reply = { code: EXIT_READ, stdout: "", stderr: `tfcapi-lint: ${err.message}\n` };
    });
    worker.on("exit", () => {
      const r = reply ?? { code: EXIT_READ, stdout: "", stderr: "tfcapi-lint: the worker thread stopped without an answer\n" };
      if (r.stdout !== "") io.stdout(r.stdout);
      if (r.stderr !== "") io.stderr(r.stderr);
      resolve(r.code);
    });
  });
}


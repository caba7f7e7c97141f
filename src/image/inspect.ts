/**
 * What `tfcapi-lint image <ref>` finds in an image: the source a reference
 * names, and for each platform chosen, its filesystem rebuilt, the module at
 * /captf/module materialised and linted, the role told (--role, else the
 * image's label, else detection), and the image checks run. The command
 * line around it (options, report, exit codes) is src/cli/image-command.ts.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as posix from "node:path/posix";
import { isRole } from "../contract/roles.js";
import type { Role } from "../contract/roles-api.js";
import { lintModule, MODULE_RANGE, type EngineOptions as LintOptions } from "../lint/engine.js";
import type { ModuleReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";
import type { LoadResult } from "../terraform/module-types.js";
import { LABEL, runImageChecks, scanModule, type ModuleFiles } from "./checks.js";
import { buildFs, MODULE_DIR, type Caps, type Progress } from "./fs.js";
import { openLayoutSource, splitLayoutRef } from "./layout.js";
import type { Selection, SelectedImage } from "./manifest.js";
import { ImageRefError, ImageUsageError, type ImageSource } from "./source.js";
import { openRegistrySource } from "./registry.js";

/** Opens the source a reference names: `oci:` layouts here, anything else through the registry client. */
export async function openSource(ref: string, insecure: boolean, env: NodeJS.ProcessEnv, opts: { openRegistry?: typeof openRegistrySource } = {}): Promise<ImageSource> {
  if (ref.startsWith("oci:")) {
    const { dir, tag } = splitLayoutRef(ref.slice(4));
    return openLayoutSource(ref, dir, tag);
  }
  if (ref === "") throw new ImageRefError("the image reference is empty");
  const open = opts.openRegistry ?? openRegistrySource;
  return open(ref, { insecure, env });
}

/** What the image command was asked, besides the image. */
export interface InspectOptions {
  ref: string;
  /** `--role`. */
  role?: Role;
  /** `--contract` (or the newest). */
  contract: string;
  /** `--all-platforms`: each finding's message names its platform. */
  allPlatforms: boolean;
  /** The module lint's options (from plan, src/cli/plan.ts). */
  lintOptions: LintOptions;
  caps: Caps;
  onProgress?: Progress;
}

/** Each platform's findings and role; what of the module could not be read; the platforms shown. */
export interface Inspection {
  results: PlatformResult[];
  readErrors: string[];
  platforms: string[];
  digest: string;
}

/** Inspects the selected platforms of an image. Throws ImageUsageError when a role cannot be told or detection is ambiguous, ImageReadError when the image cannot be read. */
export async function inspectImage(source: ImageSource, selection: Selection, opts: InspectOptions): Promise<Inspection> {
  const ref = opts.ref;
  const lintOpts = opts.lintOptions;
  const progress = opts.onProgress;
  const results: PlatformResult[] = [];
  const readErrors: string[] = [];
  const digest = selection.digest;
  let platforms: string[];
  let role: Role | undefined = opts.role;
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
    const many = opts.allPlatforms;
    for (const image of selection.images) {
      const fs = await buildFs(source, image.layers, { caps: opts.caps, ...(progress ? { onProgress: progress } : {}) });
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
        if ("usage" in lint) throw new ImageUsageError(lint.usage);
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
      if (!imageRole) throw new ImageUsageError(`${ref}: cannot tell which role the image is for (no ${LABEL.role} label and no module to detect it from); pass --role`);
      const imageFindings = runImageChecks(
        {
          fs,
          config: image.config,
          os: image.os,
          architecture: image.architecture,
          role: imageRole,
          ...(opts.role ? { roleFlag: opts.role } : {}),
          contract: opts.contract,
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

  return { results, readErrors, platforms, digest };
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

/** What one platform of the image gave. */
export interface PlatformResult {
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


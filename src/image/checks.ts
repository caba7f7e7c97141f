/**
 * The image checks: what a module image must hold (module, runtime, mirror),
 * must not hold (files under mounted paths), and its labels and user. Each
 * finding is at line 0 with the file given in the rule table of
 * docs (rules/image/*.md). Pure: reads an ImageFs, the config and the loaded
 * module.
 */
import * as posix from "node:path/posix";
import type { Role } from "../contract/roles-api.js";
import { CONTRACT } from "../contract/roles.js";
import type { Finding, Severity } from "../lint/types.js";
import { MODULE_RANGE } from "../lint/engine.js";
import { buildGraph } from "../terraform/graph.js";
import type { Attribute, Body, Expression } from "../hcl/ast.js";
import { constString, objectKeyName } from "../hcl/walk.js";
import type { LoadResult } from "../terraform/module-types.js";
import { variablesSchema, SCHEMA_LIMIT_BYTES } from "../contract/variables-schema.js";
import { MODULE_DIR, PROVIDERS_DIR, resolvePath, type FsNode, type ImageFs } from "./fs.js";
import type { ImageConfig } from "./manifest.js";

export const LABEL = {
  role: "io.captf.role",
  contract: "io.captf.contract",
  runtime: "io.captf.runtime",
  runtimeVersion: "io.captf.runtime.version",
  schema: "io.captf.variables-schema",
  capacity: "io.captf.capacity",
  nodeInfo: "io.captf.node-info",
} as const;

export const MOUNTED = ["/captf/work", "/var/run/captf/credentials", "/captf/bin", "/captf/config"] as const;

const MODULE_FILE = /\.(tf|tf\.json|tofu|tofu\.json)$/;

export interface ImageCheckInput {
  fs: ImageFs;
  config: ImageConfig;
  os: string;
  architecture: string;
  role: Role;
  /** `--role` as given (label-role compares only then). */
  roleFlag?: Role;
  contract: string;
  /** The module lint's load of /captf/module, when it has a module file. */
  load: LoadResult | null;
}

type Emit = (ruleId: string, severity: Severity, file: string, message: string) => void;

/** The image user: name or uid, and group when given as `user:group`. */
export interface User {
  text: string;
  root: boolean;
  uid: number | null;
  gid: number | null;
}

export function parseUser(text: string | undefined): User {
  const t = (text ?? "").trim();
  const [u = "", g] = t.split(":", 2);
  const root = u === "" || u === "root" || u === "0";
  const uid = /^\d+$/.test(u) ? Number(u) : null;
  const gid = g !== undefined && /^\d+$/.test(g) ? Number(g) : null;
  return { text: t, root, uid, gid };
}

/** Which permission bits of `node` apply to the user (see the permission model in rules/image/module-readable.md). */
function allowed(node: FsNode, user: User, bit: 4 | 1): boolean {
  const m = node.mode;
  if (user.root || user.uid === null) return (m & ((bit << 6) | (bit << 3) | bit)) !== 0;
  if (user.uid === node.uid) return (m & (bit << 6)) !== 0;
  if (user.gid !== null && user.gid === node.gid) return (m & (bit << 3)) !== 0;
  return (m & bit) !== 0;
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, "0")}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

// ---- module, links --------------------------------------------------------

export interface ModuleFiles {
  /** Regular module files (and links read as the file they reach), relative to /captf/module. */
  files: Map<string, Buffer>;
  /** Links to directories inside the module: relative path → relative target directory. */
  dirLinks: Map<string, string>;
  /** Whether a regular module file sits directly in /captf/module. */
  hasTopLevel: boolean;
}

function checkModuleLinks(fs: ImageFs, emit: Emit): ModuleFiles {
  const files = new Map<string, Buffer>();
  const dirLinks = new Map<string, string>();
  for (const p of fs.under(MODULE_DIR)) {
    const node = fs.get(p)!;
    const rel = p.slice(MODULE_DIR.length + 1);
    if (node.type === "file") {
      if (MODULE_FILE.test(p) && node.content !== undefined) files.set(rel, node.content);
      continue;
    }
    if (node.type !== "symlink") continue;
    const r = resolvePath(fs, p);
    let why: string | null = null;
    if (r.kind === "loop") why = `its link chain is longer than 40 hops (a loop?)`;
    else if (r.kind === "escape") why = `it points above the image root`;
    else if (r.kind === "missing") why = `it points to ${r.path}, which does not exist`;
    else if (!inside(r.path, MODULE_DIR)) why = `it points to ${r.path}, outside ${MODULE_DIR}, which is not what the runner copies`;
    else if (r.node !== null && r.node.type !== "file" && r.node.type !== "dir") why = `it points to ${r.path}, which is neither a regular file nor a directory`;
    if (why !== null) {
      emit("image/module-link", "error", p, `link ${p} -> ${node.linkname ?? ""}: ${why}`);
      continue;
    }
    if (r.kind !== "ok") continue;
    if (r.node !== null && r.node.type === "file") {
      const target = fs.get(r.path)!;
      if (MODULE_FILE.test(p) && target.content !== undefined) files.set(rel, target.content);
    } else {
      dirLinks.set(rel, r.path === MODULE_DIR ? "." : r.path.slice(MODULE_DIR.length + 1));
    }
  }
  const hasTopLevel = [...files.keys()].some((rel) => !rel.includes("/"));
  return { files, dirLinks, hasTopLevel };
}

// ---- runtime --------------------------------------------------------------

function checkRuntime(fs: ImageFs, user: User, labels: Record<string, string>, emit: Emit): void {
  const p = "/captf/runtime";
  const own = fs.get(p);
  const r = resolvePath(fs, p);
  const who = user.text === "" ? "root (no user set)" : `user ${user.text}`;
  if (!own && r.kind !== "ok") {
    emit("image/runtime-present", "error", p, `${p} is missing: the runner executes it to run terraform or tofu`);
    return;
  }
  if (r.kind === "loop") {
    emit("image/runtime-present", "error", p, `${p} is a link chain longer than 40 hops (a loop?)`);
    return;
  }
  if (r.kind === "escape") {
    emit("image/runtime-present", "error", p, `${p} links above the image root (${own?.linkname ?? ""})`);
    return;
  }
  if (r.kind === "missing") {
    emit("image/runtime-present", "error", p, `${p} links to ${r.path}, which is not in the image`);
    return;
  }
  if (r.node === null || r.node.type !== "file") {
    emit("image/runtime-present", "error", p, `${p}${r.path !== p ? ` (-> ${r.path})` : ""} is not a regular file`);
    return;
  }
  if (!allowed(r.node, user, 1)) {
    emit(
      "image/runtime-present",
      "error",
      p,
      `${p}${r.path !== p ? ` (-> ${r.path})` : ""} has mode ${octal(r.node.mode)} (owner ${r.node.uid}:${r.node.gid}), so ${who} cannot execute it`,
    );
  }
  const label = labels[LABEL.runtime];
  if (label !== undefined && label !== "") {
    const names = [posix.basename(r.path)];
    if (r.first !== undefined) names.unshift(posix.basename(r.first));
    let found: string | null = null;
    for (const n of names) {
      const low = n.toLowerCase();
      if (low.includes("tofu")) found = "tofu";
      else if (low.includes("terraform")) found = "terraform";
      if (found) break;
    }
    if (found !== null && found !== label) {
      emit("image/runtime-version", "warning", p, `${p} is ${found} (${r.path}) but the ${LABEL.runtime} label says "${label}"`);
    }
  }
}

// ---- provider mirror -------------------------------------------------------

const OS_ARCH = /^[a-z0-9]+_[a-z0-9]+$/;

function checkMirror(fs: ImageFs, input: ImageCheckInput, emit: Emit): void {
  if (!fs.exists(PROVIDERS_DIR)) {
    emit("image/providers-absent", "info", PROVIDERS_DIR, `no provider mirror in ${PROVIDERS_DIR}: terraform init will download providers from their registries when the Job runs`);
    return;
  }
  const osArch = `${input.os}_${input.architecture}`;
  const packages = new Set<string>(); // HOST/NS/TYPE/OS_ARCH with a package
  for (const p of fs.under(PROVIDERS_DIR)) {
    const node = fs.get(p)!;
    const parts = p.slice(PROVIDERS_DIR.length + 1).split("/");
    const depth = parts.length;
    const bad = (what: string): void => emit("image/providers-layout", "error", p, `${p}: ${what}; a mirror holds HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip (and *.json indexes) or HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/`);
    if (depth <= 3) {
      if (node.type !== "dir") bad(`a ${kindText(node)} where a directory (${["HOST", "NAMESPACE", "TYPE"][depth - 1]}) belongs`);
      continue;
    }
    const [host, ns, type] = parts as [string, string, string];
    const key = `${host}/${ns}/${type}`.toLowerCase();
    if (depth === 4) {
      const name = parts[3]!;
      if (node.type === "dir") continue; // VERSION
      if ((node.type === "file" || node.type === "symlink") && name.endsWith(".json")) continue;
      const m = new RegExp(`^terraform-provider-${escapeRe(type)}_[^_/]+_([a-z0-9]+_[a-z0-9]+)\\.zip$`).exec(name);
      if (m && (node.type === "file" || node.type === "symlink")) {
        if (node.type === "symlink") {
          const r = resolvePath(fs, p);
          if (r.kind !== "ok" || r.node === null || r.node.type !== "file" || !r.path.endsWith(".zip")) {
            emit("image/providers-complete", "error", p, `mirror link ${p} -> ${node.linkname ?? ""} ${linkProblem(r, "a zip file")}`);
            continue;
          }
        }
        packages.add(`${key}/${m[1]}`);
        continue;
      }
      bad(`unexpected ${kindText(node)} "${name}"`);
      continue;
    }
    if (depth === 5) {
      const name = parts[4]!;
      if (!OS_ARCH.test(name) || (node.type !== "dir" && node.type !== "symlink")) {
        bad(`unexpected ${kindText(node)} "${name}" (expected an OS_ARCH directory such as linux_amd64)`);
        continue;
      }
      if (node.type === "symlink") {
        const r = resolvePath(fs, p);
        if (r.kind !== "ok" || (r.node !== null && r.node.type !== "dir")) {
          emit("image/providers-complete", "error", p, `mirror link ${p} -> ${node.linkname ?? ""} ${linkProblem(r, "a directory")}`);
          continue;
        }
      }
      packages.add(`${key}/${name}`);
      continue;
    }
    // deeper: inside an unpacked package, anything goes
  }
  // Implied OS_ARCH directories (entries only below them).
  for (const p of fs.under(PROVIDERS_DIR)) {
    const parts = p.slice(PROVIDERS_DIR.length + 1).split("/");
    if (parts.length > 5 && OS_ARCH.test(parts[4]!)) packages.add(`${parts.slice(0, 3).join("/").toLowerCase()}/${parts[4]}`);
  }

  if (input.load === null) return;
  const runtime = input.config.Labels?.[LABEL.runtime];
  for (const src of requiredProviders(input.load)) {
    const hosts = src.host !== null ? [src.host] : runtime === "terraform" ? ["registry.terraform.io"] : runtime === "tofu" ? ["registry.opentofu.org"] : ["registry.terraform.io", "registry.opentofu.org"];
    if (hosts.some((h) => packages.has(`${h}/${src.path}/${osArch}`))) continue;
    const shown = src.host !== null ? `${src.host}/${src.path}` : hosts.length === 1 ? `${hosts[0]}/${src.path}` : src.path;
    emit("image/providers-complete", "error", PROVIDERS_DIR, `the mirror has no ${osArch} package of ${shown}, which the module needs (${src.why})`);
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function kindText(node: FsNode): string {
  return node.type === "dir" ? "directory" : node.type === "symlink" ? "link" : node.type === "file" ? "file" : "special file";
}

function linkProblem(r: ReturnType<typeof resolvePath>, want: string): string {
  if (r.kind === "loop") return "is a link loop";
  if (r.kind === "escape") return "points above the image root";
  if (r.kind === "missing") return "points to nothing";
  return `does not point to ${want} (${r.path})`;
}

interface ProviderNeed {
  host: string | null;
  /** NAMESPACE/TYPE, lower-cased. */
  path: string;
  why: string;
}

const BUILTIN = new Set(["terraform"]);

/** Providers the module needs: required_providers of every unit, and each resource/data type's prefix. */
export function requiredProviders(load: LoadResult): ProviderNeed[] {
  const out = new Map<string, ProviderNeed>();
  const add = (source: string, why: string): void => {
    const parts = source.toLowerCase().split("/");
    let need: ProviderNeed;
    if (parts.length === 1) need = { host: null, path: `hashicorp/${parts[0]}`, why };
    else if (parts.length === 2) need = { host: null, path: parts.join("/"), why };
    else need = { host: parts[0]!, path: parts.slice(1).join("/"), why };
    const key = `${need.host ?? ""}/${need.path}`;
    if (!out.has(key)) out.set(key, need);
  };
  for (const unit of load.units) {
    const mod = unit.declarations;
    const localNames = new Map<string, string>();
    for (const t of mod.terraformBlocks) {
      for (const rp of t.requiredProviders) {
        for (const a of rp.body.attributes) {
          const src = sourceOf(a);
          localNames.set(a.name, src ?? a.name);
          add(src ?? a.name, `required_providers ${a.name}`);
        }
      }
    }
    for (const r of [...mod.resources.values(), ...mod.dataSources.values()]) {
      const prefix = r.type.split("_")[0]!;
      if (BUILTIN.has(prefix)) continue;
      const explicit = r.providerAttr ? providerLocalName(r.providerAttr.expr) : null;
      const local = explicit ?? prefix;
      add(localNames.get(local) ?? local, `${r.mode === "data" ? "data." : ""}${r.address.replace(/^data\./, "")}`);
    }
  }
  return [...out.values()];
}

function sourceOf(a: Attribute): string | null {
  const e = a.expr;
  if (e.kind !== "ObjectCons") return null;
  for (const item of e.items) {
    const key = objectKeyName(item);
    if (key === "source") return constString(item.value);
  }
  return null;
}

function providerLocalName(e: Expression): string | null {
  if (e.kind === "ScopeTraversal") return (e.traversal[0] as { name?: string }).name ?? null;
  return null;
}

// ---- reserved paths, readability ------------------------------------------

function checkReserved(fs: ImageFs, emit: Emit): void {
  for (const dir of MOUNTED) {
    const roots = new Set<string>([dir]);
    const r = resolvePath(fs, dir);
    if (r.kind === "ok") roots.add(r.path);
    const found = new Set<string>();
    for (const root of roots) for (const p of fs.under(root)) if (fs.get(p)!.type !== "dir") found.add(p);
    if (found.size > 0) emit("image/reserved-paths", "error", dir, `${plural(found.size, "file")} under ${dir}, which is mounted when the Job runs (the mount hides them)`);
  }
}

function checkReadable(fs: ImageFs, user: User, emit: Emit): void {
  if (user.root || user.uid === null) return;
  const bad: string[] = [];
  for (const dir of [MODULE_DIR, PROVIDERS_DIR]) {
    const top = fs.get(dir);
    if (top && top.type === "dir" && !allowed(top, user, 1)) bad.push(dir);
    for (const p of fs.under(dir)) {
      const n = fs.get(p)!;
      if (n.type === "file" && !allowed(n, user, 4)) bad.push(p);
      else if (n.type === "dir" && !allowed(n, user, 1)) bad.push(p);
    }
  }
  if (bad.length === 0) return;
  bad.sort();
  const shown = bad.slice(0, 5).join(", ");
  emit(
    "image/module-readable",
    "warning",
    bad[0]!,
    `user ${user.text} cannot read ${plural(bad.length, "path")} (files need r, directories x): ${shown}${bad.length > 5 ? `, and ${bad.length - 5} more` : ""}`,
  );
}

// ---- labels ------------------------------------------------------------------

const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const ARCHITECTURES = ["amd64", "arm64", "s390x", "ppc64le"];

function strictObject(text: string): Record<string, unknown> | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** Why io.captf.capacity is invalid, or null. */
export function capacityProblem(text: string): string | null {
  const o = strictObject(text);
  if (o === null) return "is not a JSON object";
  const keys = Object.keys(o);
  if (keys.length === 0) return "is an empty object";
  for (const k of keys) {
    if (k.length > 316 || !QUALIFIED_NAME.test(k)) return `has key ${JSON.stringify(k)}, which is not a Kubernetes resource name`;
    const v = o[k];
    if (typeof v !== "string" || !QUANTITY.test(v)) return `has ${JSON.stringify(k)}: ${JSON.stringify(v)}, which is not a Kubernetes quantity (e.g. "4", "500m", "8Gi")`;
  }
  return null;
}

/** Why io.captf.node-info is invalid, or null. */
export function nodeInfoProblem(text: string): string | null {
  const o = strictObject(text);
  if (o === null) return "is not a JSON object";
  for (const k of Object.keys(o)) {
    if (k !== "architecture" && k !== "operatingSystem") return `has key ${JSON.stringify(k)} (only architecture and operatingSystem are read)`;
  }
  const arch = o.architecture;
  const osName = o.operatingSystem;
  if (arch !== undefined && typeof arch !== "string") return "has an architecture that is not a string";
  if (osName !== undefined && typeof osName !== "string") return "has an operatingSystem that is not a string";
  if (typeof arch === "string" && arch !== "" && !ARCHITECTURES.includes(arch)) return `has architecture ${JSON.stringify(arch)} (one of ${ARCHITECTURES.join(", ")})`;
  if (typeof osName === "string" && osName.length > 64) return "has an operatingSystem longer than 64 characters";
  if (!(typeof arch === "string" && arch !== "") && !(typeof osName === "string" && osName !== "")) return "sets neither architecture nor operatingSystem";
  return null;
}

function checkLabels(input: ImageCheckInput, labels: Record<string, string>, emit: Emit): void {
  const role = labels[LABEL.role];
  if (role === undefined || role === "") emit("image/label-role", "info", "", `the ${LABEL.role} label is not set (set it to ${input.roleFlag ?? input.role})`);
  else if (input.roleFlag === undefined && !(CONTRACT.inputs as Record<string, unknown>)[role]) {
    emit("image/label-role", "error", "", `the ${LABEL.role} label is "${role}", which is not a role (cluster, machine or machinepool)`);
  } else if (input.roleFlag !== undefined && role !== input.roleFlag) emit("image/label-role", "error", "", `the ${LABEL.role} label is "${role}", but the image is checked as ${input.roleFlag}`);
  const contract = labels[LABEL.contract];
  if (contract === undefined || contract === "") emit("image/label-contract", "info", "", `the ${LABEL.contract} label is not set (set it to ${input.contract})`);
  else if (contract !== input.contract) emit("image/label-contract", "warning", "", `the ${LABEL.contract} label is "${contract}", but the image is checked against ${input.contract}`);

  const cap = labels[LABEL.capacity];
  const info = labels[LABEL.nodeInfo];
  if (input.role === "machine") {
    if (cap === undefined && info === undefined) {
      emit("image/label-capacity", "info", "", `no ${LABEL.capacity} or ${LABEL.nodeInfo} label: the autoscaler cannot scale this machine image from zero`);
    }
    if (cap !== undefined) {
      const why = capacityProblem(cap);
      if (why) emit("image/label-capacity", "error", "", `the ${LABEL.capacity} label ${why}`);
    }
    if (info !== undefined) {
      const why = nodeInfoProblem(info);
      if (why) emit("image/label-capacity", "error", "", `the ${LABEL.nodeInfo} label ${why}`);
    }
  } else if (cap !== undefined || info !== undefined) {
    const which = [cap !== undefined ? LABEL.capacity : null, info !== undefined ? LABEL.nodeInfo : null].filter(Boolean).join(" and ");
    emit("image/label-capacity", "info", "", `${which} ${cap !== undefined && info !== undefined ? "are" : "is"} read for the machine role only, not for ${input.role}`);
  }
}

// ---- the module: schema label, size variable ---------------------------------

const SIZE_ATTRIBUTES = new Set([
  "instance_type", "machine_type", "size", "vm_size", "server_type", "shape", "flavor_name", "flavor_id", "plan", "instance_size", "node_size", "sku",
]);

function checkSchema(input: ImageCheckInput, labels: Record<string, string>, emit: Emit): void {
  if (input.load === null) return;
  const label = labels[LABEL.schema];
  if (label === undefined) return;
  const expected = variablesSchema(input.load, input.role);
  if (Buffer.byteLength(expected, "utf8") > SCHEMA_LIMIT_BYTES) {
    emit("image/variables-schema", "error", "", `the JSON Schema of the module's user variables is over 32 KiB, too large for the ${LABEL.schema} label`);
    return;
  }
  if (label !== expected) {
    emit("image/variables-schema", "error", "", `the ${LABEL.schema} label is not the schema of the module's user variables; set it to the output of tfcapi-lint schema --role ${input.role}: ${expected}`);
  }
}

function userVariables(load: LoadResult, role: Role): Set<string> {
  const contract = new Set(CONTRACT.inputs[role].map((i) => i.name));
  return new Set([...load.root.declarations.variables.keys()].filter((n) => !n.startsWith("captf_") && !contract.has(n)));
}

function sizeAttributes(body: Body, out: Attribute[]): void {
  for (const a of body.attributes) if (SIZE_ATTRIBUTES.has(a.name)) out.push(a);
  for (const b of body.blocks) sizeAttributes(b.body, out);
}

function checkSizeVariable(input: ImageCheckInput, labels: Record<string, string>, emit: Emit): void {
  if (input.role !== "machine" || input.load === null || labels[LABEL.capacity] === undefined) return;
  const users = userVariables(input.load, input.role);
  if (users.size === 0) return;
  const mod = input.load.root.expressions;
  const graph = buildGraph(mod);
  for (const r of mod.resources.values()) {
    const attrs: Attribute[] = [];
    sizeAttributes(r.body, attrs);
    for (const a of attrs) {
      for (const v of users) {
        if (graph.reaches(a.expr, `var.${v}`) !== null) {
          emit(
            "image/capacity-size-variable",
            "warning",
            "",
            `the ${LABEL.capacity} label describes one node size, but user variable "${v}" chooses ${r.address}.${a.name}; build one image per size or drop the variable`,
          );
          return;
        }
      }
    }
  }
}

// ---- all ------------------------------------------------------------------------

export interface ImageCheckResult {
  findings: Finding[];
  module: ModuleFiles;
}

/** The filesystem checks that do not need the module lint, plus which module files to lint. */
export function scanModule(fs: ImageFs): { module: ModuleFiles; findings: Finding[] } {
  const findings: Finding[] = [];
  const module = checkModuleLinks(fs, (ruleId, severity, file, message) => findings.push({ ruleId, severity, file, range: MODULE_RANGE, message }));
  return { module, findings };
}

/** Every image check except image/module-link (see scanModule) and image/platform. */
export function runImageChecks(input: ImageCheckInput, module: ModuleFiles): Finding[] {
  const findings: Finding[] = [];
  const emit: Emit = (ruleId, severity, file, message) => findings.push({ ruleId, severity, file, range: MODULE_RANGE, message });
  const labels = input.config.Labels ?? {};
  const user = parseUser(input.config.User);
  if (!module.hasTopLevel) emit("image/module-present", "error", MODULE_DIR, `no module file (.tf, .tf.json, .tofu, .tofu.json) directly in ${MODULE_DIR}`);
  checkRuntime(input.fs, user, labels, emit);
  checkMirror(input.fs, input, emit);
  checkReserved(input.fs, emit);
  checkLabels(input, labels, emit);
  if (user.root) emit("image/user-root", "warning", "", user.text === "" ? "the image sets no user, so it runs as root; set USER 65532:65532" : `the image runs as root (${user.text}); set USER 65532:65532`);
  else if (user.uid === null) emit("image/user-unresolved", "warning", "", `the image user "${user.text}" is a name; use a numeric uid (e.g. 65532:65532) so permissions can be checked`);
  checkReadable(input.fs, user, emit);
  const ep = input.config.Entrypoint;
  const cmd = input.config.Cmd;
  if ((Array.isArray(ep) && ep.length > 0) || (Array.isArray(cmd) && cmd.length > 0)) {
    emit("image/entrypoint", "info", "", `the image sets ${[Array.isArray(ep) && ep.length > 0 ? "an Entrypoint" : null, Array.isArray(cmd) && cmd.length > 0 ? "a Cmd" : null].filter(Boolean).join(" and ")}, which the runner replaces`);
  }
  checkSchema(input, labels, emit);
  checkSizeVariable(input, labels, emit);
  return findings;
}

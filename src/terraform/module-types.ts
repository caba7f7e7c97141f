/**
 * The Terraform module model: what a directory of `.tf`/`.tf.json`/`.tofu`
 * files declares, with exact ranges. Built by module-builder.ts from parsed files;
 * knows Terraform, not CAPTF.
 */
import type { Attribute, Block, Body, Diagnostic, Expression, File, Range } from "../hcl/ast.js";

export type FileSetName = "terraform" | "opentofu";

export interface SourceFile {
  /** Path relative to the root module directory, `/`-separated (`child/main.tf`). */
  path: string;
  /** Absolute path on disk. */
  absPath: string;
  /** File name only (`main.tf`). */
  name: string;
  /** `.tf`, `.tf.json`, `.tofu`, `.tofu.json` */
  extension: ".tf" | ".tf.json" | ".tofu" | ".tofu.json";
  /** Parsed file (possibly partial when it had errors). */
  hcl: File;
  diagnostics: Diagnostic[];
  /** Terraform override file (`override.tf`, `*_override.tf`, ...). */
  isOverride: boolean;
}

/** A declaration's origin: which file and the whole block's range. */
export interface Declared {
  file: SourceFile;
  block: Block;
  /** The block's range (same as block.range). */
  range: Range;
  /**
   * Override-file blocks merged into this declaration, in merge order. When
   * present, `block`/`range` stay the original declaration's, while merged
   * attributes may come from these files (see `fileOf` in module-builder.ts).
   */
  overriddenBy?: { file: SourceFile; block: Block }[];
}

/** A diagnostic from building the model, with the file it is about. */
export interface ModelDiagnostic extends Diagnostic {
  /** Path relative to the root module directory (a SourceFile path). */
  file: string;
}

export interface Variable extends Declared {
  name: string;
  /** The `type` attribute's expression, if any. */
  typeExpr: Expression | null;
  /** Source text of the type expression (or of the JSON string), if any. */
  typeText: string | null;
  /** The `default` attribute, if any. */
  defaultAttr: Attribute | null;
  /** `nullable` when a constant bool is given; true otherwise (Terraform's default). */
  nullable: boolean;
  nullableAttr: Attribute | null;
  /** `sensitive` when a constant bool is given; false otherwise. */
  sensitive: boolean;
  sensitiveAttr: Attribute | null;
  validations: Block[];
}

export interface Output extends Declared {
  name: string;
  valueAttr: Attribute | null;
  value: Expression | null;
  sensitive: boolean;
  sensitiveAttr: Attribute | null;
  preconditions: Block[];
}

export interface Local {
  name: string;
  attr: Attribute;
  value: Expression;
  file: SourceFile;
  range: Range;
}

export interface Lifecycle {
  block: Block | null;
  /**
   * `ignore_changes`: "all" when `ignore_changes = all`; otherwise the listed
   * attribute paths as text (`desired_capacity`, `scaling_config[0].desired_size`)
   * with their ranges.
   */
  ignoreChanges: "all" | { path: string; range: Range }[];
  ignoreChangesAttr: Attribute | null;
  /** Expressions listed in `replace_triggered_by`. */
  replaceTriggeredBy: Expression[];
  replaceTriggeredByAttr: Attribute | null;
  preventDestroy: boolean | null;
  preventDestroyAttr: Attribute | null;
  createBeforeDestroy: boolean | null;
  preconditions: Block[];
  postconditions: Block[];
}

export interface Resource extends Declared {
  mode: "managed" | "data";
  /** `aws_instance` */
  type: string;
  /** `web` */
  name: string;
  /** `aws_instance.web` or `data.aws_ami.ubuntu` */
  address: string;
  count: Attribute | null;
  forEach: Attribute | null;
  dependsOn: Attribute | null;
  providerAttr: Attribute | null;
  lifecycle: Lifecycle;
  /** The resource body (arguments and nested blocks incl. `dynamic`). */
  body: Body;
}

export interface ProviderConfig extends Declared {
  name: string;
  alias: string | null;
  body: Body;
}

export interface ModuleCall extends Declared {
  name: string;
  sourceAttr: Attribute | null;
  /** The constant source string, when it is one. */
  source: string | null;
  /** Local source (`.`, `..`, `./x`, `../x`). */
  isLocal: boolean;
  /** Arguments other than meta-arguments, by name. */
  args: Map<string, Attribute>;
  count: Attribute | null;
  forEach: Attribute | null;
}

export interface TerraformSettings extends Declared {
  requiredVersion: Attribute | null;
  requiredProviders: Block[];
  backends: Block[];
  clouds: Block[];
}

/** Everything one module (directory) declares, for one file set. */
export interface Module {
  /** Absolute directory. */
  dir: string;
  /** Directory relative to the root module (`""` for the root, `child`, `modules/net`). */
  relDir: string;
  /** Which file set these declarations were read from. */
  fileSet: FileSetName;
  files: SourceFile[];
  variables: Map<string, Variable>;
  outputs: Map<string, Output>;
  locals: Map<string, Local>;
  /** Managed resources by address (`aws_instance.web`). */
  resources: Map<string, Resource>;
  /** Data sources by address (`data.aws_ami.ubuntu`). */
  dataSources: Map<string, Resource>;
  providers: ProviderConfig[];
  moduleCalls: Map<string, ModuleCall>;
  terraformBlocks: TerraformSettings[];
  /**
   * Diagnostics from building the model: codes `duplicate-declaration`,
   * `override-without-base`.
   */
  diagnostics: ModelDiagnostic[];
}

/**
 * A module directory as loaded: both file sets, the set each kind of check
 * reads (reference.md "Which files make a module"), and its loaded local
 * children.
 */
export interface ModuleUnit {
  dir: string;
  /** Relative to the root module directory (`""` for the root). */
  relDir: string;
  /** Every module file of the directory (both sets). */
  allFiles: SourceFile[];
  terraform: Module;
  /** OpenTofu's set; the same object as `terraform` when there is no `.tofu`/`.tofu.json` file (then both read the same files). */
  opentofu: Module;
  /** True when any `.tofu`/`.tofu.json` file exists. */
  hasTofu: boolean;
  /** True when there is no `.tf`/`.tf.json` at all (a `.tofu`-only module). */
  tofuOnly: boolean;
  /** The set declaration checks read: terraform's, or opentofu's when tofuOnly. */
  declarations: Module;
  /** The set expression checks read: opentofu's whenever hasTofu. */
  expressions: Module;
  /** Loaded local child modules, keyed by module call name. */
  children: { call: ModuleCall; unit: ModuleUnit }[];
  /** True when any of the unit's files failed to parse. */
  hasParseErrors: boolean;
}

/** Problems found while loading (escapes, unreadable files, symlinks). */
export interface LoadProblem {
  kind: "source-escape" | "unreadable" | "not-utf8" | "binary" | "too-large";
  message: string;
  /** Path relative to the root, `/`-separated ("" for the root directory). */
  file: string;
  range: Range | null;
  /** A module file that is a symbolic link nothing can be read through (a loop, a missing target). */
  unresolved?: true;
}

export interface LoadResult {
  root: ModuleUnit;
  /** Every unit, root first, then children depth-first. */
  units: ModuleUnit[];
  problems: LoadProblem[];
}

// ------------------------------------------------------------- small constructors

export function modelDiagnostic(
  file: SourceFile,
  subject: Range,
  summary: string,
  detail: string,
  code: string,
): ModelDiagnostic {
  return { severity: "error", summary, detail, subject, code, file: file.path };
}

/** The range of a block's last label (its name), or its type keyword. */
export function labelRange(block: Block): Range {
  return block.labelRanges[block.labelRanges.length - 1] ?? block.typeRange;
}

/**
 * The rule API: rule definitions, the context a rule sees, and findings.
 * See ../../rules/index.ts for the registry.
 */
import type { Attribute, Block, Expression, Range } from "../hcl/ast.js";
import type { LoadResult, Module, ModuleUnit, SourceFile } from "../terraform/module-types.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { Contract, Role } from "../contract/roles-api.js";

export type Severity = "error" | "warning" | "info";
export type SeveritySetting = Severity | "off";

/** How serious a severity is: a higher rank is more serious (info < warning < error). */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

/** A text edit: replace [start, end) (UTF-16 offsets) in `file` with `text`. */
export interface TextEdit {
  /** Path relative to the root module directory. */
  file: string;
  start: number;
  end: number;
  text: string;
}

/**
 * What applying a fix can do to a Terraform plan. `safe`: it cannot change
 * what Terraform creates, updates, replaces or destroys (layout, a one-line
 * block split, an output's value reordered); `--fix`, the language server's
 * fix-all and fix-on-save apply it. `unsafe`: it changes the plan or the
 * resources' lifecycle (`ignore_changes`, `prevent_destroy`, a default, a
 * type, a sensitivity mark); only `--fix-unsafe` applies it, and editors offer
 * it as a quick fix marked unsafe.
 */
export type FixKind = "safe" | "unsafe";

/** Every fix kind, safe first (the order lists and tables use). */
export const FIX_KINDS: readonly FixKind[] = ["safe", "unsafe"];

export interface Fix {
  description: string;
  edits: TextEdit[];
  /**
   * What the fix can do to the plan (see FixKind). A fix that leaves it out
   * is unsafe: the engine sets it on every finding's fix. The built-in fix
   * builders (src/lint/fix-builders.ts) always set it.
   */
  kind?: FixKind;
  /**
   * The node the fix was computed for, as offsets [start, end] in the file of
   * its edits (the fix builders of src/lint/fix-builders.ts set it). Every edit must
   * lie inside it, or the fix is refused. When a rule leaves it out, the
   * engine sets it to the innermost block around the finding's range.
   */
  within?: { start: number; end: number };
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  /**
   * Path relative to the root module directory, `/`-separated; `""` when the
   * finding is about the module as a whole (something missing).
   */
  file: string;
  /**
   * Exact range. For a module-level finding (file ""), line 0 / column 0.
   */
  range: Range;
  message: string;
  fix?: Fix;
  /**
   * The path the rule followed to reach the finding, from the reported node
   * to the value's origin: each hop (a local, a variable, a resource
   * argument, a for_each entry) with its file and exact range. Absent when
   * the rule followed nothing (formats then show nothing extra).
   */
  related?: RelatedLocation[];
  /** Set by suppress.ts when an inline ignore comment covers the finding. */
  suppressed?: { justification: string; file: string; line: number };
  /**
   * What the finding is about, as an HCL address (`resource.aws_lb.api`,
   * `output.exports`, `local.ports`; a file's path outside any block; see
   * src/lint/subject.ts). The engine sets it on every finding; a baseline
   * entry is keyed on it. Never shown in the reference-compatible outputs.
   */
  subject?: string;
}

/** One hop of a finding's path (Finding.related). */
export interface RelatedLocation {
  /** Path relative to the root module directory, `/`-separated (a SourceFile is accepted in report()). */
  file: string;
  range: Range;
  /** A short label: `local.api_port`, `each.value.port <- local.listeners["api"]`. */
  message: string;
}

export interface ReportInput {
  message: string;
  /** The file the range is in (a SourceFile's path, or the SourceFile); omit for module-level. */
  file?: string | SourceFile;
  range?: Range;
  /** Override the rule's default severity for this finding (e.g. error/warning halves). */
  severity?: Severity;
  fix?: Fix;
  /** The hops followed to the value's origin (see Finding.related); `file` may be a SourceFile. */
  related?: readonly { file: string | SourceFile; range: Range; message: string }[];
  /**
   * What a module-level finding is about (Finding.subject), as an HCL
   * address: `output.exports` for a missing output. Give it when reporting
   * something missing; for a finding in a file the engine takes the block
   * around the range.
   */
  subject?: string;
}

export interface RuleContext {
  /** The role being linted. */
  role: Role;
  contract: Contract;
  /** The whole load (root and every child). */
  load: LoadResult;
  /** The unit this invocation checks (root, or a child for scope "all"). */
  unit: ModuleUnit;
  isRoot: boolean;
  /** The set declaration checks read (unit.declarations). */
  declarations: Module;
  /** The set expression checks read (unit.expressions). */
  expressions: Module;
  /** Dependency graph over `expressions` (cached per module). */
  graph: DependencyGraph;
  /** Dependency graph for any module (cached). */
  graphOf(module: Module): DependencyGraph;
  report(finding: ReportInput): void;
}

/** Where a built-in rule comes from (RuleDefinition.provenance). */
export type RuleProvenance = "syntax" | "reference" | "contract-depth" | "control-plane" | "engine" | "image";

export interface RuleDefinition {
  /** Public rule ID, e.g. "output/provider-id-list-shape". */
  id: string;
  severity: Severity;
  /** Roles the rule applies to. */
  roles: readonly Role[];
  /** One line: what it detects. */
  summary: string;
  /**
   * "root": run on the root module only (contract checks);
   * "all": run on the root and every loaded local child.
   */
  scope: "root" | "all";
  fixable: boolean;
  /**
   * The kinds of fix the rule's findings may carry (see FixKind), safe
   * first. Every fixable built-in rule states them; a fixable plugin rule
   * without them may give unsafe fixes only. A fix of a kind not listed is
   * the rule's failure.
   */
  fixKinds?: readonly FixKind[];
  /** Tags for SARIF properties.tags. */
  tags?: readonly string[];
  /** Contract "is not declared" checks are suppressed when a file failed to parse. */
  declarationCheck?: boolean;
  /**
   * The rule's documentation page (Markdown), shown by `explain`, editors and
   * SARIF viewers. Built-in rules keep theirs in rules/<id>.md instead.
   */
  docs?: string;
  /** Where the rule's documentation lives (SARIF helpUri, JSON ruleUrl). */
  url?: string;
  /** The plugin that provides the rule (set by the plugin loader; absent for built-in rules). */
  readonly plugin?: string;
  /**
   * Where a built-in rule comes from: a check of the parser (`syntax`), one
   * the reference linter has (`reference`), a deeper check of the contract
   * (`contract-depth`), a control-plane integration check (`control-plane`),
   * a finding the engine itself makes (`engine`), or a check of the `image`
   * command (`image`). Absent for plugin rules (see `plugin`).
   */
  provenance?: RuleProvenance;
  /**
   * Runs once per module the rule applies to. A declaration check reports
   * from here and returns nothing. A rule that looks at expressions may
   * instead return visitors (`RuleVisitors`): the engine then walks the
   * module's expressions once for every such rule and calls the handlers
   * for the node kinds they name (see docs/rules-api.md).
   */
  check(ctx: RuleContext): void | RuleVisitors;
}

/** The kinds of syntax-tree nodes a visitor can subscribe to: every expression kind, `Attribute` and `Block`. */
export type NodeKind = Expression["kind"] | "Attribute" | "Block";

/** The node of a kind (`"FunctionCall"` -> `FunctionCall`). */
export type NodeOfKind<K extends NodeKind> = K extends "Attribute" ? Attribute : K extends "Block" ? Block : Extract<Expression, { kind: K }>;

/**
 * Where a visited node is. One site object serves a whole attribute (or a
 * block header): read it during the call, do not keep it.
 */
export interface WalkSite {
  /** The file the node is in (pass it as `report({ file })`). */
  readonly file: SourceFile;
  /** The top-level block (`resource`, `data`, `output`, `locals`, `module`, ...) the node is in. */
  readonly block: Block;
  /** The blocks from the top-level one (first) to the innermost one around the node (last; the block itself for a `Block`). */
  readonly blocks: readonly Block[];
  /** The attribute whose expression holds the node; the attribute itself for an `Attribute`; null for a `Block`. */
  readonly attribute: Attribute | null;
}

/** A handler for one node kind. */
export type NodeHandler<K extends NodeKind> = (node: NodeOfKind<K>, site: WalkSite) => void;

/**
 * What `check` may return: handlers by node kind, called in source order as
 * the shared walk reaches each node (a node before its children),
 * `"<Kind>:exit"` handlers after the node's children, and `"Module:exit"`
 * once after the whole module.
 */
export type RuleVisitors = { [K in NodeKind]?: NodeHandler<K> } & { [K in NodeKind as `${K}:exit`]?: NodeHandler<K> } & {
  "Module:exit"?: () => void;
};

/** The kinds of fix a rule may give: none when it is not fixable; `["unsafe"]` for a fixable rule that does not say. */
export function fixKindsOf(rule: Pick<RuleDefinition, "fixable" | "fixKinds">): readonly FixKind[] {
  if (!rule.fixable) return [];
  return rule.fixKinds ?? ["unsafe"];
}

/** The kind of a fix: unsafe unless it says safe. */
export function fixKindOf(fix: Pick<Fix, "kind">): FixKind {
  return fix.kind === "safe" ? "safe" : "unsafe";
}

export function defineRule(def: RuleDefinition): RuleDefinition {
  return def;
}

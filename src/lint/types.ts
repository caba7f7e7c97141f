/**
 * The rule API: rule definitions, the context a rule sees, and findings.
 * See ../../rules/index.ts for the registry.
 */
import type { Range } from "../hcl/ast.js";
import type { LoadResult, Module, ModuleUnit, SourceFile } from "../terraform/model.js";
import type { DependencyGraph } from "../terraform/graph-api.js";
import type { Contract, Role } from "../contract/roles-api.js";

export type Severity = "error" | "warning" | "info";
export type SeveritySetting = Severity | "off";

/** A text edit: replace [start, end) (UTF-16 offsets) in `file` with `text`. */
export interface TextEdit {
  /** Path relative to the root module directory. */
  file: string;
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  description: string;
  edits: TextEdit[];
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
  /** Set by suppress.ts when an inline ignore comment covers the finding. */
  suppressed?: { justification: string; file: string; line: number };
}

export interface ReportInput {
  message: string;
  /** The file the range is in (a SourceFile's path, or the SourceFile); omit for module-level. */
  file?: string | SourceFile;
  range?: Range;
  /** Override the rule's default severity for this finding (e.g. error/warning halves). */
  severity?: Severity;
  fix?: Fix;
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
  check(ctx: RuleContext): void;
}

export function defineRule(def: RuleDefinition): RuleDefinition {
  return def;
}

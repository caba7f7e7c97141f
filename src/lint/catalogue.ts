/**
 * The rule catalogue: one immutable value holding every rule a run knows —
 * the built-in rules of the index (`rules/index.ts`, handed in by whoever
 * builds the catalogue), the engine's own rules, the `image` command's
 * checks and the rules of loaded plugins — with each rule's metadata. The
 * engine, the formatters (docs, SARIF rule metadata), `rules`, `explain`
 * and the language server read it; nothing here is global or mutable:
 * adding plugins makes a new catalogue (`withPlugins`).
 */
import { LOAD_RULES, META_RULES } from "./engine-rules.js";
import type { RuleDefinition } from "./types.js";

export class RuleCatalogue {
  /** The rules of the index, in catalogue order (the README's contract rules). */
  readonly indexRules: readonly RuleDefinition[];
  /** The built-in rules a module lint runs: the index, the engine's load rules it lacks, the suppression rules. */
  readonly builtin: readonly RuleDefinition[];
  /** The checks of the `image` command (a module lint never runs them). */
  readonly imageRules: readonly RuleDefinition[];
  /** Plugin rules, in load order. */
  readonly pluginRules: readonly RuleDefinition[];
  /** The rules a module lint reports on (SARIF, JUnit): the built-in ones, then plugin rules. */
  readonly lint: readonly RuleDefinition[];
  /** Every rule: the module lint's built-in rules, the image checks, then plugin rules (`rules`, `explain`, config validation). */
  readonly all: readonly RuleDefinition[];
  private readonly byId: ReadonlyMap<string, RuleDefinition>;
  private builtinGroups: ReadonlySet<string> | undefined;

  private constructor(indexRules: readonly RuleDefinition[], builtin: readonly RuleDefinition[], imageRules: readonly RuleDefinition[], pluginRules: readonly RuleDefinition[]) {
    this.indexRules = indexRules;
    this.builtin = builtin;
    this.imageRules = imageRules;
    this.pluginRules = pluginRules;
    this.lint = Object.freeze([...builtin, ...pluginRules]);
    this.all = Object.freeze([...builtin, ...imageRules, ...pluginRules]);
    this.byId = new Map(this.all.map((r) => [r.id, r]));
  }

  /** The catalogue of the built-in rules: the index's rules (in order) and the image command's checks. */
  static of(indexRules: readonly RuleDefinition[], imageRules: readonly RuleDefinition[] = []): RuleCatalogue {
    const builtin = Object.freeze([...indexRules, ...LOAD_RULES.filter((r) => !indexRules.some((a) => a.id === r.id)), ...META_RULES]);
    return new RuleCatalogue(Object.freeze([...indexRules]), builtin, Object.freeze([...imageRules]), Object.freeze([]));
  }

  /** Why a plugin rule cannot join this catalogue (its id is taken), or null. */
  conflictOf(rule: RuleDefinition): string | null {
    const owner = this.byId.get(rule.id);
    if (owner === undefined) return null;
    return `rule id "${rule.id}" is already taken${owner.plugin ? ` by plugin ${owner.plugin}` : " by a built-in rule"}`;
  }

  /** This catalogue plus plugin rules (those already in it are skipped). Throws an Error naming a rule whose id is taken. */
  withPlugins(rules: readonly RuleDefinition[]): RuleCatalogue {
    const added = rules.filter((r) => this.byId.get(r.id) !== r);
    if (added.length === 0) return this;
    for (const r of added) {
      const conflict = this.conflictOf(r);
      if (conflict !== null) throw new Error(conflict);
    }
    return new RuleCatalogue(this.indexRules, this.builtin, this.imageRules, Object.freeze([...this.pluginRules, ...added]));
  }

  /** The rule with this id, or undefined. */
  rule(id: string): RuleDefinition | undefined {
    return this.byId.get(id);
  }

  isKnown(id: string): boolean {
    return this.byId.has(id);
  }

  /** Whether `group` (`input`, `lint`, ...) is the first segment of a built-in rule's id: a plugin's ids start with its own name. */
  isBuiltinGroup(group: string): boolean {
    this.builtinGroups ??= new Set(this.builtin.map((r) => r.id.split("/")[0]!));
    return this.builtinGroups.has(group);
  }
}

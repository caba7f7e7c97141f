/**
 * The actions room: code actions on the findings shown at a range (a rule's
 * quick fix, an ignore comment on the line or block, or in the file) and
 * Fix all in one file, applied in passes as --fix does. Fix all (and so fix
 * on save) applies the safe fixes only; an unsafe fix is offered as a quick
 * fix whose title says so, never as the preferred action.
 */
import * as path from "node:path";
import { CodeActionKind, type CodeAction, type Range } from "vscode-languageserver/node.js";
import { fixesByFile, inScope, MAX_FIX_PASSES } from "../lint/apply-fixes.js";
import { settledPasses } from "../lint/fix-passes.js";
import type { Result } from "./diagnostics.js";
import { isModuleFile, pathOf, type Documents } from "./documents.js";
import { fixChanges, ignoreEdit, minimalEdit } from "./edits.js";
import { rangesTouch } from "./positions.js";
import type { Scheduler, Tracked } from "./scheduler.js";

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.tfcapi-lint`;

/** What an unsafe fix's quick-fix title ends with. */
export const UNSAFE_TITLE = " (unsafe: changes the plan)";

export class Actions {
  /** Rule ids whose unsettled fixes the user was told about (once each). */
  private readonly toldUnsettled = new Set<string>();
  /** Fix all by lint result, then by document (path and URI). */
  private readonly fixAllMade = new WeakMap<Result, Map<string, CodeAction | null>>();

  constructor(
    private readonly documents: Documents,
    private readonly scheduler: Scheduler,
    /** Show the user a warning (window/showMessage). */
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Fix all in one file, in passes as --fix does (the safe fixes of this
   * file only): a rule whose fixes still change the file after
   * MAX_FIX_PASSES passes is left out (with one warning naming it), never
   * applied that many times.
   */
  private fixAllText(m: Tracked, result: Result, rel: string): string | null {
    if (result.outcome.kind !== "report") return null;
    const original = result.outcome.report.sources.get(rel);
    if (original === undefined) return null;
    const passes = settledPasses(m.dir, result.opts, result.outcome, { baseText: (file) => (file === rel ? original : undefined), scope: "safe" });
    for (const e of passes.events) {
      if (e.kind !== "unsettled" || this.toldUnsettled.has(e.ruleId)) continue;
      this.toldUnsettled.add(e.ruleId);
      this.warn(`tfcapi-lint: the fixes of rule ${e.ruleId} did not settle in ${MAX_FIX_PASSES} passes (each pass changed ${rel} again); Fix all leaves them out and applies the other rules' fixes`);
    }
    const text = passes.texts.get(rel);
    return text === undefined || text === original ? null : text;
  }

  /** The code actions for a range of a document, of the kinds in `only` (all when empty). */
  codeActions(uri: string, range: Range, only: readonly string[] | undefined): CodeAction[] {
    const abs = pathOf(uri);
    if (abs === null || !isModuleFile(abs)) return [];
    const wanted = (kind: string): boolean => !only || only.length === 0 || only.some((o) => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];
    const titles = new Set<string>();
    const add = (a: CodeAction): void => {
      if (titles.has(a.title) || !wanted(a.kind!)) return;
      titles.add(a.title);
      actions.push(a);
    };
    const ignores: CodeAction[] = [];
    for (const { m, result, rel, list } of this.scheduler.shownIn(abs)) {
      const file = result.files.get(rel);
      const ix = result.indexes?.get(rel);
      if (!file || !ix || !result.indexes) continue;
      for (const p of list) {
        if (!rangesTouch(p.diagnostic.range, range)) continue;
        const f = p.finding;
        if (f.fix) {
          const changes = fixChanges(f.fix, m.dir, result.indexes);
          if (changes && inScope(f.fix, "safe")) add({ title: f.fix.description, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], isPreferred: true, edit: { changes } });
          else if (changes) add({ title: f.fix.description + UNSAFE_TITLE, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], edit: { changes } });
        }
        const targetUri = this.documents.uriOf(abs);
        if (!p.moduleLevel) {
          const edit = ignoreEdit(file, f, false, ix);
          if (edit) ignores.push({ title: `Ignore ${f.ruleId} on this line/block`, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], edit: { changes: { [targetUri]: [edit] } } });
        }
        const fileEdit = ignoreEdit(file, f, true, ix);
        if (fileEdit) ignores.push({ title: `Ignore ${f.ruleId} in this file`, kind: CodeActionKind.QuickFix, diagnostics: [p.diagnostic], edit: { changes: { [targetUri]: [fileEdit] } } });
      }
    }
    for (const a of ignores) add(a);
    if (wanted(FIX_ALL_KIND)) {
      const fixAll = this.fixAllAction(abs);
      if (fixAll) add(fixAll);
    }
    return actions;
  }

  /**
   * Fix all in the document `abs` (safe fixes only), when its own module has
   * safe fixes in it and applying them changes it. Made once per lint result
   * and file: editors ask for code actions as the cursor moves, and the
   * passes lint the module again.
   */
  private fixAllAction(abs: string): CodeAction | null {
    const own = this.scheduler.get(path.dirname(abs));
    const result = own ? this.scheduler.current(own) : null;
    if (!own || !result) return null;
    let made = this.fixAllMade.get(result);
    if (!made) this.fixAllMade.set(result, (made = new Map()));
    const uri = this.documents.uriOf(abs);
    const key = `${abs}\n${uri}`;
    if (!made.has(key)) made.set(key, this.makeFixAll(own, result, path.basename(abs), uri));
    return made.get(key)!;
  }

  private makeFixAll(own: Tracked, result: Result, name: string, uri: string): CodeAction | null {
    if (result.outcome.kind !== "report" || !fixesByFile(result.outcome.report.findings, undefined, "safe").has(name)) return null;
    const after = this.fixAllText(own, result, name);
    const ix = result.indexes?.get(name);
    const before = result.outcome.report.sources.get(name);
    const edit = after !== null && ix && before !== undefined ? minimalEdit(before, after, ix) : null;
    return edit ? { title: "Fix all auto-fixable tfcapi-lint findings in this file", kind: FIX_ALL_KIND, edit: { changes: { [uri]: [edit] } } } : null;
  }
}

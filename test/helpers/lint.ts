/**
 * The engine with the rule catalogue the tests' process knows (the built-in
 * rules plus any plugin a test loaded through a config), as the CLI runs it:
 * tests pass options, the catalogue is filled in here.
 */
import { lintModule as lintWith, lintSteps as lintStepsWith, type EngineOptions, type LintOptions, type LintOutcome } from "../../src/lint/engine.js";
import { knownRules } from "../../src/config/known-rules.js";

export function lintModule(dir: string, opts: LintOptions = {}): LintOutcome {
  return lintWith(dir, { ...opts, catalogue: knownRules() });
}

export function lintSteps(dir: string, opts: LintOptions = {}): Generator<void, LintOutcome, void> {
  return lintStepsWith(dir, { ...opts, catalogue: knownRules() });
}

/** The options with the catalogue filled in, for functions that take the engine's options (fixOnDisk). */
export function engineOptions(opts: LintOptions): EngineOptions {
  return { ...opts, catalogue: knownRules() };
}

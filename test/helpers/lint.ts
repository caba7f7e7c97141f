/**
 * The engine with the built-in rule catalogue, as the CLI runs a module
 * whose config lists no plugin: tests pass options, the catalogue is filled
 * in here.
 */
import { lintModule as lintWith, lintSteps as lintStepsWith, type EngineOptions, type LintOptions, type LintOutcome } from "../../src/lint/engine.js";
import { BUILTIN_CATALOGUE } from "../../src/catalogue.js";

export function lintModule(dir: string, opts: LintOptions = {}): LintOutcome {
  return lintWith(dir, { ...opts, catalogue: BUILTIN_CATALOGUE });
}

export function lintSteps(dir: string, opts: LintOptions = {}): Generator<void, LintOutcome, void> {
  return lintStepsWith(dir, { ...opts, catalogue: BUILTIN_CATALOGUE });
}

/** The options with the catalogue filled in, for functions that take the engine's options (fixOnDisk). */
export function engineOptions(opts: LintOptions): EngineOptions {
  return { ...opts, catalogue: BUILTIN_CATALOGUE };
}

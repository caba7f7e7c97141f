// Types for scripts/fixture-modules.mjs (fixture modules by difference).
export declare const REPO_ROOT: string;
export declare class FixtureError extends Error {}
export interface FixtureEdit {
  file: string;
  find: string;
  replace: string;
}
export interface FixtureCase {
  /** The case folder (absolute). */
  dir: string;
  /** The parsed expected.json. */
  expected: Record<string, unknown>;
  /** The base module folder (absolute), or null for a standalone module. */
  base: string | null;
  remove: string[];
  edits: FixtureEdit[];
}
export declare function readCase(dir: string): FixtureCase;
export declare function filesUnder(dir: string, skip?: Set<string>): string[];
export declare function buildModule(spec: FixtureCase, dest: string): void;
export declare function buildRoot(): string;
export declare function moduleDir(dir: string): string;
export declare function moduleDirOf(dir: string): string;
export declare function findCaseDirs(dir: string): string[];

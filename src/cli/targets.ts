/**
 * What a lint run lints: the paths given (or the `--stdin` text), each once,
 * without what the config excludes; with `--recursive`, every module
 * directory below them; with module files named one by one (pre-commit),
 * the modules above them that may call their directories. What cannot be
 * read is collected as a problem, not thrown: the run goes on with the rest
 * and every format shows it.
 */
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import type { ConfigResolver } from "../config/load.js";
import type { LintOptions } from "../lint/engine.js";
import type { ReadProblem } from "../lint/result.js";
import { decodeModuleText } from "../terraform/files.js";
import { repositoryRootOf } from "../config/repository.js";
import type { CliArgs } from "./args.js";
import type { Io } from "./io.js";
import { findModuleDirs, isAtOrUnder, isModuleFileName, joinDisplay, moduleDirOf, PathError, realOf, type Listed, type Target } from "./paths.js";
import { excludedBy, excludingPattern } from "./plan.js";

/** A path given to --recursive, and what its walk yielded. */
interface RecursiveWalk {
  root: Target;
  problems: number;
  excluded: number;
}

export interface Targets {
  /** The modules to lint, each once, in the order found. */
  targets: Target[];
  /** The `--stdin` text and the file it stands for. */
  stdin: LintOptions["stdin"];
  /** What could not be read (the run's readErrors, which the report adds to). */
  problems: ReadProblem[];
  /** Whether a module another linted module loads as a local child is reported as part of it, not on its own. */
  nesting: boolean;
  /** For a directory above module files named one by one: those files' directories (it is of interest only when it loads one). */
  onlyIfLoads(target: Target): string[] | undefined;
  /** --recursive: what each path given yielded (to say so when it holds no module at all). */
  walks: RecursiveWalk[];
  /** Real directories of the modules the walks found. */
  walkedDirs: string[];
  /** --recursive: every directory the walks listed, with its entries (Walk.listings). */
  listings: Map<string, Listed>;
}

/** The modules a run lints, and what could not be read (collected, not thrown). */
export async function findTargets(args: CliArgs, io: Io, resolver: ConfigResolver): Promise<Targets> {
  const problems: ReadProblem[] = [];
  const problem = (e: PathError): void => {
    problems.push({ path: e.abs, directory: e.directory, message: e.message });
  };
  let stdin: LintOptions["stdin"];
  let roots: Target[] = [];
  if (args.stdin) {
    const r = await stdinTarget(args.stdinFilename!, io);
    if (r instanceof PathError) problem(r);
    else {
      stdin = r.stdin;
      roots = [r.target];
    }
  } else {
    const given = args.positionals.length > 0 ? args.positionals : ["."];
    for (const p of given) {
      try {
        roots.push(moduleDirOf(p, io.cwd));
      } catch (err) {
        if (!(err instanceof PathError)) throw err;
        problem(err);
      }
    }
  }
  // A path named directly that the config excludes is not linted, and
  // the run says so (a clean pass would claim it was checked).
  roots = roots.filter((root) => {
    const named = root.file ?? root.dir;
    const config = resolver.forDir(root.dir);
    const pattern = excludingPattern(config, named);
    if (pattern === null) return true;
    const shown = root.file !== undefined ? joinDisplay(root.display, path.basename(root.file)) : root.display;
    io.stderr(`tfcapi-lint: ${shown}: not linted: excluded by the pattern "${pattern}" in ${config!.path}\n`);
    return false;
  });

  const targets: Target[] = [];
  const seen = new Set<string>();
  const add = (t: Target): void => {
    const real = realOf(t.dir);
    if (seen.has(real)) return;
    seen.add(real);
    targets.push(t);
  };
  const walked = new Set<string>();
  const walks: RecursiveWalk[] = [];
  const walkedDirs: string[] = [];
  const listings = new Map<string, Listed>();
  for (const root of roots) {
    if (args.recursive) {
      const walk = findModuleDirs(
        root,
        (abs, parent) => excludedBy(resolver.forDir(parent), abs),
        walked,
        (dir, names) => resolver.listed(dir, names),
      );
      for (const t of walk.targets) add(t);
      for (const e of walk.problems) problem(e);
      walks.push({ root, problems: walk.problems.length, excluded: walk.excluded });
      for (const t of walk.targets) walkedDirs.push(realOf(t.dir));
      for (const [dir, listed] of walk.listings) listings.set(dir, listed);
    } else {
      add(root);
    }
  }
  // Module files named one by one (pre-commit): a file of a local child
  // module is linted through the module that calls its directory, when
  // that module is among the paths or in a directory above them, as
  // --recursive would report it.
  const byFiles = !args.recursive && !args.stdin && args.command !== "module" && targets.some((t) => t.file !== undefined);
  const fileDirs = new Set(targets.filter((t) => t.file !== undefined).map((t) => realOf(t.dir)));
  const ancestors = new Set<string>();
  if (byFiles) {
    // The directory of a file named on its own was found, not named.
    for (const t of targets) if (t.file !== undefined) t.found = true;
    const boundary = searchBoundary(io.cwd);
    for (const t of targets.filter((x) => x.file !== undefined)) {
      for (const dir of ancestorModuleDirs(t.dir, boundary)) {
        if (seen.has(realOf(dir))) continue;
        const rel = path.relative(io.cwd, dir);
        add({ dir, display: path.isAbsolute(t.display) ? dir : rel === "" ? "." : rel.split(path.sep).join("/"), found: true });
        ancestors.add(realOf(dir));
      }
    }
  }
  return {
    targets,
    stdin,
    problems,
    nesting: args.recursive || byFiles,
    onlyIfLoads: (target) => (ancestors.has(realOf(target.dir)) ? [...fileDirs] : undefined),
    walks,
    walkedDirs,
    listings,
  };
}

/**
 * A path given to --recursive under which no module was linted (none held
 * module files, or every one was skipped) is said to be so, as a directory
 * without module files named directly is. `reported`: real directories of
 * the modules reported, on their own or as a local child of one.
 */
export function sayEmptyWalks(found: Targets, reported: ReadonlySet<string>, io: Io): void {
  const problems = found.problems;
  for (const w of found.walks) {
    // Something under it was reported, could not be read, or could not be
    // told: that says enough.
    const rootReal = realOf(w.root.dir);
    if ([...reported].some((d) => isAtOrUnder(d, rootReal))) continue;
    if (w.problems > 0 || problems.some((p) => isAtOrUnder(realOf(p.path), rootReal))) continue;
    const dirs = found.walkedDirs.filter((d) => isAtOrUnder(d, rootReal)).length;
    if (dirs === 0 && w.excluded > 0) {
      // The config left nothing: said, not an error (as for a path named directly that it excludes).
      io.stderr(`tfcapi-lint: ${w.root.display}: not linted: every module file in this directory or below is excluded by the config\n`);
      continue;
    }
    const what =
      dirs === 0
        ? "no module files (.tf, .tf.json, .tofu, .tofu.json) in this directory or below"
        : `no CAPTF role module in this directory or below (${dirs === 1 ? "1 directory" : `${dirs} directories`} with module files, none showing enough evidence of a role); set role in .tfcapi-lint.hcl or pass --role to lint them`;
    problems.push({ path: w.root.dir, directory: true, message: `${w.root.display}: ${what}` });
  }
}

/** How far up to look for a module calling a named file's directory: the repository root, else the working directory. */
function searchBoundary(cwd: string): string {
  return repositoryRootOf(cwd) ?? path.resolve(cwd);
}

/** Directories strictly above `dir`, up to `boundary` (when `dir` is inside it), that hold module files; nearest first. */
function ancestorModuleDirs(dir: string, boundary: string): string[] {
  const out: string[] = [];
  const rel = path.relative(boundary, dir);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return out;
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      names = [];
    }
    if (names.some(isModuleFileName)) out.push(d);
    if (d === boundary || path.dirname(d) === d) break;
  }
  return out;
}

/** The target and text of `--stdin`, or what is wrong with them. */
async function stdinTarget(filename: string, io: Io): Promise<{ target: Target; stdin: { path: string; text: string } } | PathError> {
  const abs = path.resolve(io.cwd, filename);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    // the file need not exist (an editor's new buffer)
  }
  if (isDir) return new PathError(`--stdin-filename ${filename} is a directory, not a module file; nothing was linted`, abs, true);
  if (!isModuleFileName(path.basename(abs))) {
    return new PathError(`--stdin-filename ${filename} is not a module file name (.tf, .tf.json, .tofu, .tofu.json); nothing was linted`, abs, false);
  }
  const shownDir = path.dirname(filename);
  try {
    moduleDirOf(shownDir, io.cwd);
  } catch (err) {
    if (err instanceof PathError) return err;
    throw err;
  }
  const raw = await io.readStdin();
  let text: string;
  if (typeof raw === "string") text = raw;
  else {
    const decoded = decodeModuleText(raw, filename);
    if (!decoded.ok) return new PathError(`${decoded.message} (the text read from --stdin)`, abs, false);
    text = decoded.text;
  }
  return { target: { dir: path.dirname(abs), display: shownDir }, stdin: { path: abs, text } };
}

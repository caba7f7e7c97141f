// Command-line options of bench/run.mjs, parsed here so that a test can check
// them without running a benchmark.
//
//   --quick            fewer repetitions
//   --runs N           repetitions of the timed sections (default 5, 3 with --quick)
//   --no-write         print the results, leave bench/RESULTS.md alone
//   --cold-only        only the cold start (a), printed, nothing written: a
//                      quick look on a busy machine
//   --corpus DIR       also measure the parser on DIR's .tf/.tofu/.hcl/.tf.json
//                      files (repeatable)
//   --only LIST        run only these sections (comma-separated) and write their
//                      results into RESULTS.md in place of their previous ones:
//                        parser   the parser on the generated corpus, with
//                                 tree-sitter-hcl as a reference
//                        dirs     the same on every --corpus DIR
//                        heap     where the parser's heap goes (heap snapshots)
//                        bigfile  the CLI on one 20 MB file (time, peak RSS)
import * as path from "node:path";

export const SECTIONS = ["parser", "dirs", "heap", "bigfile", "deep"];

export class BenchUsageError extends Error {}

/**
 * @param {string[]} argv
 * @param {string} [cwd]
 * @returns {{ quick: boolean, runs: number, write: boolean, coldOnly: boolean, corpora: string[], only: string[] | null }}
 */
export function parseBenchArgs(argv, cwd = process.cwd()) {
  const out = { quick: false, runs: 0, write: true, coldOnly: false, corpora: [], only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new BenchUsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--quick") out.quick = true;
    else if (a === "--no-write") out.write = false;
    else if (a === "--cold-only") out.coldOnly = true;
    else if (a === "--runs") {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new BenchUsageError(`--runs wants a whole number above 0, not ${JSON.stringify(v)}`);
      out.runs = n;
    } else if (a === "--corpus") out.corpora.push(path.resolve(cwd, value()));
    else if (a === "--only") {
      const names = value()
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      for (const n of names) {
        if (!SECTIONS.includes(n)) throw new BenchUsageError(`--only: unknown section ${JSON.stringify(n)} (sections: ${SECTIONS.join(", ")})`);
      }
      if (names.length === 0) throw new BenchUsageError(`--only needs at least one section (${SECTIONS.join(", ")})`);
      out.only = names;
    } else throw new BenchUsageError(`unknown option ${JSON.stringify(a)}`);
  }
  if (out.runs === 0) out.runs = out.quick ? 3 : 5;
  if (out.only?.includes("dirs") && out.corpora.length === 0) throw new BenchUsageError("--only dirs needs at least one --corpus DIR");
  return out;
}

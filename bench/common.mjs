// What the bench scripts share: the median of their repetitions, and the
// environment their child processes run in.
import { existsSync } from "node:fs";
import * as path from "node:path";
import { ensureCorpus } from "./corpus.mjs";

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The environment of a child: no extra CA bundle (it slows TLS setup at start-up), no Node options, no colour. */
export function childEnv() {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  delete env.FORCE_COLOR;
  return env;
}

/**
 * What a bench script run on its own needs: the built dist/ (else exit 2),
 * the generated corpus under bench/corpus, the output folder and the
 * repetitions (argv[2], default 3).
 */
export function standaloneRun(bench) {
  if (!existsSync(path.join(bench, "..", "dist", "cli.js"))) {
    process.stderr.write("bench: dist/ is missing; run `npm run build` first\n");
    process.exit(2);
  }
  const corpus = path.join(bench, "corpus");
  ensureCorpus(corpus);
  const runs = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
  return { corpus, out: path.join(bench, ".out"), runs };
}

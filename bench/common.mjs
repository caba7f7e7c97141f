// What the bench scripts share: the median of their repetitions, and the
// environment their child processes run in.

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

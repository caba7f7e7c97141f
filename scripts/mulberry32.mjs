// mulberry32: a small seeded pseudo-random generator, so that generated test
// inputs and the bench corpus are the same on every run. The one copy that
// tests (test/gen/rng.ts, the fuzz tests) and bench/corpus.mjs share.

/** A generator of numbers uniform in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

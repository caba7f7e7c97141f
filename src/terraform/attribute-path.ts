/**
 * Attribute paths inside a resource body, as Terraform writes them in
 * `ignore_changes` (`scaling_config[0].desired_size`, `tags["Name"]`, the
 * legacy `a.0.b`): reading one, and whether ignoring one path ignores
 * another.
 */

/** One step of an attribute path inside a resource body. */
export type PathStep =
  /** An argument or a nested block type. */
  | { kind: "attr"; name: string }
  /** An index into a nested block list (`[0]`), or any element (`[*]`). */
  | { kind: "index"; index: number | "*" };

/**
 * Parse an attribute path as written in `ignore_changes`
 * (`scaling_config[0].desired_size`, `tags["Name"]`, legacy `a.0.b`).
 * Returns null for text that is not a path.
 */
export function parseAttributePath(text: string): PathStep[] | null {
  const steps: PathStep[] = [];
  const s = text.replace(/\s+/g, "");
  let i = 0;
  const ident = /^[A-Za-z_][A-Za-z0-9_-]*/;
  while (i < s.length) {
    if (s[i] === ".") {
      if (steps.length === 0) return null;
      i++;
      const rest = s.slice(i);
      const num = /^\d+/.exec(rest);
      if (num) {
        steps.push({ kind: "index", index: Number(num[0]) });
        i += num[0].length;
        continue;
      }
      if (rest.startsWith("*")) {
        steps.push({ kind: "index", index: "*" });
        i++;
        continue;
      }
      const m = ident.exec(rest);
      if (!m) return null;
      steps.push({ kind: "attr", name: m[0] });
      i += m[0].length;
    } else if (s[i] === "[") {
      const close = s.indexOf("]", i);
      if (close < 0 || steps.length === 0) return null;
      const inner = s.slice(i + 1, close);
      if (inner === "*") steps.push({ kind: "index", index: "*" });
      else if (/^\d+$/.test(inner)) steps.push({ kind: "index", index: Number(inner) });
      else if (/^"[^"]*"$/.test(inner)) steps.push({ kind: "attr", name: inner.slice(1, -1) });
      else return null;
      i = close + 1;
    } else {
      if (steps.length > 0) return null;
      const m = ident.exec(s.slice(i));
      if (!m) return null;
      steps.push({ kind: "attr", name: m[0] });
      i += m[0].length;
    }
  }
  return steps.length > 0 ? steps : null;
}

/**
 * Does ignoring `listed` (a path from `ignore_changes`) also ignore changes to
 * `desired`? Yes when `listed` is a prefix of `desired`: ignoring a whole
 * nested block ignores everything in it. Index steps are lenient: a `[*]` in
 * `desired` matches any index, and an index step present on only one side is
 * skipped (Terraform's own leniency differs by version; a false "covered" is
 * cheaper here than a false finding).
 */
export function pathCovers(listed: readonly PathStep[], desired: readonly PathStep[]): boolean {
  const a = listed.filter((s) => s.kind === "attr");
  const b = desired.filter((s) => s.kind === "attr");
  if (a.length === 0 || a.length > b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if ((a[i] as { name: string }).name !== (b[i] as { name: string }).name) return false;
  }
  // Where both sides give a concrete index at the same attribute depth, they must agree.
  const indexAfter = (steps: readonly PathStep[]): Map<number, number | "*"> => {
    const out = new Map<number, number | "*">();
    let depth = -1;
    for (const s of steps) {
      if (s.kind === "attr") depth++;
      else out.set(depth, s.index);
    }
    return out;
  };
  const ia = indexAfter(listed);
  const ib = indexAfter(desired);
  for (const [depth, idx] of ia) {
    const other = ib.get(depth);
    if (other !== undefined && other !== "*" && idx !== "*" && other !== idx) return false;
  }
  return true;
}

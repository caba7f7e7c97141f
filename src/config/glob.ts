/**
 * Minimal glob matching for `exclude` patterns: `*` and `?` stay within one
 * path segment, `**` spans any number of segments. A pattern without `/`
 * matches at any depth (like .gitignore). A path is excluded when it, or any
 * directory above it, matches.
 */

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|]/.test(ch) ? `\\${ch}` : ch;
}

export function globToRegExp(pattern: string): RegExp {
  let p = pattern.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");
  if (!p.includes("/")) p = `**/${p}`;
  else if (p.startsWith("/")) p = p.slice(1);
  let re = "";
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (ch === "*") {
      if (p[i + 1] === "*") {
        i++;
        if (p[i + 1] === "/") {
          i++;
          re += "(?:[^/]*/)*";
        } else {
          re += ".*";
        }
      } else {
        re += "[^/]*";
      }
    } else if (ch === "?") {
      re += "[^/]";
    } else {
      re += escapeRegex(ch);
    }
  }
  return new RegExp(`^${re}$`);
}

export class GlobSet {
  private readonly res: RegExp[];
  constructor(readonly patterns: readonly string[]) {
    this.res = patterns.map(globToRegExp);
  }

  get empty(): boolean {
    return this.res.length === 0;
  }

  /** `rel` is `/`-separated and relative to the patterns' base directory. */
  matches(rel: string): boolean {
    return this.matching(rel) !== null;
  }

  /** The first pattern matching `rel` or a directory above it, or null. */
  matching(rel: string): string | null {
    if (this.res.length === 0 || rel === "" || rel.startsWith("../") || rel === "..") return null;
    const parts = rel.split("/");
    for (let n = 1; n <= parts.length; n++) {
      const prefix = parts.slice(0, n).join("/");
      const i = this.res.findIndex((r) => r.test(prefix));
      if (i >= 0) return this.patterns[i]!;
    }
    return null;
  }
}

/**
 * The baseline: known findings, recorded so that a team can adopt a
 * stricter rule set without fixing everything first. Pure: reading the
 * file's text, matching a module's findings against its entries, updating
 * and pruning, and writing the text. The file I/O is src/cli/baseline.ts.
 *
 * An entry is keyed by the module directory (relative to the baseline
 * file, `/`-separated, `.` for its own directory), the rule ID and the
 * finding's subject (its HCL address, src/lint/subject.ts), never by a line,
 * and holds how many such findings are known. Findings of a key beyond the
 * count are new: the last ones in report order.
 */
import type { Finding } from "./types.js";
import { compareCodePoints } from "./engine.js";
import { MODULE_SUBJECT } from "./subject.js";
import { validDate } from "./suppress.js";

/** The file used when present, beside the config file in use (else in the working directory). */
export const BASELINE_FILE_NAME = ".tfcapi-lint-baseline.json";
export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  /** The module directory relative to the baseline file's directory, `/`-separated; `.` for that directory. */
  module: string;
  rule: string;
  subject: string;
  /** How many findings of this module, rule and subject are known (1 or more). */
  count: number;
  /** Why the findings are accepted for now. */
  reason?: string;
  /** YYYY-MM-DD: after this day (UTC) the entry no longer suppresses anything. */
  expires?: string;
}

/** A baseline file that cannot be used: the message names the file and the entry. Exit 2. */
export class BaselineError extends Error {}

const ENTRY_KEYS = new Set(["module", "rule", "subject", "count", "reason", "expires"]);

/** Reads a baseline file's text (`shown` names it in errors). Throws BaselineError. */
export function parseBaseline(text: string, shown: string): BaselineEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new BaselineError(`baseline ${shown} is not valid JSON (${(err as Error).message}); fix it, or write it again with --update-baseline`);
  }
  const bad = (what: string): BaselineError => new BaselineError(`baseline ${shown}: ${what}; fix it, or write it again with --update-baseline`);
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw bad("expected an object with \"version\" and \"entries\"");
  const doc = data as Record<string, unknown>;
  for (const key of Object.keys(doc)) if (key !== "version" && key !== "entries") throw bad(`unknown key "${key}" (only "version" and "entries")`);
  if (doc.version !== BASELINE_VERSION) throw bad(`"version" must be ${BASELINE_VERSION}, got ${JSON.stringify(doc.version) ?? "nothing"}`);
  if (!Array.isArray(doc.entries)) throw bad('"entries" must be an array');
  const seen = new Set<string>();
  return doc.entries.map((raw: unknown, i: number) => {
    const at = `entries[${i}]`;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw bad(`${at} must be an object`);
    const e = raw as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!ENTRY_KEYS.has(key)) throw bad(`${at} has an unknown key "${key}" (known: module, rule, subject, count, reason, expires)`);
    for (const key of ["module", "rule", "subject"] as const) {
      if (typeof e[key] !== "string" || (e[key] as string).trim() === "") throw bad(`${at}.${key} must be a non-empty string`);
    }
    if (typeof e.count !== "number" || !Number.isSafeInteger(e.count) || e.count < 1) throw bad(`${at}.count must be a whole number of 1 or more`);
    if (e.reason !== undefined && typeof e.reason !== "string") throw bad(`${at}.reason must be a string`);
    if (e.expires !== undefined && (typeof e.expires !== "string" || validDate(e.expires) === null)) throw bad(`${at}.expires must be a YYYY-MM-DD date`);
    const entry: BaselineEntry = {
      module: e.module as string,
      rule: e.rule as string,
      subject: e.subject as string,
      count: e.count,
      ...(e.reason !== undefined ? { reason: e.reason as string } : {}),
      ...(e.expires !== undefined ? { expires: e.expires as string } : {}),
    };
    const key = entryKey(entry);
    if (seen.has(key)) throw bad(`${at} repeats the module, rule and subject of an earlier entry (${entry.module} ${entry.rule} ${entry.subject}); add their counts into one`);
    seen.add(key);
    return entry;
  });
}

/** An entry's optional `reason` and `expires`, in that order, each only when set. */
export function entryNotes(e: { reason?: string; expires?: string }): { reason?: string; expires?: string } {
  return { ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.expires !== undefined ? { expires: e.expires } : {}) };
}

/** The file's text: entries sorted by module, rule, subject; fixed key order; 2-space indent; a trailing newline. */
export function serializeBaseline(entries: readonly BaselineEntry[]): string {
  const sorted = [...entries].sort(compareEntries).map((e) => ({
    module: e.module,
    rule: e.rule,
    subject: e.subject,
    count: e.count,
    ...entryNotes(e),
  }));
  return JSON.stringify({ version: BASELINE_VERSION, entries: sorted }, null, 2) + "\n";
}

export function compareEntries(a: Pick<BaselineEntry, "module" | "rule" | "subject">, b: Pick<BaselineEntry, "module" | "rule" | "subject">): number {
  return compareCodePoints(a.module, b.module) || compareCodePoints(a.rule, b.rule) || compareCodePoints(a.subject, b.subject);
}

/** One key per module, rule and subject. */
export function entryKey(e: Pick<BaselineEntry, "module" | "rule" | "subject">): string {
  return `${e.module}\0${e.rule}\0${e.subject}`;
}

/** The subject a finding is matched on. */
export function subjectOf(f: Finding): string {
  return f.subject ?? MODULE_SUBJECT;
}

/** Whether an entry's expiry day is over at `now`. */
export function isExpired(e: BaselineEntry, now: Date): boolean {
  if (e.expires === undefined) return false;
  const t = validDate(e.expires);
  return t !== null && now.getTime() >= t + 86_400_000;
}

/** An entry with how many of the run's findings it matched (expired entries: how many it would have). */
export interface EntryUse {
  entry: BaselineEntry;
  matched: number;
  expired: boolean;
}

/**
 * One module's findings split: `fresh` (the report's findings: new, and
 * those an ignore comment suppressed) and `baselined`, with the `reason` of
 * the entry that matched each of them ("" when it gives none).
 */
export interface ModuleMatch {
  fresh: Finding[];
  baselined: Finding[];
  reasons: string[];
}

/**
 * Splits a module's findings (in report order) by its entries. Suppressed
 * findings are left alone. For each key, the first `count` findings are
 * baselined, the rest new; an expired entry baselines none. `uses` gets
 * each entry's tally (shared across the modules of one baseline file).
 */
export function matchModule(module: string, findings: readonly Finding[], entries: ReadonlyMap<string, BaselineEntry>, uses: Map<string, EntryUse>, now: Date): ModuleMatch {
  const fresh: Finding[] = [];
  const baselined: Finding[] = [];
  const reasons: string[] = [];
  for (const f of findings) {
    if (f.suppressed) {
      fresh.push(f);
      continue;
    }
    const key = entryKey({ module, rule: f.ruleId, subject: subjectOf(f) });
    const entry = entries.get(key);
    if (!entry) {
      fresh.push(f);
      continue;
    }
    let use = uses.get(key);
    if (!use) {
      use = { entry, matched: 0, expired: isExpired(entry, now) };
      uses.set(key, use);
    }
    if (!use.expired && use.matched < entry.count) {
      baselined.push(f);
      reasons.push(entry.reason ?? "");
    } else {
      fresh.push(f);
    }
    use.matched++;
  }
  return { fresh, baselined, reasons };
}

/** Entries of the modules linted that match fewer findings than their count (expired ones counted as if in force). */
export function unmatchedEntries(entries: readonly BaselineEntry[], linted: ReadonlySet<string>, uses: ReadonlyMap<string, EntryUse>): EntryUse[] {
  const out: EntryUse[] = [];
  for (const entry of entries) {
    if (!linted.has(entry.module)) continue;
    const use = uses.get(entryKey(entry));
    const matched = use?.matched ?? 0;
    if (matched < entry.count) out.push({ entry, matched, expired: use?.expired ?? false });
  }
  return out;
}

/** Expired entries that still match findings (those findings are new again). */
export function expiredEntries(uses: ReadonlyMap<string, EntryUse>): EntryUse[] {
  return [...uses.values()].filter((u) => u.expired && u.matched > 0).sort((a, b) => compareEntries(a.entry, b.entry));
}

/**
 * `--update-baseline`: every current unsuppressed finding of the linted
 * modules (the caller leaves out what it does not record: info findings
 * unless they fail the run), counted by key; an entry that still matches
 * keeps its reason and expiry; entries of modules not linted stay as they
 * are.
 */
export function updatedEntries(entries: readonly BaselineEntry[], current: ReadonlyMap<string, readonly Finding[]>): BaselineEntry[] {
  const old = new Map(entries.map((e) => [entryKey(e), e]));
  const out = entries.filter((e) => !current.has(e.module));
  for (const [module, findings] of current) {
    const counts = new Map<string, BaselineEntry>();
    for (const f of findings) {
      if (f.suppressed) continue;
      const key = entryKey({ module, rule: f.ruleId, subject: subjectOf(f) });
      const had = counts.get(key);
      if (had) {
        had.count++;
        continue;
      }
      const before = old.get(key);
      counts.set(key, {
        module,
        rule: f.ruleId,
        subject: subjectOf(f),
        count: 1,
        ...(before?.reason !== undefined ? { reason: before.reason } : {}),
        ...(before?.expires !== undefined ? { expires: before.expires } : {}),
      });
    }
    out.push(...counts.values());
  }
  return out.sort(compareEntries);
}

/** `--prune-baseline`: each entry of a linted module lowered to what it matched; those matching nothing dropped. */
export function prunedEntries(entries: readonly BaselineEntry[], linted: ReadonlySet<string>, uses: ReadonlyMap<string, EntryUse>): BaselineEntry[] {
  const out: BaselineEntry[] = [];
  for (const entry of entries) {
    if (!linted.has(entry.module)) {
      out.push(entry);
      continue;
    }
    const matched = uses.get(entryKey(entry))?.matched ?? 0;
    if (matched > 0) out.push({ ...entry, count: Math.min(entry.count, matched) });
  }
  return out.sort(compareEntries);
}

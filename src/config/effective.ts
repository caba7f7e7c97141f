/**
 * The effective settings for one module: defaults, then the config file,
 * then command-line flags (later wins), each with where it came from.
 */
import type { Role } from "../contract/roles-api.js";
import type { Severity, SeveritySetting } from "../lint/types.js";
import type { DetectionView } from "../lint/engine.js";
import type { FileConfig, Setting } from "./load.js";

export interface CliOverrides {
  role?: Role;
  rules: readonly { id: string; severity: SeveritySetting }[];
  strict: boolean;
  maxWarnings?: number;
}

export interface EffectiveConfig {
  configFile: string | null;
  role: Setting<Role> | null;
  rules: Map<string, Setting<SeveritySetting>>;
  exclude: Setting<string[]>;
  failOn: Setting<Severity>;
  maxWarnings: Setting<number | null>;
  plugins: { spec: string; origin: string }[];
}

export function effectiveConfig(file: FileConfig | null, cli: CliOverrides): EffectiveConfig {
  const rules = new Map<string, Setting<SeveritySetting>>();
  for (const [id, s] of file?.rules ?? []) rules.set(id, s);
  for (const r of cli.rules) rules.set(r.id, { value: r.severity, origin: `--rule ${r.id}=${r.severity}` });
  return {
    configFile: file?.path ?? null,
    role: cli.role ? { value: cli.role, origin: "--role" } : (file?.role ?? null),
    rules,
    exclude: file?.exclude ?? { value: [], origin: "default" },
    failOn: cli.strict ? { value: "warning", origin: "--strict" } : (file?.failOn ?? { value: "error", origin: "default" }),
    maxWarnings:
      cli.maxWarnings !== undefined
        ? { value: cli.maxWarnings, origin: "--max-warnings" }
        : (file?.maxWarnings ?? { value: null, origin: "default" }),
    plugins: file?.plugins ?? [],
  };
}

/** Severity map for the engine. */
export function severityMap(e: EffectiveConfig): Map<string, SeveritySetting> {
  return new Map([...e.rules].map(([id, s]) => [id, s.value]));
}

/**
 * The effective configuration for `target`, as text or JSON. `detection`
 * (when no role is set) says what role detection makes of the module there:
 * the JSON key `detection`, comment lines under `role` in the text.
 * `baseline` (the file a run would use, decided by the CLI's baseline stage)
 * is shown when there is one, or null with --no-baseline.
 */
export function printEffective(e: EffectiveConfig, target: string, json: boolean, detection?: DetectionView | null, baseline?: { value: string | null; origin: string }): string {
  if (json) {
    const obj = {
      path: target,
      configFile: e.configFile,
      // Every key has the same shape; no role set means detection decides (`detection` says what it makes of the module).
      role: e.role ?? { value: null, origin: "default" },
      ...(detection ? { detection } : {}),
      fail_on: e.failOn,
      max_warnings: e.maxWarnings,
      exclude: e.exclude,
      ...(baseline ? { baseline } : {}),
      ...(e.plugins.length > 0 ? { plugins: e.plugins.map((p) => ({ value: p.spec, origin: p.origin })) } : {}),
      rule: Object.fromEntries([...e.rules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, s]) => [id, { severity: s }])),
    };
    return `${JSON.stringify(obj, null, 2)}\n`;
  }
  const lines: string[] = [];
  lines.push(`# effective tfcapi-lint config for ${target}`);
  lines.push(`# config file: ${e.configFile ?? "(none)"}`);
  const row = (setting: string, origin: string): void => {
    lines.push(`${setting.padEnd(44)} # ${origin}`);
  };
  row(e.role ? `role = ${JSON.stringify(e.role.value)}` : `role = (detected from the module)`, e.role?.origin ?? "default");
  if (detection) {
    lines.push(`#   detection: ${detection.summary}`);
    if (detection.evidence.length > 0) lines.push(`#   evidence: ${detection.evidence.join("; ")}`);
  }
  row(`fail_on = ${JSON.stringify(e.failOn.value)}`, e.failOn.origin);
  row(e.maxWarnings.value === null ? "max_warnings = (no limit)" : `max_warnings = ${e.maxWarnings.value}`, e.maxWarnings.origin);
  row(`exclude = ${JSON.stringify(e.exclude.value)}`, e.exclude.origin);
  if (baseline) row(baseline.value === null ? "baseline = (none)" : `baseline = ${JSON.stringify(baseline.value)}`, baseline.origin);
  for (const p of e.plugins) row(`plugins += ${JSON.stringify(p.spec)}`, p.origin);
  for (const [id, s] of [...e.rules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    row(`rule ${JSON.stringify(id)} { severity = ${JSON.stringify(s.value)} }`, s.origin);
  }
  return `${lines.join("\n")}\n`;
}

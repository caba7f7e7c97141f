// Renders the README's rule tables from the rule definitions. Shared by
// scripts/gen-readme.mjs (which rewrites README.md) and
// test/ship/readme.test.ts (which fails when README.md is out of date).

export const RULES_START = "<!-- rules:start -->";
export const RULES_END = "<!-- rules:end -->";

const ROLE_ORDER = ["cluster", "machine", "machinepool"];

function roles(rule) {
  const list = ROLE_ORDER.filter((r) => rule.roles.includes(r));
  return list.length === ROLE_ORDER.length ? "all" : list.join(", ");
}

/** The Fix column: the kinds of fix a rule gives (safe: --fix applies it; unsafe: only --fix-unsafe). */
function fixKinds(rule) {
  if (!rule.fixable) return "";
  return (rule.fixKinds ?? ["unsafe"]).join(" + ");
}

function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function table(rules) {
  const rows = rules.map(
    (r) =>
      `| [\`${r.id}\`](rules/${r.id}.md) | ${r.severity} | ${roles(r)} | ${r.scope === "all" ? "root + local children" : "root"} | ${fixKinds(r)} | ${cell(r.summary)} |`,
  );
  return ["| Rule | Default | Roles | Checks | Fix | What it checks |", "| --- | --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/**
 * The generated section (without the markers): the contract rules, then the
 * rules about ignore comments.
 */
export function renderRuleSection(allRules, metaRules) {
  return [
    `${allRules.length} contract rules. "Default" is the severity before configuration; "Checks" says whether the rule also runs on local child modules; "Fix" says whether its fix is safe (\`--fix\` applies it) or unsafe (it changes the plan: only \`--fix-unsafe\` applies it).`,
    "",
    table(allRules),
    "",
    `Rules about ignore comments (${metaRules.length}):`,
    "",
    table(metaRules),
  ].join("\n");
}

/** README text with the section between the markers replaced. */
export function replaceRuleSection(readme, section) {
  const start = readme.indexOf(RULES_START);
  const end = readme.indexOf(RULES_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${RULES_START} ... ${RULES_END} section`);
  return `${readme.slice(0, start + RULES_START.length)}\n${section}\n${readme.slice(end)}`;
}

/** The section currently in the README (without the markers). */
export function currentRuleSection(readme) {
  const start = readme.indexOf(RULES_START);
  const end = readme.indexOf(RULES_END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + RULES_START.length, end).replace(/^\n/, "").replace(/\n$/, "");
}

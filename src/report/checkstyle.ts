/**
 * Checkstyle XML (what reviewdog's `-f=checkstyle` and many CI plugins
 * read):
 *
 *   <checkstyle version="4.3">
 *     <file name="modules/pool/outputs.tf">
 *       <error line="12" column="11" severity="warning" message="..." source="tfcapi-lint.output/provider-id-list-shape"/>
 *     </file>
 *   </checkstyle>
 *
 * Paths are relative to the working directory; files appear in report order
 * (modules, then each module's sorted findings). A finding about the module
 * as a whole is listed under the module directory, one about a whole file
 * under that file, both without line/column.
 * Suppressed findings are left out. A file or directory that cannot be read
 * is an error without position under its own name, `source="tfcapi-lint.read-error"`.
 */
import { problemId, type FormatOptions, type RunReport } from "../lint/result.js";
import type { Finding } from "../lint/types.js";
import { displayPath, hasPosition, problemPath, visibleFindings } from "./util.js";
import { escapeXml, XML_DECLARATION } from "./xml.js";

/** Text safe inside an XML comment: no "--" and no trailing "-". */
function escapeXmlComment(text: string): string {
  return text.replace(/-(?=-)/g, "- ").replace(/-$/, "- ");
}

function errorElement(f: Finding): string {
  const attrs: string[] = [];
  if (hasPosition(f)) attrs.push(`line="${f.range.start.line}"`, `column="${f.range.start.column}"`);
  attrs.push(
    `severity="${f.severity}"`,
    `message="${escapeXml(f.message)}"`,
    `source="${escapeXml(`tfcapi-lint.${f.ruleId}`)}"`,
  );
  return `    <error ${attrs.join(" ")}/>`;
}

export function formatCheckstyle(run: RunReport, _opts: FormatOptions): string {
  const files = new Map<string, string[]>();
  for (const mod of run.modules) {
    for (const f of visibleFindings(mod)) {
      const name = displayPath(run.cwd, mod, f.file);
      let errors = files.get(name);
      if (!errors) {
        errors = [];
        files.set(name, errors);
      }
      errors.push(errorElement(f));
    }
  }
  for (const e of run.readErrors ?? []) {
    const name = problemPath(run.cwd, e);
    let errors = files.get(name);
    if (!errors) {
      errors = [];
      files.set(name, errors);
    }
    errors.push(`    <error severity="error" message="${escapeXml(e.message)}" source="tfcapi-lint.${problemId(e)}"/>`);
  }
  const out = [XML_DECLARATION, '<checkstyle version="4.3">'];
  // Checkstyle has no place for run metadata; a comment keeps the role (and
  // how it was chosen) visible without confusing consumers.
  for (const mod of run.modules) {
    out.push(`  <!-- ${escapeXmlComment(`tfcapi-lint: ${displayPath(run.cwd, mod, "")}: role ${mod.role} (role source: ${mod.roleSource})`)} -->`);
  }
  for (const [name, errors] of files) {
    out.push(`  <file name="${escapeXml(name)}">`, ...errors, "  </file>");
  }
  out.push("</checkstyle>");
  return out.join("\n") + "\n";
}

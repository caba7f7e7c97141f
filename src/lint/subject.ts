/**
 * The subject of a finding: the HCL address of what it is about, never a
 * line. A baseline entry is keyed on it, so it stays the same when the file
 * is edited elsewhere, blocks are reordered or files are added, and changes
 * when the thing is renamed.
 *
 * - in a top-level block: `resource.TYPE.NAME`, `data.TYPE.NAME`,
 *   `module.NAME`, `output.NAME`, `variable.NAME`, `provider.NAME` (with
 *   `.ALIAS` when the alias is a literal), `terraform`, `local.NAME` for an
 *   attribute of a `locals` block (`locals` elsewhere in one); other block
 *   types by their type and labels (`check.NAME`, `moved`);
 * - outside any block (a syntax error between blocks, a file-level finding):
 *   the file's path relative to the root module;
 * - a finding in a local child module's file: the child's directory, a
 *   colon, then the above (`modules/net:resource.aws_subnet.a`);
 * - a module-level finding (file ""): what the rule named (`report({
 *   subject })`, e.g. `output.exports`), else `module`.
 */
import type { Block, Range } from "../hcl/ast.js";
import { constString } from "../hcl/walk.js";
import { findAttr } from "../hcl/blocks.js";
import type { LoadResult, SourceFile } from "../terraform/module-types.js";

/** The subject of a module-level finding whose rule named none. */
export const MODULE_SUBJECT = "module";

/** Finds each module file (root and local children) by its path, with its unit's directory. */
export class SubjectFinder {
  private readonly files = new Map<string, { file: SourceFile; relDir: string }>();

  constructor(load: LoadResult) {
    for (const unit of load.units) for (const file of unit.allFiles) if (!this.files.has(file.path)) this.files.set(file.path, { file, relDir: unit === load.root ? "" : unit.relDir });
  }

  /** The subject of a finding at `range` in `path` (see the file comment). */
  subjectAt(path: string, range: Range): string {
    if (path === "") return MODULE_SUBJECT;
    const found = this.files.get(path);
    if (!found) return path;
    const inner = blockSubject(found.file, range.start.offset) ?? path;
    return found.relDir === "" || inner === path ? inner : `${found.relDir}:${inner}`;
  }
}

/** The address of the top-level block of `file` around `offset`, or null outside every block. */
function blockSubject(file: SourceFile, offset: number): string | null {
  for (const block of file.hcl.body.blocks) {
    if (offset < block.range.start.offset || offset >= block.range.end.offset) continue;
    return addressOf(block, offset);
  }
  return null;
}

function addressOf(block: Block, offset: number): string {
  const labels = block.labels;
  switch (block.type) {
    case "locals": {
      const attr = block.body.attributes.find((a) => offset >= a.range.start.offset && offset <= a.range.end.offset);
      return attr ? `local.${attr.name}` : "locals";
    }
    case "provider": {
      const alias = constString(findAttr(block.body, "alias")?.expr);
      return ["provider", ...labels.slice(0, 1), ...(alias ? [alias] : [])].join(".");
    }
    case "resource":
    case "data":
      return [block.type, ...labels.slice(0, 2)].join(".");
    default:
      return [block.type, ...labels].join(".");
  }
}

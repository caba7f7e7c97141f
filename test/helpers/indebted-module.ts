/**
 * A small realistic machine module with known debt, for the baseline tests
 * (CLI, language server, Action, pre-commit): examples/machine-aws with six
 * findings written into it.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLE = path.join(REPO, "examples", "machine-aws");
const read = (name: string): string => readFileSync(path.join(EXAMPLE, name), "utf8");

/** Replaces `from` (found exactly once) with `to`. */
export function edit(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`edit: ${JSON.stringify(from)} is not in the text exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * The module with its known debt: bootstrap_data not sensitive, two user
 * variables without a default, the interruptible output missing, and two
 * timestamp() tags on aws_instance.this.
 */
export function indebted(): Record<string, string> {
  let variables = edit(read("variables.tf"), '  type        = string\n  sensitive   = true\n}', "  type        = string\n}");
  variables += '\nvariable "key_name" {\n  type = string\n}\n\nvariable "ssh_cidr" {\n  type = string\n}\n';
  const outputs = edit(read("outputs.tf"), 'output "interruptible" {\n  value = false\n}\n', "");
  let main = edit(read("main.tf"), "    tags        = local.tags\n  }", "    tags        = merge(local.tags, { Created = timestamp() })\n  }");
  main = edit(main, "  }\n\n  tags = local.tags\n", "  }\n\n  tags = merge(local.tags, { Created = timestamp() })\n");
  return { "mod/main.tf": main, "mod/variables.tf": variables, "mod/outputs.tf": outputs, "mod/versions.tf": read("versions.tf") };
}


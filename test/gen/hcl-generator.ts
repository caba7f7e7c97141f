/**
 * Seeded generator of random *valid* native-syntax HCL programs that look
 * like Terraform modules (variables, resources with nested and dynamic
 * blocks, outputs, locals, module calls, one-line blocks, comments), using
 * every expression kind: literals, quoted templates with escapes,
 * interpolations, strip markers and directives, heredocs, traversals,
 * splats, indexes, function calls (including provider functions), operators,
 * conditionals, tuples, objects, for expressions and parentheses.
 *
 * Everything generated is valid HCL by construction; mutations.ts turns
 * programs into (mostly) invalid ones.
 */

import { Rng } from "./rng.js";

const WORDS = [
  "name", "region", "instance_type", "tags", "enabled", "subnet_ids", "cidr_block", "vpc_id",
  "ami", "size", "labels", "replicas", "machine_type", "zone", "image", "disk_size_gb",
  "min_size", "max_size", "desired_capacity", "user_data", "key", "value", "cluster_name",
  "node_pool", "provider_id", "taints", "security_groups", "ports", "protocol", "weight",
];

const RESOURCE_TYPES = [
  "aws_instance", "aws_autoscaling_group", "aws_launch_template", "google_compute_instance",
  "azurerm_linux_virtual_machine_scale_set", "null_resource", "terraform_data", "random_id",
];

const NESTED_BLOCKS = ["ebs_block_device", "network_interface", "tag", "metadata_options", "boot_disk", "setting"];

/**
 * Label count per generic block type. Fixed per type because hcl2json cannot
 * merge blocks of one type with different label counts into its JSON output
 * (HCL itself accepts them).
 */
const NESTED_LABELS: Record<string, number> = {
  ebs_block_device: 0,
  network_interface: 1,
  tag: 0,
  metadata_options: 2,
  boot_disk: 1,
  setting: 0,
};

const FUNCTIONS = ["length", "lookup", "merge", "concat", "join", "format", "coalesce", "tolist", "sort", "base64encode", "try", "jsonencode", "max"];

const PROVIDER_FUNCTIONS = ["provider::aws::arn_parse", "provider::terraform::encode_tfvars", "provider::kubernetes::manifest_decode"];

const ROOTS = ["var", "local", "module", "data", "each", "count", "path", "self"];

const UNICODE_TEXT = ["héllo", "日本", "naïve café", "ℵ", "😀 smile", "Grüße"];

const BINARY_OPS = ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"];

export interface GenOptions {
  /** Top-level items (default 3..8). */
  minItems?: number;
  maxItems?: number;
}

/** Generates one program. */
export function generateProgram(rng: Rng, opts: GenOptions = {}): string {
  return new Generator(rng).program(opts.minItems ?? 3, opts.maxItems ?? 8);
}

class Generator {
  private depth = 0;

  constructor(private readonly rng: Rng) {}

  program(min: number, max: number): string {
    const out: string[] = [];
    if (this.rng.chance(0.3)) out.push(this.comment() + "\n");
    const n = this.rng.between(min, max);
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      out.push(this.topItem(used));
      if (this.rng.chance(0.7)) out.push("\n");
    }
    if (this.rng.chance(0.2)) out.push(this.comment());
    let text = out.join("");
    if (this.rng.chance(0.1) && !/[A-Z]\n$/.test(text)) text = text.replace(/\n$/, "");
    return text;
  }

  // ---------------------------------------------------------------- names

  private ident(): string {
    const w = this.rng.pick(WORDS);
    const r = this.rng.int(40);
    if (r === 39) return this.rng.pick(["café", "größe", "ñame"]);
    if (r === 0) return w + "-" + this.rng.int(9);
    if (r === 1) return w + "_" + this.rng.int(99);
    return w;
  }

  private uniqueName(used: Set<string>): string {
    // Keywords of the expression language are ordinary names for arguments.
    let name = this.rng.chance(0.03) ? this.rng.pick(["if", "for", "in", "true", "null", "endif"]) : this.ident();
    while (used.has(name)) name = this.ident() + "_" + this.rng.int(1000);
    used.add(name);
    return name;
  }

  private comment(): string {
    switch (this.rng.int(4)) {
      case 0:
        return "# " + this.rng.pick(["managed by the platform team", "TODO: tighten", "see docs", UNICODE_TEXT[this.rng.int(6)]]);
      case 1:
        return "// " + this.rng.pick(["keep in sync with the cluster module", "note", "x = 1"]);
      case 2:
        return "/* " + this.rng.pick(["inline", "multi\n   line", "*", "a } b"]) + " */";
      default:
        return "#";
    }
  }

  private ind(level: number): string {
    return "  ".repeat(level);
  }

  // ---------------------------------------------------------------- structure

  private topItem(used: Set<string>): string {
    switch (this.rng.int(12)) {
      case 0:
      case 1:
        return this.variableBlock();
      case 2:
      case 3:
        return this.resourceBlock("resource");
      case 4:
        return this.resourceBlock("data");
      case 5:
        return this.outputBlock();
      case 6:
        return this.localsBlock();
      case 7:
        return this.moduleBlock();
      case 8:
        return this.terraformBlock();
      case 9:
        return this.oneLineBlock(0, used);
      case 10: {
        const name = this.uniqueName(used);
        return this.attribute(0, name);
      }
      default:
        return this.genericBlock(0, 0);
    }
  }

  private labelText(value: string): string {
    return this.rng.chance(0.1) && /^[a-z_][a-z0-9_-]*$/.test(value) ? value : JSON.stringify(value);
  }

  private blockHead(type: string, labels: string[]): string {
    const parts = [type, ...labels.map((l) => this.labelText(l))];
    return parts.join(this.rng.chance(0.1) ? "  " : " ");
  }

  private body(level: number, items: ((used: Set<string>) => string)[]): string {
    const used = new Set<string>();
    const lines: string[] = [];
    for (const item of items) {
      if (this.rng.chance(0.15)) lines.push(this.ind(level) + this.comment() + "\n");
      if (this.rng.chance(0.1)) lines.push("\n");
      lines.push(item(used));
    }
    return lines.join("");
  }

  private block(level: number, head: string, items: ((used: Set<string>) => string)[]): string {
    const trail = this.rng.chance(0.15) ? " " + this.lineComment() : "";
    const beforeBrace = this.rng.chance(0.05) ? " /* header */" : "";
    return `${this.ind(level)}${head}${beforeBrace} {${trail}\n${this.body(level + 1, items)}${this.ind(level)}}\n`;
  }

  private lineComment(): string {
    return this.rng.pick(["# note", "// note", "/* note */"]);
  }

  private attrItem(level: number, name?: string): (used: Set<string>) => string {
    return (used) => this.attribute(level, name !== undefined && !used.has(name) ? (used.add(name), name) : this.uniqueName(used));
  }

  private attribute(level: number, name: string): string {
    const eq = this.rng.chance(0.1) ? "   =  " : " = ";
    if (this.rng.chance(0.08)) return `${this.ind(level)}${name}${eq}${this.heredoc()}`;
    const trail = this.rng.chance(0.1) ? " " + this.lineComment() : "";
    return `${this.ind(level)}${name}${eq}${this.expr(level, true)}${trail}\n`;
  }

  private variableBlock(): string {
    const items: ((used: Set<string>) => string)[] = [
      (used) => (used.add("type"), `  type = ${this.typeExpr()}\n`),
    ];
    if (this.rng.chance(0.6)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "default"));
    if (this.rng.chance(0.3)) {
      items.push(() =>
        this.block(1, "validation", [this.attrItem(2, "condition"), this.attrItem(2, "error_message")]),
      );
    }
    return this.block(0, this.blockHead("variable", [this.ident()]), items);
  }

  private typeExpr(): string {
    const prim = () => this.rng.pick(["string", "number", "bool", "any"]);
    switch (this.rng.int(5)) {
      case 0:
        return prim();
      case 1:
        return `list(${prim()})`;
      case 2:
        return `map(${prim()})`;
      case 3:
        return `object({ name = string, size = optional(number, 1) })`;
      default:
        return `list(object({\n    id   = string\n    tags = map(string)\n  }))`;
    }
  }

  private resourceBlock(kind: "resource" | "data"): string {
    const items: ((used: Set<string>) => string)[] = [];
    const n = this.rng.between(0, 5);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    if (this.rng.chance(0.4)) items.push(() => this.genericBlock(1, 0));
    if (this.rng.chance(0.3)) items.push(() => this.dynamicBlock(1));
    if (kind === "resource" && this.rng.chance(0.4)) {
      items.push(() =>
        this.block(1, "lifecycle", [
          (used) => (used.add("ignore_changes"), `    ignore_changes = [tags, ${this.traversal()}]\n`),
          this.attrItem(2, "create_before_destroy"),
        ]),
      );
    }
    if (this.rng.chance(0.2)) items.push((used) => (used.add("depends_on"), `  depends_on = [${this.traversal()}]\n`));
    return this.block(0, this.blockHead(kind, [this.rng.pick(RESOURCE_TYPES), this.ident()]), items);
  }

  private dynamicBlock(level: number): string {
    return this.block(level, this.blockHead("dynamic", [this.rng.pick(NESTED_BLOCKS)]), [
      this.attrItem(level + 1, "for_each"),
      () => this.block(level + 1, "content", [this.attrItem(level + 2), this.attrItem(level + 2)]),
    ]);
  }

  private outputBlock(): string {
    const items = [this.attrItem(1, "value")];
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.2)) items.push(this.attrItem(1, "sensitive"));
    return this.block(0, this.blockHead("output", [this.ident()]), items);
  }

  private localsBlock(): string {
    const items: ((used: Set<string>) => string)[] = [];
    const n = this.rng.between(0, 6);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    return this.block(0, "locals", items);
  }

  private moduleBlock(): string {
    return this.block(0, this.blockHead("module", [this.ident()]), [
      (used) => (used.add("source"), `  source = "./modules/${this.ident()}"\n`),
      this.attrItem(1),
      this.attrItem(1),
      (used) => (used.add("providers"), `  providers = {\n    aws = aws.west\n  }\n`),
    ]);
  }

  private terraformBlock(): string {
    return this.block(0, "terraform", [
      (used) => (used.add("required_version"), `  required_version = ">= 1.5"\n`),
      () =>
        this.block(1, "required_providers", [
          (used) => (used.add("aws"), `    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.0"\n    }\n`),
        ]),
    ]);
  }

  private oneLineBlock(level: number, used: Set<string>): string {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels: string[] = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.ident());
    const head = this.blockHead(type, labels);
    if (this.rng.chance(0.3)) return `${this.ind(level)}${head} {}\n`;
    const name = this.ident();
    void used;
    return `${this.ind(level)}${head} { ${name} = ${this.expr(level, false)} }\n`;
  }

  private genericBlock(level: number, nesting: number): string {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels: string[] = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.rng.chance(0.1) ? this.rng.pick(UNICODE_TEXT) : this.ident());
    const items: ((used: Set<string>) => string)[] = [];
    const n = this.rng.between(0, 4);
    for (let i = 0; i < n; i++) items.push(this.attrItem(level + 1));
    if (nesting < 2 && this.rng.chance(0.4)) items.push(() => this.genericBlock(level + 1, nesting + 1));
    if (nesting < 2 && this.rng.chance(0.2)) items.push((used) => this.oneLineBlock(level + 1, used));
    return this.block(level, this.blockHead(type, labels), items);
  }

  // ---------------------------------------------------------------- expressions

  /**
   * An expression. `multiline` allows line breaks (inside brackets) and is
   * false inside one-line blocks and templates.
   */
  expr(level: number, multiline: boolean): string {
    this.depth++;
    try {
      if (this.depth > 4) return this.simple();
      switch (this.rng.int(14)) {
        case 0:
        case 1:
          return this.simple();
        case 2:
          return this.quoted(level);
        case 3:
          return this.traversal();
        case 4:
          return this.call(level, multiline);
        case 5:
          return this.binary(level, multiline);
        case 6:
          return `${this.operand(level, multiline)} ? ${this.operand(level, multiline)} : ${this.operand(level, multiline)}`;
        case 7:
          return this.unary(level, multiline);
        case 8:
          return this.tuple(level, multiline);
        case 9:
          return this.object(level, multiline);
        case 10:
          return this.forExpr(level, multiline);
        case 11:
          return `(${this.expr(level, multiline)})`;
        case 12:
          return this.rng.chance(0.7) ? this.splat() : this.edge(level, multiline);
        default:
          return `${this.traversal()}[${this.expr(level, false)}]`;
      }
    } finally {
      this.depth--;
    }
  }

  /** Rarer valid forms that parsers get wrong. */
  private edge(level: number, multiline: boolean): string {
    switch (this.rng.int(multiline ? 12 : 8)) {
      case 0:
        return `${this.traversal()}.0.${this.ident()}`; // legacy index step
      case 1:
        return `${this.traversal()}[*][0]`;
      case 2:
        return `${this.traversal()}.*[0]`;
      case 3:
        return `/* before */ ${this.simple()}`;
      case 4:
        return `!!${this.traversal()}`;
      case 5:
        return `- -${this.rng.int(9)}`;
      case 6:
        return `${this.operand(level, multiline)} ? ${this.operand(level, multiline)} : ${this.operand(level, multiline)} ? ${this.simple()} : ${this.simple()}`;
      case 7:
        return `"\\U0001F600 \\u00e9"`;
      case 8:
        return `(\n${this.ind(level + 1)}${this.operand(level, multiline)} +\n${this.ind(level + 1)}${this.operand(level, multiline)}\n${this.ind(level)})`;
      case 9:
        return `[\n${this.ind(level + 1)}${this.heredoc().replace(/\n$/, "")}\n${this.ind(level + 1)}, ${this.simple()}\n${this.ind(level)}]`;
      case 10:
        return `${this.rng.pick(FUNCTIONS)}(\n${this.ind(level + 1)}${this.simple()} # first\n${this.ind(level + 1)}, ${this.simple()}\n${this.ind(level)})`;
      default:
        return `{\n${this.ind(level + 1)}"\${${this.traversal()}}" = ${this.simple()}\n${this.ind(level + 1)}${this.ident()}.${this.ident()} = 1\n${this.ind(level)}}`;
    }
  }

  /** An operand of an operator: simple, or parenthesized when compound. */
  private operand(level: number, multiline: boolean): string {
    if (this.rng.chance(0.6)) return this.rng.chance(0.5) ? this.simple() : this.traversal();
    return `(${this.expr(level, multiline)})`;
  }

  /**
   * `!x` or `-x`. A literal operand has the right type: hcl2json folds
   * unary operators on literals and fails on `!1` or `-true`.
   */
  private unary(level: number, multiline: boolean): string {
    const not = this.rng.chance(0.5);
    switch (this.rng.int(3)) {
      case 0:
        return not ? "!" + this.rng.pick(["true", "false"]) : "-" + this.rng.pick(["1", "2.5", "0"]);
      case 1:
        return (not ? "!" : "-") + this.traversal();
      default:
        return `${not ? "!" : "-"}(${this.expr(level, multiline)})`;
    }
  }

  private binary(level: number, multiline: boolean): string {
    let s = this.operand(level, multiline);
    const n = this.rng.between(1, 3);
    for (let i = 0; i < n; i++) s += ` ${this.rng.pick(BINARY_OPS)} ${this.operand(level, multiline)}`;
    return s;
  }

  private simple(): string {
    switch (this.rng.int(8)) {
      case 0:
        return String(this.rng.int(1000));
      case 1:
        return this.rng.pick(["1.5", "0.25", "1e3", "2.5E-2", "0", "65535", "3.14159"]);
      case 2:
        return this.rng.pick(["true", "false", "null"]);
      case 3:
        return JSON.stringify(this.rng.pick(WORDS));
      case 4:
        return `"${this.rng.pick(UNICODE_TEXT)}"`;
      case 5:
        return '""';
      default:
        return this.traversal();
    }
  }

  traversal(): string {
    let s = this.rng.pick(ROOTS);
    const steps = this.rng.between(1, 3);
    for (let i = 0; i < steps; i++) {
      switch (this.rng.int(6)) {
        case 0:
          s += `[${this.rng.int(5)}]`;
          break;
        case 1:
          s += `["${this.rng.pick(WORDS)}"]`;
          break;
        default:
          s += "." + this.ident();
      }
    }
    return s;
  }

  private splat(): string {
    const base = this.traversal();
    switch (this.rng.int(3)) {
      case 0:
        return `${base}[*].${this.ident()}`;
      case 1:
        return `${base}.*.${this.ident()}`;
      default:
        return `${base}[*]`;
    }
  }

  private call(level: number, multiline: boolean): string {
    const name = this.rng.chance(0.15) ? this.rng.pick(PROVIDER_FUNCTIONS) : this.rng.pick(FUNCTIONS);
    const n = this.rng.int(4);
    const args: string[] = [];
    for (let i = 0; i < n; i++) args.push(this.expr(level, multiline));
    const expand = n > 0 && this.rng.chance(0.1) ? "..." : "";
    if (multiline && n > 1 && this.rng.chance(0.3)) {
      const inner = this.ind(level + 1);
      const comma = expand === "" && this.rng.chance(0.5) ? "," : "";
      return `${name}(\n${args.map((a) => inner + a).join(",\n")}${expand}${comma}\n${this.ind(level)})`;
    }
    return `${name}(${args.join(", ")}${expand})`;
  }

  private tuple(level: number, multiline: boolean): string {
    const n = this.rng.int(4);
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(this.expr(level + 1, multiline));
    if (multiline && n > 0 && this.rng.chance(0.4)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x},${this.rng.chance(0.1) ? " # item" : ""}`);
      return `[\n${lines.join("\n")}\n${this.ind(level)}]`;
    }
    return `[${items.join(", ")}${n > 0 && this.rng.chance(0.2) ? "," : ""}]`;
  }

  private objectKey(level: number): string {
    switch (this.rng.int(5)) {
      case 0:
        return JSON.stringify(this.rng.pick(WORDS));
      case 1:
        return `(${this.traversal()})`;
      default:
        return this.ident();
    }
    void level;
  }

  private object(level: number, multiline: boolean): string {
    const n = this.rng.int(4);
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const sep = this.rng.chance(0.2) ? ":" : "=";
      items.push(`${this.objectKey(level)} ${sep} ${this.expr(level + 1, multiline)}`);
    }
    if (multiline && n > 0 && this.rng.chance(0.5)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x}${this.rng.chance(0.3) ? "," : ""}${this.rng.chance(0.1) ? " # entry" : ""}`);
      return `{\n${lines.join("\n")}\n${this.ind(level)}}`;
    }
    return `{${n > 0 ? " " : ""}${items.join(", ")}${n > 0 ? " " : ""}}`;
  }

  private forExpr(level: number, multiline: boolean): string {
    const coll = this.rng.chance(0.5) ? this.traversal() : this.tuple(level, false);
    const cond = this.rng.chance(0.3) ? ` if ${this.operand(level, multiline)}` : "";
    if (this.rng.chance(0.5)) {
      const vars = this.rng.chance(0.5) ? "i, v" : "v";
      return `[for ${vars} in ${coll} : ${this.rng.chance(0.5) ? "v" : this.expr(level, multiline)}${cond}]`;
    }
    const group = this.rng.chance(0.2) ? "..." : "";
    return `{for k, v in ${coll} : k => ${this.rng.chance(0.5) ? "v" : this.operand(level, multiline)}${group}${cond}}`;
  }

  /** A quoted template: text, escapes, interpolations, directives. */
  quoted(level: number): string {
    return `"${this.templateBody(level, false)}"`;
  }

  private templateBody(level: number, heredoc: boolean): string {
    let s = "";
    const n = this.rng.between(1, 4);
    for (let i = 0; i < n; i++) {
      switch (this.rng.int(8)) {
        case 0:
          s += this.rng.pick(["abc", " ", "-", "prefix-", "é", "😀"]);
          break;
        case 1:
          s += heredoc ? this.rng.pick(["\"quoted\"", "\\", "tab\t", "$${literal}", "%%{literal}"]) : this.rng.pick(["\\n", "\\\"", "\\\\", "\\t", "\\u00e9", "$${literal}", "%%{literal}"]);
          break;
        case 2:
        case 3: {
          // hcl2json evaluates literal interpolations and rejects `${null}`.
          let inner = this.expr(level, false);
          if (inner === "null") inner = this.traversal();
          s += `\${${this.rng.chance(0.1) ? "~ " : " "}${inner}${this.rng.chance(0.1) ? " ~" : " "}}`;
          break;
        }
        case 4:
          s += `\${${this.traversal()}}`;
          break;
        case 5:
          if (this.depth < 3) {
            this.depth++;
            s += `%{ if ${this.operand(level, false)} }${this.templateBody(level, heredoc)}${this.rng.chance(0.5) ? `%{ else }${this.templateBody(level, heredoc)}` : ""}%{ endif }`;
            this.depth--;
          }
          break;
        case 6:
          if (this.depth < 3) {
            this.depth++;
            s += `%{~ for x in ${this.traversal()} ~}${this.templateBody(level, heredoc)}%{ endfor }`;
            this.depth--;
          }
          break;
        default:
          s += this.rng.pick(WORDS);
      }
    }
    return s;
  }

  private heredoc(): string {
    const marker = this.rng.pick(["EOT", "EOF", "USERDATA", "END"]);
    const indented = this.rng.chance(0.5);
    const lines: string[] = [];
    const n = this.rng.between(0, 4);
    for (let i = 0; i < n; i++) {
      lines.push((indented ? "    " : "") + this.templateBody(1, true).replace(/\n/g, " "));
    }
    const close = (indented ? "  " : "") + marker;
    return `<<${indented ? "-" : ""}${marker}\n${lines.map((l) => l + "\n").join("")}${close}\n`;
  }
}

// test/gen/differential.ts
import { createRequire } from "node:module";

// src/hcl/json-schema.ts
var dynamicBlock = {
  labels: 1,
  strict: true,
  attrs: { iterator: "expr" }
};
var dynamicContent = { labels: 0, blocks: { dynamic: dynamicBlock } };
dynamicBlock.blocks = { content: dynamicContent };

// src/hcl/parser-expr.ts
var BINARY_LEVELS = [
  /* @__PURE__ */ new Map([[32 /* Or */, "||"]]),
  /* @__PURE__ */ new Map([[31 /* And */, "&&"]]),
  /* @__PURE__ */ new Map([
    [25 /* EqualOp */, "=="],
    [26 /* NotEqual */, "!="]
  ]),
  /* @__PURE__ */ new Map([
    [29 /* GreaterThan */, ">"],
    [30 /* GreaterThanEq */, ">="],
    [27 /* LessThan */, "<"],
    [28 /* LessThanEq */, "<="]
  ]),
  /* @__PURE__ */ new Map([
    [21 /* Plus */, "+"],
    [22 /* Minus */, "-"]
  ]),
  /* @__PURE__ */ new Map([
    [19 /* Star */, "*"],
    [20 /* Slash */, "/"],
    [23 /* Percent */, "%"]
  ])
];

// test/gen/hcl-generator.ts
var WORDS = [
  "name",
  "region",
  "instance_type",
  "tags",
  "enabled",
  "subnet_ids",
  "cidr_block",
  "vpc_id",
  "ami",
  "size",
  "labels",
  "replicas",
  "machine_type",
  "zone",
  "image",
  "disk_size_gb",
  "min_size",
  "max_size",
  "desired_capacity",
  "user_data",
  "key",
  "value",
  "cluster_name",
  "node_pool",
  "provider_id",
  "taints",
  "security_groups",
  "ports",
  "protocol",
  "weight"
];
var RESOURCE_TYPES = [
  "aws_instance",
  "aws_autoscaling_group",
  "aws_launch_template",
  "google_compute_instance",
  "azurerm_linux_virtual_machine_scale_set",
  "null_resource",
  "terraform_data",
  "random_id"
];
var NESTED_BLOCKS = ["ebs_block_device", "network_interface", "tag", "metadata_options", "boot_disk", "setting"];
var NESTED_LABELS = {
  ebs_block_device: 0,
  network_interface: 1,
  tag: 0,
  metadata_options: 2,
  boot_disk: 1,
  setting: 0
};
var FUNCTIONS = ["length", "lookup", "merge", "concat", "join", "format", "coalesce", "tolist", "sort", "base64encode", "try", "jsonencode", "max"];
var PROVIDER_FUNCTIONS = ["provider::aws::arn_parse", "provider::terraform::encode_tfvars", "provider::kubernetes::manifest_decode"];
var ROOTS = ["var", "local", "module", "data", "each", "count", "path", "self"];
var UNICODE_TEXT = ["h\xE9llo", "\u65E5\u672C", "na\xEFve caf\xE9", "\u2135", "\u{1F600} smile", "Gr\xFC\xDFe"];
var BINARY_OPS = ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"];
function generateProgram(rng, opts = {}) {
  return new Generator(rng).program(opts.minItems ?? 3, opts.maxItems ?? 8);
}
var Generator = class {
  constructor(rng) {
    this.rng = rng;
  }
  rng;
  depth = 0;
  program(min, max) {
    const out = [];
    if (this.rng.chance(0.3)) out.push(this.comment() + "\n");
    const n = this.rng.between(min, max);
    const used = /* @__PURE__ */ new Set();
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
  ident() {
    const w = this.rng.pick(WORDS);
    const r = this.rng.int(40);
    if (r === 39) return this.rng.pick(["caf\xE9", "gr\xF6\xDFe", "\xF1ame"]);
    if (r === 0) return w + "-" + this.rng.int(9);
    if (r === 1) return w + "_" + this.rng.int(99);
    return w;
  }
  uniqueName(used) {
    let name = this.rng.chance(0.03) ? this.rng.pick(["if", "for", "in", "true", "null", "endif"]) : this.ident();
    while (used.has(name)) name = this.ident() + "_" + this.rng.int(1e3);
    used.add(name);
    return name;
  }
  comment() {
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
  ind(level) {
    return "  ".repeat(level);
  }
  // ---------------------------------------------------------------- structure
  topItem(used) {
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
  labelText(value) {
    return this.rng.chance(0.1) && /^[a-z_][a-z0-9_-]*$/.test(value) ? value : JSON.stringify(value);
  }
  blockHead(type, labels) {
    const parts = [type, ...labels.map((l) => this.labelText(l))];
    return parts.join(this.rng.chance(0.1) ? "  " : " ");
  }
  body(level, items) {
    const used = /* @__PURE__ */ new Set();
    const lines = [];
    for (const item of items) {
      if (this.rng.chance(0.15)) lines.push(this.ind(level) + this.comment() + "\n");
      if (this.rng.chance(0.1)) lines.push("\n");
      lines.push(item(used));
    }
    return lines.join("");
  }
  block(level, head, items) {
    const trail = this.rng.chance(0.15) ? " " + this.lineComment() : "";
    const beforeBrace = this.rng.chance(0.05) ? " /* header */" : "";
    return `${this.ind(level)}${head}${beforeBrace} {${trail}
${this.body(level + 1, items)}${this.ind(level)}}
`;
  }
  lineComment() {
    return this.rng.pick(["# note", "// note", "/* note */"]);
  }
  attrItem(level, name) {
    return (used) => this.attribute(level, name !== void 0 && !used.has(name) ? (used.add(name), name) : this.uniqueName(used));
  }
  attribute(level, name) {
    const eq = this.rng.chance(0.1) ? "   =  " : " = ";
    if (this.rng.chance(0.08)) return `${this.ind(level)}${name}${eq}${this.heredoc()}`;
    const trail = this.rng.chance(0.1) ? " " + this.lineComment() : "";
    return `${this.ind(level)}${name}${eq}${this.expr(level, true)}${trail}
`;
  }
  variableBlock() {
    const items = [
      (used) => (used.add("type"), `  type = ${this.typeExpr()}
`)
    ];
    if (this.rng.chance(0.6)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "default"));
    if (this.rng.chance(0.3)) {
      items.push(
        () => this.block(1, "validation", [this.attrItem(2, "condition"), this.attrItem(2, "error_message")])
      );
    }
    return this.block(0, this.blockHead("variable", [this.ident()]), items);
  }
  typeExpr() {
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
        return `list(object({
    id   = string
    tags = map(string)
  }))`;
    }
  }
  resourceBlock(kind) {
    const items = [];
    const n = this.rng.between(0, 5);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    if (this.rng.chance(0.4)) items.push(() => this.genericBlock(1, 0));
    if (this.rng.chance(0.3)) items.push(() => this.dynamicBlock(1));
    if (kind === "resource" && this.rng.chance(0.4)) {
      items.push(
        () => this.block(1, "lifecycle", [
          (used) => (used.add("ignore_changes"), `    ignore_changes = [tags, ${this.traversal()}]
`),
          this.attrItem(2, "create_before_destroy")
        ])
      );
    }
    if (this.rng.chance(0.2)) items.push((used) => (used.add("depends_on"), `  depends_on = [${this.traversal()}]
`));
    return this.block(0, this.blockHead(kind, [this.rng.pick(RESOURCE_TYPES), this.ident()]), items);
  }
  dynamicBlock(level) {
    return this.block(level, this.blockHead("dynamic", [this.rng.pick(NESTED_BLOCKS)]), [
      this.attrItem(level + 1, "for_each"),
      () => this.block(level + 1, "content", [this.attrItem(level + 2), this.attrItem(level + 2)])
    ]);
  }
  outputBlock() {
    const items = [this.attrItem(1, "value")];
    if (this.rng.chance(0.5)) items.push(this.attrItem(1, "description"));
    if (this.rng.chance(0.2)) items.push(this.attrItem(1, "sensitive"));
    return this.block(0, this.blockHead("output", [this.ident()]), items);
  }
  localsBlock() {
    const items = [];
    const n = this.rng.between(0, 6);
    for (let i = 0; i < n; i++) items.push(this.attrItem(1));
    return this.block(0, "locals", items);
  }
  moduleBlock() {
    return this.block(0, this.blockHead("module", [this.ident()]), [
      (used) => (used.add("source"), `  source = "./modules/${this.ident()}"
`),
      this.attrItem(1),
      this.attrItem(1),
      (used) => (used.add("providers"), `  providers = {
    aws = aws.west
  }
`)
    ]);
  }
  terraformBlock() {
    return this.block(0, "terraform", [
      (used) => (used.add("required_version"), `  required_version = ">= 1.5"
`),
      () => this.block(1, "required_providers", [
        (used) => (used.add("aws"), `    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
`)
      ])
    ]);
  }
  oneLineBlock(level, used) {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.ident());
    const head = this.blockHead(type, labels);
    if (this.rng.chance(0.3)) return `${this.ind(level)}${head} {}
`;
    const name = this.ident();
    void used;
    return `${this.ind(level)}${head} { ${name} = ${this.expr(level, false)} }
`;
  }
  genericBlock(level, nesting) {
    const type = this.rng.pick(NESTED_BLOCKS);
    const labels = [];
    for (let i = 0; i < NESTED_LABELS[type]; i++) labels.push(this.rng.chance(0.1) ? this.rng.pick(UNICODE_TEXT) : this.ident());
    const items = [];
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
  expr(level, multiline) {
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
  edge(level, multiline) {
    switch (this.rng.int(multiline ? 12 : 8)) {
      case 0:
        return `${this.traversal()}.0.${this.ident()}`;
      // legacy index step
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
        return `(
${this.ind(level + 1)}${this.operand(level, multiline)} +
${this.ind(level + 1)}${this.operand(level, multiline)}
${this.ind(level)})`;
      case 9:
        return `[
${this.ind(level + 1)}${this.heredoc().replace(/\n$/, "")}
${this.ind(level + 1)}, ${this.simple()}
${this.ind(level)}]`;
      case 10:
        return `${this.rng.pick(FUNCTIONS)}(
${this.ind(level + 1)}${this.simple()} # first
${this.ind(level + 1)}, ${this.simple()}
${this.ind(level)})`;
      default:
        return `{
${this.ind(level + 1)}"\${${this.traversal()}}" = ${this.simple()}
${this.ind(level + 1)}${this.ident()}.${this.ident()} = 1
${this.ind(level)}}`;
    }
  }
  /** An operand of an operator: simple, or parenthesized when compound. */
  operand(level, multiline) {
    if (this.rng.chance(0.6)) return this.rng.chance(0.5) ? this.simple() : this.traversal();
    return `(${this.expr(level, multiline)})`;
  }
  /**
   * `!x` or `-x`. A literal operand has the right type: hcl2json folds
   * unary operators on literals and fails on `!1` or `-true`.
   */
  unary(level, multiline) {
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
  binary(level, multiline) {
    let s = this.operand(level, multiline);
    const n = this.rng.between(1, 3);
    for (let i = 0; i < n; i++) s += ` ${this.rng.pick(BINARY_OPS)} ${this.operand(level, multiline)}`;
    return s;
  }
  simple() {
    switch (this.rng.int(8)) {
      case 0:
        return String(this.rng.int(1e3));
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
  traversal() {
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
  splat() {
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
  call(level, multiline) {
    const name = this.rng.chance(0.15) ? this.rng.pick(PROVIDER_FUNCTIONS) : this.rng.pick(FUNCTIONS);
    const n = this.rng.int(4);
    const args = [];
    for (let i = 0; i < n; i++) args.push(this.expr(level, multiline));
    const expand = n > 0 && this.rng.chance(0.1) ? "..." : "";
    if (multiline && n > 1 && this.rng.chance(0.3)) {
      const inner = this.ind(level + 1);
      const comma = expand === "" && this.rng.chance(0.5) ? "," : "";
      return `${name}(
${args.map((a) => inner + a).join(",\n")}${expand}${comma}
${this.ind(level)})`;
    }
    return `${name}(${args.join(", ")}${expand})`;
  }
  tuple(level, multiline) {
    const n = this.rng.int(4);
    const items = [];
    for (let i = 0; i < n; i++) items.push(this.expr(level + 1, multiline));
    if (multiline && n > 0 && this.rng.chance(0.4)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x},${this.rng.chance(0.1) ? " # item" : ""}`);
      return `[
${lines.join("\n")}
${this.ind(level)}]`;
    }
    return `[${items.join(", ")}${n > 0 && this.rng.chance(0.2) ? "," : ""}]`;
  }
  objectKey(level) {
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
  object(level, multiline) {
    const n = this.rng.int(4);
    const items = [];
    for (let i = 0; i < n; i++) {
      const sep = this.rng.chance(0.2) ? ":" : "=";
      items.push(`${this.objectKey(level)} ${sep} ${this.expr(level + 1, multiline)}`);
    }
    if (multiline && n > 0 && this.rng.chance(0.5)) {
      const inner = this.ind(level + 1);
      const lines = items.map((x) => `${inner}${x}${this.rng.chance(0.3) ? "," : ""}${this.rng.chance(0.1) ? " # entry" : ""}`);
      return `{
${lines.join("\n")}
${this.ind(level)}}`;
    }
    return `{${n > 0 ? " " : ""}${items.join(", ")}${n > 0 ? " " : ""}}`;
  }
  forExpr(level, multiline) {
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
  quoted(level) {
    return `"${this.templateBody(level, false)}"`;
  }
  templateBody(level, heredoc) {
    let s = "";
    const n = this.rng.between(1, 4);
    for (let i = 0; i < n; i++) {
      switch (this.rng.int(8)) {
        case 0:
          s += this.rng.pick(["abc", " ", "-", "prefix-", "\xE9", "\u{1F600}"]);
          break;
        case 1:
          s += heredoc ? this.rng.pick(['"quoted"', "\\", "tab	", "$${literal}", "%%{literal}"]) : this.rng.pick(["\\n", '\\"', "\\\\", "\\t", "\\u00e9", "$${literal}", "%%{literal}"]);
          break;
        case 2:
        case 3: {
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
  heredoc() {
    const marker = this.rng.pick(["EOT", "EOF", "USERDATA", "END"]);
    const indented = this.rng.chance(0.5);
    const lines = [];
    const n = this.rng.between(0, 4);
    for (let i = 0; i < n; i++) {
      lines.push((indented ? "    " : "") + this.templateBody(1, true).replace(/\n/g, " "));
    }
    const close = (indented ? "  " : "") + marker;
    return `<<${indented ? "-" : ""}${marker}
${lines.map((l) => l + "\n").join("")}${close}
`;
  }
};

// test/gen/mutations.ts
var TOKEN = /"(?:[^"\\\n]|\\.)*"|<<-?[A-Z]+|[\p{L}_][\p{L}\p{N}_-]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\$\{|%\{|=>|==|!=|<=|>=|&&|\|\||\.\.\.|\/\*|\*\/|\/\/|\S/gu;
var INSERTABLE = [
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  "=",
  '"',
  ",",
  ".",
  "*",
  "?",
  ":",
  "=>",
  "...",
  "${",
  "%{",
  "\n",
  "#",
  "/*",
  "x",
  "var",
  "1",
  "-",
  "!",
  "&&",
  "<<EOT",
  "for",
  "in",
  "if",
  "endif",
  "\\",
  "'",
  "@"
];
function tokens(text) {
  const out = [];
  for (const m of text.matchAll(TOKEN)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return out;
}
function mutate(rng, text) {
  const toks = tokens(text);
  if (toks.length === 0) return { kind: "insert", text: text + rng.pick(INSERTABLE) };
  const tok = rng.pick(toks);
  switch (rng.int(9)) {
    case 0:
      return { kind: "delete-token", text: text.slice(0, tok.start) + text.slice(tok.end) };
    case 1: {
      const ins = rng.pick(INSERTABLE);
      const at = rng.chance(0.5) ? tok.start : tok.end;
      return { kind: "insert-token", text: text.slice(0, at) + ins + text.slice(at) };
    }
    case 2:
      return { kind: "duplicate-token", text: text.slice(0, tok.end) + " " + tok.text + text.slice(tok.end) };
    case 3: {
      const strings = toks.filter((t) => t.text.startsWith('"') && t.text.length >= 2);
      if (strings.length === 0) break;
      const s = rng.pick(strings);
      const cut = rng.chance(0.5) ? s.end - 1 : s.start + 1 + rng.int(Math.max(1, s.text.length - 2));
      return { kind: "break-string", text: text.slice(0, cut) + (rng.chance(0.5) ? "" : "\n") + text.slice(cut + (rng.chance(0.5) ? 1 : 0)) };
    }
    case 4: {
      const newlines = [...text.matchAll(/\n/g)].map((m) => m.index);
      if (newlines.length === 0) break;
      const at = rng.pick(newlines);
      return { kind: "join-lines", text: text.slice(0, at) + " " + text.slice(at + 1) };
    }
    case 5: {
      const lines = text.split("\n");
      const i = rng.int(lines.length);
      lines.splice(i, 0, lines[i]);
      return { kind: "duplicate-line", text: lines.join("\n") };
    }
    case 6: {
      const braces = toks.filter((t) => t.text === "{" || t.text === "}");
      if (braces.length === 0) break;
      const b = rng.pick(braces);
      return { kind: "unbalance-braces", text: text.slice(0, b.start) + text.slice(b.end) };
    }
    case 7: {
      const i = toks.indexOf(tok);
      if (i + 1 >= toks.length) break;
      const next = toks[i + 1];
      return {
        kind: "swap-tokens",
        text: text.slice(0, tok.start) + next.text + text.slice(tok.end, next.start) + tok.text + text.slice(next.end)
      };
    }
    default: {
      const cut = rng.int(text.length + 1);
      return { kind: "truncate", text: text.slice(0, cut) };
    }
  }
  return { kind: "delete-token", text: text.slice(0, tok.start) + text.slice(tok.end) };
}

// test/gen/rng.ts
var Rng = class {
  state;
  constructor(seed) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next() {
    this.state = this.state + 1831565813 >>> 0;
    let t = this.state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  between(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(items) {
    return items[this.int(items.length)];
  }
};

// test/gen/differential.ts
var require2 = createRequire(import.meta.url);
var hcl2json = require2("@cdktn/hcl2json");
function makeCase(seed, i) {
  const rng = new Rng(seed + i * 7919);
  const program = generateProgram(rng, { minItems: 2, maxItems: 5 });
  if (i % 3 === 0) return { text: program, kind: "valid" };
  const m = mutate(rng, program);
  return { text: m.text, kind: m.kind };
}

// ../../tmp/scratch/dv.ts
var rej = 0;
var kinds = /* @__PURE__ */ new Map();
for (let i = 0; i < 2400; i++) {
  const { text, kind } = makeCase(20261129, i);
  let ok = true;
  let msg = "";
  try {
    await hcl2json.parse("main.tf", text);
  } catch (e) {
    if (!e.message.startsWith("convert")) {
      ok = false;
      msg = e.message;
    }
  }
  const k = kinds.get(kind) ?? [0, 0];
  k[0]++;
  if (!ok) k[1]++;
  kinds.set(kind, k);
  if (kind === "valid" && !ok) {
    rej++;
    if (rej < 4) console.log(i, msg.slice(0, 300));
  }
}
console.log("valid rejected", rej, JSON.stringify([...kinds]));
process.exit(0);

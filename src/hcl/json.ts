/**
 * HCL's JSON syntax (`.tf.json`, `.tofu.json`) -> the shared AST.
 *
 * json-value.ts reads the JSON text into a position-exact value tree; this
 * file interprets that tree the way Terraform does, guided by Terraform's
 * configuration schema (the caller's BlockSchema; Terraform's is src/terraform/block-schema.ts): which properties are blocks, how
 * many label levels each block type has, and which arguments take templates,
 * bare expressions or literal strings (json-strings.ts).
 *
 * Block shapes accepted, as in HCL: a block's value is an object (one block)
 * or an array of objects (several blocks); each label level is an object
 * whose keys are the labels, or an array of such objects. `"//"` properties
 * of a body are comments: they go to `Body.jsonComments`, not attributes.
 *
 * Ranges: names and labels cover their quoted key; a string expression
 * covers the whole quoted token while the parts inside it keep their exact
 * positions. A block's `typeRange` is its type key, which in JSON is shared
 * by every block of that type in the object (`"resource": {...}`); so that a
 * block's `range` locates that one block, it runs from the key holding its
 * body (the last label, or the type key for unlabelled blocks) to the closing
 * brace, or from its own `{` when several bodies share that key in an array.
 */

import type {
  Attribute,
  Block,
  Body,
  Diagnostic,
  Expression,
  File,
  ObjectConsItem,
  ParseResult,
  Pos,
  Range,
} from "./ast.js";
import type { BlockSchema, StringMode } from "./json-shape.js";
import { expressionFromString, literalFromString, templateFromString } from "./json-strings.js";
import { InvalidNode, JsonAttributeNode, JsonBlockNode, JsonBodyNode, LiteralNode, ObjectConsNode, ObjectItemNode, TupleConsNode } from "./nodes.js";
import { exact } from "./parser-core.js";
import { computeLineStarts, LineIndex, stripBom } from "./source.js";
import { readJson, type JObject, type JString, type JValue, type OffsetRange } from "./json-value.js";

/**
 * Parses a JSON-syntax configuration file whose top-level body follows
 * `schema` (Terraform's is src/terraform/block-schema.ts). Never throws.
 *
 * Diagnostics about the JSON text carry `code: "json-syntax"`, those about
 * its mapping to blocks and arguments `code: "json-structure"`; problems in
 * the native-syntax templates and expressions inside strings come from the
 * native parser as they are.
 */
export function parseJson(text: string, filename: string, schema: BlockSchema): ParseResult {
  const { text: body, hadBom } = stripBom(text);
  const mapper = new JsonMapper(body, filename, schema);
  try {
    const result = mapper.run();
    if (hadBom) {
      // HashiCorp's JSON parser (and so Terraform and OpenTofu) rejects a byte
      // order mark in JSON files, although native-syntax files may have one.
      // The rest of the file is still read, so other checks keep working.
      result.diagnostics.unshift({
        severity: "error",
        summary: "Invalid start of value",
        detail:
          "This JSON file starts with a UTF-8 byte order mark (BOM), which Terraform and OpenTofu reject in JSON configuration files. Save the file as UTF-8 without a BOM.",
        subject: mapper.lines.range(0, 0),
        code: "json-syntax",
      });
    }
    return result;
  } catch (err) {
    // A bug, not a user error; still report it as a diagnostic rather than
    // take the whole run down.
    return {
      file: mapper.emptyFile(),
      diagnostics: [
        {
          severity: "error",
          summary: "Internal error while reading JSON configuration",
          detail: `tfcapi-lint failed to read this file (${err instanceof Error ? err.message : String(err)}). Please report this as a bug.`,
          subject: mapper.lines.range(0, 0),
          code: "internal",
        },
      ],
    };
  }
}

class JsonMapper {
  readonly lineStarts: number[];
  readonly diagnostics: Diagnostic[] = [];
  /** Argument names already seen per body, for duplicate detection. */
  private readonly attributeNames = new WeakMap<Body, Map<string, Attribute>>();
  private structureChecks = true;
  readonly lines: LineIndex;

  constructor(
    private readonly text: string,
    private readonly filename: string,
    private readonly schema: BlockSchema,
  ) {
    this.lineStarts = computeLineStarts(text);
    this.lines = new LineIndex(this.lineStarts);
  }

  run(): ParseResult {
    const read = readJson(this.text);
    for (const d of read.diagnostics) this.error(d.summary, d.detail, { start: d.start, end: d.end }, "json-syntax");
    // Like Terraform, which stops at JSON syntax errors, report structure
    // problems only for well-formed JSON: a broken value would otherwise be
    // reported twice (e.g. an unclosed array that is "not an object").
    this.structureChecks = read.diagnostics.length === 0;
    const whole: OffsetRange = { start: 0, end: this.text.length };
    const body = this.emptyBody(whole);
    const root = read.value;
    if (root !== null) {
      if (root.type === "object" || root.type === "array") {
        this.fillBody(body, root, this.schema);
      } else if (root.type !== "invalid") {
        this.structureError(
          "Root value must be object",
          "A JSON configuration file must contain one JSON object (or an array of objects) whose properties are the top-level blocks, such as \"variable\" and \"resource\".",
          root.range,
        );
      }
    }
    return { file: this.file(body), diagnostics: this.diagnostics };
  }

  emptyFile(): File {
    return this.file(this.emptyBody({ start: 0, end: this.text.length }));
  }

  private file(body: Body): File {
    return {
      filename: this.filename,
      syntax: "json",
      text: this.text,
      body,
      comments: [],
      lineStarts: this.lineStarts,
    };
  }

  // ---------------------------------------------------------------- helpers

  private range(r: OffsetRange): Range {
    return this.lines.range(r.start, r.end);
  }

  private error(summary: string, detail: string, r: OffsetRange, code: string): void {
    this.diagnostics.push({ severity: "error", summary, detail, subject: this.range(r), code });
  }

  /** A problem with how the JSON maps to blocks and arguments. */
  private structureError(summary: string, detail: string, r: OffsetRange): void {
    if (this.structureChecks) this.error(summary, detail, r, "json-structure");
  }

  private emptyBody(r: OffsetRange): Body {
    return new JsonBodyNode(this.range(r));
  }

  // ---------------------------------------------------------------- bodies

  /**
   * Adds the content of a body value to `body`: an object, or (HCL allows it
   * for bodies) an array of objects whose properties are read in turn.
   */
  private fillBody(body: Body, value: JValue, schema: BlockSchema): void {
    if (value.type === "object") {
      this.fillFromObject(body, value, schema);
    } else if (value.type === "array") {
      for (const item of value.items) {
        if (item.type === "object") this.fillFromObject(body, item, schema);
        else if (item.type !== "invalid") this.notAnObject(item, "setting the arguments of this block");
      }
    }
  }

  private fillFromObject(body: Body, obj: JObject, schema: BlockSchema): void {
    for (const { key, value } of obj.props) {
      const name = key.value;
      if (name === "//") {
        body.jsonComments?.push({
          text: value.type === "string" ? value.value : this.text.slice(value.range.start, value.range.end),
          range: this.range({ start: key.range.start, end: value.range.end }),
        });
        continue;
      }
      const blockSchema = schema.blocks !== undefined && Object.hasOwn(schema.blocks, name) ? schema.blocks[name] : undefined;
      if (blockSchema !== undefined) {
        this.expandBlocks(body.blocks, key, [], value, blockSchema);
        continue;
      }
      const mode = (schema.attrs !== undefined && Object.hasOwn(schema.attrs, name) ? schema.attrs[name] : undefined) ?? schema.otherAttrs ?? "template";
      const expr = this.expression(value, mode);
      const attr: Attribute = new JsonAttributeNode(name, this.range(key.range), expr, this.range({ start: key.range.start, end: value.range.end }));
      if (schema.strict) {
        let seen = this.attributeNames.get(body);
        if (seen === undefined) {
          seen = new Map();
          this.attributeNames.set(body, seen);
        }
        const first = seen.get(name);
        if (first === undefined) {
          seen.set(name, attr);
        } else {
          this.structureError(
            "Duplicate argument",
            `The argument "${name}" is already set on line ${first.nameRange.start.line}. Each argument may be set only once; remove one of them.`,
            key.range,
          );
          continue;
        }
      }
      body.attributes.push(attr);
    }
  }

  /**
   * One property naming a block type: walks the label levels (objects whose
   * keys are labels, or arrays of them) down to the block bodies.
   */
  private expandBlocks(out: Block[], typeKey: JString, labels: JString[], value: JValue, schema: BlockSchema): void {
    if (labels.length < schema.labels) {
      const levelName = `label ${labels.length + 1} of ${schema.labels}`;
      let found = 0;
      const eachObject = (obj: JObject): void => {
        for (const { key, value: inner } of obj.props) {
          found++;
          this.expandBlocks(out, typeKey, [...labels, key], inner, schema);
        }
      };
      if (value.type === "object") eachObject(value);
      else if (value.type === "array") {
        for (const item of value.items) {
          if (item.type === "object") eachObject(item);
          else if (item.type !== "invalid" && item.type !== "null") {
            found++; // reported here; not also a missing label
            this.notAnObject(item, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
          }
        }
      } else if (value.type !== "null" && value.type !== "invalid") {
        this.notAnObject(value, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
        return;
      }
      // As in HCL: a label level must name at least one block.
      if (found === 0 && value.type !== "null" && value.type !== "invalid") {
        this.structureError(
          "Missing block label",
          `"${typeKey.value}" blocks have ${schema.labels === 1 ? "a label" : `${schema.labels} labels`}, written as nested object keys, but this object has no keys. Add the ${levelName} as a key, or remove the empty "${typeKey.value}".`,
          value.open,
        );
      }
      return;
    }
    if (value.type === "object") {
      // The block starts at the key that holds its body directly.
      const holder = labels.length > 0 ? labels[labels.length - 1] : typeKey;
      out.push(this.block(typeKey, labels, value, schema, holder.range.start));
    } else if (value.type === "array") {
      for (const item of value.items) {
        // Blocks sharing one key start at their own opening brace.
        if (item.type === "object") out.push(this.block(typeKey, labels, item, schema, item.open.start));
        else if (item.type !== "invalid" && item.type !== "null") {
          this.notAnObject(item, `setting the arguments of a "${typeKey.value}" block`);
        }
      }
    } else if (value.type !== "null" && value.type !== "invalid") {
      this.structureError(
        "Incorrect JSON value type",
        `"${typeKey.value}" is a block, so its value must be a JSON object holding the block's content, or an array of such objects for several blocks.`,
        value.range,
      );
    }
  }

  private notAnObject(value: JValue, purpose: string): void {
    this.structureError("Incorrect JSON value type", `A JSON object is required here, ${purpose}.`, value.range);
  }

  private block(typeKey: JString, labels: JString[], obj: JObject, schema: BlockSchema, start: number): Block {
    const body = this.emptyBody({ start: obj.open.end, end: obj.close.start });
    this.fillFromObject(body, obj, schema);
    // singleLine is false: it is only meaningful for native syntax (one-line blocks).
    return new JsonBlockNode(
      typeKey.value,
      this.range(typeKey.range),
      labels.length === 0 ? exact([]) : labels.map((l) => l.value),
      labels.map((l) => this.range(l.range)),
      this.range(obj.open),
      this.range(obj.close),
      body,
      this.range({ start, end: obj.close.end }),
    );
  }

  // ---------------------------------------------------------------- expressions

  private expression(value: JValue, mode: StringMode): Expression {
    switch (value.type) {
      case "string":
        return this.stringExpression(value, mode);
      case "number":
        return new LiteralNode("number", value.value, value.raw, this.range(value.range));
      case "bool":
        return new LiteralNode("bool", value.value, value.value ? "true" : "false", this.range(value.range));
      case "null":
        return new LiteralNode("null", null, "null", this.range(value.range));
      case "invalid":
        return new InvalidNode(this.range(value.range));
      case "array": {
        const inner: StringMode =
          mode === "exprList" ? "expr" : mode === "literal" || mode === "requiredProviders" ? "literal" : "template";
        return new TupleConsNode(value.items.map((v) => this.expression(v, inner)), this.range(value.range));
      }
      case "object":
        return this.objectExpression(value, mode);
    }
  }

  private objectExpression(obj: JObject, mode: StringMode): Expression {
    const items: ObjectConsItem[] = [];
    for (const { key, value } of obj.props) {
      let keyExpr: Expression;
      let keyIsBareIdent = false;
      let valueMode: StringMode;
      if (mode === "providerMap") {
        keyExpr = this.stringExpression(key, "expr");
        keyIsBareIdent = keyExpr.kind === "ScopeTraversal" && keyExpr.traversal.length === 1;
        valueMode = "expr";
      } else if (mode === "requiredProviders") {
        keyExpr = literalFromString(key, this.text, this.lines);
        valueMode = key.value === "configuration_aliases" ? "exprList" : "requiredProviders";
      } else if (mode === "literal") {
        keyExpr = literalFromString(key, this.text, this.lines);
        valueMode = "literal";
      } else {
        keyExpr = this.stringExpression(key, "template");
        valueMode = "template";
      }
      items.push(new ObjectItemNode(keyExpr, keyIsBareIdent, this.expression(value, valueMode), this.range({ start: key.range.start, end: value.range.end })));
    }
    return new ObjectConsNode(items, this.range(obj.range));
  }

  private stringExpression(s: JString, mode: StringMode): Expression {
    if (mode === "literal" || mode === "requiredProviders") return literalFromString(s, this.text, this.lines);
    const parsed =
      mode === "template"
        ? templateFromString(s, this.text, this.filename, this.lines)
        : expressionFromString(s, this.text, this.filename, this.lines);
    for (const d of parsed.diagnostics) this.diagnostics.push(d);
    return parsed.expr;
  }
}

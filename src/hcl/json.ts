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
  Range,
} from "./ast.js";
import type { BlockSchema, StringMode } from "./json-shape.js";
import { expressionFromString, literalFromString, templateFromString } from "./json-strings.js";
import { InvalidNode, JsonAttributeNode, JsonBlockNode, JsonBodyNode, LiteralNode, ObjectConsNode, ObjectItemNode, TupleConsNode } from "./nodes.js";
import { exact } from "./parser-core.js";
import { computeLineStarts, LineIndex, stripBom } from "./source.js";
import { readJson, type JArray, type JObject, type JString, type JValue, type OffsetRange } from "./json-value.js";

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

  /**
   * Adds the properties of `obj` to `body`: comments, arguments, and blocks,
   * whose bodies are filled in turn before the next property (so diagnostics
   * come in document order). Blocks nest to any depth (`dynamic` holds
   * `content` holds `dynamic`...): the bodies being filled are frames on an
   * explicit stack.
   */
  private fillFromObject(body: Body, obj: JObject, schema: BlockSchema): void {
    const open: BodyFill[] = [{ body, obj, schema, next: 0, steps: [], step: 0 }];
    while (open.length > 0) {
      const f = open[open.length - 1];
      if (f.step < f.steps.length) {
        const step = f.steps[f.step++];
        if ("summary" in step) {
          this.structureError(step.summary, step.detail, step.range);
        } else {
          const blockBody = this.emptyBody({ start: step.obj.open.end, end: step.obj.close.start });
          step.out.push(this.blockNode(step, blockBody));
          open.push({ body: blockBody, obj: step.obj, schema: step.schema, next: 0, steps: [], step: 0 });
        }
        continue;
      }
      if (f.next >= f.obj.props.length) {
        open.pop();
        continue;
      }
      const { key, value } = f.obj.props[f.next++];
      const blockSchema = this.property(f.body, key, value, f.schema);
      if (blockSchema !== undefined) {
        f.steps = [];
        f.step = 0;
        this.expandBlocks(f.steps, f.body.blocks, key, [], value, blockSchema);
      }
    }
  }

  /**
   * Adds one property of a body: a comment or an argument. For a property
   * naming a block type, returns the type's schema (the caller reads the blocks).
   */
  private property(body: Body, key: JString, value: JValue, schema: BlockSchema): BlockSchema | undefined {
    const name = key.value;
    if (name === "//") {
      body.jsonComments?.push({
        text: value.type === "string" ? value.value : this.text.slice(value.range.start, value.range.end),
        range: this.range({ start: key.range.start, end: value.range.end }),
      });
      return undefined;
    }
    const blockSchema = schema.blocks !== undefined && Object.hasOwn(schema.blocks, name) ? schema.blocks[name] : undefined;
    if (blockSchema !== undefined) return blockSchema;
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
        return undefined;
      }
    }
    body.attributes.push(attr);
    return undefined;
  }

  /**
   * One property naming a block type: walks the label levels (objects whose
   * keys are labels, or arrays of them) down to the block bodies, and lists
   * in `steps`, in document order, each block to add to `out` and each
   * problem to report (the recursion is over the label levels, at most the
   * schema's label count).
   */
  private expandBlocks(steps: BlockStep[], out: Block[], typeKey: JString, labels: JString[], value: JValue, schema: BlockSchema): void {
    const problem = (summary: string, detail: string, range: OffsetRange): void => {
      steps.push({ summary, detail, range });
    };
    const notAnObject = (item: JValue, purpose: string): void => problem("Incorrect JSON value type", `A JSON object is required here, ${purpose}.`, item.range);
    if (labels.length < schema.labels) {
      const levelName = `label ${labels.length + 1} of ${schema.labels}`;
      let found = 0;
      const eachObject = (obj: JObject): void => {
        for (const { key, value: inner } of obj.props) {
          found++;
          this.expandBlocks(steps, out, typeKey, [...labels, key], inner, schema);
        }
      };
      if (value.type === "object") eachObject(value);
      else if (value.type === "array") {
        for (const item of value.items) {
          if (item.type === "object") eachObject(item);
          else if (item.type !== "invalid" && item.type !== "null") {
            found++; // reported here; not also a missing label
            notAnObject(item, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
          }
        }
      } else if (value.type !== "null" && value.type !== "invalid") {
        notAnObject(value, `whose keys are the ${levelName} of the "${typeKey.value}" blocks`);
        return;
      }
      if (found === 0 && value.type !== "null" && value.type !== "invalid") {
        problem(
          "Missing block label",
          `"${typeKey.value}" blocks have ${schema.labels === 1 ? "a label" : `${schema.labels} labels`}, written as nested object keys, but this object has no keys. Add the ${levelName} as a key, or remove the empty "${typeKey.value}".`,
          value.open,
        );
      }
      return;
    }
    if (value.type === "object") {
      const holder = labels.length > 0 ? labels[labels.length - 1] : typeKey;
      steps.push({ out, typeKey, labels, obj: value, schema, start: holder.range.start });
    } else if (value.type === "array") {
      for (const item of value.items) {
        if (item.type === "object") steps.push({ out, typeKey, labels, obj: item, schema, start: item.open.start });
        else if (item.type !== "invalid" && item.type !== "null") {
          notAnObject(item, `setting the arguments of a "${typeKey.value}" block`);
        }
      }
    } else if (value.type !== "null" && value.type !== "invalid") {
      problem(
        "Incorrect JSON value type",
        `"${typeKey.value}" is a block, so its value must be a JSON object holding the block's content, or an array of such objects for several blocks.`,
        value.range,
      );
    }
  }

  private notAnObject(value: JValue, purpose: string): void {
    this.structureError("Incorrect JSON value type", `A JSON object is required here, ${purpose}.`, value.range);
  }

  /** The node of a block (its body is filled afterwards). */
  private blockNode(b: NewBlock, body: Body): Block {
    const { typeKey, labels, obj } = b;
    return new JsonBlockNode(
      typeKey.value,
      this.range(typeKey.range),
      labels.length === 0 ? exact([]) : labels.map((l) => l.value),
      labels.map((l) => this.range(l.range)),
      this.range(obj.open),
      this.range(obj.close),
      body,
      this.range({ start: b.start, end: obj.close.end }),
    );
  }

  /**
   * The expression of a JSON value whose strings are read as `mode` says.
   * Arrays and objects nest to any depth: they are converted from an
   * explicit stack, keys and values in document order (and so are the
   * diagnostics of their strings), each container built once its items are.
   */
  private expression(root: JValue, rootMode: StringMode): Expression {
    if (root.type !== "array" && root.type !== "object") return this.scalarExpression(root, rootMode);
    const todo: ExprTask[] = [{ value: root, mode: rootMode }];
    const done: Expression[] = [];
    while (todo.length > 0) {
      const task = todo.pop() as ExprTask;
      if ("key" in task) {
        done.push(this.keyExpression(task.key, task.mode));
        continue;
      }
      const { value, mode } = task;
      if ("build" in task) {
        done.push(this.buildContainer(value as JArray | JObject, mode, done));
        continue;
      }
      if (value.type === "array") {
        todo.push({ value, mode, build: true });
        const inner: StringMode =
          mode === "exprList" ? "expr" : mode === "literal" || mode === "requiredProviders" ? "literal" : "template";
        for (let i = value.items.length - 1; i >= 0; i--) todo.push({ value: value.items[i], mode: inner });
      } else if (value.type === "object") {
        todo.push({ value, mode, build: true });
        for (let i = value.props.length - 1; i >= 0; i--) {
          const { key, value: v } = value.props[i];
          todo.push({ value: v, mode: valueMode(mode, key) });
          todo.push({ key, mode });
        }
      } else {
        done.push(this.scalarExpression(value, mode));
      }
    }
    return done[0];
  }

  /** An expression for a JSON value that is not an array or object. */
  private scalarExpression(value: Exclude<JValue, JArray | JObject>, mode: StringMode): Expression {
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
    }
  }

  /** The key expression of an object property in an object read as `mode`. */
  private keyExpression(key: JString, mode: StringMode): Expression {
    if (mode === "providerMap") return this.stringExpression(key, "expr");
    if (mode === "requiredProviders" || mode === "literal") return literalFromString(key, this.text, this.lines);
    return this.stringExpression(key, "template");
  }

  /** The tuple or object for `value`, from the expressions of its items on top of `done` (taken off it). */
  private buildContainer(value: JArray | JObject, mode: StringMode, done: Expression[]): Expression {
    if (value.type === "array") {
      return new TupleConsNode(done.splice(done.length - value.items.length), this.range(value.range));
    }
    const parts = done.splice(done.length - 2 * value.props.length);
    const items: ObjectConsItem[] = [];
    for (let i = 0; i < value.props.length; i++) {
      const { key, value: v } = value.props[i];
      const keyExpr = parts[2 * i];
      const keyIsBareIdent = mode === "providerMap" && keyExpr.kind === "ScopeTraversal" && keyExpr.traversal.length === 1;
      items.push(new ObjectItemNode(keyExpr, keyIsBareIdent, parts[2 * i + 1], this.range({ start: key.range.start, end: v.range.end })));
    }
    return new ObjectConsNode(items, this.range(value.range));
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

/** How the strings of a property's value are read, in an object read as `mode`. */
function valueMode(mode: StringMode, key: JString): StringMode {
  if (mode === "providerMap") return "expr";
  if (mode === "requiredProviders") return key.value === "configuration_aliases" ? "exprList" : "requiredProviders";
  if (mode === "literal") return "literal";
  return "template";
}

/** A step of JsonMapper.expression: a value to convert, a key to convert, or a container to build. */
type ExprTask = { value: JValue; mode: StringMode; build?: true } | { key: JString; mode: StringMode };

/** A block found under a block-type property: where it goes and what it holds. */
interface NewBlock {
  out: Block[];
  typeKey: JString;
  labels: JString[];
  obj: JObject;
  schema: BlockSchema;
  /** Where the block's range starts. */
  start: number;
}

/** A step of filling a body: a block to add (its body filled next), or a problem to report. */
type BlockStep = NewBlock | { summary: string; detail: string; range: OffsetRange };

/** A body being filled from a JSON object (see JsonMapper.fillFromObject). */
interface BodyFill {
  body: Body;
  obj: JObject;
  schema: BlockSchema;
  /** The next property of obj to read. */
  next: number;
  /** What the last block-type property holds, and the next of those steps. */
  steps: BlockStep[];
  step: number;
}

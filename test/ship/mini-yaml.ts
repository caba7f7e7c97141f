/**
 * A deliberately small YAML reader for the files this project ships
 * (action.yml, .pre-commit-hooks.yaml): block mappings, block sequences,
 * plain / single-quoted / double-quoted scalars and `|` literal blocks.
 * Anything else (flow collections, anchors, multi-document streams) is an
 * error, so a construct the tests cannot read is noticed, not misread.
 */
export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  no: number;
}

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s:-]/.test(text[i - 1]!)) quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      return text.slice(0, i).trimEnd();
    }
  }
  return text.trimEnd();
}

function scalar(raw: string, no: number): string {
  const text = raw.trim();
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`line ${no}: unterminated double-quoted scalar`);
    return JSON.parse(text) as string;
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`line ${no}: unterminated single-quoted scalar`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[[{&*!%@`]/.test(text)) throw new Error(`line ${no}: unsupported YAML construct: ${text}`);
  return text;
}

class Reader {
  private pos = 0;
  constructor(private readonly raw: string[]) {}

  /** Next significant line (skips blanks and comment-only lines). */
  private peek(): Line | null {
    while (this.pos < this.raw.length) {
      const full = this.raw[this.pos]!;
      const text = stripComment(full);
      if (text.trim() === "" || full.trim() === "---") {
        this.pos++;
        continue;
      }
      const indent = full.length - full.trimStart().length;
      return { indent, text: text.trim(), no: this.pos + 1 };
    }
    return null;
  }

  parse(): Yaml {
    const first = this.peek();
    if (!first) return {};
    const value = this.node(first.indent);
    const rest = this.peek();
    if (rest) throw new Error(`line ${rest.no}: unexpected content: ${rest.text}`);
    return value;
  }

  private node(indent: number): Yaml {
    const line = this.peek()!;
    return line.text.startsWith("- ") || line.text === "-" ? this.sequence(indent) : this.mapping(indent);
  }

  private literal(parentIndent: number): string {
    const lines: string[] = [];
    let blockIndent = -1;
    while (this.pos < this.raw.length) {
      const full = this.raw[this.pos]!;
      if (full.trim() === "") {
        lines.push("");
        this.pos++;
        continue;
      }
      const indent = full.length - full.trimStart().length;
      if (indent <= parentIndent) break;
      if (blockIndent < 0) blockIndent = indent;
      lines.push(full.slice(blockIndent));
      this.pos++;
    }
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.join("\n") + "\n";
  }

  /** The value after `key:` (inline scalar, literal block or nested node). */
  private valueAfterColon(rest: string, indent: number, no: number): Yaml {
    if (rest === "|" || rest === "|-") {
      this.pos++;
      const text = this.literal(indent);
      return rest === "|-" ? text.replace(/\n$/, "") : text;
    }
    if (rest !== "") {
      this.pos++;
      return scalar(rest, no);
    }
    this.pos++;
    const next = this.peek();
    if (!next || next.indent < indent || (next.indent === indent && !next.text.startsWith("-"))) return "";
    if (next.indent === indent && next.text.startsWith("-")) return this.sequence(indent);
    return this.node(next.indent);
  }

  private mapping(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    for (;;) {
      const line = this.peek();
      if (!line || line.indent < indent) return out;
      if (line.indent > indent) throw new Error(`line ${line.no}: bad indentation`);
      if (line.text.startsWith("-")) return out;
      const m = /^("[^"]*"|'[^']*'|[^:]+?):(?:\s+(.*))?$/.exec(line.text);
      if (!m) throw new Error(`line ${line.no}: expected "key: value", got: ${line.text}`);
      const key = scalar(m[1]!, line.no);
      if (Object.hasOwn(out, key)) throw new Error(`line ${line.no}: duplicate key ${key}`);
      out[key] = this.valueAfterColon((m[2] ?? "").trim(), indent, line.no);
    }
  }

  private sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (;;) {
      const line = this.peek();
      if (!line || line.indent !== indent || !(line.text.startsWith("- ") || line.text === "-")) return out;
      const itemText = line.text.slice(1).trimStart();
      const itemIndent = indent + (line.text.length - itemText.length);
      if (itemText === "") {
        this.pos++;
        out.push(this.node(this.peek()!.indent));
      } else if (/^("[^"]*"|'[^']*'|[^:\s][^:]*?):(\s|$)/.test(itemText)) {
        // "- key: value" starts a mapping whose keys sit at itemIndent.
        this.raw[this.pos] = " ".repeat(itemIndent) + itemText;
        out.push(this.mapping(itemIndent));
      } else {
        this.pos++;
        out.push(scalar(itemText, line.no));
      }
    }
  }
}

export function parseYaml(text: string): Yaml {
  return new Reader(text.replace(/\r\n/g, "\n").split("\n")).parse();
}

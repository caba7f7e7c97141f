/**
 * A strict well-formedness check for the XML our formatters write (no
 * dependency): one root element, balanced tags, quoted attributes without
 * duplicates, only the five predefined entities and character references,
 * no characters XML 1.0 forbids. Returns the element names in document
 * order, or throws with the offset of the first problem.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function checkText(text: string, at: number): void {
  const bad = FORBIDDEN.exec(text);
  if (bad) throw new Error(`forbidden character U+${bad[0].charCodeAt(0).toString(16)} at ${at + bad.index}`);
  if (text.includes("<")) throw new Error(`raw < at ${at + text.indexOf("<")}`);
  const amp = /&(?!(?:lt|gt|amp|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.exec(text);
  if (amp) throw new Error(`bare & at ${at + amp.index}`);
  for (const m of text.matchAll(/&#(x[0-9A-Fa-f]+|[0-9]+);/g)) {
    const cp = m[1]!.startsWith("x") ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
    const ok = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    if (!ok) throw new Error(`character reference to U+${cp.toString(16)} at ${at + m.index!}`);
  }
}

export function checkXml(doc: string): string[] {
  const elements: string[] = [];
  const stack: string[] = [];
  let i = 0;
  let rootSeen = false;
  if (doc.startsWith("<?xml")) {
    const end = doc.indexOf("?>");
    if (end < 0) throw new Error("unterminated XML declaration");
    i = end + 2;
  }
  while (i < doc.length) {
    const lt = doc.indexOf("<", i);
    const text = doc.slice(i, lt < 0 ? doc.length : lt);
    if (stack.length === 0 && text.trim() !== "") throw new Error(`text outside the root element at ${i}`);
    checkText(text, i);
    if (lt < 0) break;
    if (doc.startsWith("<!--", lt)) {
      const end = doc.indexOf("-->", lt + 4);
      if (end < 0) throw new Error(`unterminated comment at ${lt}`);
      i = end + 3;
      continue;
    }
    if (doc.startsWith("<![CDATA[", lt)) {
      const end = doc.indexOf("]]>", lt);
      if (end < 0 || stack.length === 0) throw new Error(`bad CDATA at ${lt}`);
      i = end + 3;
      continue;
    }
    const gt = doc.indexOf(">", lt);
    if (gt < 0) throw new Error(`unterminated tag at ${lt}`);
    let tag = doc.slice(lt + 1, gt);
    if (tag.startsWith("/")) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? "nothing"}> at ${lt}`);
      i = gt + 1;
      continue;
    }
    const selfClosing = tag.endsWith("/");
    if (selfClosing) tag = tag.slice(0, -1);
    const nameMatch = NAME.exec(tag);
    if (!nameMatch) throw new Error(`bad element name at ${lt}`);
    const name = nameMatch[0];
    if (stack.length === 0) {
      if (rootSeen) throw new Error(`second root element <${name}> at ${lt}`);
      rootSeen = true;
    }
    let rest = tag.slice(name.length);
    const seen = new Set<string>();
    while (rest.trim() !== "") {
      const m = /^\s+([A-Za-z_][A-Za-z0-9_.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(rest);
      if (!m) throw new Error(`bad attribute in <${name}> at ${lt}: ${rest.slice(0, 40)}`);
      if (seen.has(m[1]!)) throw new Error(`duplicate attribute ${m[1]} in <${name}> at ${lt}`);
      seen.add(m[1]!);
      checkText(m[3] ?? m[4] ?? "", lt);
      rest = rest.slice(m[0].length);
    }
    elements.push(name);
    if (!selfClosing) stack.push(name);
    i = gt + 1;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]}>`);
  if (!rootSeen) throw new Error("no root element");
  return elements;
}

/**
 * Structural invariants every parse result must satisfy, whatever the input:
 * each position is inside the text and its line/column agree with its
 * offset, and each range ends at or after its start. Returns the violations
 * (empty when all hold).
 */

import type { ParseResult, Pos } from "../../src/hcl/ast.js";

function isPos(v: object): v is Pos {
  const p = v as Partial<Pos>;
  return typeof p.offset === "number" && typeof p.line === "number" && typeof p.column === "number";
}

export function checkInvariants(res: ParseResult, limit = 5): string[] {
  const problems: string[] = [];
  const { text, lineStarts } = res.file;
  if (lineStarts[0] !== 0) problems.push("lineStarts[0] is not 0");
  for (let i = 1; i < lineStarts.length; i++) {
    if (text[lineStarts[i] - 1] !== "\n") problems.push(`lineStarts[${i}] does not follow a line break`);
  }
  const checkPos = (p: Pos, where: string): void => {
    if (problems.length >= limit) return;
    if (!(p.offset >= 0 && p.offset <= text.length)) problems.push(`${where}: offset ${p.offset} outside the text (${text.length})`);
    else if (lineStarts[p.line - 1] === undefined || lineStarts[p.line - 1] + p.column - 1 !== p.offset) {
      problems.push(`${where}: ${p.line}:${p.column} does not match offset ${p.offset}`);
    } else if (p.line < lineStarts.length && p.offset >= lineStarts[p.line]) {
      problems.push(`${where}: offset ${p.offset} is past the end of line ${p.line}`);
    }
  };
  const seen = new Set<object>();
  const stack: { node: object; where: string }[] = [
    { node: res.file.body, where: "body" },
    { node: res.diagnostics, where: "diagnostics" },
  ];
  while (stack.length > 0 && problems.length < limit) {
    const { node, where } = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const rec = node as Record<string, unknown>;
    const start = rec.start;
    const end = rec.end;
    if (start !== null && typeof start === "object" && end !== null && typeof end === "object" && isPos(start) && isPos(end)) {
      if (start.offset > end.offset) problems.push(`${where}: range ends before it starts`);
    }
    for (const key of Object.keys(rec)) {
      if (key === "block") continue; // diagnostics point back into the tree
      const v = rec[key];
      if (v === null || typeof v !== "object") continue;
      if (isPos(v)) checkPos(v, `${where}.${key}`);
      else stack.push({ node: v, where: `${where}.${key}` });
    }
  }
  return problems;
}

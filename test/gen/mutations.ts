/**
 * Mutations that turn a valid HCL program into a (usually) invalid one:
 * deleting, inserting, duplicating or swapping tokens, breaking strings,
 * joining lines, duplicating lines (duplicate attributes) and unbalancing
 * braces. A mutation may still leave the program valid; the differential
 * test then compares structures as for any valid program.
 */

import { Rng } from "./rng.js";

export interface Mutation {
  kind: string;
  text: string;
}

/** Rough HCL tokens: enough to cut programs at meaningful places. */
const TOKEN = /"(?:[^"\\\n]|\\.)*"|<<-?[A-Z]+|[\p{L}_][\p{L}\p{N}_-]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\$\{|%\{|=>|==|!=|<=|>=|&&|\|\||\.\.\.|\/\*|\*\/|\/\/|\S/gu;

const INSERTABLE = [
  "{", "}", "[", "]", "(", ")", "=", "\"", ",", ".", "*", "?", ":", "=>", "...", "${", "%{", "\n",
  "#", "/*", "x", "var", "1", "-", "!", "&&", "<<EOT", "for", "in", "if", "endif", "\\", "'", "@",
];

function tokens(text: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return out;
}

export function mutate(rng: Rng, text: string): Mutation {
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
        text: text.slice(0, tok.start) + next.text + text.slice(tok.end, next.start) + tok.text + text.slice(next.end),
      };
    }
    default: {
      const cut = rng.int(text.length + 1);
      return { kind: "truncate", text: text.slice(0, cut) };
    }
  }
  return { kind: "delete-token", text: text.slice(0, tok.start) + text.slice(tok.end) };
}

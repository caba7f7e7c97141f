/**
 * Decoding of JSON string contents (escapes, surrogate pairs, problems),
 * optionally recording where each decoded UTF-16 unit came from.
 */

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

export type Reporter = (summary: string, detail: string, start: number, end: number) => void;

/**
 * Decodes string content between `from` and `to`; fills `map` with the
 * source offset of each decoded unit when given, and reports problems when
 * `report` is given.
 */
export function decodeContent(text: string, from: number, to: number, map: number[] | null, report: Reporter | null): string {
  let out = "";
  let i = from;
  while (i < to) {
    // Copy a run of ordinary characters in one step.
    let j = i;
    while (j < to) {
      const c = text.charCodeAt(j);
      if (c === 0x5c || c < 0x20) break;
      j++;
    }
    if (j > i) {
      out += text.slice(i, j);
      if (map !== null) for (let k = i; k < j; k++) map.push(k);
      i = j;
      if (i >= to) break;
    }
    const c = text.charCodeAt(i);
    if (c !== 0x5c) {
      report?.(
        "Invalid JSON string",
        `A JSON string cannot contain the control character U+${c.toString(16).toUpperCase().padStart(4, "0")} as is; write it as an escape such as \\t or \\u${c.toString(16).padStart(4, "0")}.`,
        i,
        i + 1,
      );
      out += text[i];
      map?.push(i);
      i++;
      continue;
    }
    const e = text[i + 1];
    const simpleEscape = e === undefined || i + 1 >= to ? undefined : SIMPLE_ESCAPES[e];
    if (simpleEscape !== undefined) {
      out += simpleEscape;
      map?.push(i);
      i += 2;
      continue;
    }
    if (e === "u") {
      const hex = text.slice(i + 2, Math.min(i + 6, to));
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        let unit = parseInt(hex, 16);
        if (unit >= 0xd800 && unit <= 0xdbff) {
          // A high surrogate must be followed by an escaped low one.
          const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})$/.exec(text.slice(i + 6, i + 12));
          if (low && i + 12 <= to) {
            out += String.fromCharCode(unit, parseInt(low[1], 16));
            map?.push(i, i + 6);
            i += 12;
            continue;
          }
          unit = 0xfffd;
        } else if (unit >= 0xdc00 && unit <= 0xdfff) {
          unit = 0xfffd;
        }
        out += String.fromCharCode(unit);
        map?.push(i);
        i += 6;
        continue;
      }
      const digits = /^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0;
      report?.("Invalid JSON string", "A \\u escape needs exactly four hexadecimal digits, for example \\u00e9.", i, i + 2 + digits);
      out += "\\u";
      map?.push(i, i + 1);
      i += 2;
      continue;
    }
    const shown = e === undefined || i + 1 >= to ? "\\" : "\\" + e;
    report?.(
      "Invalid JSON string",
      `"${shown}" is not a valid escape in a JSON string. The valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a literal backslash as \\\\.`,
      i,
      i + shown.length,
    );
    out += shown;
    map?.push(i);
    if (shown.length === 2) map?.push(i + 1);
    i += shown.length;
  }
  return out;
}

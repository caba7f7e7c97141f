/** The JSON reader under HCL's JSON syntax: values, offsets, diagnostics. */

import { describe, expect, it } from "vitest";
import { decodedOffsets, readJson, type JObject, type JString, type JValue } from "../../src/hcl/json-value.js";

/** [summary, start, end] of every diagnostic. */
function diags(text: string): [string, number, number][] {
  return readJson(text).diagnostics.map((d) => [d.summary, d.start, d.end]);
}

describe("readJson values", () => {
  it("keeps property order, duplicates and exact offsets", () => {
    const r = readJson('{"b": 1, "a": 2, "b": 3}');
    expect(r.diagnostics).toEqual([]);
    const obj = r.value as JObject;
    expect(obj.props.map((p) => [p.key.value, p.key.range.start, p.key.range.end, p.value.range.start])).toEqual([
      ["b", 1, 4, 6],
      ["a", 9, 12, 14],
      ["b", 17, 20, 22],
    ]);
    expect(obj.open).toEqual({ start: 0, end: 1 });
    expect(obj.close).toEqual({ start: 23, end: 24 });
    expect(obj.range).toEqual({ start: 0, end: 24 });
  });

  it("reads every scalar kind and keeps number spelling", () => {
    const r = readJson('[1.50, -0, 2e+3, true, false, null, ""]');
    expect(r.diagnostics).toEqual([]);
    const arr = r.value as { items: unknown[] };
    expect(arr.items).toEqual([
      { type: "number", raw: "1.50", value: 1.5, range: { start: 1, end: 5 } },
      { type: "number", raw: "-0", value: -0, range: { start: 7, end: 9 } },
      { type: "number", raw: "2e+3", value: 2000, range: { start: 11, end: 15 } },
      { type: "bool", value: true, range: { start: 17, end: 21 } },
      { type: "bool", value: false, range: { start: 23, end: 28 } },
      { type: "null", range: { start: 30, end: 34 } },
      { type: "string", value: "", range: { start: 36, end: 38 }, contentEnd: 37, escaped: false },
    ]);
  });

  it("decodes escapes and maps each decoded unit to its source offset", () => {
    const text = String.raw`{"k": "a\n\u00e9\ud83d\ude00\"/\/"}`;
    const s = (readJson(text).value as JObject).props[0].value as JString;
    expect(s.value).toBe('a\né😀"//');
    // a=7, \n=8, \u00e9=10, surrogate pair=16 and 22, \"=28, /=30, \/=31, closing quote=33
    expect(s.escaped).toBe(true);
    expect(decodedOffsets(text, s)).toEqual([7, 8, 10, 16, 22, 28, 30, 31, 33]);
    expect(s.range).toEqual({ start: 6, end: 34 });
  });

  it("turns lone surrogate escapes into U+FFFD like Go does", () => {
    const text = String.raw`{"k": "\ud800x\udc00"}`;
    const s = (readJson(text).value as JObject).props[0].value as JString;
    expect(s.value).toBe("\ufffdx\ufffd");
    expect(decodedOffsets(text, s)).toEqual([7, 13, 14, 20]);
  });

  it("keeps non-ASCII text and lone surrogates in the source as they are", () => {
    const text = '{"k": "é\ud800ß"}';
    const s = (readJson(text).value as JObject).props[0].value as JString;
    expect(s.value).toBe("é\ud800ß");
    expect(s.escaped).toBe(false);
    expect(decodedOffsets(text, s)).toEqual([7, 8, 9, 10]);
    expect(s.range).toEqual({ start: 6, end: 11 });
  });
});

describe("readJson diagnostics", () => {
  const cases: [string, [string, number, number][]][] = [
    ["", [["Missing value", 0, 0]]],
    ["   \n", [["Missing value", 4, 4]]],
    ['{"a": 1', [["Unclosed object", 0, 1]]],
    ['{"a": [1, 2', [["Unclosed array", 6, 7]]],
    ['{"a": 1,}', [["Trailing comma in object", 7, 8]]],
    ['{"a": [1, 2,]}', [["Trailing comma in array", 11, 12]]],
    ['{"a": [1 2]}', [["Missing array element separator comma", 9, 10]]],
    ['["a": 1]', [["Invalid array value", 4, 5]]],
    ['{"a": 1 "b": 2}', [["Missing attribute separator comma", 8, 11]]],
    ['{"a" = 1}', [["Missing property value colon", 5, 6]]],
    ['{"a" "b"}', [["Missing property value colon", 5, 8]]],
    ['{"a"}', [["Missing object value", 4, 5]]],
    ['{"a":}', [["Missing JSON value", 5, 6]]],
    ['{"a": ]}', [["Missing JSON value", 6, 7]]],
    ['[1, ,2]', [["Missing array element value", 4, 5]]],
    ['{"a": tru}', [["Invalid JSON keyword", 6, 9]]],
    ['{"a": NaN}', [["Invalid JSON keyword", 6, 9]]],
    ['{"a": 01}', [["Invalid JSON number", 6, 8]]],
    ['{"a": 1.}', [["Invalid JSON number", 6, 8]]],
    ['{"a": +1}', [["Invalid JSON number", 6, 8]]],
    ['{"a": @}', [["Invalid start of value", 6, 7]]],
    ["{\"a\": 'x'}", [["Invalid start of value", 6, 7]]],
    ['{a: 1}', [["Invalid object property name", 1, 2]]],
    ['{,}', [["Invalid object property name", 1, 2]]],
    ['{"a":1,,"b":2}', [["Invalid object property name", 7, 8]]],
    ['{"a": 1}}', [["Extraneous data after value", 8, 9]]],
    ['{"a": 1} x', [["Extraneous data after value", 9, 10]]],
    ['{"a": [1}', [["Mismatched brackets", 8, 9]]],
    ['{"a": 1]', [["Mismatched braces", 7, 8], ["Unclosed object", 0, 1]]],
    [String.raw`{"a": "x\qy"}`, [["Invalid JSON string", 8, 10]]],
    [String.raw`{"a": "x\u12"}`, [["Invalid JSON string", 8, 12]]],
    ['{"a": "x\ty"}', [["Invalid JSON string", 8, 9]]],
    ['{"a": "x\n"}', [["Invalid JSON string", 6, 8], ["Unclosed object", 0, 1]]],
    ['{"a": "x', [["Invalid JSON string", 6, 8], ["Unclosed object", 0, 1]]],
  ];
  for (const [text, expected] of cases) {
    it(`reports ${expected.map((e) => e[0]).join(", ")} for ${JSON.stringify(text)}`, () => {
      expect(diags(text)).toEqual(expected);
    });
  }

  it("keeps the properties around an error", () => {
    const r = readJson('{"a": 1, "b": tru, "c": 3}');
    expect((r.value as JObject).props.map((p) => [p.key.value, p.value.type])).toEqual([
      ["a", "number"],
      ["b", "invalid"],
      ["c", "number"],
    ]);
  });

  it("explains how to fix a keyword typo", () => {
    const [d] = readJson('{"a": True}').diagnostics;
    expect(d.detail).toBe('"True" is not a JSON keyword. Did you mean "true"? JSON keywords are lowercase.');
  });

  it("reads 100,000 levels of arrays and objects with exact offsets", () => {
    const n = 100_000;
    const arrays = readJson("[".repeat(n) + "1" + "]".repeat(n));
    expect(arrays.diagnostics).toEqual([]);
    let v: JValue | null = arrays.value;
    let levels = 0;
    while (v !== null && v.type === "array") {
      expect(v.range).toEqual({ start: levels, end: 2 * n + 1 - levels });
      v = v.items[0] ?? null;
      levels++;
    }
    expect(levels).toBe(n);
    expect(v).toEqual({ type: "number", raw: "1", value: 1, range: { start: n, end: n + 1 } });
    const objects = readJson('{"a": '.repeat(n) + "true" + "}".repeat(n));
    expect(objects.diagnostics).toEqual([]);
    v = objects.value;
    levels = 0;
    while (v !== null && v.type === "object") {
      expect(v.open).toEqual({ start: 6 * levels, end: 6 * levels + 1 });
      v = v.props[0]!.value;
      levels++;
    }
    expect(levels).toBe(n);
    expect(v).toEqual({ type: "bool", value: true, range: { start: 6 * n, end: 6 * n + 4 } });
  });

  it("reports an error 100,000 levels deep where it is, and the containers left open", () => {
    const n = 100_000;
    expect(diags("[".repeat(n) + "1 2" + "]".repeat(n))).toEqual([["Missing array element separator comma", n + 2, n + 3]]);
    expect(diags('{"a": '.repeat(n) + "}".repeat(n))).toEqual([["Missing JSON value", 6 * n, 6 * n + 1]]);
    expect(diags("[".repeat(n))).toEqual([["Unclosed array", n - 1, n]]);
    expect(diags("[".repeat(n) + "}" + "]".repeat(n))).toEqual([["Mismatched brackets", n, n + 1]]);
  });
});

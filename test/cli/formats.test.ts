import { describe, expect, it } from "vitest";
import { FORMAT_NAMES, isFormatName, loadFormatter } from "../../src/cli/formats.js";
import { FORMAT_NAMES as REPORT_FORMAT_NAMES, getFormatter } from "../../src/report/index.js";

describe("CLI formats (loaded on demand)", () => {
  it("lists the same formats, in the same order, as the report table", () => {
    expect([...FORMAT_NAMES]).toEqual([...REPORT_FORMAT_NAMES]);
  });

  it("loads the same formatter function as the report table for every format", async () => {
    for (const name of FORMAT_NAMES) {
      expect(isFormatName(name)).toBe(true);
      expect(await loadFormatter(name), name).toBe(getFormatter(name));
    }
  });

  it("knows no other format", async () => {
    for (const name of ["stylish", "toString", "__proto__", ""]) {
      expect(isFormatName(name)).toBe(false);
      expect(await loadFormatter(name)).toBeUndefined();
    }
  });
});

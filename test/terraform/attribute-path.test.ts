import { describe, expect, it } from "vitest";
import { parseAttributePath, pathCovers } from "../../src/terraform/attribute-path.js";

describe("parseAttributePath", () => {
  it("reads attribute, index, splat, quoted-key and legacy forms", () => {
    expect(parseAttributePath("desired_capacity")).toEqual([{ kind: "attr", name: "desired_capacity" }]);
    expect(parseAttributePath("scaling_config[0].desired_size")).toEqual([
      { kind: "attr", name: "scaling_config" },
      { kind: "index", index: 0 },
      { kind: "attr", name: "desired_size" },
    ]);
    expect(parseAttributePath("scaling_config.0.desired_size")).toEqual(parseAttributePath("scaling_config[0].desired_size"));
    expect(parseAttributePath("policies[*].capacity[*].initial")).toEqual([
      { kind: "attr", name: "policies" },
      { kind: "index", index: "*" },
      { kind: "attr", name: "capacity" },
      { kind: "index", index: "*" },
      { kind: "attr", name: "initial" },
    ]);
    expect(parseAttributePath('tags["Name"]')).toEqual([
      { kind: "attr", name: "tags" },
      { kind: "attr", name: "Name" },
    ]);
    expect(parseAttributePath(" sku [ 0 ] . capacity ")).toEqual(parseAttributePath("sku[0].capacity"));
  });

  it("rejects text that is not a path", () => {
    expect(parseAttributePath("")).toBeNull();
    expect(parseAttributePath(".size")).toBeNull();
    expect(parseAttributePath("[0]")).toBeNull();
    expect(parseAttributePath("a[b]")).toBeNull();
    expect(parseAttributePath("a[0")).toBeNull();
    expect(parseAttributePath("1abc")).toBeNull();
  });
});

describe("pathCovers", () => {
  const p = (s: string) => parseAttributePath(s)!;
  it("covers the attribute itself and everything under an ignored block", () => {
    expect(pathCovers(p("desired_capacity"), p("desired_capacity"))).toBe(true);
    expect(pathCovers(p("scaling_config"), p("scaling_config[0].desired_size"))).toBe(true);
    expect(pathCovers(p("scaling_config[0].desired_size"), p("scaling_config[0].desired_size"))).toBe(true);
    expect(pathCovers(p("policies"), p("policies[*].capacity[*].initial"))).toBe(true);
    expect(pathCovers(p("policies[0].capacity[0].initial"), p("policies[*].capacity[*].initial"))).toBe(true);
  });

  it("does not cover other attributes, deeper paths or other elements", () => {
    expect(pathCovers(p("min_size"), p("desired_capacity"))).toBe(false);
    expect(pathCovers(p("scaling_config[0].min_size"), p("scaling_config[0].desired_size"))).toBe(false);
    expect(pathCovers(p("desired_capacity.x"), p("desired_capacity"))).toBe(false);
    expect(pathCovers(p("scaling_config[1].desired_size"), p("scaling_config[0].desired_size"))).toBe(false);
  });
});

/**
 * Issue 17, item 7: what the README says of an empty provider mirror. It
 * passes for a module that needs no provider (the good image of the tests)
 * and fails image/providers-complete for one that needs any.
 */
import { afterAll, describe, expect, test } from "vitest";
import { CLUSTER_MAIN, GOOD_CONFIG, goodEntries, Layout, rows, run, type JsonDoc } from "./helpers.js";

const layouts: Layout[] = [];
afterAll(() => layouts.forEach((l) => l.remove()));

async function check(main: string): Promise<{ code: number; doc: JsonDoc }> {
  const l = new Layout();
  layouts.push(l);
  l.top([l.image([await l.layer(goodEntries(main))], { ...GOOD_CONFIG, Entrypoint: null })]);
  const r = await run(["image", "--json", "--role", "cluster", `oci:${l.dir}`]);
  expect(r.stderr).toBe("");
  return { code: r.code, doc: JSON.parse(r.stdout) as JsonDoc };
}

describe("an empty /captf/providers mirror", () => {
  test("passes for a module that needs no provider", async () => {
    const { code, doc } = await check(CLUSTER_MAIN);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([]);
  });

  test("fails image/providers-complete for a module that needs one", async () => {
    const main = CLUSTER_MAIN.replace('required_version = ">= 1.6"', 'required_version = ">= 1.6"\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }');
    const { code, doc } = await check(main);
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([
      ["image/providers-complete", "error", "/captf/providers", 0, "the mirror has no linux_amd64 package of registry.terraform.io/hashicorp/aws, which the module needs (required_providers aws)"],
    ]);
  });
});

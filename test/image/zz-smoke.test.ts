import { test } from "vitest";
import { Layout, goodEntries, GOOD_CONFIG, run } from "./helpers.js";
test("smoke", async () => {
  const l = new Layout();
  const layer = await l.layer(goodEntries());
  l.top([l.image([layer], GOOD_CONFIG)]);
  const r = await run(["image", `oci:${l.dir}`]);
  console.log(r.code, r.stdout, r.stderr);
  const j = await run(["image", "--json", "--role", "cluster", `oci:${l.dir}`]);
  console.log(j.code, j.stdout, j.stderr);
});

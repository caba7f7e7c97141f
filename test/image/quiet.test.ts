/**
 * Issue 17, item 5, image side: --quiet hides warnings but never decides the
 * exit code, and the report says why a run with nothing shown fails.
 */
import { afterAll, describe, expect, test } from "vitest";
import { GOOD_CONFIG, goodEntries, Layout, run } from "./helpers.js";

const layouts: Layout[] = [];
afterAll(() => layouts.forEach((l) => l.remove()));

describe("image --strict -q", () => {
  test("a hidden warning (the image runs as root) fails the run, and the text and JSON say why", async () => {
    const l = new Layout();
    layouts.push(l);
    l.top([l.image([await l.layer(goodEntries())], { ...GOOD_CONFIG, Entrypoint: null, User: "" })]);
    const ref = `oci:${l.dir}`;
    const shown = await run(["image", "--role", "cluster", "-f", "compact", ref]);
    expect([shown.code, shown.stdout]).toEqual([0, `${ref}:0:0: warning: the image sets no user, so it runs as root; set USER 65532:65532 [image/user-root]\n`]);
    const text = await run(["image", "--role", "cluster", "--strict", "-q", ref]);
    expect(text.code).toBe(1);
    expect(text.stdout.split("\n")[2]).toBe("✖ no problems shown, but 1 warning hidden by --quiet fails the run (--strict)");
    const json = await run(["image", "--role", "cluster", "--strict", "-q", "--json", ref]);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { summary: unknown }).summary).toEqual({
      error: 0,
      warning: 0,
      info: 0,
      hiddenByQuiet: { warning: 1, info: 0 },
      quietFailure: "1 warning hidden by --quiet fails the run (--strict)",
    });
  });
});

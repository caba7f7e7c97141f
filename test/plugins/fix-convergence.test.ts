/**
 * `--fix` with a plugin rule whose fix never settles (each pass inserts its
 * line again): the passes stop, a note names the rule and the files, the
 * rule's fixes are not applied at all (never ten times over), and every
 * other rule's fixes are written as a run without that rule would write them.
 */
import { describe, expect, it } from "vitest";
import { cpSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { hasStackTrace, REPO, runCli, tempDir, writeTree } from "../e2e/helpers.js";
import { DESCRIBED, LOOP_PLUGIN as PLUGIN, ORIGINAL } from "./loop-plugin.js";

/** What the compact format says on stderr first: the role of the module. */
const ROLE = "tfcapi-lint: pool: role machinepool (detected)\n";

function repo(): string {
  const root = tempDir();
  cpSync(path.join(REPO, "examples", "machinepool-aws"), path.join(root, "pool"), { recursive: true });
  writeTree(root, { "lint/loop.mjs": PLUGIN, ".tfcapi-lint.hcl": 'plugins = ["./lint/loop.mjs"]\n' });
  return root;
}

describe("--fix with a plugin fix that does not settle", () => {
  it("says so, naming the rule and the file, applies none of its fixes and the other rules' fixes", () => {
    expect(DESCRIBED).not.toBe(ORIGINAL);
    const root = repo();
    const r = runCli(["--fix", "--format", "compact", "pool"], { cwd: root });
    expect(r.stderr).toBe(
      ROLE +
        "tfcapi-lint: pool/main.tf: not fixed: the fixes of rule loop/stamp of plugin loop did not settle in 10 passes (each pass changed the file again); " +
        "none of them was applied, the other rules' fixes were (report it to the plugin's authors)\n" +
        "tfcapi-lint: fixed 1 problem in 1 file\n",
    );
    expect(hasStackTrace(r.stderr)).toBe(false);
    // The file holds the settled fix once and no stamp.
    expect(readFileSync(path.join(root, "pool", "main.tf"), "utf8")).toBe(DESCRIBED);
    // What remains is the unsettled rule's finding.
    expect(r.stdout).toBe("pool/main.tf:32:32: warning: aws_launch_template.node is not stamped [loop/stamp]\n");
    expect(r.code).toBe(0);
    // A second run does the same and changes nothing more.
    const again = runCli(["--fix", "--format", "compact", "pool"], { cwd: root });
    expect(again.stderr).toBe(
      ROLE +
        "tfcapi-lint: pool/main.tf: not fixed: the fixes of rule loop/stamp of plugin loop did not settle in 10 passes (each pass changed the file again); " +
        "none of them was applied, the other rules' fixes were (report it to the plugin's authors)\n" +
        "tfcapi-lint: fixed 0 problems in 0 files\n",
    );
    expect(readFileSync(path.join(root, "pool", "main.tf"), "utf8")).toBe(DESCRIBED);
  });

  it("with the unsettled rule off, the settled fix is applied as before, without a note", () => {
    const root = repo();
    const r = runCli(["--fix", "--rule", "loop/stamp=off", "--format", "compact", "pool"], { cwd: root });
    expect(r.stderr).toBe(`${ROLE}tfcapi-lint: fixed 1 problem in 1 file\n`);
    expect(r.stdout).toBe("");
    expect(readFileSync(path.join(root, "pool", "main.tf"), "utf8")).toBe(DESCRIBED);
  });

  it("--fix-dry-run shows what --fix writes: the settled fix, no stamp, and the same note", () => {
    const root = repo();
    const r = runCli(["--fix-dry-run", "--format", "compact", "pool"], { cwd: root });
    expect(r.stderr).toBe(
      "--- a/pool/main.tf\n+++ b/pool/main.tf\n@@ -77,6 +77,7 @@\n" +
        '       error_message = "node_labels can only be rendered for cloud-config bootstrap data; remove the MachinePool template labels or use a cloud-config bootstrap provider."\n' +
        "     }\n   }\n+  # for: pool nodes\n }\n \n resource \"aws_autoscaling_group\" \"pool\" {\n" +
        ROLE +
        "tfcapi-lint: pool/main.tf: not fixed: the fixes of rule loop/stamp of plugin loop did not settle in 10 passes (each pass changed the file again); " +
        "none of them is shown, the other rules' fixes are (report it to the plugin's authors)\n",
    );
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(root, "pool", "main.tf"), "utf8")).toBe(ORIGINAL);
    // The findings are those of the files as they are (nothing was written).
    expect(r.stdout).toBe(
      "pool/main.tf:32:32: warning: aws_launch_template.node has no description; add one [loop/described]\n" +
        "pool/main.tf:32:32: warning: aws_launch_template.node is not stamped [loop/stamp]\n",
    );
  });
});

/**
 * The image checks on layouts built byte by byte: a good image, then each
 * check, with exact findings (rule, severity, file, line, message).
 */
import { afterAll, describe, expect, test } from "vitest";
import { CLUSTER_MAIN, GOOD_CONFIG, GOOD_LABELS, goodEntries, Layout, rows, run, skeleton, type Entry, type JsonDoc } from "./helpers.js";

const layouts: Layout[] = [];
afterAll(() => layouts.forEach((l) => l.remove()));

async function lint(entries: Entry[], config: Record<string, unknown> = GOOD_CONFIG, args: string[] = []): Promise<{ code: number; doc: JsonDoc; stderr: string }> {
  const l = new Layout();
  layouts.push(l);
  l.top([l.image([await l.layer(entries)], config)]);
  const r = await run(["image", "--json", ...args, `oci:${l.dir}`]);
  expect(r.stderr).toBe("");
  return { code: r.code, doc: JSON.parse(r.stdout) as JsonDoc, stderr: r.stderr };
}

const noEntrypoint = { ...GOOD_CONFIG, Entrypoint: null };
const without = (names: string[]): Entry[] => goodEntries().filter((e) => !names.includes(e.name));
const MACHINE_MAIN = `terraform {\n  required_version = ">= 1.6"\n}\n\n${skeleton("machine")}`;

describe("a good cluster image", () => {
  test("has only the image/entrypoint info finding, as exact JSON", async () => {
    const { code, doc } = await lint(goodEntries(), GOOD_CONFIG, ["--role", "cluster", "--strict"]);
    expect(code).toBe(0);
    expect(doc.contract).toBe("v1alpha1");
    expect(doc.role).toBe("cluster");
    expect(doc.image.platforms).toEqual(["linux/amd64"]);
    expect(doc.image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(doc)).toEqual(["image", "contract", "role", "findings", "summary", "roleSource", "fileSet", "suppressed"]);
    expect(doc.findings).toEqual([
      {
        id: "image/entrypoint",
        severity: "info",
        file: "",
        line: 0,
        message: "the image sets an Entrypoint, which the runner replaces",
        column: 0,
        endLine: 0,
        endColumn: 0,
        ruleUrl: "https://github.com/captf-io/tfcapi-lint/blob/main/rules/image/entrypoint.md",
      },
    ]);
    expect(doc.summary).toEqual({ error: 0, warning: 0, info: 1 });
  });

  test("without an entrypoint it has no finding at all", async () => {
    const { code, doc } = await lint(goodEntries(), noEntrypoint);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([]);
  });

  test("the role comes from the label when --role is not given", async () => {
    const { doc } = await lint(goodEntries(), noEntrypoint);
    expect(doc.role).toBe("cluster");
    expect((doc as unknown as { roleSource: string }).roleSource).toBe("label");
  });
});

describe("the module lint of /captf/module", () => {
  test("findings carry /captf/module/<path> and keep their lines", async () => {
    const main = `${CLUSTER_MAIN}\noutput "captf_x" {\n  value = 1\n}\n`;
    expect(main).not.toBe(CLUSTER_MAIN);
    const line = main.split("\n").findIndex((l) => l.startsWith('output "captf_x"')) + 1;
    const { code, doc } = await lint([...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: main }], noEntrypoint, ["--role", "cluster"]);
    expect(code).toBe(0);
    expect(doc.findings.map((f) => [f.id, f.file, f.line, f.column])).toEqual([["output/reserved", "/captf/module/main.tf", line, 1]]);
  });

  test("a finding's path (related) carries /captf/module/<path> too", async () => {
    const extra = `\nlocals {\n  image_version = var.kubernetes_version\n  is_current    = local.image_version == "v1.31.4"\n}\n`;
    const main = `${CLUSTER_MAIN}${extra}`;
    const lines = main.split("\n");
    const at = (prefix: string): number => lines.findIndex((l) => l.startsWith(prefix)) + 1;
    const { doc } = await lint([...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: main }], noEntrypoint, ["--role", "cluster"]);
    const found = (doc.findings as (JsonDoc["findings"][number] & { related?: unknown })[]).filter((f) => f.id === "version/distro-suffix");
    expect(found.map((f) => [f.file, f.line, f.column, f.related])).toEqual([
      [
        "/captf/module/main.tf",
        at("  is_current"),
        19,
        [
          { file: "/captf/module/main.tf", line: at("  image_version"), column: 19, endLine: at("  image_version"), endColumn: 41, message: "local.image_version" },
          { file: "/captf/module/main.tf", line: at('variable "kubernetes_version"'), column: 1, endLine: at('variable "kubernetes_version"'), endColumn: 30, message: "var.kubernetes_version (variable)" },
        ],
      ],
    ]);
  });

  test("--strict fails on a module warning, --allow-warning turns it into info", async () => {
    const main = `${CLUSTER_MAIN}\noutput "captf_x" {\n  value = 1\n}\n`;
    const entries = [...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: main }];
    expect((await lint(entries, noEntrypoint, ["--strict"])).code).toBe(1);
    const allowed = await lint(entries, noEntrypoint, ["--strict", "--allow-warning", "output/reserved"]);
    expect(allowed.code).toBe(0);
    expect(allowed.doc.findings.map((f) => [f.id, f.severity])).toEqual([["output/reserved", "info"]]);
  });

  test("a module in a subdirectory linked by a link is read through the link", async () => {
    const entries: Entry[] = [
      ...without(["captf/module/main.tf"]),
      { name: "captf/module/src/", type: "directory" },
      { name: "captf/module/src/main.tf", content: CLUSTER_MAIN },
      { name: "captf/module/main.tf", linkname: "src/main.tf" },
    ];
    const { code, doc } = await lint(entries, noEntrypoint);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([]);
  });
});

describe("each check", () => {
  test("image/module-present", async () => {
    const { code, doc } = await lint(without(["captf/module/main.tf"]), noEntrypoint, ["--role", "cluster"]);
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([["image/module-present", "error", "/captf/module", 0, "no module file (.tf, .tf.json, .tofu, .tofu.json) directly in /captf/module"]]);
  });

  test("image/runtime-present: missing, dangling, leaving the image, a directory, not executable", async () => {
    const base = without(["captf/runtime"]);
    const cases: [Entry[], string][] = [
      [base, "/captf/runtime is missing: the runner executes it to run terraform or tofu"],
      [[...base, { name: "captf/runtime", linkname: "/usr/bin/tofu" }], "/captf/runtime links to /usr/bin/tofu, which is not in the image"],
      [[...base, { name: "captf/runtime", linkname: "../../../terraform" }], "/captf/runtime links above the image root (../../../terraform)"],
      [[...base, { name: "captf/runtime", linkname: "/usr/local/bin" }], "/captf/runtime (-> /usr/local/bin) is not a regular file"],
      [
        [...without(["captf/runtime", "usr/local/bin/terraform"]), { name: "usr/local/bin/terraform", content: "x", mode: 0o750, uid: 0, gid: 0 }, { name: "captf/runtime", linkname: "/usr/local/bin/terraform" }],
        "/captf/runtime (-> /usr/local/bin/terraform) has mode 0750 (owner 0:0), so user 65532:65532 cannot execute it",
      ],
    ];
    for (const [entries, message] of cases) {
      const { code, doc } = await lint(entries, noEntrypoint);
      expect(code).toBe(1);
      expect(rows(doc)).toEqual([["image/runtime-present", "error", "/captf/runtime", 0, message]]);
    }
  });

  test("image/runtime-present: a hard link, and the group bits for uid:gid", async () => {
    const entries: Entry[] = [
      ...without(["captf/runtime", "usr/local/bin/terraform"]),
      { name: "usr/local/bin/terraform", content: "x", mode: 0o750, uid: 0, gid: 65532 },
      { name: "captf/runtime", type: "link", linkname: "usr/local/bin/terraform" },
    ];
    expect(rows((await lint(entries, noEntrypoint)).doc)).toEqual([]);
    const { doc } = await lint(entries, { ...noEntrypoint, User: "65532" });
    expect(rows(doc)).toEqual([["image/runtime-present", "error", "/captf/runtime", 0, "/captf/runtime has mode 0750 (owner 0:65532), so user 65532 cannot execute it"]]);
  });

  test("image/runtime-version", async () => {
    const { code, doc } = await lint(goodEntries(), { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.runtime": "tofu" } });
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([["image/runtime-version", "warning", "/captf/runtime", 0, '/captf/runtime is terraform (/usr/local/bin/terraform) but the io.captf.runtime label says "tofu"']]);
  });

  test("image/providers-absent", async () => {
    const { code, doc } = await lint(without(["captf/providers/"]), noEntrypoint);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([
      ["image/providers-absent", "info", "/captf/providers", 0, "no provider mirror in /captf/providers: terraform init will download providers from their registries when the Job runs"],
    ]);
  });

  const withModule = (extra: string, mirror: Entry[]): Entry[] => [
    ...without(["captf/module/main.tf"]),
    { name: "captf/module/main.tf", content: `${CLUSTER_MAIN}\n${extra}` },
    ...mirror,
  ];

  test("image/providers-layout", async () => {
    const { code, doc } = await lint(
      withModule("", [
        { name: "captf/providers/README", content: "x" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/notes.txt", content: "x" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/5.0.0/linux-amd64/", type: "directory" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.0.0_linux_amd64.zip", content: "zip" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/index.json", content: "{}" },
      ]),
      noEntrypoint,
    );
    expect(code).toBe(1);
    const tail = "; a mirror holds HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip (and *.json indexes) or HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/";
    expect(rows(doc)).toEqual([
      ["image/providers-layout", "error", "/captf/providers/README", 0, `/captf/providers/README: a file where a directory (HOST) belongs${tail}`],
      [
        "image/providers-layout",
        "error",
        "/captf/providers/registry.terraform.io/hashicorp/aws/5.0.0/linux-amd64",
        0,
        `/captf/providers/registry.terraform.io/hashicorp/aws/5.0.0/linux-amd64: unexpected directory "linux-amd64" (expected an OS_ARCH directory such as linux_amd64)${tail}`,
      ],
      ["image/providers-layout", "error", "/captf/providers/registry.terraform.io/hashicorp/aws/notes.txt", 0, `/captf/providers/registry.terraform.io/hashicorp/aws/notes.txt: unexpected file "notes.txt"${tail}`],
    ]);
  });

  test("image/providers-complete: needed providers, packed and unpacked, source mapping", async () => {
    const tf = `terraform {
  required_providers {
    aws = { source = "hashicorp/AWS" }
    corp = { source = "git.example.com/Corp/thing" }
  }
}
resource "random_id" "x" { byte_length = 2 }
data "http" "y" { url = "https://example.test" }
resource "terraform_data" "z" {}
`;
    const mirror: Entry[] = [
      { name: "captf/providers/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip", content: "zip" },
      { name: "captf/providers/registry.opentofu.org/hashicorp/random/3.6.0/linux_amd64/terraform-provider-random", content: "bin", mode: 0o755 },
      { name: "captf/providers/registry.terraform.io/hashicorp/http/3.4.0/linux_arm64/terraform-provider-http", content: "bin", mode: 0o755 },
    ];
    const noRuntime = { ...noEntrypoint, Labels: { "io.captf.role": "cluster", "io.captf.contract": "v1alpha1" } };
    const { code, doc } = await lint(withModule(tf, mirror), noRuntime);
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([
      ["image/providers-complete", "error", "/captf/providers", 0, "the mirror has no linux_amd64 package of git.example.com/corp/thing, which the module needs (required_providers corp)"],
      ["image/providers-complete", "error", "/captf/providers", 0, "the mirror has no linux_amd64 package of hashicorp/http, which the module needs (data.http.y)"],
    ]);
    const tofu = await lint(withModule(tf, mirror), { ...noRuntime, Labels: { ...noRuntime.Labels, "io.captf.runtime": "tofu" } });
    expect(rows(tofu.doc).map((r) => r[4])).toEqual([
      "the mirror has no linux_amd64 package of git.example.com/corp/thing, which the module needs (required_providers corp)",
      "the mirror has no linux_amd64 package of registry.opentofu.org/hashicorp/aws, which the module needs (required_providers aws)",
      "the mirror has no linux_amd64 package of registry.opentofu.org/hashicorp/http, which the module needs (data.http.y)",
      '/captf/runtime is terraform (/usr/local/bin/terraform) but the io.captf.runtime label says "tofu"',
    ]);
    // With io.captf.runtime=terraform, registry.opentofu.org packages do not count.
    const tfOnly = await lint(withModule(tf, mirror), { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.runtime": "terraform" } });
    expect(rows(tfOnly.doc).map((r) => r[4])).toEqual([
      "the mirror has no linux_amd64 package of git.example.com/corp/thing, which the module needs (required_providers corp)",
      "the mirror has no linux_amd64 package of registry.terraform.io/hashicorp/http, which the module needs (data.http.y)",
      "the mirror has no linux_amd64 package of registry.terraform.io/hashicorp/random, which the module needs (random_id.x)",
    ]);
  });

  test("image/providers-complete: broken mirror links", async () => {
    const { doc } = await lint(
      withModule("", [
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip", linkname: "/nowhere.zip" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/5.1.0/", type: "directory" },
        { name: "captf/providers/registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64", linkname: "/etc/hostname" },
        { name: "etc/hostname", content: "h" },
      ]),
      noEntrypoint,
    );
    expect(rows(doc)).toEqual([
      [
        "image/providers-complete",
        "error",
        "/captf/providers/registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64",
        0,
        "mirror link /captf/providers/registry.terraform.io/hashicorp/aws/5.1.0/linux_amd64 -> /etc/hostname does not point to a directory (/etc/hostname)",
      ],
      [
        "image/providers-complete",
        "error",
        "/captf/providers/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip",
        0,
        "mirror link /captf/providers/registry.terraform.io/hashicorp/aws/terraform-provider-aws_5.1.0_linux_amd64.zip -> /nowhere.zip points to nothing",
      ],
    ]);
  });

  test("image/reserved-paths: files and links count, empty directories do not", async () => {
    const { code, doc } = await lint(
      [
        ...goodEntries(),
        { name: "captf/work/", type: "directory" },
        { name: "captf/config/", type: "directory" },
        { name: "captf/config/a", content: "1" },
        { name: "captf/config/sub/b", content: "2" },
        { name: "captf/bin/tool", linkname: "/usr/local/bin/terraform" },
        { name: "var/run", linkname: "/run" },
        { name: "run/captf/credentials/token", content: "t" },
      ],
      noEntrypoint,
    );
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([
      ["image/reserved-paths", "error", "/captf/bin", 0, "1 file under /captf/bin, which is mounted when the Job runs (the mount hides them)"],
      ["image/reserved-paths", "error", "/captf/config", 0, "2 files under /captf/config, which is mounted when the Job runs (the mount hides them)"],
      ["image/reserved-paths", "error", "/var/run/captf/credentials", 0, "1 file under /var/run/captf/credentials, which is mounted when the Job runs (the mount hides them)"],
    ]);
  });

  test("image/label-role and image/label-contract", async () => {
    const unset = await lint(goodEntries(), { ...noEntrypoint, Labels: {} }, ["--role", "cluster"]);
    expect(rows(unset.doc)).toEqual([
      ["image/label-contract", "info", "", 0, "the io.captf.contract label is not set (set it to v1alpha1)"],
      ["image/label-role", "info", "", 0, "the io.captf.role label is not set (set it to cluster)"],
    ]);
    const wrong = await lint(goodEntries(), { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.role": "machine", "io.captf.contract": "v1beta1" } }, ["--role", "cluster"]);
    expect(wrong.code).toBe(1);
    expect(rows(wrong.doc)).toEqual([
      ["image/label-contract", "warning", "", 0, 'the io.captf.contract label is "v1beta1", but the image is checked against v1alpha1'],
      ["image/label-role", "error", "", 0, 'the io.captf.role label is "machine", but the image is checked as cluster'],
    ]);
  });

  const machine = (labels: Record<string, string>): Record<string, unknown> => ({ ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.role": "machine", ...labels } });
  const machineEntries = (): Entry[] => [...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: MACHINE_MAIN }];

  test("image/label-capacity for the machine role", async () => {
    const none = await lint(machineEntries(), machine({}));
    expect(rows(none.doc)).toEqual([["image/label-capacity", "info", "", 0, "no io.captf.capacity or io.captf.node-info label: the autoscaler cannot scale this machine image from zero"]]);
    const good = await lint(machineEntries(), machine({ "io.captf.capacity": '{"cpu":"2","memory":"8Gi","nvidia.com/gpu":"1"}', "io.captf.node-info": '{"architecture":"amd64","operatingSystem":"linux"}' }));
    expect(rows(good.doc)).toEqual([]);
    const cases: [Record<string, string>, string][] = [
      [{ "io.captf.capacity": '{"cpu":"four"}' }, 'the io.captf.capacity label has "cpu": "four", which is not a Kubernetes quantity (e.g. "4", "500m", "8Gi")'],
      [{ "io.captf.capacity": '{"Not A Name":"1"}' }, 'the io.captf.capacity label has key "Not A Name", which is not a Kubernetes resource name'],
      [{ "io.captf.capacity": "{}" }, "the io.captf.capacity label is an empty object"],
      [{ "io.captf.capacity": '{"cpu":"2"} x' }, "the io.captf.capacity label is not a JSON object"],
      [{ "io.captf.capacity": '{"cpu":2}' }, 'the io.captf.capacity label has "cpu": 2, which is not a Kubernetes quantity (e.g. "4", "500m", "8Gi")'],
      [{ "io.captf.node-info": '{"architecture":"mips"}' }, 'the io.captf.node-info label has architecture "mips" (one of amd64, arm64, s390x, ppc64le)'],
      [{ "io.captf.node-info": '{"architecture":"","operatingSystem":""}' }, "the io.captf.node-info label sets neither architecture nor operatingSystem"],
      [{ "io.captf.node-info": '{"os":"linux"}' }, 'the io.captf.node-info label has key "os" (only architecture and operatingSystem are read)'],
      [{ "io.captf.node-info": JSON.stringify({ operatingSystem: "x".repeat(65) }) }, "the io.captf.node-info label has an operatingSystem longer than 64 characters"],
    ];
    for (const [labels, message] of cases) {
      const { code, doc } = await lint(machineEntries(), machine(labels));
      expect(code).toBe(1);
      expect(rows(doc)).toEqual([["image/label-capacity", "error", "", 0, message]]);
    }
  });

  test("image/label-capacity for other roles", async () => {
    const { code, doc } = await lint(goodEntries(), { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.capacity": '{"cpu":"2"}' } });
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([["image/label-capacity", "info", "", 0, "io.captf.capacity is read for the machine role only, not for cluster"]]);
  });

  test("image/user-root and image/user-unresolved", async () => {
    for (const user of [undefined, "", "root", "0:0", "root:65532"]) {
      const { doc } = await lint(goodEntries(), { ...noEntrypoint, User: user });
      const msg = user === undefined || user === "" ? "the image sets no user, so it runs as root; set USER 65532:65532" : `the image runs as root (${user}); set USER 65532:65532`;
      expect(rows(doc)).toEqual([["image/user-root", "warning", "", 0, msg]]);
    }
    const { doc } = await lint(goodEntries(), { ...noEntrypoint, User: "nobody" });
    expect(rows(doc)).toEqual([["image/user-unresolved", "warning", "", 0, 'the image user "nobody" is a name; use a numeric uid (e.g. 65532:65532) so permissions can be checked']]);
  });

  test("image/module-readable: the permission model", async () => {
    const entries: Entry[] = [
      ...goodEntries(),
      { name: "captf/module/vars.tf", content: "", mode: 0o600, uid: 0 },
      { name: "captf/module/own.tf", content: "", mode: 0o600, uid: 65532 },
      { name: "captf/module/group.tf", content: "", mode: 0o640, uid: 0, gid: 65532 },
      { name: "captf/module/d1/", type: "directory", mode: 0o700 },
      { name: "captf/module/d2/", type: "directory", mode: 0o700 },
      { name: "captf/module/d3/", type: "directory", mode: 0o700 },
      { name: "captf/module/d4/", type: "directory", mode: 0o700 },
      { name: "captf/module/d5/", type: "directory", mode: 0o700 },
    ];
    const { code, doc } = await lint(entries, noEntrypoint);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([
      [
        "image/module-readable",
        "warning",
        "/captf/module/d1",
        0,
        "user 65532:65532 cannot read 6 paths (files need r, directories x): /captf/module/d1, /captf/module/d2, /captf/module/d3, /captf/module/d4, /captf/module/d5, and 1 more",
      ],
    ]);
    // Only the uid: the group bits do not apply, so group.tf is unreadable too.
    const uidOnly = await lint(entries, { ...noEntrypoint, User: "65532" });
    expect(rows(uidOnly.doc)[0]![4]).toBe(
      "user 65532 cannot read 7 paths (files need r, directories x): /captf/module/d1, /captf/module/d2, /captf/module/d3, /captf/module/d4, /captf/module/d5, and 2 more",
    );
  });

  test("image/module-link: outside, dangling, loops, escaping, too long chains", async () => {
    const chain: Entry[] = [];
    for (let i = 0; i < 41; i++) chain.push({ name: `captf/module/c${i}`, linkname: `c${i + 1}` });
    chain.push({ name: "captf/module/c41", content: "x" });
    const entries: Entry[] = [
      ...goodEntries(),
      { name: "etc/x.tf", content: "" },
      { name: "captf/module/out.tf", linkname: "/etc/x.tf" },
      { name: "captf/module/gone.tf", linkname: "missing.tf" },
      { name: "captf/module/loop1", linkname: "loop2" },
      { name: "captf/module/loop2", linkname: "./loop1" },
      { name: "captf/module/up", linkname: "../../../../x" },
      { name: "captf/module/ok-dir", linkname: "." },
      { name: "captf/module/ok-file", linkname: "/captf/module/main.tf" },
      ...chain,
    ];
    const { code, doc } = await lint(entries, noEntrypoint);
    expect(code).toBe(1);
    const loop = "its link chain is longer than 40 hops (a loop?)";
    expect(rows(doc)).toEqual([
      ["image/module-link", "error", "/captf/module/c0", 0, `link /captf/module/c0 -> c1: ${loop}`],
      ["image/module-link", "error", "/captf/module/gone.tf", 0, "link /captf/module/gone.tf -> missing.tf: it points to /captf/module/missing.tf, which does not exist"],
      ["image/module-link", "error", "/captf/module/loop1", 0, `link /captf/module/loop1 -> loop2: ${loop}`],
      ["image/module-link", "error", "/captf/module/loop2", 0, `link /captf/module/loop2 -> ./loop1: ${loop}`],
      ["image/module-link", "error", "/captf/module/out.tf", 0, "link /captf/module/out.tf -> /etc/x.tf: it points to /etc/x.tf, outside /captf/module, which is not what the runner copies"],
      ["image/module-link", "error", "/captf/module/up", 0, "link /captf/module/up -> ../../../../x: it points above the image root"],
    ]);
  });

  test("image/platform for a single-platform image", async () => {
    const l = new Layout();
    layouts.push(l);
    l.top([l.image([await l.layer(goodEntries())], noEntrypoint, { architecture: "arm64" })]);
    const r = await run(["image", "--json", "--platform", "linux/amd64", `oci:${l.dir}`]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    expect(rows(doc)).toEqual([["image/platform", "error", "", 0, "the image is for linux/arm64, not linux/amd64"]]);
    expect(doc.image.platforms).toEqual(["linux/arm64"]);
    expect([doc.role, (doc as unknown as { roleSource: string }).roleSource]).toEqual(["cluster", "label"]);
    // Without --platform it is checked as it is.
    const plain = await run(["image", "--json", `oci:${l.dir}`]);
    expect(plain.code).toBe(0);
    expect(rows(JSON.parse(plain.stdout) as JsonDoc)).toEqual([]);
  });

  test("image/variables-schema", async () => {
    const main = `${CLUSTER_MAIN}\nvariable "size" {\n  type    = string\n  default = "m"\n}\nvariable "zones" { type = list(string) }\n`;
    const entries = [...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: main }];
    const schema = '{"type":"object","properties":{"size":{"type":"string"},"zones":{"type":"array","items":{"type":"string"}}},"required":["zones"],"additionalProperties":false}';
    const good = await lint(entries, { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.variables-schema": schema } }, ["--rule", "input/user-variable-default=off"]);
    expect(rows(good.doc)).toEqual([]);
    const stale = '{"type":"object","additionalProperties":false}';
    const bad = await lint(entries, { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.variables-schema": stale } }, ["--rule", "input/user-variable-default=off"]);
    expect(bad.code).toBe(1);
    expect(rows(bad.doc)).toEqual([
      [
        "image/variables-schema",
        "error",
        "",
        0,
        `the io.captf.variables-schema label is not the schema of the module's user variables; set it to the output of tfcapi-lint schema --role cluster: ${schema}`,
      ],
    ]);
  });

  test("image/capacity-size-variable", async () => {
    const main = `${MACHINE_MAIN}\nvariable "flavor" {\n  type    = string\n  default = "m5.large"\n}\nlocals {\n  type = var.flavor\n}\nresource "aws_instance" "vm" {\n  instance_type = local.type\n  tags          = var.captf_tags\n}\n`;
    const entries = [...without(["captf/module/main.tf"]), { name: "captf/module/main.tf", content: main }];
    const labels = { "io.captf.capacity": '{"cpu":"2","memory":"8Gi"}' };
    const { doc } = await lint(entries, machine(labels), ["--rule", "image/providers-complete=off"]);
    expect(rows(doc).filter((r) => r[0].startsWith("image/"))).toEqual([
      [
        "image/capacity-size-variable",
        "warning",
        "",
        0,
        'the io.captf.capacity label describes one node size, but user variable "flavor" chooses aws_instance.vm.instance_type; build one image per size or drop the variable',
      ],
    ]);
    // Without the capacity label: nothing (only the info about the missing labels).
    const noLabel = await lint(entries, machine({}), ["--rule", "image/providers-complete=off"]);
    expect(rows(noLabel.doc).filter((r) => r[0].startsWith("image/")).map((r) => r[0])).toEqual(["image/label-capacity"]);
  });
});

describe("odd labels and paths", () => {
  test("an io.captf.role label that is no role is an error", async () => {
    const { code, doc } = await lint(goodEntries(), { ...noEntrypoint, Labels: { ...GOOD_LABELS, "io.captf.role": "pool" } });
    expect(code).toBe(1);
    expect(rows(doc)).toEqual([["image/label-role", "error", "", 0, 'the io.captf.role label is "pool", which is not a role (cluster, machine or machinepool)']]);
  });

  test("a module path that is both a file and a directory does not break the lint", async () => {
    const { code, doc } = await lint([...goodEntries(), { name: "captf/module/x.tf", content: "" }, { name: "captf/module/x.tf/y.tf", content: "" }], noEntrypoint);
    expect(code).toBe(0);
    expect(rows(doc)).toEqual([]);
  });
});

/**
 * The rules' own walks and evaluations at any nesting depth, on the main
 * thread of this test process (vitest's `forks` pool: a child process with
 * Node's default stack of about 1 MB, no worker with a large stack).
 *
 * The trees are 100,000 levels deep. They are built from 100,000 shallow
 * parsed copies of one expression, each linked into the one before it (the
 * parser is not what is tested here), so every node is a real syntax node
 * with a real range. Each helper must give the exact answer it gives on a
 * shallow tree: a recursion would overflow the stack long before.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseHcl } from "../src/hcl/index.js";
import type { Block, Body, Expression, TemplatePart } from "../src/hcl/ast.js";
import { evaluate } from "../rules/output/endpoint-never-set.js";
import { isSortedExpression } from "../rules/output/provider-id-list-shape.js";
import { accesses } from "../rules/output/exports-secret.js";
import { Scanner } from "../rules/drift/non-idempotent.js";
import { unstripped } from "../rules/version/distro-suffix.js";
import { connects } from "../rules/cluster/gate-on-initialized.js";
import { commandText } from "../rules/machine/lb-registration-missing.js";
import { scanBody, type Hit } from "../rules/module/provider-config.js";
import type { Module } from "../src/terraform/module-types.js";
import { loadModule } from "../src/terraform/load.js";
import { fixtureFiles, hasStackTrace, REPO, runCli, tree } from "./e2e/helpers.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const N = 100_000;

// Every test here runs synchronously for seconds: let the event loop read
// the test runner's messages between tests (a run of only synchronous tests
// would leave them unread for the whole file, and the runner's calls time out).
beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A module loaded from a temporary directory: one file, one local. */
function smallModule(): Module {
  const dir = mkdtempSync(path.join(tmpdir(), "tfcapi-rules-deep-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "main.tf"), "locals {\n  name = \"deep\"\n}\n");
  const load = loadModule(dir);
  expect(load.problems).toEqual([]);
  return load.root.expressions;
}

/** A writable view of a syntax node, for linking shallow copies into a deep tree. */
type Writable = Record<string, unknown>;

/** The body of `text` parsed as one file (no diagnostics). */
function body(text: string): Body {
  const { file, diagnostics } = parseHcl(text, "deep.tf");
  expect(diagnostics.map((d) => d.summary)).toEqual([]);
  return file.body;
}

/** `n` parsed copies of the expression `text` (each from its own line of one file). */
function copies(text: string, n: number): Expression[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`x${i} = ${text}\n`);
  return body(lines.join("")).attributes.map((a) => a.expr);
}

/** `n` copies of `text` nested: copy i's hole (set by `link`) holds copy i + 1, the last one's holds `leaf`. */
function nest(text: string, n: number, link: (outer: Writable, inner: Expression) => void, leaf: Expression): Expression {
  const levels = copies(text, n);
  for (let i = 0; i < n; i++) link(levels[i] as unknown as Writable, i + 1 < n ? levels[i + 1]! : leaf);
  return levels[0]!;
}

/** The one expression `text` is. */
function expr(text: string): Expression {
  return copies(text, 1)[0]!;
}

/** Sets an expression's `field` (a node's child). */
const field = (name: string) => (outer: Writable, inner: Expression): void => {
  outer[name] = inner;
};

/** Sets a call's only argument. */
const onlyArg = (outer: Writable, inner: Expression): void => {
  outer.args = [inner];
};

/** Sets the value of an object's first item. */
const firstValue = (outer: Writable, inner: Expression): void => {
  ((outer.items as Writable[])[0] as Writable).value = inner;
};

/** Sets the first element of a tuple. */
const firstElement = (outer: Writable, inner: Expression): void => {
  outer.exprs = [inner];
};

describe(`endpoint-never-set's evaluation, ${N} levels`, () => {
  it("folds a chain of ! to its constant", () => {
    expect(evaluate(nest("!x", N, field("operand"), expr("true")))).toEqual({ known: true, value: true });
    expect(evaluate(nest("!x", N - 1, field("operand"), expr("true")))).toEqual({ known: true, value: false });
  });

  it("a conditional chain whose every branch is null is null; one with a reference in a branch is unknown", () => {
    expect(evaluate(nest("var.x == null ? null : null", N, field("falseResult"), expr("null")))).toEqual({ known: true, value: null });
    expect(evaluate(nest("var.x == null ? null : null", N, field("falseResult"), expr("var.endpoint")))).toEqual({ known: false });
  });

  it("a chain of == and && is folded left to right", () => {
    // ((true == true) == true) == ... : true all the way down.
    expect(evaluate(nest("x == true", N, field("lhs"), expr("true")))).toEqual({ known: true, value: true });
    expect(evaluate(nest("x && true", N, field("lhs"), expr("false")))).toEqual({ known: true, value: false });
  });
});

describe(`provider-id-list-shape's sorted check, ${N} levels`, () => {
  it("tolist(tolist(...sort(x))) is sorted; the same around a bare local is not", () => {
    expect(isSortedExpression(nest("tolist(x)", N, onlyArg, expr("sort(local.ids)")))).toBe(true);
    expect(isSortedExpression(nest("tolist(x)", N, onlyArg, expr("local.ids")))).toBe(false);
  });

  it("parentheses and concat: sorted only when every list is", () => {
    expect(isSortedExpression(nest("(x)", N, field("expr"), expr("sort(a)")))).toBe(true);
    const concat = nest("concat(sort(a), x)", N, (outer, inner) => {
      (outer.args as Expression[])[1] = inner;
    }, expr("sort(b)"));
    expect(isSortedExpression(concat)).toBe(true);
    const unsorted = nest("concat(sort(a), x)", N, (outer, inner) => {
      (outer.args as Expression[])[1] = inner;
    }, expr("b"));
    expect(isSortedExpression(unsorted)).toBe(false);
  });
});

describe(`exports-secret's accesses, ${N} levels`, () => {
  it("a secret inside 100,000 brackets is one access with its path", () => {
    const leaf = expr("random_password.db.result");
    const found = accesses(nest("[x]", N, firstElement, leaf));
    expect(found.map((a) => [a.names, a.expr === leaf])).toEqual([[["random_password", "db", "result"], true]]);
  });

  it(`an index chain x[("a")][("a")]... is one access, its keys in order`, () => {
    // A parenthesised key makes an index node (`x["a"]` is a traversal step).
    const leaf = expr("module.db");
    const chain = nest('x[("a")]', N, field("collection"), leaf);
    const found = accesses(chain);
    expect(found).toHaveLength(1);
    expect(found[0]!.expr).toBe(chain);
    expect(found[0]!.names.length).toBe(2 + N);
    expect(found[0]!.names.slice(0, 3)).toEqual(["module", "db", "a"]);
    expect(new Set(found[0]!.names.slice(2))).toEqual(new Set(["a"]));
  });

  it("f()[0][0]... reads no access (its base is a call), once", () => {
    const chain = nest("x[(0)]", N, field("collection"), expr("f(var.api_token)"));
    expect(accesses(chain).map((a) => a.names)).toEqual([["var", "api_token"]]);
  });

  it("nested splats x[*].result[*].y[*].y...: every name applied to the items, in order", () => {
    const top = expr("random_password.db[*].result[*].y") as unknown as Writable;
    // Each copy's `each` is a splat over `.y` whose own `each` is linked to the next copy's.
    const inner = copies("a[*].y[*].y", N).map((e) => (e as unknown as Writable).each as Writable);
    for (let i = 0; i + 1 < N; i++) inner[i]!.each = inner[i + 1];
    (top.each as Writable).each = inner[0];
    const found = accesses(top as unknown as Expression);
    expect(found).toHaveLength(1);
    const names = found[0]!.names;
    expect(names.slice(0, 3)).toEqual(["random_password", "db", "result"]);
    expect(names.length).toBe(3 + N + 1);
    expect(names.slice(3).every((n) => n === "y")).toBe(true);
  });

  it("nested for expressions keep their variables bound at every level", () => {
    const loops = nest("[for s in x : s]", N, field("collection"), expr("var.api_token"));
    expect(accesses(loops).map((a) => a.names)).toEqual([["var", "api_token"]]);
  });
});

describe(`drift/non-idempotent's scan, ${N} levels`, () => {
  // A real (small) module for the locals the scan follows: none here.
  const scanner = new Scanner(smallModule());

  it("timestamp() inside 100,000 brackets: one hit on the argument", () => {
    const leaf = expr("timestamp()");
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.expr(nest("[x]", N, firstElement, leaf), ["input"], true, hits);
    expect(hits.map((h) => ({ fn: h.fn, node: h.node === leaf, path: h.path, via: h.via }))).toEqual([{ fn: "timestamp", node: true, path: ["input"], via: null }]);
  });

  it("timestamp() inside 100,000 objects: its path names every key", () => {
    const leaf = expr("uuid()");
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.expr(nest("{ a = x }", N, firstValue, leaf), ["tags"], true, hits);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.fn).toBe("uuid");
    expect(hits[0]!.path.length).toBe(N + 1);
    expect(hits[0]!.path[0]).toBe("tags");
    expect(hits[0]!.path.slice(1).every((k) => k === "a")).toBe(true);
  });

  it("a volatile call under 100,000 nested blocks, after the argument before them", () => {
    const blocks = body('nested {\n  before = uuid()\n}\n' + "nested {\n}\n".repeat(N - 1)).blocks;
    const leaf = body("nested {\n  input = timestamp()\n}\n").blocks[0]!;
    const all: Block[] = [...blocks, leaf];
    for (let i = 0; i < N; i++) (all[i]!.body as unknown as Writable).blocks = [all[i + 1]];
    const hits: Parameters<Scanner["expr"]>[3] = [];
    scanner.body({ attributes: [], blocks: [all[0]!] } as unknown as Body, [], hits);
    expect(hits.map((h) => [h.fn, h.path.length, h.path[h.path.length - 1]])).toEqual([
      ["uuid", 2, "before"],
      ["timestamp", N + 2, "input"],
    ]);
    expect(hits[1]!.path.slice(0, N + 1).every((p) => p === "nested")).toBe(true);
  });
});

describe(`version/distro-suffix's mentions, ${N} levels`, () => {
  const none = { has: (): boolean => false };

  it("the version through 100,000 nested for expressions reaches the result once", () => {
    const leaf = expr("var.kubernetes_version");
    const mentions = unstripped(nest("[for v in x : v]", N, field("collection"), leaf), none);
    expect(mentions).toEqual([{ range: leaf.range, via: null }]);
  });

  it("through 100,000 nested templates; a condition or a check on the way is no use", () => {
    const leaf = expr("var.kubernetes_version");
    const interp = (outer: Writable, inner: Expression): void => {
      ((outer.parts as TemplatePart[])[1] as unknown as Writable).expr = inner;
    };
    expect(unstripped(nest('"v${x}"', N, interp, leaf), none)).toEqual([{ range: leaf.range, via: null }]);
    expect(unstripped(nest("can(x)", N, onlyArg, leaf), none)).toEqual([]);
    expect(unstripped(nest("x ? 1 : 2", N, field("condition"), leaf), none)).toEqual([]);
  });
});

describe(`cluster/gate-on-initialized's connection check, ${N} levels`, () => {
  it("a host set in the 100,001st nested kubernetes block connects; none set does not", () => {
    const deep = (leafText: string): Body => {
      const blocks = body(Array.from({ length: N }, () => "kubernetes {\n}\n").join("")).blocks;
      const all: Block[] = [...blocks, body(leafText).blocks[0]!];
      for (let i = 0; i < N; i++) (all[i]!.body as unknown as Writable).blocks = [all[i + 1]];
      return { attributes: [], blocks: [all[0]!] } as unknown as Body;
    };
    expect(connects(deep('kubernetes {\n  host = "https://api"\n}\n'))).toBe(true);
    expect(connects(deep('kubernetes {\n  insecure = true\n}\n'))).toBe(false);
  });
});

describe(`module/provider-config's scan, ${N} levels`, () => {
  it("a literal password 100,000 objects deep is found, after a token set before it", () => {
    const leaf = expr('{ password = "hunter2" }');
    const provider = body('token = "abc"\nsettings = 1\n');
    (provider.attributes[1] as unknown as Writable).expr = nest("{ a = x }", N, firstValue, leaf);
    const hits: Hit[] = [];
    scanBody(provider, hits);
    expect(hits.map((h) => h.name)).toEqual(["token", "password"]);
    expect(hits[1]!.range).toEqual((leaf as unknown as { items: { range: unknown }[] }).items[0]!.range);
  });
});

describe(`machine/lb-registration-missing's command text, ${N} levels`, () => {
  it("reads the literal text of 100,000 nested %{ if } directives in order", () => {
    const levels = copies('"%{ if c }a%{ endif }"', N);
    const ifs = levels.map((t) => (t as unknown as { parts: Writable[] }).parts[0]!);
    for (let i = 0; i + 1 < N; i++) ifs[i]!.then = [...(ifs[i]!.then as TemplatePart[]), ifs[i + 1]];
    const text = commandText(levels[0]!);
    expect(text.length).toBe(N);
    expect(text).toBe("a".repeat(N));
  });
});

/**
 * Through the built CLI (a child process: its main thread, Node's default
 * stack), each rule on a small module that puts a 100,000-level expression
 * exactly where the rule looks, with the finding inside the nesting at its
 * exact line and column, or (for the rules that give up past a budget) no
 * finding and no crash.
 */
describe(`each rule through the CLI, ${N} levels`, () => {
  /** Lints `files` (over the machine fixture for machine roles) and returns the compact lines of `rule`. */
  function lintRule(role: "cluster" | "machine" | "machinepool", files: Record<string, string>, rule: string): { lines: string[]; code: number | null } {
    const base = role === "machine" ? fixtureFiles("machine") : {};
    const dir = tree({ ...base, ...files });
    const r = runCli(["--role", role, "--format", "compact", "."], { cwd: dir, timeoutMs: 120_000 });
    expect(hasStackTrace(r.stdout + r.stderr), r.stderr.slice(0, 400)).toBe(false);
    expect(r.stderr).toBe(`tfcapi-lint: .: role ${role} (from --role)\n`);
    expect(r.stdout).not.toContain("[syntax/");
    return { lines: r.stdout.split("\n").filter((l) => l.endsWith(`[${rule}]`)), code: r.code };
  }

  /** 1-based column of `needle` in `line`. */
  const col = (line: string, needle: string): number => line.indexOf(needle) + 1;

  it("drift/non-idempotent: a call 100,000 objects deep, its path in the message", () => {
    const line = `  input = ${"{ a = ".repeat(N)}timestamp()${" }".repeat(N)}`;
    const { lines } = lintRule("machine", { "drift.tf": `resource "terraform_data" "deep" {\n${line}\n}\n` }, "drift/non-idempotent");
    const arg = ["input", ...Array<string>(N).fill("a")].join(".");
    expect(lines).toEqual([
      `drift.tf:2:${col(line, "timestamp")}: warning: timestamp() gives terraform_data.deep "${arg}" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]`,
    ]);
  });

  it("drift/non-idempotent: a call in the 100,000th nested block", () => {
    const text = `resource "terraform_data" "deep" {\n${"  nested {\n".repeat(N)}    input = uuid()\n${"  }\n".repeat(N)}}\n`;
    const { lines } = lintRule("machine", { "drift.tf": text }, "drift/non-idempotent");
    const arg = [...Array<string>(N).fill("nested"), "input"].join(".");
    expect(lines).toEqual([
      `drift.tf:${N + 2}:13: warning: uuid() gives terraform_data.deep "${arg}" a new value on every plan, so drift checks always fire: use a random_uuid resource instead, or add nested to lifecycle ignore_changes. [drift/non-idempotent]`,
    ]);
  });

  it("output/endpoint-never-set: a chain of 100,000 constant conditionals that is always null", () => {
    const value = `${"false ? null : ".repeat(N)}null`;
    const { lines } = lintRule("cluster", { "outputs.tf": `output "control_plane_endpoint" {\n  value = ${value}\n}\n` }, "output/endpoint-never-set");
    expect(lines).toEqual([
      "outputs.tf:2:11: warning: control_plane_endpoint is always null, so the control plane never creates a Machine; return var.control_plane_endpoint when it is set, else the endpoint the module creates ({ host = ..., port = ... }) [output/endpoint-never-set]",
    ]);
    const ended = lintRule("cluster", { "outputs.tf": `output "control_plane_endpoint" {\n  value = ${"false ? null : ".repeat(N)}{ host = "h", port = 6443 }\n}\n` }, "output/endpoint-never-set");
    expect(ended.lines).toEqual([]);
  });

  it("output/provider-id-list-shape: 100,000 tolist() around a bare local; a running filter 100,000 fors deep", () => {
    const unsorted = lintRule("machinepool", { "outputs.tf": `output "provider_id_list" {\n  value = ${"tolist(".repeat(N)}local.ids${")".repeat(N)}\n}\n` }, "output/provider-id-list-shape");
    expect(unsorted.lines).toEqual([
      "outputs.tf:2:11: warning: provider_id_list is not sorted, so its order can change between refreshes: wrap the value in sort() [output/provider-id-list-shape]",
    ]);
    const sorted = lintRule("machinepool", { "outputs.tf": `output "provider_id_list" {\n  value = ${"tolist(".repeat(N)}sort(local.ids)${")".repeat(N)}\n}\n` }, "output/provider-id-list-shape");
    expect(sorted.lines).toEqual([]);
    const line = `  value = sort(${"[for i in ".repeat(N)}[for i in local.members : i.id if i.state == "running"]${" : i]".repeat(N)})`;
    const filtered = lintRule("machinepool", { "outputs.tf": `output "provider_id_list" {\n${line}\n}\n` }, "output/provider-id-list-shape");
    expect(filtered.lines).toEqual([
      `outputs.tf:2:${col(line, "i.state")}: warning: provider_id_list is filtered on "running"; it must list every non-terminated member (pending and unhealthy ones too), so filter on terminated states only or drop the condition [output/provider-id-list-shape]`,
    ]);
  });

  it("output/exports-secret: a password 100,000 lists deep, and 100,000 index steps over one", () => {
    const line = `  value = { db = ${"[".repeat(N)}random_password.db.result${"]".repeat(N)} }`;
    const { lines } = lintRule("cluster", { "outputs.tf": `output "exports" {\n${line}\n}\n` }, "output/exports-secret");
    expect(lines).toEqual([
      `outputs.tf:2:${col(line, "random_password")}: warning: exports publishes a secret: random_password.db.result (random_password.result is a secret); exports is stored and copied in clear text, so pass only ids and names (e.g. a secret's ARN) and let nodes fetch the secret with their identity [output/exports-secret]`,
    ]);
    const indexed = `  value = { db = module.db${'[("x")]'.repeat(N)}.admin_password }`;
    const chain = lintRule("cluster", { "outputs.tf": `output "exports" {\n${indexed}\n}\n` }, "output/exports-secret");
    expect(chain.lines).toEqual([
      `outputs.tf:2:${col(indexed, "module")}: warning: exports publishes a secret: module.db.${Array<string>(N).fill("x").join(".")}.admin_password ("admin_password" is named like a credential); exports is stored and copied in clear text, so pass only ids and names (e.g. a secret's ARN) and let nodes fetch the secret with their identity [output/exports-secret]`,
    ]);
  });

  it("cluster/gate-on-initialized: a host in the 100,000th nested kubernetes block of a helm provider", () => {
    const provider = (inner: string): string => `provider "helm" {\n${"  kubernetes {\n".repeat(N)}${inner}${"  }\n".repeat(N)}}\n`;
    const release = 'resource "helm_release" "cni" {\n  name  = "cni"\n  chart = "cni"\n}\n';
    const remote = lintRule("cluster", { "addons.tf": release, "providers.tf": provider("    host = var.api_host\n") }, "cluster/gate-on-initialized");
    expect(remote.lines).toEqual([
      "addons.tf:1:1: warning: helm_release.cni talks to the workload cluster's API server, but its count does not depend on var.control_plane_initialized, so this resource is planned before any API server exists; gate it, e.g. count = var.control_plane_initialized ? 1 : 0 [cluster/gate-on-initialized]",
    ]);
    const inCluster = lintRule("cluster", { "addons.tf": release, "providers.tf": provider("    insecure = true\n") }, "cluster/gate-on-initialized");
    expect(inCluster.lines).toEqual([]);
  });

  it("module/provider-config: a literal secret_key 100,000 objects deep in a provider argument", () => {
    const line = `  default_tags = ${"{ a = ".repeat(N)}{ secret_key = "AKIAEXAMPLE" }${" }".repeat(N)}`;
    const { lines } = lintRule("machine", { "provider.tf": `provider "aws" {\n  region = "eu-west-1"\n${line}\n}\n` }, "module/provider-config");
    expect(lines).toEqual([
      `provider.tf:3:${col(line, "secret_key")}: warning: Provider "aws" sets the credential "secret_key" to a literal string: remove it and let the provider read credentials from the identity the controller mounts. [module/provider-config]`,
    ]);
  });

  it("version/distro-suffix: the version through 100,000 nested fors into an image lookup", () => {
    const line = `    values = ${"[for v in ".repeat(N)}[var.kubernetes_version]${" : v]".repeat(N)}`;
    const data = `data "aws_ami" "node" {\n  owners = ["self"]\n  filter {\n    name = "name"\n${line}\n  }\n}\n`;
    const { lines } = lintRule("machine", { "ami.tf": data }, "version/distro-suffix");
    expect(lines).toEqual([
      `ami.tf:5:${col(line, "var.kubernetes_version")}: warning: var.kubernetes_version reaches data.aws_ami.node with any distro suffix (e.g. "v1.31.4+rke2r1"), which no image matches: look up split("+", var.kubernetes_version)[0] instead. [version/distro-suffix]`,
    ]);
  });

  it("machine/lb-registration-missing: a registration 100,000 %{ if } directives deep, never deregistered", () => {
    const command = `"${"%{ if var.control_plane }".repeat(N)}aws elbv2 register-targets --targets Id=i-1${"%{ endif }".repeat(N)}"`;
    const text = `resource "terraform_data" "register" {\n  provisioner "local-exec" {\n    command = ${command}\n  }\n}\n`;
    const { lines } = lintRule("machine", { "register.tf": text }, "machine/lb-registration-missing");
    expect(lines).toEqual([
      "register.tf:3:15: warning: This local-exec registers the machine in a load-balancer backend, but no provisioner with when = destroy deregisters it: deleting the Machine leaves a dead backend behind the API endpoint; add a destroy-time provisioner that removes it, or use a membership resource, which Terraform deletes with the machine [machine/lb-registration-missing]",
    ]);
  });

  it("output/provider-id-format: an instance id 100,000 templates deep, the shape still judged", () => {
    // aws://ID (the zone and a slash missing) through 100,000 nested "${...}".
    const value = `"aws://\${${'"${'.repeat(N)}aws_instance.node.id${'}"'.repeat(N)}}"`;
    const files = {
      "outputs.tf": fixtureFiles("machine")["outputs.tf"]!.replace('value = "hcloud://${hcloud_server.node.id}"', `value = ${value}`),
      "instance.tf": 'resource "aws_instance" "node" {\n  ami = "ami-1"\n}\n',
    };
    expect(lintRule("machine", files, "output/provider-id-format").lines).toEqual([
      `outputs.tf:2:11: error: provider_id ${value} does not have the aws:// providerID shape aws:///<availability-zone>/<instance-id>; the Node carries exactly that string, so Cluster API never matches this Machine to its Node: fix the slashes and segments [output/provider-id-format]`,
    ]);
  });

  it("bootstrap/encoding gives up silently past its budget at 100,000 levels", () => {
    // var.bootstrap_data is base64: passed unchanged to a plain-text user_data it is wrong.
    const encoded = (n: number): string => `resource "aws_instance" "deep" {\n  ami       = "ami-1"\n  user_data = ${"tostring(".repeat(n)}var.bootstrap_data${")".repeat(n)}\n}\n`;
    expect(lintRule("machine", { "deep.tf": encoded(N) }, "bootstrap/encoding").lines).toEqual([]);
    // The same a few levels deep is reported: the budget, not the shape, silences it.
    expect(lintRule("machine", { "deep.tf": encoded(3) }, "bootstrap/encoding").lines).toHaveLength(1);
  });

  it("machine/lb-registration-ungated: a precondition 100,000 operators deep that refuses workers keeps it silent", () => {
    const attachment = 'resource "aws_lb_target_group_attachment" "api" {\n  target_group_arn = var.captf_cluster_outputs.api_target_group_arn\n  target_id        = "i-1"\n}\n';
    const guard = (condition: string): string =>
      `resource "terraform_data" "guard" {\n  lifecycle {\n    precondition {\n      condition     = ${condition}\n      error_message = "control planes only"\n    }\n  }\n}\n`;
    const rule = "machine/lb-registration-ungated";
    expect(lintRule("machine", { "lb.tf": attachment }, rule).lines).toEqual([
      "lb.tf:1:1: warning: aws_lb_target_group_attachment.api puts every machine of this module, workers included, into the backend group its target_group_arn names: it has no count or for_each; a worker in the API backend receives API traffic it cannot answer, so gate it: e.g. count = var.control_plane ? 1 : 0 [machine/lb-registration-ungated]",
    ]);
    // !!...!var.control_plane (an even number of !) is false for workers: the module refuses them.
    expect(lintRule("machine", { "lb.tf": attachment, "guard.tf": guard(`${"!".repeat(N)}var.control_plane`) }, rule).lines).toEqual([]);
    expect(lintRule("machine", { "lb.tf": attachment, "guard.tf": guard(`${"(".repeat(N)}var.control_plane == true${")".repeat(N)}`) }, rule).lines).toEqual([]);
  });

  it("pool/node-labels-restricted: labels through 100,000 nested fors are reported at the outermost; an if at the innermost filters them", () => {
    const files: Record<string, string> = {};
    const base = path.join(REPO, "examples", "machinepool-aws");
    for (const f of readdirSync(base)) files[f] = readFileSync(path.join(base, f), "utf8");
    const filter = `    if !can(regex("^(node-role\\\\.kubernetes\\\\.io|node-restriction\\\\.kubernetes\\\\.io)/", key))\n`;
    expect(files["userdata.tf"]).toContain(filter);
    const chain = (innermost: string): Record<string, string> => ({
      ...files,
      "userdata.tf": files["userdata.tf"]!.replace(
        `kubelet_node_labels = {\n    for key, value in var.node_labels : key => value\n${filter}  }`,
        `kubelet_node_labels = ${"{ for key, value in ".repeat(N)}{\n    for key, value in var.node_labels : key => value\n${innermost}  }${" : key => value }".repeat(N)}`,
      ),
    });
    const rule = "pool/node-labels-restricted";
    const { lines } = lintRule("machinepool", chain(""), rule);
    expect(lines).toEqual([
      `userdata.tf:10:25: warning: node_labels reach the kubelet's registration through aws_launch_template.node.user_data without a filter: a MachinePool label such as node-role.kubernetes.io/worker (any kubernetes.io or k8s.io prefix the NodeRestriction admission plugin reserves) makes the kubelet refuse to start, and the pool's instances never become Nodes; drop those keys, e.g. with if !can(regex("(^|\\\\.)(kubernetes|k8s)\\\\.io/", key)) in this for expression [${rule}]`,
    ]);
    expect(lintRule("machinepool", chain(filter), rule).lines).toEqual([]);
  });

  it("cluster/sg-control-plane-ports: an exported group 100,000 lists deep is past its budget: silent", () => {
    // The fixture's module (examples/cluster-aws with its edits): TCP 443 is closed.
    const caseDir = path.join(REPO, "fixtures", "cluster", "sg-control-plane-ports", "aws-backend-port-443-closed");
    const expected = JSON.parse(readFileSync(path.join(caseDir, "expected.json"), "utf8")) as {
      edits: { file: string; find: string; replace: string }[];
      findings: { file: string; line: number; column: number; message: string }[];
    };
    const files: Record<string, string> = {};
    const base = path.join(REPO, "examples", "cluster-aws");
    for (const f of readdirSync(base)) files[f] = readFileSync(path.join(base, f), "utf8");
    for (const e of expected.edits) files[e.file] = files[e.file]!.replace(e.find, e.replace);
    const exported = (n: number): Record<string, string> => ({
      ...files,
      "outputs.tf": files["outputs.tf"]!.replace("= aws_security_group.nodes.id", `= ${"[".repeat(n)}aws_security_group.nodes.id${"]".repeat(n)}`),
    });
    const rule = "cluster/sg-control-plane-ports";
    const [want] = expected.findings;
    expect(lintRule("cluster", exported(3), rule).lines).toEqual([`${want!.file}:${want!.line}:${want!.column}: warning: ${want!.message} [${rule}]`]);
    expect(lintRule("cluster", exported(N), rule).lines).toEqual([]);
  });

  it("bootstrap/encoding: locals that pick between the same local at every level (2^n branches) stay fast", () => {
    const chain = (n: number): string => {
      const lines = ["locals {"];
      for (let i = 0; i < n; i++) lines.push(`  a${i} = var.failure_domain == null ? local.a${i + 1} : local.a${i + 1}`);
      lines.push(`  a${n} = var.bootstrap_data`, "}", 'resource "aws_instance" "x" {', '  ami       = "ami-1"', "  user_data = local.a0", "}", "");
      return lines.join("\n");
    };
    const via = Array.from({ length: 21 }, (_, i) => `local.a${i}`).join(", ");
    expect(lintRule("machine", { "enc.tf": chain(20) }, "bootstrap/encoding").lines).toEqual([
      `enc.tf:26:15: error: aws_instance.x user_data takes plain text, but var.bootstrap_data is passed unchanged in one branch (via ${via}): the instance gets base64 text instead of its bootstrap payload and never joins; use base64decode(var.bootstrap_data) or the argument's base64 variant [bootstrap/encoding]`,
    ]);
    // 2^60 branches, each deeper than the budget: unknown, silent, at once.
    expect(lintRule("machine", { "enc.tf": chain(60) }, "bootstrap/encoding").lines).toEqual([]);
  });

  it("version/distro-suffix: a body that uses its variable twice at each of 100,000 nested fors", () => {
    const line = `    values = ${"[for v in ".repeat(N)}[var.kubernetes_version]${" : [v, v]]".repeat(N)}`;
    const data = `data "aws_ami" "node" {\n  owners = ["self"]\n  filter {\n    name = "name"\n${line}\n  }\n}\n`;
    expect(lintRule("machine", { "ami.tf": data }, "version/distro-suffix").lines).toEqual([
      `ami.tf:5:${col(line, "var.kubernetes_version")}: warning: var.kubernetes_version reaches data.aws_ami.node with any distro suffix (e.g. "v1.31.4+rke2r1"), which no image matches: look up split("+", var.kubernetes_version)[0] instead. [version/distro-suffix]`,
    ]);
  });

  describe("a chain of 100,000 locals (local.a0 = local.a1, ...)", () => {
    /** `locals { a0 = local.a1 ... a<N> = <end> }` followed by `use`; the use starts on line N + 4. */
    const chain = (end: string, use: string): string => {
      const lines = ["locals {"];
      for (let i = 0; i < N; i++) lines.push(`  a${i} = local.a${i + 1}`);
      lines.push(`  a${N} = ${end}`, "}", use);
      return lines.join("\n");
    };

    it("drift/non-idempotent: timestamp() at the end of the chain, reported where the chain is used", () => {
      const text = chain("timestamp()", 'resource "terraform_data" "x" {\n  input = local.a0\n}\n');
      expect(lintRule("machine", { "chain.tf": text }, "drift/non-idempotent").lines).toEqual([
        `chain.tf:${N + 5}:11: warning: timestamp() (through local.a0) gives terraform_data.x "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]`,
      ]);
    });

    it("output/exports-secret: a password at the end of the chain, every local named", () => {
      const text = chain("random_password.db.result", 'output "exports" {\n  value = { db = local.a0 }\n}\n');
      const via = Array.from({ length: N + 1 }, (_, i) => `local.a${i}`).join(", ");
      expect(lintRule("cluster", { "chain.tf": text }, "output/exports-secret").lines).toEqual([
        `chain.tf:${N + 5}:18: warning: exports publishes a secret: random_password.db.result via ${via} (random_password.result is a secret); exports is stored and copied in clear text, so pass only ids and names (e.g. a secret's ARN) and let nodes fetch the secret with their identity [output/exports-secret]`,
      ]);
    });

    it("version/distro-suffix: the version at the end of the chain reaches an image lookup", () => {
      const text = chain("var.kubernetes_version", 'data "aws_ami" "x" {\n  filter {\n    name   = "name"\n    values = [local.a0]\n  }\n}\n');
      expect(lintRule("machine", { "chain.tf": text }, "version/distro-suffix").lines).toEqual([
        `chain.tf:${N + 7}:15: warning: local.a0 (which holds var.kubernetes_version) reaches data.aws_ami.x with any distro suffix (e.g. "v1.31.4+rke2r1"), which no image matches: look up split("+", var.kubernetes_version)[0] instead. [version/distro-suffix]`,
      ]);
    });
  });

  it("JSON syntax: timestamp() in a string 100,000 arrays deep; a literal secret_key 100,000 objects deep in a provider", () => {
    const drift = `{"resource": {"terraform_data": {"deep": {"input": ${"[".repeat(N)}"\${timestamp()}"${"]".repeat(N)}}}}}`;
    expect(lintRule("machine", { "drift.tf.json": drift }, "drift/non-idempotent").lines).toEqual([
      `drift.tf.json:1:${col(drift, "timestamp")}: warning: timestamp() gives terraform_data.deep "input" a new value on every plan, so drift checks always fire: use a time_static resource instead, or add input to lifecycle ignore_changes. [drift/non-idempotent]`,
    ]);
    const provider = `{"provider": {"aws": {"region": "eu-west-1", "default_tags": ${'{"a": '.repeat(N)}{"secret_key": "AKIAEXAMPLE"}${"}".repeat(N)}}}}`;
    expect(lintRule("machine", { "provider.tf.json": provider }, "module/provider-config").lines).toEqual([
      `provider.tf.json:1:${col(provider, '"secret_key"')}: warning: Provider "aws" sets the credential "secret_key" to a literal string: remove it and let the provider read credentials from the identity the controller mounts. [module/provider-config]`,
    ]);
  });
});

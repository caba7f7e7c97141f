/**
 * The hop builders of src/analysis/paths.ts on a real module: each hop's
 * file, exact range (as line:column-line:column) and label, for locals,
 * variables, resource and module-call arguments, iteration and whole chains.
 */
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/terraform/load.js";
import { buildGraph } from "../../src/terraform/graph.js";
import type { Range } from "../../src/hcl/ast.js";
import { alternatives } from "../../src/analysis/values.js";
import {
  argumentHop,
  chainHops,
  forEachEntryHop,
  mapEntryHop,
  type Hop,
  iterationHop,
  joinHops,
  localHop,
  moduleArgumentHop,
  resourceHop,
  siteHops,
  variableHop,
} from "../../src/analysis/paths.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

const VARIABLES = `variable "bootstrap_data" {
  type      = string
  sensitive = true
}

variable "zones" {
  type = list(string)
}
`;

const MAIN = `locals {
  payload   = var.bootstrap_data
  user_data = base64decode(local.payload)
  nodes     = { for z in var.zones : z => { zone = z } }
}

resource "aws_launch_template" "pool" {
  user_data = base64encode(local.user_data)
  metadata_options {
    http_tokens = local.payload
  }
}

resource "aws_instance" "node" {
  for_each          = local.nodes
  availability_zone = each.value.zone
  user_data         = aws_launch_template.pool.user_data
}

module "child" {
  source = "./child"
  data   = aws_instance.node["a"].id
}

output "ids" {
  value = module.child.out
}
`;

const LB = `locals {
  api_ports = {
    kube_apiserver = 6443
    "supervisor"   = 9345
    supervisor     = 9346
  }
  listeners = (local.api_ports)
}

resource "aws_lb_listener" "api" {
  for_each = local.listeners
  port     = each.value
}

resource "aws_lb_listener" "inline" {
  for_each = { https = 443 }
  port     = each.value
}

resource "aws_lb_listener" "unknown" {
  for_each = var.zones
  port     = 80
}
`;

function load() {
  const root = tempDir();
  writeTree(root, {
    "m/variables.tf": VARIABLES,
    "m/main.tf": MAIN,
    "m/lb.tf": LB,
    "m/child/main.tf": 'variable "data" {}\noutput "out" {\n  value = var.data\n}\n',
  });
  const unit = loadModule(`${root}/m`).root;
  return { module: unit.expressions, graph: buildGraph(unit.expressions) };
}

const at = (r: Range): string => `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
const plain = (hops: readonly (Hop | null)[]): (string | null)[] => hops.map((h) => (h ? `${h.file.path} ${at(h.range)} ${h.message}` : null));

describe("analysis/paths", () => {
  it("points a local at its value and a variable at its declaration header", () => {
    const { module } = load();
    expect(plain([localHop(module, "local.user_data"), localHop(module, "payload"), localHop(module, "local.missing")])).toEqual([
      "main.tf 3:15-3:42 local.user_data",
      "main.tf 2:15-2:33 local.payload",
      null,
    ]);
    expect(plain([variableHop(module, "var.bootstrap_data"), variableHop(module, "zones"), variableHop(module, "var.nope")])).toEqual([
      "variables.tf 1:1-1:26 var.bootstrap_data (variable)",
      "variables.tf 6:1-6:17 var.zones (variable)",
      null,
    ]);
  });

  it("points at resource arguments, module-call arguments, iteration and headers", () => {
    const { module } = load();
    const tpl = module.resources.get("aws_launch_template.pool")!;
    const node = module.resources.get("aws_instance.node")!;
    const call = module.moduleCalls.get("child")!;
    const tokens = tpl.body.blocks[0]!.body.attributes[0]!;
    expect(
      plain([
        argumentHop(tpl, tpl.body.attributes[0]!),
        argumentHop(tpl, tokens, "metadata_options.http_tokens"),
        resourceHop(node),
        iterationHop(node, "for_each"),
        iterationHop(node, "count"),
        moduleArgumentHop(call, "data"),
        moduleArgumentHop(call, "nope"),
      ]),
    ).toEqual([
      "main.tf 8:15-8:44 aws_launch_template.pool.user_data",
      "main.tf 10:19-10:32 aws_launch_template.pool.metadata_options.http_tokens",
      'main.tf 14:1-14:31 aws_instance.node',
      "main.tf 15:23-15:34 aws_instance.node for_each",
      null,
      "main.tf 22:12-22:37 module.child.data",
      null,
    ]);
  });

  it("turns a dependency chain into the definitions it passed, in order", () => {
    const { module, graph } = load();
    const output = module.outputs.get("ids")!;
    const chain = graph.reaches(output.value!, "var.bootstrap_data", { throughResources: true });
    expect(chain!.map((s) => s.address)).toEqual([
      "module.child",
      "aws_instance.node",
      "aws_launch_template.pool",
      "local.payload",
      "var.bootstrap_data",
    ]);
    expect(plain(chainHops(module, chain))).toEqual([
      "main.tf 22:12-22:37 module.child.data",
      "main.tf 17:23-17:57 aws_instance.node.user_data",
      // The shortest chain: through the nested block's argument, not user_data.
      "main.tf 10:19-10:32 aws_launch_template.pool.metadata_options.http_tokens",
      "main.tf 2:15-2:33 local.payload",
      "variables.tf 1:1-1:26 var.bootstrap_data (variable)",
    ]);
    expect(chainHops(module, null)).toEqual([]);
  });

  it("follows each.value to the for_each of the resource it is in, and ends on a header", () => {
    const { module, graph } = load();
    const node = module.resources.get("aws_instance.node")!;
    const zone = node.body.attributes.find((a) => a.name === "availability_zone")!;
    const chain = graph.reaches(zone.expr, "each.value");
    expect(plain(chainHops(module, chain, node))).toEqual(["main.tf 15:23-15:34 aws_instance.node for_each"]);
    expect(plain(chainHops(module, chain))).toEqual([]);
    // A chain that stops at a resource (nothing of it followed) points at its header.
    const call = module.moduleCalls.get("child")!;
    const toNode = graph.reaches(call.args.get("data")!.expr, "aws_instance.node");
    expect(plain(chainHops(module, toNode))).toEqual(["main.tf 14:1-14:31 aws_instance.node"]);
  });

  it("gives the locals a values Site followed, and joins hop lists without repeats", () => {
    const { module } = load();
    const tpl = module.resources.get("aws_launch_template.pool")!;
    const tokens = tpl.body.blocks[0]!.body.attributes[0]!;
    const [alt] = alternatives(module, { expr: tokens.expr, file: tpl.file, via: [] });
    expect(alt!.via).toEqual(["local.payload"]);
    const hops = siteHops(module, alt!);
    expect(plain(hops)).toEqual(["main.tf 2:15-2:33 local.payload"]);
    // A site that kept a trail (the iteration analysis) gives its trail, each hop once.
    const entry = { file: tpl.file, range: tokens.expr.range, message: "entry" };
    expect(plain(siteHops(module, { via: ["local.payload"], trail: [entry, entry, hops[0]!] }))).toEqual(["main.tf 10:19-10:32 entry", "main.tf 2:15-2:33 local.payload"]);
    expect(plain(joinHops(hops, [null, localHop(module, "payload"), variableHop(module, "bootstrap_data")], hops))).toEqual([
      "main.tf 2:15-2:33 local.payload",
      "variables.tf 1:1-1:26 var.bootstrap_data (variable)",
    ]);
  });

  it("points at one entry of a local map and at the for_each entry of one instance", () => {
    const { module } = load();
    expect(plain([mapEntryHop(module, "local.api_ports", "kube_apiserver"), mapEntryHop(module, "api_ports", "supervisor"), mapEntryHop(module, "listeners", "supervisor"), mapEntryHop(module, "api_ports", "etcd"), mapEntryHop(module, "missing", "x")])).toEqual([
      'lb.tf 3:22-3:26 local.api_ports["kube_apiserver"]',
      // The later item with the same key wins.
      'lb.tf 5:22-5:26 local.api_ports["supervisor"]',
      'lb.tf 5:22-5:26 local.listeners["supervisor"]',
      null,
      null,
    ]);
    const entry = (address: string, key: string) => forEachEntryHop(module, module.resources.get(address)!, key);
    expect(plain([entry("aws_lb_listener.api", "kube_apiserver"), entry("aws_lb_listener.inline", "https"), entry("aws_lb_listener.unknown", "a"), entry("aws_instance.node", "a")])).toEqual([
      'lb.tf 3:22-3:26 aws_lb_listener.api["kube_apiserver"] (for_each entry)',
      'lb.tf 16:24-16:27 aws_lb_listener.inline["https"] (for_each entry)',
      null,
      null,
    ]);
  });
});

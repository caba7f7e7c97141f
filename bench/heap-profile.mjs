// Where the parser's heap goes, run by bench/scale.mjs in a fresh process
// (with --expose-gc). Reads the files named on stdin (one per line), keeps
// every STRIDE-th of them, and writes two V8 heap snapshots: one with their
// texts read, one with their syntax trees also held. It counts every object in
// each snapshot by kind (an AST node by its `kind` property, any other plain
// object by its property names: `{column,line,offset}` is a position,
// `{end,start}` a range; other things by V8's type and constructor name), and
// prints the difference — what the trees hold — as JSON on stdout.
//
//   node --expose-gc bench/heap-profile.mjs STRIDE OUTDIR < files
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeHeapSnapshot } from "node:v8";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { parseHcl } = await import(pathToFileURL(path.join(ROOT, "dist", "index.js")).href);
const stride = Math.max(1, Number(process.argv[2] ?? 1));
const outDir = process.argv[3] ?? path.join(ROOT, "bench", ".out");
const files = readFileSync(0, "utf8")
  .split("\n")
  .filter((l) => l !== "")
  .filter((_, i) => i % stride === 0);
const texts = files.map((f) => readFileSync(f, "utf8"));
const sourceBytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

/** Counts and self sizes of a heap snapshot's objects by kind. */
function summarise(file) {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const meta = snap.snapshot.meta;
  const nf = meta.node_fields;
  const ef = meta.edge_fields;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [nType, nName, nSize, nEdges] = ["type", "name", "self_size", "edge_count"].map((f) => nf.indexOf(f));
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => ef.indexOf(f));
  const propertyEdge = edgeTypes.indexOf("property");
  const objectType = nodeTypes.indexOf("object");
  const { nodes, edges, strings } = snap;
  const groups = new Map();
  let edge = 0;
  for (let i = 0; i < nodes.length; i += N) {
    const edgeCount = nodes[i + nEdges];
    const type = nodeTypes[nodes[i + nType]];
    let key;
    if (nodes[i + nType] === objectType && strings[nodes[i + nName]] === "Object") {
      let kind;
      const props = [];
      for (let e = edge; e < edge + edgeCount * E; e += E) {
        if (edges[e + eType] !== propertyEdge) continue;
        const name = strings[edges[e + eName]];
        if (name === "kind") kind = strings[nodes[edges[e + eTo] + nName]];
        else if (name !== "__proto__") props.push(name);
      }
      // Small-integer fields are stored in the object itself and have no edge:
      // an object with none but numbers is, in this AST, a position {line, column, offset}.
      if (kind !== undefined) key = `AST node ${kind}`;
      else if (props.length === 0) key = "Object of numbers only (a position {line,column,offset})";
      else key = `Object {${props.sort().slice(0, 6).join(",")}${props.length > 6 ? ",…" : ""}}`;
    } else if (type === "object") key = `${strings[nodes[i + nName]]}`;
    else if (type === "string" || type === "concatenated string" || type === "sliced string" || type === "number" || type === "hidden") key = `(${type})`;
    else key = `(${type}) ${String(strings[nodes[i + nName]]).slice(0, 40)}`;
    const g = groups.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += nodes[i + nSize];
    groups.set(key, g);
    edge += edgeCount * E;
  }
  return groups;
}

globalThis.gc?.();
const before = path.join(outDir, "parse-before.heapsnapshot");
const after = path.join(outDir, "parse-after.heapsnapshot");
writeHeapSnapshot(before);
let trees = texts.map((t, k) => parseHcl(t, files[k]));
globalThis.gc?.();
writeHeapSnapshot(after);
const held = trees.length;
trees = null;
globalThis.gc?.();

const a = summarise(before);
const b = summarise(after);
rmSync(before, { force: true });
rmSync(after, { force: true });
const diff = [];
let objects = 0;
let bytes = 0;
for (const [key, g] of b) {
  const base = a.get(key) ?? { count: 0, bytes: 0 };
  const d = { kind: key, count: g.count - base.count, bytes: g.bytes - base.bytes };
  if (d.count <= 0 && d.bytes <= 0) continue;
  diff.push(d);
  objects += Math.max(0, d.count);
  bytes += Math.max(0, d.bytes);
}
diff.sort((x, y) => y.bytes - x.bytes);
process.stdout.write(JSON.stringify({ files: held, sourceBytes, objects, bytes, kinds: diff.slice(0, 25) }) + "\n");

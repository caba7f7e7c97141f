/**
 * Finding obviously secret values an expression reads, for
 * output/exports-secret: attribute accesses (`random_password.db.result`,
 * `tls_private_key.ca.private_key_pem`, `module.db.admin_password`,
 * `var.api_token`...) collected with their full attribute path, also
 * through `[*]` splats, `[0]` indexes and `f(x).attr` traversals.
 */
import { fileOf } from "../../src/terraform/module-builder.js";
import type { Expression, ObjectConsItem, Range, ScopeTraversal, Traverser } from "../../src/hcl/ast.js";
import { children, constantValue, objectKeyName, unwrap, walkExpression } from "../../src/hcl/walk.js";
import { defineRule } from "../../src/lint/types.js";
import type { Module } from "../../src/terraform/module-types.js";
import { endsValue } from "../../src/analysis/functions.js";

/** One access: the root reference and every attribute/key name applied to it. */
export interface Access {
  root: ScopeTraversal;
  /** The outermost expression of the access (`one(x[*].y)`'s `x[*].y`); set by `accesses`. */
  expr?: Expression;
  /** `random_password`, `db`, `result` for `random_password.db[0].result`. */
  names: string[];
}

function stepNames(steps: readonly Traverser[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    if (s.kind === "TraverseRoot" || s.kind === "TraverseAttr") out.push(s.name);
    else if (s.kind === "TraverseIndex" && typeof s.key === "string") out.push(s.key);
  }
  return out;
}

/**
 * The chain of traversals under `e` down to its base, outermost first, through
 * relative traversals, indexes and splats' sources (and parentheses when
 * `parens`), and the base it ends on.
 */
function spineOf(e: Expression, parens: boolean): { spine: Expression[]; base: Expression } {
  const spine: Expression[] = [];
  let x = e;
  for (;;) {
    if (x.kind === "RelativeTraversal" || x.kind === "Splat") {
      spine.push(x);
      x = x.source;
    } else if (x.kind === "Index") {
      spine.push(x);
      x = x.collection;
    } else if (x.kind === "Parentheses" && parens) {
      spine.push(x);
      x = x.expr;
    } else return { spine, base: x };
  }
}

/**
 * Appends the names of one link of a chain (innermost first) to `out`:
 * a relative traversal's steps, an index's constant string key. A splat adds
 * nothing itself (its `each` names are the caller's).
 */
function linkNames(x: Expression, out: string[]): void {
  if (x.kind === "RelativeTraversal") {
    // One by one: a traversal may have more steps than a call takes arguments.
    for (const name of stepNames(x.traversal)) out.push(name);
  }
  else if (x.kind === "Index") {
    const k = constantValue(x.key);
    if (k.known && typeof k.value === "string") out.push(k.value);
  }
}

/**
 * Names applied to the anonymous splat item in a splat's `each` expression
 * (null when `each` is not a chain over the item), appended to `out`; true
 * when it is such a chain. A splat in the chain adds its own `each` names
 * after its source's (when they are a chain too). Splats nest through their
 * `each` (`x[*].y[*].z`): an explicit stack of chains, so any depth is read
 * on the main thread, each name appended once.
 */
function anonNames(each: Expression, out: string[]): boolean {
  const open = (e: Expression): { spine: Expression[]; next: number } | null => {
    const { spine, base } = spineOf(e, false);
    return base.kind === "AnonSymbol" ? { spine, next: spine.length - 1 } : null;
  };
  const first = open(each);
  if (!first) return false;
  const chains = [first];
  while (chains.length > 0) {
    const chain = chains[chains.length - 1]!;
    if (chain.next < 0) {
      chains.pop();
      continue;
    }
    const x = chain.spine[chain.next--]!;
    if (x.kind === "Splat") {
      // Its item's names come after its source's, before the links outside it.
      const inner = open(x.each);
      if (inner) chains.push(inner);
    } else linkNames(x, out);
  }
  return true;
}

/**
 * The access an expression is, when it is a chain of traversals over a
 * reference, and the chain's links under it (`below`: they are accesses to
 * the same reference, or none when `e` is none).
 */
function accessOf(e: Expression): { access: Access | null; below: Expression[] } {
  const { spine, base } = spineOf(e, true);
  const below = spine.slice(1);
  if (base.kind !== "ScopeTraversal") return { access: null, below: spine.length > 0 ? [...below, base] : below };
  const names = stepNames(base.traversal);
  for (let i = spine.length - 1; i >= 0; i--) {
    const x = spine[i]!;
    if (x.kind === "Splat") anonNames(x.each, names);
    else linkNames(x, names);
  }
  return { access: { root: base, names }, below: spine.length > 0 ? [...below, base] : below };
}


/**
 * Every access in `expr` with its longest attribute path, outermost first.
 * Names bound by `for` expressions are not references; arguments of
 * hashing functions and `length()` are skipped. Pre-order over an explicit
 * stack (children pushed in reverse), so any nesting depth is walked on the
 * main thread; the links under an access (same reference, shorter path) are
 * not read again, so a long chain (`x[0][0]...`) is read once.
 */
export function accesses(expr: Expression): Access[] {
  const found = new Map<ScopeTraversal, Access>();
  const read = new Set<Expression>();
  const pending: { e: Expression; bound: ReadonlySet<string> }[] = [{ e: expr, bound: new Set() }];
  while (pending.length > 0) {
    const { e, bound } = pending.pop()!;
    // A hash (or the length) of a secret no longer holds it in clear text.
    if (e.kind === "FunctionCall" && (endsValue(e) || e.name === "length")) continue;
    if (e.kind === "For") {
      const inner = new Set(bound);
      if (e.keyVar) inner.add(e.keyVar);
      inner.add(e.valVar);
      if (e.condition) pending.push({ e: e.condition, bound: inner });
      pending.push({ e: e.valExpr, bound: inner });
      if (e.keyExpr) pending.push({ e: e.keyExpr, bound: inner });
      pending.push({ e: e.collection, bound });
      continue;
    }
    if (!read.has(e)) {
      const { access: a, below } = accessOf(e);
      for (const x of below) read.add(x);
      if (a && !found.has(a.root)) {
        const root = a.root.traversal[0];
        if (root && root.kind === "TraverseRoot" && !bound.has(root.name)) found.set(a.root, { ...a, expr: e });
      }
    }
    const kids = children(e, false);
    for (let i = kids.length - 1; i >= 0; i--) pending.push({ e: kids[i]!, bound });
  }
  return [...found.values()];
}

/** Second-to-last tokens that make a trailing `key` a secret key (`access_key`, `api_key`; not `public_key`). */
const SECRET_KEY_QUALIFIERS = new Set([
  "private", "access", "secret", "api", "client", "primary", "secondary", "shared", "master",
  "account", "signing", "encryption", "auth", "admin", "storage", "sas",
]);
const SECRET_LAST = new Set(["password", "passwd", "passphrase", "secret", "token", "apikey", "credentials", "kubeconfig"]);
const SECRET_EXACT = new Set(["kube_config", "kube_config_raw", "kube_admin_config", "kube_admin_config_raw", "secret_string", "secret_binary"]);

/** Whether an attribute, variable, local or output name is named like a credential. */
export function isCredentialName(name: string): boolean {
  const n = name.toLowerCase();
  if (SECRET_EXACT.has(n)) return true;
  const tokens = n.split(/[_\-.]+/).filter((t) => t.length > 0);
  // A version suffix does not change what the value is (`ses_smtp_password_v4`).
  if (tokens.length > 1 && /^v\d+$/.test(tokens[tokens.length - 1]!)) tokens.pop();
  if (tokens.length === 0) return false;
  const last = tokens[tokens.length - 1]!;
  if (SECRET_LAST.has(last)) return true;
  if (tokens[0] === "private" && tokens[1] === "key") return true;
  if (tokens.length >= 2) {
    const prev = tokens[tokens.length - 2]!;
    if (last === "key" && SECRET_KEY_QUALIFIERS.has(prev)) return true;
    if (last === "string" && prev === "connection") return true;
  }
  return false;
}

/** Resource types whose values are secret, and the attribute that holds the secret (null: the whole object only). */
const SECRET_RESOURCE_ATTRS: Record<string, (attr: string) => boolean> = {
  random_password: (a) => a === "result",
  tls_private_key: (a) => a.startsWith("private_key"),
  kubernetes_secret: (a) => a === "data" || a === "binary_data",
  kubernetes_secret_v1: (a) => a === "data" || a === "binary_data",
};

export interface SecretHit {
  /** What is secret, as text: `random_password.db.result`, `var.api_token`. */
  text: string;
  why: string;
}

/**
 * Whether an access reads an obviously secret value. Locals are not judged
 * by their content here (the caller follows them); their names are.
 */
export function secretOf(module: Module, a: Access): SecretHit | null {
  const [root, ...rest] = a.names;
  if (root === undefined) return null;
  const credentialIn = (names: readonly string[]): string | undefined => names.find((n) => isCredentialName(n));
  switch (root) {
    case "var": {
      const name = rest[0];
      if (name === undefined) return null;
      const v = module.variables.get(name);
      const hit = credentialIn(rest);
      if (hit !== undefined) return { text: `var.${rest.join(".")}`, why: `"${hit}" is named like a credential` };
      if (v?.sensitive) return { text: `var.${name}`, why: "the variable is declared sensitive" };
      return null;
    }
    case "local": {
      const hit = credentialIn(rest);
      return hit !== undefined ? { text: `local.${rest.join(".")}`, why: `"${hit}" is named like a credential` } : null;
    }
    case "module": {
      const hit = credentialIn(rest.slice(1));
      return hit !== undefined ? { text: `module.${rest.join(".")}`, why: `"${hit}" is named like a credential` } : null;
    }
    case "each":
    case "count":
    case "self":
    case "path":
    case "terraform":
      return null;
    default: {
      const isData = root === "data";
      const type = isData ? rest[0] : root;
      const attrs = isData ? rest.slice(2) : rest.slice(1);
      if (type === undefined || (isData ? rest.length < 2 : rest.length < 1)) return null;
      const address = isData ? `data.${rest[0]}.${rest[1]}` : `${root}.${rest[0]}`;
      const text = [address, ...attrs].join(".");
      const secretAttr = SECRET_RESOURCE_ATTRS[type];
      if (secretAttr) {
        if (attrs.length === 0) return { text: address, why: `the whole ${type} object includes its secret` };
        if (secretAttr(attrs[0]!)) return { text, why: `${type}.${attrs[0]} is a secret` };
      }
      const hit = credentialIn(attrs);
      return hit !== undefined ? { text, why: `"${hit}" is named like a credential` } : null;
    }
  }
}

interface Hit extends SecretHit {
  /** Locals passed through from the exports value to the secret. */
  via: string[];
}

/** Secrets `expr` reads, directly and through locals (each local visited once). */
function secretsIn(module: Module, expr: Expression): { range: Range; hits: Hit[] }[] {
  const out: { range: Range; hits: Hit[] }[] = [];
  const seenLocals = new Set<string>();
  for (const first of accesses(expr)) {
    const hits: Hit[] = [];
    // The locals passed through, as links to the previous one (a long chain is not copied per local).
    const queue: { access: typeof first; via: Via | null }[] = [{ access: first, via: null }];
    for (let next = 0; next < queue.length; next++) {
      const { access, via } = queue[next]!;
      const hit = secretOf(module, access);
      if (hit) {
        hits.push({ ...hit, via: viaNames(via) });
        continue;
      }
      if (access.names[0] !== "local" || access.names.length < 2) continue;
      const name = access.names[1]!;
      const local = module.locals.get(name);
      if (!local || seenLocals.has(name)) continue;
      seenLocals.add(name);
      const through: Via = { name: `local.${name}`, prev: via };
      for (const more of accesses(local.value)) queue.push({ access: more, via: through });
    }
    if (hits.length > 0) out.push({ range: (first.expr ?? first.root).range, hits });
  }
  return out;
}

/** A local passed through, and the one before it. */
interface Via {
  name: string;
  prev: Via | null;
}

function viaNames(via: Via | null): string[] {
  const names: string[] = [];
  for (let v = via; v !== null; v = v.prev) names.push(v.name);
  return names.reverse();
}

function within(inner: Range, outer: Range): boolean {
  return inner.start.offset >= outer.start.offset && inner.end.offset <= outer.end.offset;
}

/**
 * Attributes of objects written in the exports value whose key is named
 * like a credential and whose value is not null or "" (a literal password
 * is as public as a referenced one). Items whose value already holds a
 * reported reference are skipped.
 */
function credentialKeys(expr: Expression, reported: readonly Range[]): ObjectConsItem[] {
  const out: ObjectConsItem[] = [];
  walkExpression(expr, (e) => {
    if (e.kind !== "ObjectCons") return;
    for (const item of e.items) {
      const name = objectKeyName(item);
      if (name === null || !isCredentialName(name)) continue;
      // An object or a list is never null or "" (and folding it here would fold a deep value once per level).
      const kind = unwrap(item.value).kind;
      const c = kind === "ObjectCons" || kind === "TupleCons" ? null : constantValue(item.value);
      if (c?.known && (c.value === null || c.value === "")) continue;
      if (reported.some((r) => within(r, item.value.range))) continue;
      out.push(item);
    }
  });
  return out;
}

function describe(hit: Hit): string {
  const via = hit.via.length > 0 ? ` via ${hit.via.join(", ")}` : "";
  return `${hit.text}${via} (${hit.why})`;
}

export default defineRule({
  id: "output/exports-secret",
  provenance: "contract-depth",
  severity: "warning",
  roles: ["cluster"],
  summary: "exports carries no secrets and is not marked sensitive",
  scope: "root",
  fixable: false,
  tags: ["contract", "outputs", "security"],
  check(ctx) {
    const output = ctx.expressions.outputs.get("exports");
    if (!output) return;
    if (output.sensitive && output.sensitiveAttr) {
      ctx.report({
        file: fileOf(output, output.sensitiveAttr).path,
        range: output.sensitiveAttr.range,
        message:
          "exports is marked sensitive; it is stored in cluster state and copied into every machine and pool module in clear text anyway, so keep secrets out of it (hand them to nodes through the identity or a secret store) and drop sensitive = true",
      });
    }
    if (!output.value || !output.valueAttr) return;
    const file = fileOf(output, output.valueAttr);
    const found = secretsIn(ctx.expressions, output.value);
    for (const item of credentialKeys(output.value, found.map((f) => f.range))) {
      ctx.report({
        file: file.path,
        range: item.key.range,
        message: `exports publishes "${objectKeyName(item)}", named like a credential; exports is stored and copied in clear text, so publish where the secret lives (e.g. a secret's ARN) instead and let nodes fetch it with their identity`,
      });
    }
    for (const { range, hits } of found) {
      const shown = hits.slice(0, 3).map(describe).join("; ");
      const more = hits.length > 3 ? `; and ${hits.length - 3} more` : "";
      ctx.report({
        file: file.path,
        range,
        message: `exports publishes a secret: ${shown}${more}; exports is stored and copied in clear text, so pass only ids and names (e.g. a secret's ARN) and let nodes fetch the secret with their identity`,
      });
    }
  },
});

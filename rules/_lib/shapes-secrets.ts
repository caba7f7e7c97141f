/**
 * Finding obviously secret values an expression reads, for
 * output/exports-secret: attribute accesses (`random_password.db.result`,
 * `tls_private_key.ca.private_key_pem`, `module.db.admin_password`,
 * `var.api_token`...) collected with their full attribute path, also
 * through `[*]` splats, `[0]` indexes and `f(x).attr` traversals.
 */
import type { Expression, ScopeTraversal, Traverser } from "../../src/hcl/ast.js";
import { children, constantValue } from "../../src/hcl/walk.js";
import type { Module } from "../../src/terraform/model.js";

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

/** Names applied to the anonymous splat item in a splat's `each` expression. */
function anonNames(e: Expression): string[] | null {
  switch (e.kind) {
    case "AnonSymbol":
      return [];
    case "RelativeTraversal": {
      const base = anonNames(e.source);
      return base ? [...base, ...stepNames(e.traversal)] : null;
    }
    case "Index": {
      const base = anonNames(e.collection);
      if (!base) return null;
      const k = constantValue(e.key);
      return k.known && typeof k.value === "string" ? [...base, k.value] : base;
    }
    case "Splat": {
      const base = anonNames(e.source);
      const each = anonNames(e.each);
      return base && each ? [...base, ...each] : base;
    }
    default:
      return null;
  }
}

/** The access an expression is, when it is a chain of traversals over a reference. */
function accessOf(e: Expression): Access | null {
  switch (e.kind) {
    case "ScopeTraversal":
      return { root: e, names: stepNames(e.traversal) };
    case "Parentheses":
      return accessOf(e.expr);
    case "RelativeTraversal": {
      const base = accessOf(e.source);
      return base ? { root: base.root, names: [...base.names, ...stepNames(e.traversal)] } : null;
    }
    case "Index": {
      const base = accessOf(e.collection);
      if (!base) return null;
      const k = constantValue(e.key);
      return k.known && typeof k.value === "string" ? { root: base.root, names: [...base.names, k.value] } : base;
    }
    case "Splat": {
      const base = accessOf(e.source);
      if (!base) return null;
      const each = anonNames(e.each);
      return { root: base.root, names: each ? [...base.names, ...each] : base.names };
    }
    default:
      return null;
  }
}

/** Calls whose result no longer holds the secret in clear text. */
const ONE_WAY = new Set(["md5", "sha1", "sha256", "sha512", "base64sha256", "base64sha512", "bcrypt", "length", "filesha256", "uuidv5"]);

/**
 * Every access in `expr` with its longest attribute path, outermost first.
 * Names bound by `for` expressions are not references; arguments of
 * hashing functions and `length()` are skipped.
 */
export function accesses(expr: Expression): Access[] {
  const found = new Map<ScopeTraversal, Access>();
  const visit = (e: Expression, bound: ReadonlySet<string>): void => {
    if (e.kind === "FunctionCall" && ONE_WAY.has(e.name)) return;
    if (e.kind === "For") {
      visit(e.collection, bound);
      const inner = new Set(bound);
      if (e.keyVar) inner.add(e.keyVar);
      inner.add(e.valVar);
      if (e.keyExpr) visit(e.keyExpr, inner);
      visit(e.valExpr, inner);
      if (e.condition) visit(e.condition, inner);
      return;
    }
    const a = accessOf(e);
    if (a && !found.has(a.root)) {
      const root = a.root.traversal[0];
      if (root && root.kind === "TraverseRoot" && !bound.has(root.name)) found.set(a.root, { ...a, expr: e });
    }
    for (const c of children(e, false)) visit(c, bound);
  };
  visit(expr, new Set());
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

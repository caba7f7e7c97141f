/**
 * What Terraform's functions do to the values of their arguments, for every
 * analysis that follows a value (is this the version? the bootstrap data?).
 *
 * - A value-ending function (a hash, a digest, a derived UUID) returns
 *   something that is no longer its argument in any form: the argument's
 *   identity ends there.
 * - A transformation acts on one argument (`replace(s, from, to)` acts on
 *   `s`); its other arguments either land in the result unchanged (`to`)
 *   or are only consulted (`from`). What the function does to its input
 *   (strips, sorts, encodes) counts only for the argument it transforms.
 */
import type { Expression, FunctionCall } from "../hcl/ast.js";

/** Hashes and digests: the result tells nothing of the argument's value. */
export const VALUE_ENDING_FUNCTIONS: ReadonlySet<string> = new Set([
  "sha1",
  "sha256",
  "sha512",
  "md5",
  "base64sha256",
  "base64sha512",
  "uuidv5",
  "bcrypt",
  "filesha1",
  "filesha256",
  "filesha512",
  "filemd5",
  "filebase64sha256",
  "filebase64sha512",
]);

/** Does this call end the identity of whatever its arguments hold? */
export function endsValue(call: FunctionCall): boolean {
  return VALUE_ENDING_FUNCTIONS.has(call.name);
}

/**
 * For a transforming function: the argument it transforms and the arguments
 * whose value is put into the result as they are. Arguments in neither list
 * are only consulted (a pattern, a prefix to remove, a separator to split on).
 */
interface ArgumentRoles {
  transforms: number;
  inserts: readonly number[];
}

const TRANSFORMS: Readonly<Record<string, ArgumentRoles>> = {
  replace: { transforms: 0, inserts: [2] },
  regex: { transforms: 1, inserts: [] },
  regexall: { transforms: 1, inserts: [] },
  trimprefix: { transforms: 0, inserts: [] },
  trimsuffix: { transforms: 0, inserts: [] },
  trim: { transforms: 0, inserts: [] },
  trimspace: { transforms: 0, inserts: [] },
  split: { transforms: 1, inserts: [] },
  substr: { transforms: 0, inserts: [] },
  lower: { transforms: 0, inserts: [] },
  upper: { transforms: 0, inserts: [] },
  title: { transforms: 0, inserts: [] },
  sort: { transforms: 0, inserts: [] },
  reverse: { transforms: 0, inserts: [] },
  distinct: { transforms: 0, inserts: [] },
  base64encode: { transforms: 0, inserts: [] },
  base64gzip: { transforms: 0, inserts: [] },
  base64decode: { transforms: 0, inserts: [] },
  urlencode: { transforms: 0, inserts: [] },
  jsonencode: { transforms: 0, inserts: [] },
  yamlencode: { transforms: 0, inserts: [] },
  textencodebase64: { transforms: 0, inserts: [] },
};

/** The argument `call` transforms, when it is a known transformation. */
export function transformedArgument(call: FunctionCall): Expression | null {
  const roles = TRANSFORMS[call.name];
  return roles && !call.expandFinal ? (call.args[roles.transforms] ?? null) : null;
}

/**
 * The arguments whose value reaches the result of `call`: none for a
 * value-ending function; for a known transformation, the transformed
 * argument (unless `exceptTransformed`) and the inserted ones; for any
 * other function, every argument.
 */
export function argumentsInResult(call: FunctionCall, exceptTransformed = false): Expression[] {
  if (endsValue(call)) return [];
  const roles = TRANSFORMS[call.name];
  if (!roles || call.expandFinal) return call.args.slice();
  const out: Expression[] = [];
  call.args.forEach((a, i) => {
    if ((i === roles.transforms && !exceptTransformed) || roles.inserts.includes(i)) out.push(a);
  });
  return out;
}

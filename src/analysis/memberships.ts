/**
 * The backend memberships a module declares, read through the knowledge
 * base (src/contract/cloud/memberships.ts): each membership resource with
 * the attributes that name its group and its member. Also what a stub
 * module is (only bookkeeping resources).
 */
import type { Attribute } from "../hcl/ast.js";
import type { Module, Resource } from "../terraform/module-types.js";
import { membershipType, type MembershipKind, type MembershipType } from "../contract/cloud/memberships.js";
import { attributesAt } from "./attributes.js";

export interface Membership {
  resource: Resource;
  row: MembershipType;
  /** The attributes naming the group, in the row's order (first: the group's id or name). */
  group: Attribute[];
  /** The attributes naming the member. */
  member: Attribute[];
}

/** Every managed resource of `module` that is a membership of one of `kinds` (default: every kind). */
export function membershipsOf(module: Module, kinds?: readonly MembershipKind[]): Membership[] {
  const out: Membership[] = [];
  for (const resource of module.resources.values()) {
    const row = membershipType(resource.type);
    if (!row || (kinds && !kinds.includes(row.kind))) continue;
    out.push({
      resource,
      row,
      group: row.group.flatMap((path) => attributesAt(resource.body, path)),
      member: row.member.flatMap((path) => attributesAt(resource.body, path)),
    });
  }
  return out;
}

const BOOKKEEPING = /^(terraform_data$|null_|random_|time_)/;

/** A stub module: no managed resource beyond bookkeeping ones (`terraform_data`, `null_*`, `random_*`, `time_*`). */
export function isStubModule(module: Module): boolean {
  for (const r of module.resources.values()) if (!BOOKKEEPING.test(r.type)) return false;
  return true;
}

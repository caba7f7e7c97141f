/**
 * Propagating a property through `local` values: a local has it when its
 * value has it directly, or mentions (in a relevant position) a local that
 * has it. Computed by a breadth-first walk over reverse edges, so long
 * chains and cycles cost linear time.
 */
import type { Local, Module } from "../terraform/module-types.js";

export interface LocalFacts {
  /** The value has the property by itself. */
  direct: boolean;
  /** Locals whose property would flow into this one. */
  refs: string[];
}

export function propagateThroughLocals(mod: Module, facts: (local: Local) => LocalFacts): Set<string> {
  const readers = new Map<string, string[]>();
  const result = new Set<string>();
  const queue: string[] = [];
  for (const local of mod.locals.values()) {
    const f = facts(local);
    if (f.direct) {
      result.add(local.name);
      queue.push(local.name);
    }
    for (const ref of f.refs) {
      const list = readers.get(ref);
      if (list) list.push(local.name);
      else readers.set(ref, [local.name]);
    }
  }
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const reader of readers.get(name) ?? []) {
      if (result.has(reader)) continue;
      result.add(reader);
      queue.push(reader);
    }
  }
  return result;
}

/**
 * Every local, each after the locals it mentions (cycles, which Terraform
 * rejects, are broken arbitrarily). Iterative, so a chain of thousands of
 * locals does not exhaust the call stack.
 */
export function localsInDependencyOrder(mod: Module, depsOf: (local: Local) => string[]): string[] {
  const order: string[] = [];
  const state = new Map<string, "active" | "done">();
  for (const start of mod.locals.keys()) {
    if (state.has(start)) continue;
    const stack: { name: string; deps: string[]; next: number }[] = [];
    const enter = (name: string): void => {
      const local = mod.locals.get(name);
      state.set(name, "active");
      stack.push({ name, deps: local ? depsOf(local) : [], next: 0 });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.deps.length) {
        const dep = top.deps[top.next++]!;
        if (!state.has(dep) && mod.locals.has(dep)) enter(dep);
        continue;
      }
      stack.pop();
      state.set(top.name, "done");
      order.push(top.name);
    }
  }
  return order;
}

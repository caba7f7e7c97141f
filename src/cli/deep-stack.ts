/**
 * Modules nested deeper than the main thread's stack allows.
 *
 * The parser, the tree walkers and the rules recurse once or more per level
 * of nesting, and Node's main thread has under 1 MB of stack: there the
 * parser stops at MAX_DEPTH (256) levels. Terraform has no such limit, so
 * a module whose parse stops there is linted again, from scratch, on a worker
 * thread with a stack of DEEP_STACK_MB and a limit of DEEP_NESTING_LIMIT
 * levels (the module lint: worker-pool.ts; `schema`: schema.ts; `image`:
 * image-command.ts). Measured through the whole CLI (parser, module model,
 * graph, every rule, formatters) at 4,990 levels of each kind of nesting:
 * 4 MB of stack is not enough for objects and `for` expressions, 8 MB is for
 * all of them; 64 MB leaves a wide margin (the stack is reserved, not used,
 * until needed). Beyond the limit the clear "Nesting too deep" error stays.
 */

/** Nesting levels a module may reach on the worker's stack. */
export const DEEP_NESTING_LIMIT = 5000;
/** The worker thread's stack. */
export const DEEP_STACK_MB = 64;

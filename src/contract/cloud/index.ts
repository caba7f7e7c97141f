/**
 * The cloud knowledge base: per cloud and resource type, as table rows that
 * rules query (load balancers and what hangs off them, backend memberships,
 * compute instances and their providerID formats, security-group rules).
 */
export * from "./load-balancers.js";
export * from "./memberships.js";
export * from "./instances.js";
export * from "./security-groups.js";

/**
 * The contract data types (implemented as data in roles.ts).
 */
export type Role = "cluster" | "machine" | "machinepool";
export const ROLES: readonly Role[] = ["cluster", "machine", "machinepool"];

export interface InputSpec {
  name: string;
  /** The contract type as Terraform type-constraint text, e.g. `map(string)`. */
  type: string;
  /** Nullable inputs may have any default. */
  nullable: boolean;
  /** Must be declared `sensitive = true`. */
  sensitive: boolean;
  /** A default is allowed (captf_cluster_outputs). */
  defaultAllowed: boolean;
}

export interface Contract {
  version: "v1alpha1";
  /** Contract inputs per role, in contract order. */
  inputs: Record<Role, InputSpec[]>;
  /** Required outputs per role. */
  outputs: Record<Role, string[]>;
  /** The health state enum, in schema order. */
  healthStates: readonly string[];
  addressTypes: readonly string[];
  reservedPrefix: "captf_";
  /** Module meta-argument names the controller rejects as variable names. */
  reservedVariableNames: readonly string[];
}

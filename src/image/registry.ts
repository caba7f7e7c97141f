/**
 * PLACEHOLDER (helper h-image): helper h-registry writes the registry client
 * under this path with this signature; the lead keeps h-registry's file.
 * Until then a registry reference cannot be read.
 */
import { ImageReadError, type ImageSource } from "./source.js";

export interface RegistryOptions {
  insecure: boolean;
  env: NodeJS.ProcessEnv;
  onProgress?: (done: number, total: number, digest: string) => void;
}

export async function openRegistrySource(ref: string, _opts: RegistryOptions): Promise<ImageSource> {
  throw new ImageReadError(`registry references are not supported by this build (${ref}); use oci:DIR`);
}

/**
 * What every command works with: its input and output (`Io`, so that tests
 * can capture them), the exit codes, and node:os when it is needed.
 */
import { createRequire } from "node:module";

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The --stdin text; bytes are checked like a module file's (binary, not UTF-8). */
  readStdin(): Promise<string | Uint8Array>;
  env: Record<string, string | undefined>;
  cwd: string;
  isTTY: boolean;
  /** Whether stderr is a terminal (image pull progress); looked up when absent. */
  stderrIsTTY?: boolean;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_READ = 2;
export const EXIT_USAGE = 3;

/** node:os, loaded only when needed (it costs start-up time): HOME unset, or several modules for --jobs. */
export function nodeOs(): typeof import("node:os") {
  return createRequire(import.meta.url)("node:os") as typeof import("node:os");
}

/** Read a whole stream (stdin) as bytes (decoded like a module file). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export declare const SECTIONS: string[];
export declare class BenchUsageError extends Error {}
export declare function parseBenchArgs(
  argv: string[],
  cwd?: string,
): { quick: boolean; runs: number; write: boolean; coldOnly: boolean; corpora: string[]; only: string[] | null };

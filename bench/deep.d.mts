export declare const DEEP_LEVELS: number;
export declare function deepLocals(n: number): string;
export declare function deepBlocks(n: number): string;
export declare function deepCall(n: number): string;
export declare function deepFiles(n?: number): Record<string, string>;

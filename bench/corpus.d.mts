export declare const CORPUS_VERSION: number;
export declare function generateCorpus(outDir: string): { files: number; bytes: number; modules: number };

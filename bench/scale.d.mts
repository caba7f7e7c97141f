export interface ScaleSection {
  id: string;
  markdown: string;
}
export declare const BEGIN: string;
export declare const END: string;
export declare const SCALE_TARGETS: { parserMBs: number; heapPerByte: number; bigFileS: number; bigFileRssMB: number };
export declare function corpusFiles(dir: string, out?: string[]): string[];
export declare function renderScaleSections(sections: ScaleSection[]): string;
export declare function writeScaleSections(resultsPath: string, sections: ScaleSection[]): void;
export declare const IN_THE_WAY: string;

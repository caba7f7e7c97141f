/** One finding as fixture `expected.json` files write it. */
export interface ExpectedFinding {
  ruleId: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message?: string;
}

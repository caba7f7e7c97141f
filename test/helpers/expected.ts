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
  /**
   * The finding's path (Finding.related), compared when given: `[]` says
   * the finding has none; leaving it out does not compare it.
   */
  related?: { file: string; line: number; column: number; message: string }[];
}

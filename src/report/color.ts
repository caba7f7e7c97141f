/**
 * Whether a report goes out in colour: an explicit `--color`/`--no-color`
 * wins; a report written to a file never is; then NO_COLOR (set and not
 * empty: no) and FORCE_COLOR (set and not "0": yes); else only on a
 * terminal. Shared by the module lint and the image command.
 */
export function useColor(
  choice: { color?: boolean; outputFile?: string },
  io: { env: Record<string, string | undefined>; isTTY: boolean },
): boolean {
  if (choice.color !== undefined) return choice.color;
  if (choice.outputFile) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "") return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== "0") return true;
  return io.isTTY;
}

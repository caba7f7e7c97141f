/**
 * Text layout for fix edits (indentation, line endings), used by the fix
 * builders in this folder. Every other expression helper lives in
 * src/hcl/ (syntax) and src/analysis/ (Terraform meaning).
 */

/** The whitespace that starts the line containing `offset`. */
export function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart));
  return m ? m[0] : "";
}

/** The line ending the file uses (CRLF when its first line break is one). */
export function newlineOf(text: string): string {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** Two extra spaces per level, as `terraform fmt` writes. */
export const INDENT_UNIT = "  ";

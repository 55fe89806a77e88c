/**
 * A word for a POSIX shell that stands for exactly `text`: single quotes, in which nothing is
 * special, and `'\''` for a quote inside. Newlines, `$(…)`, backquotes and globs stay literal.
 * A NUL cannot be in a shell word at all, so it is refused.
 */
export function shellQuote(text: string): string {
  if (text.includes('\0')) throw new Error('a NUL byte cannot be quoted for the shell');
  if (/^[A-Za-z0-9_./:=+,@%-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

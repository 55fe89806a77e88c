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

/**
 * Text safe to put after `#` in a script or Dockerfile: one line of printable characters (a
 * newline in a comment would end it and start a command).
 */
export function commentText(text: string, max = 200): string {
  const oneLine = text.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…`.replace(/[^\x20-\x7e]/g, '') : oneLine;
}
